import Generation
import Foundation
import SQLite
@testable import Reporting
import Workloads
import XCTest

/// Builds results files the way a run does, then doctors them.
final class CompareTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    /// A run of three strategies × two workloads with samples around `base` ns (times `factor` for `slowed`).
    /// `speed` scales every strategy alike (a slower host).
    func writeRun(_ name: String, seed: UInt64 = 42, factor: Double = 1, slowed: String? = nil, host: String = "h1", samples: Bool = true,
                  speed: Double = 1, data: String = "generated", vmSteps: (String, String) -> Int64 = { _, _ in 1_000 }) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let writer = try ResultsWriter(url: url, runID: name, force: true)
        let plan = RunPlan(seed: seed)
        let context = RunContext(runID: name, timestamp: "t", gitCommit: "c", gitDirty: false, sqliteVersion: "3.40.1",
                                 swiftVersion: "6.3", build: "release", host: host)
        var rng = SplitMix64(seed: 11)
        var results: [WorkloadResult] = []
        for workload in ["count-all", "fetch-page"] {
            for strategy in ["single-table", "table-per-entity", "enum-entity"] {
                let scale = (strategy == slowed ? factor : 1) * speed
                let values = (0 ..< 30).map { _ in UInt64((10_000 + Double(rng.next() % 200)) * scale) }
                var work = WorkCounts()
                work.vmSteps = vmSteps(strategy, workload)
                work.runs = 1
                results.append(WorkloadResult(strategy: strategy, workload: workload, variant: "", rows: 1, samples: values,
                                              warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1,
                                              setting: ResultSetting(hierarchy: "publications", scale: 1_000, data: data), work: work))
            }
        }
        try writer.append(results, plan: plan, context: context)
        if !samples { try FileManager.default.removeItem(at: writer.samplesURL) }
        return url
    }

    func testIdenticalRunsAreUnchanged() throws {
        let a = try ResultsFile(url: writeRun("a.csv"))
        let comparison = try Comparison.runs(base: a, new: a, threshold: 0.05, force: false)
        XCTAssertEqual(comparison.lines.count, 6)
        XCTAssertTrue(comparison.lines.allSatisfy { $0.verdict == .unchanged && $0.method == .bootstrap })
        XCTAssertTrue(comparison.lines.allSatisfy { $0.test?.u == 450 && $0.test?.p == 1 }, "the same samples: U = 30 × 30 / 2, p = 1")
        XCTAssertEqual(comparison.exitCode, 0)
        XCTAssertTrue(comparison.warnings.isEmpty)
    }

    /// A version 2 file (no hierarchy or sweep columns, in the results or the samples) still
    /// compares with a version 3 run of the publication model, case by case.
    func testVersionTwoFilesCompareWithVersionThree() throws {
        let url = try writeRun("three.csv")
        var results = try CSV.parse(String(contentsOf: url, encoding: .utf8))
        let dropped = ["hierarchy", "sweep_parameter", "sweep_value"].map { results[0].firstIndex(of: $0)! }
        let version = results[0].firstIndex(of: "schema_version")!
        results = results.enumerated().map { line, record in
            var record = record.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
            if line > 0 { record[version] = "2" }
            if line > 0 { record[record.count - 1] = "two.samples.csv" }
            return record
        }
        try Data(results.map(CSV.line).joined().utf8).write(to: folder.appendingPathComponent("two.csv"))
        let samples = try CSV.parse(String(contentsOf: folder.appendingPathComponent("three.samples.csv"), encoding: .utf8))
        let oldSamples = samples.map { record in record.enumerated().filter { ![1, 2, 7].contains($0.offset) }.map(\.element) }
        XCTAssertEqual(oldSamples[0], ["run_id", "strategy", "workload", "variant", "repetition", "ns"])
        try Data(oldSamples.map(CSV.line).joined().utf8).write(to: folder.appendingPathComponent("two.samples.csv"))

        let two = try ResultsFile(url: folder.appendingPathComponent("two.csv"))
        XCTAssertTrue(two.rows.allSatisfy { $0.samples?.count == 30 })
        let comparison = try Comparison.runs(base: two, new: try ResultsFile(url: url), threshold: 0.05, force: false)
        XCTAssertEqual(comparison.lines.count, 6)
        XCTAssertTrue(comparison.onlyInBase.isEmpty && comparison.onlyInNew.isEmpty)
        XCTAssertEqual(comparison.exitCode, 0)
    }

    /// Work counts are compared exactly: the same counts change nothing; more work in one row is a
    /// regression (exit 2) and fewer an improvement (exit 4), whatever the times say, each named.
    func testAChangeInWorkIsNamedAndGated() throws {
        let base = try ResultsFile(url: writeRun("base.csv"))
        let same = try Comparison.runs(base: base, new: try ResultsFile(url: writeRun("same.csv")), threshold: 0.05, force: false)
        XCTAssertEqual(same.workChanges, [])
        XCTAssertEqual(same.exitCode, 0)
        let more = try ResultsFile(url: writeRun("more.csv", vmSteps: { $0 == "joined" || ($0 == "enum-entity" && $1 == "fetch-page") ? 1_250 : 1_000 }))
        let worse = try Comparison.runs(base: base, new: more, threshold: 0.05, force: false)
        XCTAssertEqual(worse.workChanges.map { "\($0.key) \($0.column) \($0.base) \($0.new)" }, ["enum-entity fetch-page vm_steps 1000 1250"])
        XCTAssertTrue(worse.lines.allSatisfy { $0.verdict == .unchanged }, "the times did not change")
        XCTAssertEqual(worse.exitCode, 2)
        let text = worse.render(.text, baseTitle: "base", newTitle: "new", threshold: 0.05)
        XCTAssertTrue(text.contains("SQLite's work changed in 1 of 6 rows"), text)
        XCTAssertTrue(text.contains("enum-entity fetch-page vm_steps: 1000 → 1250 (+25.0 %)"), text)
        XCTAssertEqual(try Comparison.runs(base: more, new: base, threshold: 0.05, force: false).exitCode, 4, "less work is an improvement")
    }

    func testATwiceSlowerMedianIsARegression() throws {
        let base = try ResultsFile(url: writeRun("base.csv"))
        let slower = try ResultsFile(url: writeRun("new.csv", factor: 2, slowed: "enum-entity"))
        let comparison = try Comparison.runs(base: base, new: slower, threshold: 0.05, force: false)
        let flagged = comparison.lines.filter { $0.verdict == .slower }
        XCTAssertEqual(flagged.map(\.strategy), ["enum-entity", "enum-entity"])
        XCTAssertEqual(flagged[0].ratio, 2, accuracy: 0.05)
        XCTAssertGreaterThan(flagged[0].interval.lowerBound, 1.8)
        XCTAssertEqual(flagged[0].test?.u, 900, "every new repetition took longer than every base one")
        XCTAssertLessThan(try XCTUnwrap(flagged[0].test).p, 1e-9)
        XCTAssertEqual(comparison.exitCode, 2)
        // The other way round it is an improvement, and only that.
        let reverse = try Comparison.runs(base: slower, new: base, threshold: 0.05, force: false)
        XCTAssertEqual(reverse.exitCode, 4)
        // Without samples the interval comes from the medians' intervals, and the verdict holds.
        let noSamples = try ResultsFile(url: writeRun("bare.csv", factor: 2, slowed: "enum-entity", samples: false))
        let fallback = try Comparison.runs(base: base, new: noSamples, threshold: 0.05, force: false)
        XCTAssertEqual(fallback.exitCode, 2)
        XCTAssertTrue(fallback.lines.allSatisfy { $0.method == .intervals && $0.test == nil })
        XCTAssertTrue(fallback.render(.markdown, baseTitle: "base", newTitle: "new", threshold: 0.05).contains("| fetch-page | enum-entity |"))
    }

    func testRunsOfDifferentSeedsAreRefusedUnlessForcedAndHostsAreWarned() throws {
        let a = try ResultsFile(url: writeRun("a.csv"))
        let b = try ResultsFile(url: writeRun("b.csv", seed: 7, host: "h2"))
        XCTAssertThrowsError(try Comparison.runs(base: a, new: b, threshold: 0.05, force: false)) {
            XCTAssertTrue("\($0)".contains("different seeds (42 vs 7)"), "\($0)")
        }
        let forced = try Comparison.runs(base: a, new: b, threshold: 0.05, force: true)
        XCTAssertEqual(forced.warnings, ["the runs differ in hosts: h1 vs h2"])
        // A store's own objects and generated ones are different work too.
        let store = try ResultsFile(url: writeRun("s.csv", data: "store"))
        XCTAssertThrowsError(try Comparison.runs(base: a, new: store, threshold: 0.05, force: false)) {
            XCTAssertTrue("\($0)".contains("different objects (generated vs store)"), "\($0)")
        }
        XCTAssertEqual(store.values("data"), ["store"])
        XCTAssertNoThrow(try Comparison.runs(base: store, new: store, threshold: 0.05, force: false))
    }

    func testStrategiesWithinARun() throws {
        let run = try ResultsFile(url: writeRun("r.csv", factor: 3, slowed: "table-per-entity"))
        let comparison = try Comparison.strategies(in: run, baseline: "single-table", threshold: 0.05)
        XCTAssertEqual(comparison.lines.count, 4)
        XCTAssertEqual(comparison.lines.filter { $0.verdict == .slower }.map(\.strategy), ["table-per-entity", "table-per-entity"])
        XCTAssertTrue(comparison.lines.allSatisfy { $0.against == "single-table" })
        // The rounds pair the strategies: the paired interval of the rounds' ratios, no rank test.
        XCTAssertTrue(comparison.lines.allSatisfy { $0.method == .paired && $0.test == nil })
        let slowed = try XCTUnwrap(comparison.lines.first { $0.strategy == "table-per-entity" })
        let grid = CaseGrid(run.rows, baseline: "single-table")
        XCTAssertEqual(slowed.interval, grid.ratioInterval(slowed.caseName, "table-per-entity")?.interval)
        XCTAssertTrue(comparison.render(.text, baseTitle: "single-table", newTitle: "strategy", threshold: 0.05).contains("paired: the ratio is the median of the rounds' ratios"))
    }

    /// A host 30 % slower in the second run moves every median, not one ratio; a strategy made 3×
    /// slower moves its ratio.
    func testRatiosBetweenRunsIgnoreAHostStepAndCatchALayoutChange() throws {
        let base = try ResultsFile(url: writeRun("base.csv"))
        let host = try ResultsFile(url: writeRun("host.csv", speed: 1.3))
        XCTAssertTrue(try Comparison.runs(base: base, new: host, threshold: 0.05, force: false).lines.allSatisfy { $0.verdict == .slower },
                      "the medians all moved")
        let ratios = try Comparison.ratios(base: base, new: host, baseline: "single-table", threshold: 0.05, force: false)
        XCTAssertEqual(ratios.lines.count, 4, "two strategies × two cases; single-table has no ratio")
        XCTAssertTrue(ratios.lines.allSatisfy { $0.verdict == .unchanged && $0.method == .bootstrap && abs($0.ratio - 1) < 0.01 })
        XCTAssertEqual(ratios.exitCode, 0)
        let layout = try ResultsFile(url: writeRun("layout.csv", factor: 3, slowed: "table-per-entity", speed: 1.3))
        let changed = try Comparison.ratios(base: base, new: layout, baseline: "single-table", threshold: 0.05, force: false)
        XCTAssertEqual(changed.lines.filter { $0.verdict == .slower }.map(\.strategy), ["table-per-entity", "table-per-entity"])
        XCTAssertEqual(changed.lines.filter { $0.verdict == .unchanged }.map(\.strategy), ["enum-entity", "enum-entity"])
        XCTAssertEqual(changed.exitCode, 2)
        let text = changed.render(.text, baseTitle: "base ratio", newTitle: "new ratio", threshold: 0.05)
        XCTAssertTrue(text.contains("base ratio and new ratio: each strategy's ratio to single-table in that run"), text)
        XCTAssertTrue(text.contains("3.000×"), text)
        XCTAssertEqual(ratios.coverage?.inside, 4, "the host's step moves no ratio out of its interval")
        XCTAssertTrue(text.contains("coverage: 2 of 4 ratios of the new run (50 %) inside the base run's 95 % intervals; 0 of 0 clear verdicts (faster or slower) reversed"), text)
        // Without the samples files: each run's ratio interval from its CSV columns, no test.
        let bare = try Comparison.ratios(base: try ResultsFile(url: writeRun("b2.csv", samples: false)),
                                         new: try ResultsFile(url: writeRun("l2.csv", factor: 3, slowed: "table-per-entity", samples: false)),
                                         baseline: "single-table", threshold: 0.05, force: false)
        XCTAssertTrue(bare.lines.allSatisfy { $0.method == .intervals && $0.test == nil })
        XCTAssertEqual(bare.lines.filter { $0.verdict == .slower }.map(\.strategy), ["table-per-entity", "table-per-entity"])
    }

    /// A results file edited after its run: its ratio columns no longer match its repetitions.
    /// Every figure of a row comes from one source (the repetitions when both runs have them, else
    /// the columns), so no ratio prints outside its own interval, and every number prints in a
    /// bounded width (a ratio of 1e-300 as `1e-300`, not 300 digits).
    func testAnEditedFileNeverPrintsARatioOutsideItsInterval() throws {
        func edited(_ name: String, samples: Bool) throws -> ResultsFile {
            let url = try writeRun(name, samples: samples)
            var records = try CSV.parse(String(contentsOf: url, encoding: .utf8))
            let header = records[0]
            let columns = ["ratio", "ratio_low", "ratio_high"].map { header.firstIndex(of: $0)! }
            let strategy = header.firstIndex(of: "strategy")!
            for line in records.indices.dropFirst() where records[line][strategy] == "enum-entity" {
                for (column, value) in zip(columns, ["1e-300", "1e-301", "1e-299"]) { records[line][column] = value }
            }
            try Data(records.map(CSV.line).joined().utf8).write(to: url)
            return try ResultsFile(url: url)
        }
        let base = try ResultsFile(url: writeRun("base.csv"))
        let withSamples = try Comparison.ratios(base: base, new: try edited("edited.csv", samples: true), baseline: "single-table",
                                                threshold: 0.05, force: false)
        XCTAssertEqual(withSamples.lines.count, 4)
        for line in withSamples.lines {
            XCTAssertTrue(line.interval.contains(line.ratio), "\(line.strategy): \(line.ratio) outside \(line.interval)")
            XCTAssertEqual(line.ratio, 1, accuracy: 0.05, "the repetitions, not the edited columns, give the ratio")
        }
        let bare = try Comparison.ratios(base: try ResultsFile(url: writeRun("b.csv", samples: false)), new: try edited("e2.csv", samples: false),
                                         baseline: "single-table", threshold: 0.05, force: false)
        let tiny = try XCTUnwrap(bare.lines.first { $0.strategy == "enum-entity" })
        XCTAssertTrue(tiny.interval.contains(tiny.ratio))
        let text = bare.render(.text, baseTitle: "base ratio", newTitle: "new ratio", threshold: 0.05)
        XCTAssertTrue(text.contains("1e-300×"), text)
        let longest = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "|" }).filter { !$0.allSatisfy { "-─".contains($0) } }.map(\.count).max() ?? 0
        XCTAssertLessThan(longest, 40, "every figure prints in a bounded width: \(text)")
        XCTAssertEqual(Figure.fixed(1e300, decimals: 2), "1e+300")
        XCTAssertEqual(Figure.fixed(2.5, decimals: 2), "2.50")
        XCTAssertEqual(CaseGrid.ratioText(1e-300), "1e-300×")
        XCTAssertEqual(ConsoleTable.duration(1e300), "1e+291 s")
    }

    func testTheBootstrapIsReproducible() {
        let base = (0 ..< 50).map { Double(100 + $0 % 7) }
        let new = (0 ..< 50).map { Double(120 + $0 % 5) }
        XCTAssertEqual(Comparison.bootstrapRatioInterval(base: base, new: new), Comparison.bootstrapRatioInterval(base: base, new: new))
    }

    /// The median found by selection is the sorted quantile's, bit for bit: odd and even counts,
    /// ties, all-equal values, sorted and reversed input.
    func testTheSelectedMedianIsTheSortedOne() {
        var rng = SplitMix64(seed: 9)
        var inputs: [[Double]] = [[5], [2, 1], [3, 3, 3, 3], Array(repeating: 7, count: 1_001), (0 ..< 100).map(Double.init), (0 ..< 101).map { Double(100 - $0) }]
        for count in 1 ... 80 {
            inputs.append((0 ..< count).map { _ in Double(1_000 + rng.next() % 20) })
            inputs.append((0 ..< count).map { _ in Double(rng.next() % 1_000_000) / 7 })
        }
        for input in inputs {
            var scratch = input
            XCTAssertEqual(Statistics.median(reordering: &scratch), Statistics.quantile(input.sorted(), 0.5), "\(input.count) values")
            XCTAssertEqual(scratch.sorted(), input.sorted(), "the values are only reordered")
        }
    }

    /// The bootstrap's interval is the one sorting every resample gives.
    func testTheBootstrapMatchesSortedResamples() {
        func sorted(base: [Double], new: [Double], resamples: Int = 2_000, seed: UInt64 = 0x5EED) -> ClosedRange<Double> {
            var rng = SplitMix64(seed: seed)
            func median(_ values: [Double]) -> Double {
                Statistics.quantile(values.indices.map { _ in values[Int(rng.next() % UInt64(values.count))] }.sorted(), 0.5)
            }
            let ratios = (0 ..< resamples).map { _ in let b = median(base); return median(new) / b }.sorted()
            return Statistics.quantile(ratios, 0.025) ... Statistics.quantile(ratios, 0.975)
        }
        var rng = SplitMix64(seed: 4)
        for (m, n) in [(5, 8), (30, 30), (31, 64)] {
            let base = (0 ..< m).map { _ in Double(10_000 + rng.next() % 300) }, new = (0 ..< n).map { _ in Double(11_000 + rng.next() % 50) }
            XCTAssertEqual(Comparison.bootstrapRatioInterval(base: base, new: new), sorted(base: base, new: new), "\(m) vs \(n)")
        }
    }

    // MARK: The rank test beside the bootstrap

    /// A row built in code: the median and its interval from `samples`, which it keeps unless `keep` is false.
    func row(_ samples: [Double], strategy: String = "enum-entity", keep: Bool = true) -> ResultsFile.Row {
        let statistics = Statistics(samples.map { UInt64($0) })
        return ResultsFile.Row(line: 2, fields: ["strategy": strategy, "workload": "count-all", "variant": "", "iterations": String(samples.count)],
                               median: statistics.median, interval: statistics.medianInterval, samples: keep ? samples : nil)
    }

    func line(_ base: [Double], _ new: [Double], threshold: Double = 0.05, alpha: Double = 0.05, samples: Bool = true) -> Comparison.Line {
        Comparison.line("count-all", "enum-entity", against: "BASE", base: row(base, keep: samples), new: row(new, keep: samples),
                        threshold: threshold, alpha: alpha)
    }

    /// The threshold (practical effect) and alpha (significance) are separate; each alone is not enough.
    func testAChangeMustBeBeyondTheThresholdAndSignificantAndOutsideTheInterval() throws {
        // Every rule on its own: ratio, p, interval.
        let wide = 0.5 ... 2.0, above = 1.08 ... 1.12, below = 0.88 ... 0.92
        XCTAssertEqual(Comparison.verdict(ratio: 1.1, interval: above, p: 0.001, threshold: 0.05, alpha: 0.05), .slower)
        XCTAssertEqual(Comparison.verdict(ratio: 0.9, interval: below, p: 0.001, threshold: 0.05, alpha: 0.05), .faster)
        XCTAssertEqual(Comparison.verdict(ratio: 1.03, interval: 1.02 ... 1.04, p: 0.001, threshold: 0.05, alpha: 0.05), .unchanged, "below the threshold")
        XCTAssertEqual(Comparison.verdict(ratio: 1.1, interval: above, p: 0.05, threshold: 0.05, alpha: 0.05), .unchanged, "p = alpha is not below it")
        XCTAssertEqual(Comparison.verdict(ratio: 0.9, interval: below, p: 0.2, threshold: 0.05, alpha: 0.05), .unchanged, "not significant")
        XCTAssertEqual(Comparison.verdict(ratio: 1.1, interval: wide, p: 0.001, threshold: 0.05, alpha: 0.05), .unchanged, "the interval holds 1")
        XCTAssertEqual(Comparison.verdict(ratio: 1.1, interval: above, p: nil, threshold: 0.05, alpha: 0.05), .slower, "no test: the interval rule")
        XCTAssertEqual(Comparison.verdict(ratio: 1.1, interval: wide, p: nil, threshold: 0.05, alpha: 0.05), .unchanged)

        // Significant but below the threshold: 3 % slower in every one of 30 repetitions.
        let base = (0 ..< 30).map { 1_000 + Double($0) }
        let small = line(base, base.map { $0 * 1.03 })
        XCTAssertEqual(small.ratio, 1.03, accuracy: 1e-3)
        XCTAssertLessThan(try XCTUnwrap(small.test).p, 1e-10)
        XCTAssertGreaterThan(small.interval.lowerBound, 1)
        XCTAssertEqual(small.verdict, .unchanged)
        // The same change with a 2 % threshold: beyond it and significant, so slower; and the reverse faster.
        XCTAssertEqual(line(base, base.map { $0 * 1.03 }, threshold: 0.02).verdict, .slower)
        XCTAssertEqual(line(base.map { $0 * 1.03 }, base, threshold: 0.02).verdict, .faster)

        // Beyond the threshold, outside the bootstrap interval, but not significant: 3 repetitions a
        // side, all 10 % slower, give p = 0.1 (2 of 20 orders), so unchanged (the interval rule alone said slower).
        let few = line([100, 101, 102], [110, 111, 112])
        XCTAssertEqual(few.ratio, 111.0 / 101, accuracy: 1e-9)
        XCTAssertEqual(few.method, .bootstrap)
        XCTAssertGreaterThan(few.interval.lowerBound, 1.05)
        XCTAssertEqual(few.test?.u, 9)
        XCTAssertEqual(try XCTUnwrap(few.test).p, 0.1, accuracy: 1e-12)
        XCTAssertEqual(few.verdict, .unchanged)
        XCTAssertEqual(line([100, 101, 102], [110, 111, 112], alpha: 0.2).verdict, .slower, "a looser alpha lets it count")
        XCTAssertEqual(line([110, 111, 112], [100, 101, 102], alpha: 0.2).verdict, .faster)

        // Both: 10 % slower in 10 repetitions a side, none overlapping: p = 2 / C(20, 10).
        let both = line(base.prefix(10).map { $0 }, base.prefix(10).map { $0 * 1.1 })
        XCTAssertEqual(try XCTUnwrap(both.test).p, 2.0 / 184_756, accuracy: 1e-15)
        XCTAssertEqual(both.verdict, .slower)

        // Without samples there is no test: the interval rule decides, and the row says so.
        let bare = line([100, 100, 100, 100, 100, 100], [120, 120, 120, 120, 120, 120], samples: false)
        XCTAssertNil(bare.test)
        XCTAssertEqual(bare.method, .intervals)
        XCTAssertEqual(bare.verdict, .slower)
        let text = Comparison(lines: [bare, both]).render(.text, baseTitle: "base", newTitle: "new", threshold: 0.05, alpha: 0.05)
        XCTAssertTrue(text.contains("–†  slower"), text)
        XCTAssertTrue(text.contains("† no rank test: without the repetitions of both sides it cannot run; the ratio and the interval alone decide"), text)
        XCTAssertTrue(text.contains("  100  1.08e-05  slower"), text) // U = 10 × 10: every new repetition took longer
        XCTAssertTrue(text.contains("alpha 0.05: a change counts only when the ratio is beyond the threshold, p < alpha and the 95 % interval excludes 1"), text)
        let markdown = Comparison(lines: [bare, both]).render(.markdown, baseTitle: "base", newTitle: "new", threshold: 0.05, alpha: 0.01)
        XCTAssertTrue(markdown.hasPrefix("| workload | strategy | base | new | ratio | 95% interval | U | p | verdict |\n"), markdown)
        XCTAssertTrue(markdown.contains("| – | –† | slower |"), markdown)
        XCTAssertTrue(markdown.contains("| 100 | 1.08e-05 | slower |"), markdown)
    }

    /// Fewer than 9 repetitions on a side: one warning line naming the rows, and when they cannot
    /// reach p < alpha at all, it says that too.
    func testFewRepetitionsAreWarned() throws {
        let nine = (0 ..< 9).map { 1_000 + Double($0) }
        XCTAssertEqual(Comparison(lines: [line(nine, nine.map { $0 * 2 })]).powerWarnings(alpha: 0.05), [])
        let eight = Comparison(lines: [line(nine, nine.map { $0 * 2 }), line(Array(nine.prefix(8)), nine)])
        XCTAssertEqual(eight.powerWarnings(alpha: 0.05), [
            "1 of 2 rows have fewer than 9 repetitions on a side: enum-entity count-all (8 vs 9); "
                + "the rank test has little power below 9 repetitions; rerun with more",
        ])
        let three = Comparison(lines: [line([1, 2, 3], [4, 5, 6])]).powerWarnings(alpha: 0.05)
        XCTAssertEqual(three, [
            "1 of 1 rows have fewer than 9 repetitions on a side: enum-entity count-all (3 vs 3); the rank test has little power "
                + "below 9 repetitions; rerun with more (1 of them cannot reach p < 0.05 at all: with 3 vs 3 repetitions the smallest possible p is 0.1)",
        ])
        XCTAssertEqual(MannWhitney.smallestP(4, 4), 2.0 / 70, accuracy: 1e-15)
        XCTAssertEqual(MannWhitney.smallestP(1, 1), 1)
        // Through a run: the files written by writeRun hold 30 repetitions, so no warning.
        let a = try ResultsFile(url: writeRun("a.csv"))
        XCTAssertTrue(try Comparison.runs(base: a, new: a, threshold: 0.05, force: false).warnings.isEmpty)
        XCTAssertTrue(try Comparison.strategies(in: a, baseline: "single-table", threshold: 0.05).warnings.isEmpty)
    }

    // MARK: Files that must be rejected, each with a line that says why

    func rejection(_ text: String, name: String = "bad.csv") -> String {
        let url = folder.appendingPathComponent(name)
        try? Data(text.utf8).write(to: url)
        do {
            _ = try ResultsFile(url: url)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    func testMalformedResultsFilesAreRejectedWithAReason() throws {
        let good = try String(contentsOf: writeRun("good.csv", samples: false), encoding: .utf8)
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[0]
        let row = lines[1]
        let columns = header.split(separator: ",").map(String.init)
        func replacing(_ column: String, with value: String, in line: String) -> String {
            var fields = try! CSV.parse(line + "\n")[0]
            fields[columns.firstIndex(of: column)!] = value
            return CSV.line(fields).trimmingCharacters(in: .newlines)
        }
        XCTAssertEqual(rejection(good), "accepted")
        XCTAssertEqual(rejection(good.replacingOccurrences(of: "\n", with: "\r\n")), "accepted", "CRLF line ends are fine")
        XCTAssertTrue(rejection("").hasSuffix("is empty"))
        XCTAssertTrue(rejection(header + "\n").hasSuffix("has a header but no results"))
        XCTAssertTrue(rejection(String(good.dropLast(7))).contains("looks truncated"))
        XCTAssertTrue(rejection("name,size\nx,1\n").contains("no schema_version column"))
        XCTAssertTrue(rejection(header.replacingOccurrences(of: "median_ns", with: "median") + "\n" + row + "\n").contains("the column median_ns is missing"))
        XCTAssertTrue(rejection(header + "\n" + replacing("schema_version", with: "1", in: row) + "\n").contains("schema version 1, this bench reads versions 2, 3, 4, 5, 6, 7, 8, 9 and 10"))
        XCTAssertTrue(rejection(header + "\n" + replacing("median_ns", with: "fast", in: row) + "\n").contains("median_ns is 'fast', not a duration in nanoseconds"))
        XCTAssertTrue(rejection(header + "\n" + replacing("median_ns", with: "-3", in: row) + "\n").contains("line 2: median_ns is '-3'"))
        XCTAssertTrue(rejection(header + "\n" + row + "\n" + row + "\n").contains("line 3 repeats single-table count-all from line 2"))
        XCTAssertTrue(rejection(header + "\n" + row + ",extra\n").contains("line 2 has"))
        XCTAssertTrue(rejection(header + "\n\"unterminated\n").contains("never closed"))
        XCTAssertTrue(rejection("\u{FF}\u{FE}binary").contains("accepted") == false)
        XCTAssertTrue("\(String(describing: try? ResultsFile(url: folder)))" == "nil")
        XCTAssertThrowsError(try ResultsFile(url: folder)) { XCTAssertTrue("\($0)".contains("is a folder")) }
        XCTAssertThrowsError(try ResultsFile(url: folder.appendingPathComponent("missing.csv"))) { XCTAssertTrue("\($0)".contains("does not exist")) }
        let fifo = folder.appendingPathComponent("fifo.csv")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try ResultsFile(url: fifo), "a FIFO is refused, not read forever") { XCTAssertTrue("\($0)".contains("is not a regular file"), "\($0)") }
        // Quoted fields with commas and quotes are read as one field.
        let quoted = replacing("host", with: "lab \"east\", rack 4", in: row)
        let file = folder.appendingPathComponent("quoted.csv")
        try Data((header + "\n" + quoted + "\n").utf8).write(to: file)
        XCTAssertEqual(try ResultsFile(url: file).rows[0].fields["host"], "lab \"east\", rack 4")
    }

    func testRunsWithNothingInCommonAreRefused() throws {
        let a = try ResultsFile(url: writeRun("a.csv"))
        let text = try String(contentsOf: a.url, encoding: .utf8).replacingOccurrences(of: ",count-all,", with: ",count-leaf,")
            .replacingOccurrences(of: ",fetch-page,", with: ",fetch-leaf,")
        let other = folder.appendingPathComponent("other.csv")
        try Data(text.utf8).write(to: other)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("a.samples.csv"))
        XCTAssertThrowsError(try Comparison.runs(base: a, new: ResultsFile(url: other), threshold: 0.05, force: false)) {
            XCTAssertTrue("\($0)".contains("no strategy and workload in common"), "\($0)")
        }
    }

    // MARK: Values that are not measurements, and samples files that belong elsewhere

    /// `inf`, `nan`, zero, negative, overflowing and hexadecimal values in every numeric column of
    /// a results CSV are refused with one line naming the file, the line, the column and the value.
    func testEveryNumericColumnRefusesValuesThatAreNotMeasurements() throws {
        let good = try String(contentsOf: writeRun("good.csv", samples: false), encoding: .utf8)
        var records = try CSV.parse(good)
        let header = records[0]
        XCTAssertEqual(rejection(good, name: "good.csv"), "accepted")
        let durations: Set = ["median_ns", "ci_low_ns", "ci_high_ns", "min_ns", "max_ns", "mean_ns", "p90_ns", "p99_ns"]
        var checked = 0
        for (column, _) in ResultsFile.numericColumns {
            let at = try XCTUnwrap(header.firstIndex(of: column), column)
            var hostile = ["inf", "-inf", "nan", "NaN", "infinity", "1e999", "-1", "0x10", "99999999999999999999999", "1,5", " 7"]
            if durations.contains(column) { hostile += ["0", "0.0", "1e19"] }
            if ["iterations", "scale", "batch"].contains(column) { hostile += ["0", "2.5"] }
            if ["sweep_value", "cache_size"].contains(column) { hostile.removeAll { $0 == "-1" } } // negative KiB; a sweep value may be below 0
            for value in hostile {
                var doctored = records
                doctored[3][at] = value
                let message = rejection(doctored.map(CSV.line).joined())
                XCTAssertTrue(message.hasPrefix(folder.appendingPathComponent("bad.csv").path + ": line 4: \(column) is '\(value)', not "),
                              "\(column) = \(value): \(message)")
                XCTAssertFalse(message.contains("\n"), message)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 26 * 10)
        // A version 2 file without the optional columns is still read.
        records = records.map { Array($0.prefix(header.firstIndex(of: "ci_high_ns")! + 1)) }
        XCTAssertEqual(rejection(records.map(CSV.line).joined()), "accepted")
    }

    /// The samples file: `inf` made `bench compare` die of SIGILL in the bootstrap ("Range requires
    /// lowerBound <= upperBound"), and so did a base whose samples were all 0. Both are refused,
    /// with the samples file's name and line.
    func testSamplesThatAreNotDurationsAreRefusedWithTheirLine() throws {
        let url = try writeRun("s.csv")
        let samplesURL = folder.appendingPathComponent("s.samples.csv")
        let original = try CSV.parse(String(contentsOf: samplesURL, encoding: .utf8))
        let ns = original[0].firstIndex(of: "ns")!
        for (value, every) in [("inf", false), ("nan", false), ("-4", false), ("0", true), ("1e999", false), ("", false), ("12 ", false)] {
            var records = original
            for index in every ? Array(records.indices.dropFirst()) : [5] { records[index][ns] = value }
            try Data(records.map(CSV.line).joined().utf8).write(to: samplesURL)
            XCTAssertThrowsError(try ResultsFile(url: url), value) {
                XCTAssertTrue("\($0)".hasPrefix("\(samplesURL.path): line \(every ? 2 : 6): ns is '\(value)', not a duration"), "\($0)")
            }
        }
        var records = original
        records[4][original[0].firstIndex(of: "repetition")!] = "-1"
        try Data(records.map(CSV.line).joined().utf8).write(to: samplesURL)
        XCTAssertThrowsError(try ResultsFile(url: url)) { XCTAssertTrue("\($0)".contains("line 5: repetition is '-1'"), "\($0)") }
    }

    /// Even given zeros or infinities directly, the bootstrap gives no interval rather than crashing.
    func testTheBootstrapRefusesValuesWithoutARatio() {
        XCTAssertNil(Comparison.bootstrapRatioInterval(base: [0, 0, 0], new: [1, 2, 3]))
        XCTAssertNil(Comparison.bootstrapRatioInterval(base: [1, 2], new: [.infinity, 2]))
        XCTAssertNil(Comparison.bootstrapRatioInterval(base: [1, .nan], new: [1, 2]))
        XCTAssertNil(Comparison.bootstrapRatioInterval(base: [], new: [1]))
        XCTAssertNotNil(Comparison.bootstrapRatioInterval(base: [1, 2], new: [2, 3]))
    }

    /// A samples file that belongs to another run, counts other repetitions, or whose medians are
    /// not the CSV's is not used: the rows keep their CSV intervals, with one warning naming the file and why.
    func testASamplesFileThatDoesNotBelongIsSetAsideWithAWarning() throws {
        let url = try writeRun("w.csv")
        let samplesURL = folder.appendingPathComponent("w.samples.csv")
        let original = try CSV.parse(String(contentsOf: samplesURL, encoding: .utf8))
        let base = try ResultsFile(url: writeRun("base.csv"))
        XCTAssertEqual(try ResultsFile(url: url).warnings, [])
        let cases: [(String, ([[String]]) -> [[String]])] = [
            ("repetitions are of run other-run, line 2 of w.csv is of run w.csv", { records in
                records.enumerated().map { $0.offset == 0 ? $0.element : ["other-run"] + $0.element.dropFirst() } }),
            ("it holds 29 repetitions of single-table count-all, line 2 of w.csv counts 30", { records in
                Array(records.prefix(1) + records.dropFirst(2)) }),
            ("its single-table count-all repetitions have the median", { records in
                records.enumerated().map { $0.offset == 0 || $0.offset > 30 ? $0.element : Array($0.element.dropLast()) + [String(UInt64($0.element.last!)! * 3)] } }),
            ("it has no repetitions of single-table count-all (line 2 of w.csv)", { records in
                records.filter { $0[3] != "single-table" || $0[4] != "count-all" } }),
        ]
        for (reason, doctor) in cases {
            try Data(doctor(original).map(CSV.line).joined().utf8).write(to: samplesURL)
            let file = try ResultsFile(url: url)
            XCTAssertEqual(file.warnings.count, 1, reason)
            let warning = file.warnings.first ?? ""
            XCTAssertTrue(warning.hasPrefix("the samples file \(samplesURL.path) does not belong to \(url.path): "), warning)
            XCTAssertTrue(warning.contains(reason), "\(reason): \(warning)")
            XCTAssertTrue(warning.hasSuffix("; using the medians' own intervals (marked *)"), warning)
            XCTAssertTrue(file.rows.allSatisfy { $0.samples == nil }, reason)
            let comparison = try Comparison.runs(base: base, new: file, threshold: 0.05, force: false)
            XCTAssertTrue(comparison.lines.allSatisfy { $0.method == .intervals }, reason)
        }
        // A samples_file that is not a plain file name beside the CSV is not followed.
        var results = try CSV.parse(String(contentsOf: url, encoding: .utf8))
        let column = results[0].firstIndex(of: "samples_file")!
        for name in ["../w.samples.csv", "/dev/zero"] {
            for index in results.indices.dropFirst() { results[index][column] = name }
            try Data(results.map(CSV.line).joined().utf8).write(to: url)
            let file = try ResultsFile(url: url)
            XCTAssertTrue(file.warnings.first?.contains("names its samples file '\(name)', which is not a file name beside it") == true, "\(file.warnings)")
            XCTAssertTrue(file.rows.allSatisfy { $0.samples == nil })
        }
    }
}
