import Foundation
import Generation
@testable import Reporting
import Strategies
import Workloads
import XCTest

final class ResultsJSONTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    func result(_ strategy: String, _ workload: String = "fetch-page", variant: String = "", samples: [UInt64],
                sweep: (String, String) = ("", "")) -> WorkloadResult {
        WorkloadResult(strategy: strategy, workload: workload, variant: variant, rows: 50, samples: samples, warmups: 2,
                       digest: AnswerDigest(.ordered, of: [1, 2, 3]), dbBytes: 81_920,
                       setting: ResultSetting(hierarchy: "publications", scale: 1_000, sweepParameter: sweep.0, sweepValue: sweep.1))
    }

    func context(dirty: Bool? = true, memory: UInt64 = UInt64.max) -> RunContext {
        RunContext(runID: "r1", timestamp: "2026-11-22T00:00:00Z", gitCommit: "abc", gitDirty: dirty, sqliteVersion: "3.40.1",
                   sqliteOptions: "THREADSAFE=1", swiftVersion: "6.3", build: "release", host: "h \"q\", /slash", os: "Debian",
                   kernel: "Linux 6.1", cpuModel: "CPU", cpuCores: 2, memoryBytes: memory, journalMode: "wal",
                   synchronous: "NORMAL", pageSize: 4096, cacheSize: -2000, temporaryFolder: "/tmp/x")
    }

    func testWriteThenReadGivesTheSameDocument() throws {
        let plan = RunPlan(strategies: [SingleTable.self, Joined.self], workloads: [Workloads.named("fetch-page")!], seed: UInt64.max, batchSize: 10,
                           timeBudget: 0.5)
        var results = [result("single-table", samples: [1_000, 1_500, 900, 1_100, 1_050, 1_020, 990]),
                       result("joined", samples: [2_000, 2_100, 1_900, 2_050, 2_200, 1_990, UInt64(1) << 60])]
        results[0].loops = 37
        let document = ResultsJSON(results: results, plan: plan, context: context(), csvName: "run.csv")
        let url = folder.appendingPathComponent("run.json")
        try AtomicFile.write(try document.text(), to: url)
        let read = try ResultsJSON.read(url: url)
        XCTAssertEqual(read, document)
        XCTAssertEqual(read.schema, "inheritance-bench.results")
        XCTAssertEqual(read.version, 4)
        XCTAssertEqual(read.plan.seed, UInt64.max, "64-bit seeds survive")
        XCTAssertEqual(read.context.memoryBytes, UInt64.max)
        XCTAssertEqual(read.plan.timeBudgetS, 0.5)
        XCTAssertNil(read.plan.workloads[0].repetitions, "a time budget fixes no count")
        XCTAssertEqual(read.results[1].samplesNs.last, UInt64(1) << 60, "samples are exact, in order")
        XCTAssertEqual(read.results[0].samplesNs, [1_000, 1_500, 900, 1_100, 1_050, 1_020, 990])

        // Every statistic equals the CSV's (as the CSV formats it).
        let csv = try CSV.parse(ResultsCSV.header + ResultsCSV.row(results[0], plan: plan, context: context()))
        let row = Dictionary(uniqueKeysWithValues: zip(csv[0], csv[1]))
        let json = read.results[0]
        for (column, value) in [("median_ns", json.medianNs), ("ci_low_ns", json.ciLowNs), ("ci_high_ns", json.ciHighNs), ("min_ns", json.minNs),
                                ("max_ns", json.maxNs), ("mean_ns", json.meanNs), ("stddev_ns", json.stddevNs), ("p90_ns", json.p90Ns),
                                ("p99_ns", json.p99Ns), ("mad_ns", json.madNs), ("rows_per_s", json.rowsPerS), ("ci_coverage", json.ciCoverage)] {
            XCTAssertEqual(Double(row[column]!)!, value, accuracy: 0.051 + 1e-9 * value, column)
        }
        XCTAssertEqual(row["noisy"], String(json.noisy))
        XCTAssertEqual(row["outliers"], String(json.outliers))
        XCTAssertEqual(row["digest"], json.digest)
        XCTAssertEqual(row["iterations"], String(json.iterations))
        XCTAssertEqual(row["loops"], "37")
        XCTAssertEqual(json.loops, 37)
        XCTAssertEqual(row["temp_dir"], read.context.temporaryFolder)
        XCTAssertEqual(row["time_budget_s"], "0.5")

        // The ratio: null on the baseline's own row; joined's, paired round by round, as the CSV's.
        XCTAssertNil(json.ratio)
        XCTAssertNil(json.ratioUncertain)
        let joined = read.results[1]
        let ratioRow = Dictionary(uniqueKeysWithValues: zip(csv[0], try CSV.parse(ResultsCSV.header
            + ResultsCSV.row(results[1], plan: plan, context: context(), ratio: RatioInterval(results[1], among: results)))[1]))
        XCTAssertEqual(joined.ratio, 2.0, "rounds' ratios 2, 1.4, 2.11, 1.86, 2.1, 1.95, huge: median 2")
        XCTAssertEqual(joined.ratioLow, 1_400.0 / 1_000)
        XCTAssertEqual(joined.ratioRounds, 7)
        // 7 rounds: the interval is the range, 1.4 … 2⁶⁰ / 990, coverage 1 − 2/128; above 1: slower by at least 40 %.
        XCTAssertEqual(joined.ratioVerdict, "slower")
        XCTAssertEqual(joined.ratioUncertain, false)
        for (column, value) in [("ratio", joined.ratio), ("ratio_low", joined.ratioLow), ("ratio_high", joined.ratioHigh), ("ratio_coverage", joined.ratioCoverage)] {
            XCTAssertEqual(Double(ratioRow[column]!)!, try XCTUnwrap(value), accuracy: 1e-4 * (value ?? 1), column)
        }
        XCTAssertEqual(ratioRow["ratio_verdict"], "slower")
        XCTAssertEqual(ratioRow["ratio_uncertain"], "false")
        XCTAssertEqual(row["ratio"], "", "the baseline's own row has empty ratio columns")

        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains("\"ratio\":null"), "a missing ratio is null, not left out")
        XCTAssertTrue(text.hasPrefix("{\n  \"schema\": \"inheritance-bench.results\",\n  \"version\": 4,\n"), text)
        XCTAssertTrue(text.contains("\"git_dirty\":true"))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(text.utf8)), "plain JSON")
    }

    func testUnknownDirtinessIsNullAndReadsBack() throws {
        let document = ResultsJSON(results: [], plan: RunPlan(repetitions: 3), context: context(dirty: nil), csvName: "x.csv")
        let url = folder.appendingPathComponent("x.json")
        try AtomicFile.write(try document.text(), to: url)
        XCTAssertTrue(try String(contentsOf: url, encoding: .utf8).contains("\"git_dirty\":null"))
        XCTAssertEqual(try ResultsJSON.read(url: url), document)
    }

    /// Version 3, written before `request`, reads with no request.
    func testVersionThreeReadsWithoutRequests() throws {
        var joined = result("joined", samples: [5])
        joined.request = "Book WHERE isbn == %@"
        let document = ResultsJSON(results: [joined], plan: RunPlan(), context: context(), csvName: "x.csv")
        let url = folder.appendingPathComponent("x.json")
        let text = try document.text()
        XCTAssertTrue(text.contains(#""request":"Book WHERE isbn == %@""#), text)
        try AtomicFile.write(text.replacingOccurrences(of: "\"version\": 4,", with: "\"version\": 3,").replacingOccurrences(of: #","request":"Book WHERE isbn == %@""#, with: ""), to: url)
        XCTAssertNil(try ResultsJSON.read(url: url).results[0].request)
    }

    func testAnotherVersionOrAForeignFileIsRefusedWithOneSentence() throws {
        let document = ResultsJSON(results: [result("joined", samples: [5])], plan: RunPlan(), context: context(), csvName: "x.csv")
        let url = folder.appendingPathComponent("x.json")
        try AtomicFile.write(try document.text().replacingOccurrences(of: "\"version\": 4,", with: "\"version\": 1,"), to: url)
        XCTAssertThrowsError(try ResultsJSON.read(url: url)) { error in
            let text = "\(error)"
            XCTAssertEqual(text, "\(url.path) is results JSON version 1; this bench reads versions 3 and 4; rerun the benchmark with this version, or read it with the bench that wrote it")
            XCTAssertFalse(text.contains("\n"))
        }
        let cases: [(String, String)] = [
            ("[1, 2]", "is not JSON, or not a JSON object"),
            ("not json", "is not JSON"),
            (#"{"schema": "something.else", "version": 1}"#, "its schema is 'something.else', expected 'inheritance-bench.results'"),
            (#"{"version": 1}"#, "its schema is missing"),
            (#"{"schema": "inheritance-bench.results"}"#, "is results JSON version (missing)"),
            (#"{"schema": "inheritance-bench.results", "version": 3, "csv": "x.csv"}"#, "context is missing"),
        ]
        for (text, expected) in cases {
            try AtomicFile.write(text, to: url)
            XCTAssertThrowsError(try ResultsJSON.read(url: url), text) { XCTAssertTrue("\($0)".contains(expected), "\(text): \($0)") }
        }
        XCTAssertThrowsError(try ResultsJSON.read(url: folder.appendingPathComponent("missing.json"))) { XCTAssertTrue("\($0)".hasSuffix("missing.json does not exist")) }
    }

    func testTheExportsFollowTheCSVRowForRowAndRefuseToOverwrite() throws {
        let url = folder.appendingPathComponent("run.csv")
        let plan = RunPlan(repetitions: 3)
        let writer = try ResultsWriter(url: url, runID: "r1", force: false)
        defer { writer.finish() }
        let exports = try ResultsExports(besides: url, plan: plan, context: context(memory: 1 << 33), force: false)
        try exports.append([result("single-table", samples: [1, 2, 3])]) { try writer.append([result("single-table", samples: [1, 2, 3])], plan: plan, context: context(memory: 1 << 33)) }
        XCTAssertEqual(try ResultsJSON.read(url: exports.jsonURL).results.count, 1)
        // A CSV write that fails puts the exports back as they were.
        struct Failure: Error {}
        XCTAssertThrowsError(try exports.append([result("joined", samples: [4, 5, 6])]) { throw Failure() })
        XCTAssertEqual(try ResultsJSON.read(url: exports.jsonURL).results.map(\.strategy), ["single-table"])
        XCTAssertFalse(try String(contentsOf: exports.markdownURL, encoding: .utf8).contains("`joined`"))
        // A case's results are published together.
        let group = [result("joined", samples: [4, 5, 6]), result("json-entity", samples: [7, 8, 9])]
        try exports.append(group) { try writer.append(group, plan: plan, context: context(memory: 1 << 33)) }
        XCTAssertEqual(try ResultsJSON.read(url: exports.jsonURL).results.map(\.strategy), ["single-table", "joined", "json-entity"])
        XCTAssertEqual(try ResultsFile(url: url).rows.count, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       [".run.csv.lock", "run.csv", "run.json", "run.md", "run.samples.csv"], "no temporary file left")
        XCTAssertThrowsError(try ResultsExports(besides: url, plan: plan, context: context(memory: 1 << 33), force: false)) {
            XCTAssertEqual("\($0)", "\(folder.path)/run.json already exists; choose another --output or pass --force to replace it")
        }
        XCTAssertNoThrow(try ResultsExports(besides: url, plan: plan, context: context(memory: 1 << 33), force: true))
        // --force replaces what a run wrote, never another file of the same name (a model description).
        try AtomicFile.write(#"{"name": "mine", "entities": []}"#, to: folder.appendingPathComponent("model.json"))
        XCTAssertThrowsError(try ResultsExports(besides: folder.appendingPathComponent("model.csv"), plan: plan, context: context(memory: 1 << 33), force: true)) {
            XCTAssertTrue("\($0)".contains("model.json exists and was not written by a bench run"), "\($0)")
        }

        // A first row that cannot be written leaves no export behind.
        let other = folder.appendingPathComponent("other.csv")
        let fresh = try ResultsExports(besides: other, plan: plan, context: context(memory: 1 << 33), force: false)
        XCTAssertThrowsError(try fresh.append([result("joined", samples: [4])]) { throw Failure() })
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.jsonURL.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.markdownURL.path))
    }

    /// The results a run holds in memory (for the summary it rewrites after every case) are the
    /// rows its CSV holds once read back, fields that need quoting included.
    func testTheResultsInMemoryAreTheRowsTheCSVHolds() throws {
        let url = folder.appendingPathComponent("m.csv")
        let plan = RunPlan(repetitions: 3)
        let context = RunContext(runID: "m1", timestamp: "t", gitCommit: "c", gitDirty: nil, sqliteVersion: "3.40.1",
                                 swiftVersion: "6.3", build: "release", host: "lab, \"rack 2\"\nshelf")
        let results = ["single-table", "joined"].map { strategy in
            WorkloadResult(strategy: strategy, workload: "fetch-page", variant: "", rows: 50, samples: [1_000, 1_200, 1_100],
                           warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 4_096, setting: ResultSetting(hierarchy: "publications", scale: 500))
        }
        let writer = try ResultsWriter(url: url, runID: "m1", force: true)
        try writer.append(results, plan: plan, context: context)
        let read = try ResultsFile(url: url).rows, held = ResultsFile(results: results, plan: plan, context: context, url: url).rows
        XCTAssertEqual(read.map(\.fields), held.map(\.fields))
        XCTAssertEqual(held.first?.fields["host"], "lab, \"rack 2\"\nshelf")
    }
}

final class SummaryMarkdownTests: XCTestCase {
    func testTheSummaryHasTheHeadlineTableTheContextAndTheFindings() throws {
        let plan = RunPlan(repetitions: 7)
        let context = RunContext(runID: "r9", timestamp: "2026-11-22T00:00:00Z", gitCommit: "abc123", gitDirty: false, sqliteVersion: "3.40.1",
                                 swiftVersion: "6.3", build: "release", host: "ci", cpuModel: "CPU", cpuCores: 2)
        func result(_ strategy: String, _ workload: String, _ base: UInt64, spread: UInt64 = 1) -> WorkloadResult {
            WorkloadResult(strategy: strategy, workload: workload, variant: "", rows: 1, samples: (0 ..< 7).map { base + UInt64($0) * spread },
                           warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1, setting: ResultSetting(hierarchy: "publications", scale: 500))
        }
        let results = [result("single-table", "fetch-page", 100_000), result("enum-entity", "fetch-page", 50_000),
                       result("joined", "fetch-page", 300_000, spread: 10_000),
                       result("single-table", "count-all", 3_000), result("enum-entity", "count-all", 3_001)]
        let file = ResultsFile(results: results, plan: plan, context: context, url: URL(fileURLWithPath: "/tmp/x.csv"))
        let text = SummaryMarkdown.render(file)
        XCTAssertTrue(text.hasPrefix("### inheritance-bench: publications, 500 objects, seed 42, batch 1000, 7 timed repetitions per row\n"), text)
        XCTAssertTrue(text.contains("run r9 at 2026-11-22T00:00:00Z on ci (CPU, 2 cores); SQLite 3.40.1, Swift 6.3 release build, commit abc123."), text)
        XCTAssertTrue(text.contains("| case | `single-table` | `enum-entity` | `joined` |\n|---|---:|---:|---:|\n"), text)
        // Ratios are the median of the rounds' ratios, with their order-statistic interval.
        XCTAssertTrue(text.contains("| fetch-page | 100.0 µs [100.0–100.0 µs] | 50.0 µs [50.0–50.0 µs] **0.50×** [0.50–0.50] | 330.0 µs ! [300.0–360.0 µs] **3.30×** [3.00–3.60] |"), text)
        XCTAssertTrue(text.contains("- fetch-page: `enum-entity` fastest (50.0 µs); 2.00× ahead of `single-table`; slowest `joined` at 6.60×; "
                                    + "against `single-table`: `enum-entity` faster by at least 50 %, `joined` slower: at least 3.0× as long\n"), text)
        // 3,001 against 3,000 ns in every round: tiny, yet the interval excludes 1, and the verdict says how tiny.
        XCTAssertTrue(text.contains("- count-all: `single-table` fastest (3.0 µs); 1.00× ahead of `enum-entity` (intervals overlap: not a clear lead); "
                                    + "against `single-table`: `enum-entity` slower by at least 0.033 %\n"), text)
        XCTAssertFalse(text.contains("Ratios too uncertain"), text)
        XCTAssertTrue(text.contains("- Noisy (rerun, or give the cases more time with `--case-time`): fetch-page (`joined`)."), text)
        XCTAssertTrue(text.contains("- Fastest in the most cases (of 2): `enum-entity` 1, `single-table` 1.") || text.contains("`single-table` 1, `enum-entity` 1"), text)
        XCTAssertFalse(text.contains("Debug build"))
    }

    /// A median of one repetition has no interval: the summary says so instead of printing a
    /// point as an interval, and a lead between two such medians is never called clear.
    func testOneRepetitionShowsNoIntervalAndNoClearLead() throws {
        func result(_ strategy: String, _ samples: [UInt64]) -> WorkloadResult {
            WorkloadResult(strategy: strategy, workload: "insert-bulk", variant: "", rows: 1, samples: samples,
                           warmups: 0, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1, setting: ResultSetting(hierarchy: "publications", scale: 500))
        }
        let file = ResultsFile(results: [result("single-table", [3_000_000_000]), result("joined", [2_000_000_000])], plan: RunPlan(),
                               context: RunContext(runID: "r", timestamp: "t", gitCommit: "c", gitDirty: false, sqliteVersion: "3", swiftVersion: "6",
                                                   build: "release", host: "h", cpuModel: "c", cpuCores: 2),
                               url: URL(fileURLWithPath: "/tmp/x.csv"))
        let text = SummaryMarkdown.render(file)
        XCTAssertTrue(text.contains("| insert-bulk | 3.00 s [1 repetition, no interval] | 2.00 s [1 repetition, no interval] **0.67×** [1 round, no interval] ? |"), text)
        XCTAssertTrue(text.contains("against `single-table`: `joined` too uncertain to call\n"), text)
        XCTAssertTrue(text.contains("- Ratios too uncertain to call (fewer than 6 rounds, or an interval that holds 1 and is wider than ±5 %): insert-bulk (`joined`).\n"), text)
        XCTAssertTrue(text.contains("(too few repetitions for 95 % intervals: not a clear lead)"), text)
        let finding = try XCTUnwrap(CaseGrid(file.rows, baseline: "single-table").findings().first)
        XCTAssertFalse(finding.clear)
        XCTAssertFalse(finding.intervals)
    }
}
