import Generation
import Foundation
@testable import Reporting
import Workloads
import XCTest

final class StatisticsTests: XCTestCase {
    func testKnownInputsGiveKnownAnswers() {
        let odd = Statistics([5, 1, 9, 3, 7])
        XCTAssertEqual(odd.median, 5)
        XCTAssertEqual(odd.min, 1)
        XCTAssertEqual(odd.max, 9)
        XCTAssertEqual(odd.mean, 5)
        XCTAssertEqual(odd.count, 5)
        XCTAssertEqual(Statistics([4, 1, 3, 2]).median, 2.5)
        XCTAssertEqual(Statistics([42]).median, 42)
        // Large nanosecond values convert by value, not by bit pattern.
        XCTAssertEqual(Statistics([5_000_000_000, 7_000_000_000]).median, 6e9)
        XCTAssertEqual(Statistics.quantile([10, 20, 30, 40, 50], 0.9), 46, accuracy: 1e-9)
    }

    func testSpreadPercentilesAndOutliers() {
        // 1…20 and one far outlier.
        let statistics = Statistics((1 ... 20).map { UInt64($0) } + [1_000])
        XCTAssertEqual(statistics.median, 11)
        XCTAssertEqual(statistics.p90, 19)
        XCTAssertEqual(statistics.p99, 804, accuracy: 1e-9) // 20 + 0.8 × (1000 − 20)
        XCTAssertEqual(statistics.medianAbsoluteDeviation, 5)
        XCTAssertEqual(statistics.outliers, 1)
        XCTAssertEqual(Statistics([2, 4, 4, 4, 5, 5, 7, 9]).standardDeviation, (32.0 / 7).squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(Statistics([7]).standardDeviation, 0)
    }

    func testTheMedianIntervalUsesExactBinomialRanks() {
        // Known ranks of the distribution-free 95 % interval for the median (e.g. Conover, table A3).
        XCTAssertEqual(Statistics.medianIntervalRank(count: 5).rank, 1)
        XCTAssertEqual(Statistics.medianIntervalRank(count: 5).coverage, 1 - 2.0 / 32, accuracy: 1e-12)
        XCTAssertEqual(Statistics.medianIntervalRank(count: 6).rank, 1)
        XCTAssertEqual(Statistics.medianIntervalRank(count: 6).coverage, 1 - 2.0 / 64, accuracy: 1e-12)
        XCTAssertEqual(Statistics.medianIntervalRank(count: 9).rank, 2)
        XCTAssertEqual(Statistics.medianIntervalRank(count: 20).rank, 6)
        XCTAssertEqual(Statistics.medianIntervalRank(count: 100).rank, 40)
        let hundred = Statistics((1 ... 100).map { UInt64($0) })
        XCTAssertEqual(hundred.medianInterval, 40 ... 61)
        XCTAssertGreaterThanOrEqual(hundred.medianIntervalCoverage, 0.95)
        XCTAssertTrue(hundred.isNoisy, "an interval of 21 around 50.5 is wider than 5 %")
        XCTAssertFalse(Statistics(Array(repeating: 1_000, count: 30) + [1_001, 999]).isNoisy)
        XCTAssertEqual(Statistics([3, 1, 2]).medianInterval, 1 ... 3, "too few samples: the whole range")
        XCTAssertEqual(Self.binomialHalfCDF(2, 10), 56.0 / 1024, accuracy: 1e-12)
        XCTAssertEqual(Self.binomialHalfCDF(400, 2_000), 0, accuracy: 1e-12, "large counts do not overflow")
    }

    /// P(B ≤ k) for B ~ Binomial(n, ½), each term summed on its own in log space: the definition
    /// the one-pass ranks are checked against.
    static func binomialHalfCDF(_ k: Int, _ n: Int) -> Double {
        guard k >= 0 else { return 0 }
        guard k < n else { return 1 }
        let logHalfN = Double(n) * log(0.5)
        let logNFactorial: Double = lgamma(Double(n + 1))
        var total = 0.0
        for i in 0 ... k {
            let logTerm: Double = logNFactorial - lgamma(Double(i + 1)) - lgamma(Double(n - i + 1)) + logHalfN
            total += exp(logTerm)
        }
        return min(total, 1)
    }

    /// The interval the stopping rule reads, which `Statistics` reports too (its ranks, summed in one
    /// pass), is the definition's: the largest rank whose coverage from the binomial sums is ≥ 95 %.
    /// Every count to 300, then larger ones spread to 1,200 (the definition costs a sum per rank).
    func testTheStoppingRuleReadsTheSameIntervalAsStatistics() {
        for n in Array(1 ... 300) + Array(stride(from: 307, through: 1_200, by: 31)) + [1_200] {
            let (rank, coverage) = StoppingRule.medianIntervalRank(count: n)
            XCTAssertEqual(Statistics.medianIntervalRank(count: n).rank, rank, "n = \(n)")
            XCTAssertEqual(coverage, 1 - 2 * Self.binomialHalfCDF(rank - 1, n), accuracy: 1e-9, "n = \(n)")
            if rank < (n + 1) / 2 {
                XCTAssertLessThan(1 - 2 * Self.binomialHalfCDF(rank, n), StoppingRule.confidence, "n = \(n): the next rank would cover less than 95 %")
            }
        }
        var generator = SplitMix64(seed: 3)
        for n in [6, 7, 10, 31, 100, 257] {
            let samples = (0 ..< n).map { _ in 1_000_000 + generator.next() % 200_000 }
            let statistics = Statistics(samples)
            let halfWidth = (statistics.medianInterval.upperBound - statistics.medianInterval.lowerBound) / 2 / statistics.median
            XCTAssertEqual(StoppingRule.relativeHalfWidth(samples)!, halfWidth, accuracy: 1e-12, "n = \(n)")
            // Precise at the default target means not noisy: the flag's 5 % is the whole width.
            XCTAssertEqual(halfWidth <= RunPlan.defaultPrecision, !statistics.isNoisy, "n = \(n)")
        }
        XCTAssertNil(StoppingRule.relativeHalfWidth([1, 2, 3, 4, 5]), "five samples have no 95 % interval")
    }
}

final class CSVTests: XCTestCase {
    func testEscapedFieldsRoundTrip() throws {
        let records = [["plain", "with, comma", "with \"quotes\"", "line\nbreak", ""], ["a", "b", "c", "d", "e"]]
        let text = records.map(CSV.line).joined()
        XCTAssertEqual(try CSV.parse(text), records)
        let crlf = records.map { $0.map(CSV.escape).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
        XCTAssertEqual(try CSV.parse(crlf), records, "CRLF line ends")
        XCTAssertEqual(try CSV.parse("x,y"), [["x", "y"]], "no final line end")
    }

    func testMalformedInputIsRejectedWithALineNumber() {
        XCTAssertThrowsError(try CSV.parse("a,b\n\"open,c\n")) { XCTAssertEqual(($0 as! CSV.ParseError).line, 2) }
        XCTAssertThrowsError(try CSV.parse("a,b\nc,d\"e\n")) { XCTAssertEqual(($0 as! CSV.ParseError).line, 2) }
        XCTAssertThrowsError(try CSV.parse("\"a\"b\n")) { XCTAssertEqual(($0 as! CSV.ParseError).line, 1) }
    }
}

final class ResultsCSVTests: XCTestCase {
    func sampleResult(strategy: String = "single-table", samples: [UInt64] = [3_000, 1_000, 2_000]) -> WorkloadResult {
        WorkloadResult(strategy: strategy, workload: "fetch-by-tag", variant: "rare", rows: 10, samples: samples, warmups: 5,
                       digest: AnswerDigest(.unordered, of: [1, 2, 3]), dbBytes: 4_096,
                       setting: ResultSetting(hierarchy: "publications", scale: 1_000))
    }

    func context() -> RunContext {
        RunContext(runID: "r1", timestamp: "2026-11-22T00:00:00Z", gitCommit: "abc", gitDirty: false, sqliteVersion: "3.40.1",
                   sqliteOptions: "ENABLE_FTS5 THREADSAFE=1", swiftVersion: "6.3", build: "release", host: "host, with comma",
                   os: "Debian GNU/Linux 12 (bookworm)", cpuModel: "Some \"quoted\" CPU", cpuCores: 2)
    }

    func testARowHasEveryColumnAndReadsBack() throws {
        let plan = RunPlan(seed: 7, batchSize: 100)
        let text = ResultsCSV.header + ResultsCSV.row(sampleResult(), plan: plan, context: context())
        let records = try CSV.parse(text)
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records[0], ResultsCSV.columns.map(\.name))
        let row = Dictionary(uniqueKeysWithValues: zip(records[0], records[1]))
        XCTAssertEqual(row["host"], "host, with comma")
        XCTAssertEqual(row["workload"], "fetch-by-tag")
        XCTAssertEqual(row["variant"], "rare")
        XCTAssertEqual(row["median_ns"], "2000")
        XCTAssertEqual(row["min_ns"], "1000")
        XCTAssertEqual(row["max_ns"], "3000")
        XCTAssertEqual(row["iterations"], "3")
        XCTAssertEqual(row["rows_per_s"], "5000000.0")
        XCTAssertEqual(row["seed"], "7")
        XCTAssertEqual(row["scale"], "1000")
        XCTAssertEqual(row["batch"], "100")
        XCTAssertEqual(row["schema_version"], String(ResultsCSV.schemaVersion))
        XCTAssertEqual(row["digest"]?.count, 16)
        XCTAssertEqual(row["cpu_model"], "Some \"quoted\" CPU")
        XCTAssertEqual(row["ci_low_ns"], "1000")
        XCTAssertEqual(row["ci_high_ns"], "3000")
        XCTAssertEqual(row["noisy"], "true")
        XCTAssertEqual(row["time_budget_s"], "")
    }

    /// A run appends one result at a time: each row still gets its ratio to the baseline, also
    /// when the baseline's result comes after it (`--strategies joined,single-table`).
    func testRowsAppendedOneByOneGetTheirRatios() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("run.csv")
        let writer = try ResultsWriter(url: url, runID: "r1", force: false)
        let slow = (0 ..< 8).map { UInt64(2_000 + $0) }, base = (0 ..< 8).map { UInt64(1_000 + $0) }
        try writer.append([sampleResult(strategy: "joined", samples: slow)], plan: RunPlan(), context: context())
        var rows = try CSV.parse(String(contentsOf: url, encoding: .utf8))
        var ratio = try XCTUnwrap(rows[0].firstIndex(of: "ratio"))
        XCTAssertEqual(rows[1][ratio], "", "no baseline yet")
        try writer.append([sampleResult(samples: base)], plan: RunPlan(), context: context())
        try writer.append([sampleResult(strategy: "enum-entity", samples: base)], plan: RunPlan(), context: context())
        rows = try CSV.parse(String(contentsOf: url, encoding: .utf8))
        ratio = try XCTUnwrap(rows[0].firstIndex(of: "ratio"))
        let verdict = try XCTUnwrap(rows[0].firstIndex(of: "ratio_verdict"))
        XCTAssertEqual(rows.map { $0[verdict] }, ["ratio_verdict", "slower", "", "same"])
        XCTAssertEqual(Double(rows[1][ratio])!, 2, accuracy: 0.01)
        XCTAssertEqual(rows[3][ratio], "1.00000")
        writer.finish()
    }

    func testTheWriterRefusesToOverwriteAndKeepsTheFilesComplete() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("run.csv")
        let writer = try ResultsWriter(url: url, runID: "r1", force: false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing is written before the first row")
        let plan = RunPlan()
        try writer.append([sampleResult()], plan: plan, context: context())
        try writer.append([sampleResult(strategy: "enum-entity")], plan: plan, context: context())
        let results = try CSV.parse(String(contentsOf: url, encoding: .utf8))
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(results[1].last, "run.samples.csv", "each row names its samples file")
        let samples = try CSV.parse(String(contentsOf: folder.appendingPathComponent("run.samples.csv"), encoding: .utf8))
        XCTAssertEqual(samples[0], SamplesCSV.columns)
        XCTAssertEqual(samples.count, 1 + 6, "every timed repetition of both results")
        XCTAssertEqual(samples[1], ["r1", "publications", "", "single-table", "fetch-by-tag", "rare", "1", "", "3000"], "no position known")
        try writer.append([{ var result = sampleResult(strategy: "joined"); result.positions = [4, 0, 2]; return result }()],
                          plan: plan, context: context())
        let positioned = try CSV.parse(String(contentsOf: folder.appendingPathComponent("run.samples.csv"), encoding: .utf8))
        XCTAssertEqual(positioned.suffix(3).map { $0[SamplesCSV.columns.firstIndex(of: "position")!] }, ["4", "0", "2"],
                       "each repetition's place in its round")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".run.csv.lock", "run.csv", "run.samples.csv"],
                       "no temporary file is left; the claim is held while the writer is open")
        XCTAssertThrowsError(try ResultsWriter(url: url, runID: "r2", force: true), "a claimed output is not taken over, even with force") {
            XCTAssertTrue("\($0)".contains("is being written by another bench (process \(getpid()))"), "\($0)")
        }
        writer.finish()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["run.csv", "run.samples.csv"], "finish removes the lock file")

        XCTAssertThrowsError(try ResultsWriter(url: url, runID: "r2", force: false)) { XCTAssertTrue("\($0)".contains("already exists")) }
        try FileManager.default.removeItem(at: url)
        XCTAssertThrowsError(try ResultsWriter(url: url, runID: "r2", force: false), "a leftover samples file is not overwritten either") {
            XCTAssertTrue("\($0)".contains("run.samples.csv already exists"), "\($0)")
        }
        XCTAssertNoThrow(try ResultsWriter(url: url, runID: "r2", force: true))
        XCTAssertThrowsError(try ResultsWriter(url: folder, runID: "r2", force: true)) { XCTAssertTrue("\($0)".contains("is a folder")) }
        XCTAssertThrowsError(try ResultsWriter(url: folder.appendingPathComponent("missing/run.csv"), runID: "r2", force: false)) {
            XCTAssertTrue("\($0)".contains("does not exist"))
        }
        let taken = ResultsWriter.defaultURL(stamp: "run", folder: folder)
        XCTAssertEqual(taken.lastPathComponent, "run-2.csv", "the default name never replaces a file")
    }

    /// A path that names a folder by its form (a trailing slash, `.`) is refused; with a missing
    /// folder and a trailing slash, a file named after the folder used to be written.
    /// Samples files written before the position column are still read, and give the same samples.
    func testSamplesFilesWithoutPositionsAreStillRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("run.csv")
        let writer = try ResultsWriter(url: url, runID: "r1", force: false)
        var result = sampleResult(samples: [1_000, 1_100, 1_050, 990, 1_020, 1_010, 1_030])
        result.positions = [0, 1, 0, 1, 1, 0, 1]
        try writer.append([result, sampleResult(strategy: "joined", samples: [2_000, 2_100, 2_050, 1_990, 2_020, 2_010, 2_030])],
                          plan: RunPlan(), context: context())
        writer.finish()
        let current = try ResultsFile(url: url)
        XCTAssertEqual(current.rows.map { $0.samples?.count }, [7, 7])
        let samples = try CSV.parse(String(contentsOf: writer.samplesURL, encoding: .utf8))
        let position = samples[0].firstIndex(of: "position")!
        XCTAssertEqual(samples.dropFirst().map { $0[position] }, ["0", "1", "0", "1", "1", "0", "1", "", "", "", "", "", "", ""])
        try Data(samples.map { record in CSV.line(record.enumerated().filter { $0.offset != position }.map(\.element)) }.joined().utf8)
            .write(to: writer.samplesURL)
        let older = try ResultsFile(url: url)
        XCTAssertTrue(older.warnings.isEmpty, "\(older.warnings)")
        XCTAssertEqual(older.rows.map(\.samples), current.rows.map(\.samples))
    }

    func testTheWriterRefusesAPathThatNamesAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in [folder.path + "/newdir/", folder.path + "/newdir/.", folder.path + "/", folder.path + "/newdir/.."] {
            XCTAssertThrowsError(try ResultsWriter(url: URL(fileURLWithPath: path), runID: "r", force: true), path) {
                XCTAssertTrue("\($0)".contains(" folder; give a file name such as "), "\(path): \($0)")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    /// A claim is exclusive while it is held, and a lock file left behind by a process that ended
    /// (here: one whose lock was dropped without removing the file) claims nothing.
    func testAClaimIsExclusiveAndALeftoverLockFileClaimsNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("claim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.csv")
        let claim = try OutputClaim(url)
        XCTAssertEqual(try String(contentsOfFile: claim.lockPath, encoding: .utf8), "\(getpid())\n")
        XCTAssertThrowsError(try OutputClaim(url)) { XCTAssertTrue("\($0)".contains("is being written by another bench"), "\($0)") }
        claim.release()
        claim.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: claim.lockPath))
        try Data("12345\n".utf8).write(to: URL(fileURLWithPath: claim.lockPath)) // as a SIGKILLed bench leaves it
        let again = try OutputClaim(url)
        XCTAssertEqual(ResultsWriter.defaultURL(stamp: "out", folder: folder).lastPathComponent, "out-2.csv", "a claimed default name is skipped")
        again.release()
    }

    /// When a write fails after some rows were published, the writer counts only those, the CSV
    /// keeps them, and the samples file is put back as it was (a failed first write leaves none).
    func testAFailedWriteKeepsThePublishedRowsAndCountsOnlyThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("run.csv")
        let writer = try ResultsWriter(url: url, runID: "r1", force: false)
        defer { writer.finish() }
        let plan = RunPlan()
        // The results file's temporary name is taken by a folder: its next write fails.
        let blocker = AtomicFile.temporaryURL(for: url)
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        XCTAssertThrowsError(try writer.append([sampleResult()], plan: plan, context: context())) {
            XCTAssertTrue("\($0)".hasPrefix("could not write \(url.path) (creating \(blocker.path): Is a directory)"), "\($0)")
        }
        XCTAssertEqual(writer.rowCount, 0)
        XCTAssertNil(writer.rowsOnDisk())
        XCTAssertFalse(FileManager.default.fileExists(atPath: writer.samplesURL.path), "no samples file without its results")
        try FileManager.default.removeItem(at: blocker)
        try writer.append([sampleResult()], plan: plan, context: context())
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        XCTAssertThrowsError(try writer.append([sampleResult(strategy: "enum-entity")], plan: plan, context: context()))
        XCTAssertEqual(writer.rowCount, 1)
        XCTAssertEqual(writer.rowsOnDisk(), 1)
        XCTAssertEqual(try CSV.parse(String(contentsOf: writer.samplesURL, encoding: .utf8)).count, 1 + 3, "the samples of the published row only")
    }

    /// Foundation's file errors become one sentence with the path, the reason and what to do.
    func testFoundationFileErrorsBecomeOneSentence() {
        let dump = NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [
            NSFilePathErrorKey: "/srv/x/inheritance-bench-1-AB",
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR)),
        ])
        XCTAssertEqual(FileProblem.sentence(for: dump),
                       "could not create or write /srv/x/inheritance-bench-1-AB (Not a directory); check that its folder exists, is writable and has free space")
        let inTemporary = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteVolumeReadOnly.rawValue, userInfo: [
            NSFilePathErrorKey: FileManager.default.temporaryDirectory.appendingPathComponent("s").path,
        ])
        XCTAssertTrue(FileProblem.sentence(for: inTemporary)?.contains("(read-only file system); the temporary folder") == true, "\(String(describing: FileProblem.sentence(for: inTemporary)))")
        XCTAssertTrue(FileProblem.sentence(for: inTemporary)?.contains("set TMPDIR to one") == true)
        XCTAssertNil(FileProblem.sentence(for: CSV.ParseError(line: 1, reason: "x")))
    }

    func testTheTableShowsRatiosToTheBaseline() {
        let table = ConsoleTable.render([sampleResult(), sampleResult(strategy: "enum-entity", samples: [4_000, 4_000, 4_000])], baseline: "single-table")
        XCTAssertTrue(table.contains("fetch-by-tag/rare"))
        XCTAssertTrue(table.contains("1.00×"))
        XCTAssertTrue(table.contains("2.00× [3 rounds, no interval]?"), table)
        XCTAssertEqual(ConsoleTable.duration(1_520_000_000), "1.52 s")
        XCTAssertEqual(ConsoleTable.duration(45_300), "45.3 µs")
    }

    /// A median of one repetition has no interval: "–" in the ± column, never "0.0%".
    func testOneRepetitionShowsADashForItsInterval() {
        let table = ConsoleTable.render([sampleResult(samples: [3_000]), sampleResult(strategy: "enum-entity", samples: [4_000, 4_100, 3_900])],
                                        baseline: "single-table")
        let lines = table.split(separator: "\n")
        let single = lines.first { $0.contains("single-table") && !$0.hasPrefix("workload") }.map(String.init) ?? ""
        let fields = single.split(separator: " ")
        XCTAssertEqual(fields.count > 4 ? String(fields[4]) : "", "–", "the ± column of \(single)")
        XCTAssertFalse(single.contains("0.0%"), table)
        XCTAssertTrue(lines.contains { $0.contains("enum-entity") && $0.contains("%") }, "more repetitions keep their half-width: \(table)")
    }
}
