import CoreDataStores
import Foundation
import Models
import Reporting
import SQLite
import StoreFiles
import TestSupport
import XCTest

/// Runs the real `bench` executable, as a user would, and checks exit codes, messages and files.
final class CommandLineTests: XCTestCase {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
        /// `.uncaughtSignal` when bench died of a signal (a trap is SIGILL, status 4 on Linux).
        var reason: Process.TerminationReason = .exit
        /// The process id bench ran as, which names its store folder.
        var pid: Int32 = 0
    }

    /// The `bench` binary built beside this test bundle.
    static var executable: URL {
        let bundle = Bundle(for: CommandLineTests.self).bundleURL
        // Linux puts the tests beside the products; macOS wraps them in an .xctest bundle.
        let candidates = [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("bench") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `bench` to completion. `environment` is added to this process's environment;
    /// `standardError` is a shell redirection of bench's standard error, such as `2>&-`.
    func bench(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
               standardError redirect: String? = nil, input: Data? = nil) throws -> Outcome {
        try Self.bench(arguments, in: directory, environment: environment, standardError: redirect, input: input)
    }

    static func bench(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                      standardError redirect: String? = nil, input: Data? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        if let redirect {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirect)", Self.executable.path] + arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
                       reason: process.terminationReason, pid: process.processIdentifier)
    }

    /// Runs `bench` once for each argument list, two at a time (the runs are independent
    /// refusals, and this machine has two cores), returning the outcomes in the lists' order.
    func benchEach(_ argumentLists: [[String]], in directory: URL? = nil) throws -> [Outcome] {
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var byIndex: [Int: Result<Outcome, Error>] = [:]
        }
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: argumentLists.count, by: 2) {
                let outcome = Result { try Self.bench(argumentLists[index], in: directory) }
                outcomes.lock.withLock { outcomes.byIndex[index] = outcome }
            }
        }
        return try argumentLists.indices.map { try XCTUnwrap(outcomes.byIndex[$0]).get() }
    }

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The first line of standard error, which must say what is wrong.
    func firstErrorLine(_ outcome: Outcome) -> String {
        outcome.stderr.split(separator: "\n").first { !$0.hasPrefix("warning:") }.map(String.init) ?? ""
    }

    func testInvalidOptionsFailWithOneClearLine() throws {
        let cases: [([String], String)] = [
            (["run", "--scale", "0"], "--scale must be between 1 and 10000000 objects; got 0"),
            (["run", "--scale=-5"], "--scale must be between 1 and 10000000 objects; got -5"),
            (["run", "--scale", "99999999999"], "--scale must be between 1 and 10000000 objects; got 99999999999"),
            (["run", "--scale", "lots"], "The value 'lots' is invalid for '--scale <scale>'"),
            (["run", "--batch", "0"], "--batch must be between 1 and 1000000 objects per transaction; got 0"),
            (["run", "--repetitions", "0"], "--repetitions must be between 1 and 100000; got 0"),
            (["run", "--strategies", "single-table,wide"], "unknown strategy 'wide'; choose from: single-table, table-per-entity, enum-entity, joined, json-entity"),
            (["run", "--strategies", ""], "the strategy list is empty"),
            (["run", "--workloads", "count-all,count-all"], "workload 'count-all' is listed twice"),
            (["run", "--workloads", "fetch-everything"], "unknown workload 'fetch-everything'; choose from: insert-bulk,"),
            (["run", "--force"], "--force only applies with --output or --log-sql"),
            (["sweep", "--parameter", "scale", "--force"], "--force only applies with --output; the default"),
            (["run", "--time-budget", "0"], "--time-budget must be a number of seconds above 0 and at most 3600; got 0.0"),
            (["run", "--time-budget=-1"], "--time-budget must be a number of seconds above 0"),
            (["run", "--time-budget", "1e9"], "--time-budget must be a number of seconds above 0 and at most 3600"),
            (["run", "--time-budget", "soon"], "The value 'soon' is invalid for '--time-budget <time-budget>'"),
            (["run", "--time-budget", "2", "--repetitions", "5"], "--repetitions and --time-budget conflict"),
            (["run", "--blocks", "2", "--repetitions", "5"], "--blocks conflicts with --repetitions: --repetitions asks for an exact count of rounds"),
            (["run", "--case-time", "0.5"], "--case-time must be a number of seconds from 1 to 3600; got 0.5"),
            (["run", "--case-time", "5", "--repetitions", "5"], "--case-time conflicts with --repetitions"),
            (["run", "--run-time", "5"], "--run-time must be a number of seconds from 10 to 86400; got 5.0"),
            (["run", "--run-time", "60", "--case-time", "5"], "--run-time conflicts with --case-time"),
            (["sweep", "--parameter", "skew", "--run-time", "60", "--time-budget", "1"], "--run-time conflicts with --time-budget"),
            (["run", "--min-repetitions", "9", "--max-repetitions", "3"], "--min-repetitions (9) must not exceed --max-repetitions (3)"),
            (["run", "--batch", "2000000"], "--batch must be between 1 and 1000000 objects per transaction; got 2000000"),
            (["run", "--repetitions", "100001"], "--repetitions must be between 1 and 100000; got 100001"),
            (["run", "--seed", "-1"], "Missing value for '--seed <seed>'"),
            (["run", "--seed=-1"], "The value '-1' is invalid for '--seed <seed>'"),
            (["run", "--workloads", " , "], "the workload list is empty"),
            (["compare", "a.csv"], "give two results CSVs (BASE.csv NEW.csv), or one with --strategies; got 1"),
            (["compare", "--strategies", "a.csv", "b.csv"], "--strategies takes one results CSV; got 2"),
            (["generate", "--strategy", "nope", "--output", "x.sqlite"], "unknown strategy 'nope'"),
            (["run", "--preset", "efcore"], "unknown preset 'efcore'; choose from: publications, efcore-animals, efcore-docs, codingmilitia, timestamps"),
            (["run", "--preset", "efcore-docs", "--model", "h.json"], "--preset and --model conflict"),
            (["run", "--output", "r.json"], "--output r.json is the name of the run's JSON export, which it writes beside the CSV under the CSV's name; give the CSV a name ending in .csv, such as r.csv"),
            (["run", "--output", "out/R.MD"], "--output R.MD is the name of the run's Markdown summary"),
            (["sweep", "--parameter", "depth", "--values", "1,2", "--output", "d.json"], "--output d.json is the name of the run's JSON export"),
            (["run", "--model", "missing.json"], "the model file missing.json does not exist"),
            (["run", "--model", "/dev/zero"], "the model file /dev/zero is a device, not a regular file"),
            (["model", "--model", "/dev/zero"], "the model file /dev/zero is a device, not a regular file"),
            (["run", "--model", "."], ". holds no .swift file (build folders, Tests and hidden folders skipped) and is not a Core Data model; give a folder of SwiftData @Model sources, an Xcode model or a JSON model description"),
            (["run", "--preset", "timestamps", "--workloads", "filter-fk"], "workload filter-fk does not apply to the model timestamps: the main root declares no to-one relationship"),
            (["run", "--preset", "timestamps", "--workloads", "fetch-branch"], "workload fetch-branch does not apply to the model timestamps: no entity of the main hierarchy has both a parent and sub-entities"),
            (["run", "--workloads", "fetch-by-tag"], "unknown workload 'fetch-by-tag'; choose from: insert-bulk,"),
            (["model", "--preset", "nope"], "unknown preset 'nope'"),
            (["model", "--scale", "0"], "--scale must be between 1 and 10000000 objects; got 0"),
            (["model", "--scale=-5"], "--scale must be between 1 and 10000000 objects; got -5"),
            (["model", "--scale", "99999999999"], "--scale must be between 1 and 10000000 objects; got 99999999999"),
            (["run", "--mix", "Book=1e308,Film=1e308"], "--mix weights add up to more than the largest number (about 1.8e308)"),
            (["model", "--mix", "Book=1e308,Film=1e308"], "--mix weights add up to more than the largest number (about 1.8e308)"),
            (["generate", "--strategy", "joined", "--mix", "Book=1e308,Film=1e308", "--output", "x.sqlite"], "--mix weights add up to more than the largest number"),
            (["sweep"], "Missing expected argument '--parameter <parameter>'"),
            (["sweep", "--parameter", "depth", "--values", "7"], "--values for depth must be whole numbers from 1 to 6; got 7"),
            (["sweep", "--parameter", "breadth"], "The value 'breadth' is invalid for '--parameter <parameter>'"),
            (["sweep", "--parameter", "sub-entities", "--values", "250", "--attributes", "64"], "the generated model cannot be stored"),
            (["sweep", "--parameter", "attributes", "--values", "1,x"], "--values must be numbers separated by commas; 'x' is not a number"),
            (["sweep", "--parameter", "attributes", "--values", "1.5"], "--values for attributes must be whole numbers from 1 to 64; got 1.5"),
            (["sweep", "--parameter", "sub-entities", "--values", "1,4"], "--values for sub-entities must be whole numbers from 2 to 250; got 1"),
            (["sweep", "--parameter", "skew", "--values", "0,0"], "--values lists a value twice"),
            (["sweep", "--parameter", "skew", "--attributes", "0"], "--attributes must be between 1 and 64; got 0"),
        ]
        for ((arguments, message), outcome) in zip(cases, try benchEach(cases.map(\.0), in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(arguments): a usage error exits with 64 (EX_USAGE)")
            XCTAssertTrue(firstErrorLine(outcome).contains(message), "\(arguments): \(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
            XCTAssertEqual(lines.count, 1, "\(arguments): one line, not the usage text: \(outcome.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix("error: ") == true && lines.first?.hasSuffix("--help')") == true, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "", "\(arguments)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing is written on bad input")
    }

    func testOutputProblemsFailBeforeRunning() throws {
        let existing = folder.appendingPathComponent("taken.csv")
        try Data("keep me".utf8).write(to: existing)
        let cases: [([String], String)] = [
            (["run", "--scale", "10", "--output", existing.path], "already exists; choose another --output or pass --force"),
            (["run", "--scale", "10", "--output", folder.path], "is a folder"),
            (["run", "--scale", "10", "--output", folder.appendingPathComponent("missing/r.csv").path], "does not exist"),
            (["generate", "--strategy", "single-table", "--scale", "10", "--output", existing.path], "already exists"),
            (["run", "--scale", "10", "--output", "/proc/results.csv"], "the output folder /proc is not writable"),
            (["generate", "--strategy", "single-table", "--scale", "10", "--output", "/proc/store.sqlite"], "the output folder /proc is not writable"),
            // A path that ends in / names a folder, whether it exists or not: a missing one used to
            // give a file named after it (newdir), an existing one the "is a folder" error.
            (["run", "--scale", "10", "--output", "newdir/"], "error: the output path \(folder.path)/newdir/ names a folder; give a file name such as \(folder.path)/newdir/run.csv"),
            (["sweep", "--parameter", "skew", "--values", "0", "--scale", "10", "--output", "newdir/"], "the output path \(folder.path)/newdir/ names a folder"),
            (["run", "--scale", "10", "--output", folder.path + "/"], "the output path \(folder.path) is a folder; give a file name such as \(folder.path)/run.csv"),
            (["run", "--scale", "10", "--output", "."], "the output path \(folder.path) is a folder"),
            (["run", "--scale", "10", "--output", ""], "the output path \(folder.path) is a folder"),
            (["generate", "--strategy", "joined", "--scale", "10", "--output", "newdir/"], "names a folder; give a file name such as \(folder.path)/newdir/store.sqlite"),
            (["storage", "--scale", "10", "--output", "newdir/"], "names a folder"),
            (["explain", "--scale", "10", "--output", "taken.csv/"], "the output path \(folder.path)/taken.csv/ names a folder"),
            // A name the folder takes (250 bytes) but whose temporary file it does not: refused before
            // running, instead of a failed write after the first case and a note naming a missing file.
            (["run", "--scale", "10", "--output", String(repeating: "n", count: 246) + ".csv"], "File name too long); choose a shorter --output"),
            (["generate", "--strategy", "joined", "--scale", "10", "--output", String(repeating: "n", count: 246) + ".sql"], "File name too long); choose a shorter --output"),
            (["storage", "--scale", "10", "--output", String(repeating: "n", count: 250)], "File name too long); choose a shorter --output"),
        ]
        for ((arguments, message), outcome) in zip(cases, try benchEach(cases.map(\.0), in: folder)) {
            XCTAssertEqual(outcome.status, 1, "\(arguments)")
            XCTAssertEqual(firstErrorLine(outcome), outcome.stderr.split(separator: "\n").first { !$0.hasPrefix("warning:") }.map(String.init))
            XCTAssertTrue(firstErrorLine(outcome).hasPrefix("error: ") && firstErrorLine(outcome).contains(message), "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }.count, 1, "\(arguments): one line, no note: \(outcome.stderr)")
            XCTAssertEqual(outcome.reason, .exit, "\(arguments)")
        }
        XCTAssertEqual(try String(contentsOf: existing, encoding: .utf8), "keep me", "an existing file is never overwritten silently")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["taken.csv"], "nothing else is written: no newdir file, no lock")
    }

    /// A time budget is measured in blocks, as the default rule is: each ratio's interval says so.
    func testATimeBudgetIsMeasuredInBlocks() throws {
        let outcome = try bench(["run", "--scale", "60", "--workloads", "count-all,insert-bulk", "--time-budget", "0.01", "--blocks", "2",
                                 "--quiet", "--output", "b.csv"], in: folder)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let results = try ResultsJSON.read(url: folder.appendingPathComponent("b.json")).results.filter { $0.strategy != "single-table" }
        XCTAssertEqual(results.count, 8)
        for result in results {
            XCTAssertEqual(result.ratioBlocks, result.workload == "insert-bulk" ? 1 : 2, "\(result.workload) \(result.strategy)")
        }
    }

    func testATinyRunWritesACompleteCSVAndATable() throws {
        let memory = ProcessInfo.processInfo.environment["TMPDIR"] == nil && StoreFolder.fileSystemType("/dev/shm") == "tmpfs"
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
        let outcome = try bench(["run", "--scale", "60", "--repetitions", "1", "--quiet"], in: folder)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        // Only this run's folder counts: other tests' benches may be running beside it (swift test --parallel).
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
        XCTAssertEqual(after.subtracting(before).filter { $0.hasPrefix("inheritance-bench-run-\(outcome.pid)-") }, [], "the run's stores are removed from /dev/shm")
        let results = folder.appendingPathComponent("results")
        let all = try FileManager.default.contentsOfDirectory(atPath: results.path).sorted()
        XCTAssertEqual(all.count, 4, "the results, their samples, the JSON and the summary: \(all)")
        let files = all.filter { $0.hasSuffix(".csv") }
        let stem = files[0].replacingOccurrences(of: ".csv", with: "")
        XCTAssertEqual(all, [files[0], stem + ".json", stem + ".md", stem + ".samples.csv"], "\(all)")
        let json = try ResultsJSON.read(url: results.appendingPathComponent(stem + ".json"))
        XCTAssertEqual(json.results.count, 5 * 24, "the JSON holds the CSV's rows")
        XCTAssertTrue(json.results.allSatisfy { $0.samplesNs.count == 1 })
        XCTAssertTrue(json.results.allSatisfy { ($0.work?.vmSteps ?? 0) > 0 && ($0.work?.statementRuns ?? 0) > 0 }, "SQLite's work is counted in every case")
        XCTAssertTrue(json.results.allSatisfy { ($0.strategy == "single-table") == ($0.work?.vmStepsRatio == nil) }, "every strategy but the baseline has its work ratio")
        XCTAssertTrue(json.results.allSatisfy { ($0.sqliteMemoryBytes ?? 0) > 0 && ($0.peakRssBytes ?? 0) > 1 << 20 }, "SQLite's memory and the process's are measured")
        XCTAssertTrue(try String(contentsOf: results.appendingPathComponent(stem + ".md"), encoding: .utf8).contains("| fetch-page |"))
        let csv = try String(contentsOf: results.appendingPathComponent(files[0]), encoding: .utf8)
        let samples = try String(contentsOf: results.appendingPathComponent(files[1]), encoding: .utf8)
        // Every workload applies to the publication model but fetch-branch and count-branch (depth 1);
        // fetch-by-relationship and fetch-partial have two cases each; prefetch and fetch-sectioned
        // are not in the default run: 24 cases.
        XCTAssertEqual(samples.split(separator: "\n").count, 1 + 5 * 24, "one repetition per row, as asked")
        let lines = csv.split(separator: "\n")
        XCTAssertEqual(lines.count, 1 + 5 * 24, "a header, one row per strategy and workload case")
        XCTAssertTrue(lines[0].hasPrefix("schema_version,run_id,timestamp,git_commit"))
        // Run outside the checkout, the binary still names the commit it was built from.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertFalse(folder.path.hasPrefix(checkout.path), "the run's folder is outside the checkout")
        // (A commit of this checkout: HEAD when nothing was committed since the build.)
        let commit = json.context.gitCommit
        XCTAssertEqual(commit.count, 12, commit)
        XCTAssertNotNil(try Self.output("/usr/bin/git", ["-C", checkout.path, "cat-file", "-e", commit + "^{commit}"]), "\(commit) is a commit of the checkout the binary was built from")
        // Without TMPDIR or --store-folder, a run this small keeps its stores in memory.
        XCTAssertEqual(json.context.temporaryFolder, memory ? "/dev/shm" : FileManager.default.temporaryDirectory.standardizedFileURL.path)
        XCTAssertTrue(outcome.stdout.contains("vs single-table"))
        XCTAssertTrue(outcome.stdout.contains("results: results/\(files[0])"), outcome.stdout)
    }

    func testAPresetRunAndASweepWriteLongFormatCSVs() throws {
        let run = try bench(["run", "--preset", "codingmilitia", "--scale", "300", "--repetitions", "1", "--quiet", "--output", "m.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("m.csv")).rows
        // Not fetch-branch, count-branch (depth 1), fetch-by-relationship (no to-many into a unique string), lookup-composite, search-title,
        // fetch-own (an abstract base), filter-sub-attribute (the unique attribute is the base's), and not
        // fetch-sectioned or prefetch (outside the default run); fetch-partial's two cases: 19.
        XCTAssertEqual(rows.count, 5 * 19, "five strategies × nineteen cases")
        XCTAssertEqual(Set(rows.map { $0.fields["hierarchy"]! }), ["codingmilitia"])
        XCTAssertEqual(Set(rows.map { $0.fields["scale"]! }), ["1300"], "300 objects in the hierarchy and its 1,000 owners")
        XCTAssertTrue(run.stdout.contains("codingmilitia: filter-fk"), run.stdout)

        let file = folder.appendingPathComponent("h.json")
        try Data(#"{"name":"mine","entities":[{"name":"Thing","abstract":true,"attributes":[{"name":"uid","type":"uuid"}],"uniquenessConstraints":[["uid"]]},{"name":"Big","parent":"Thing","attributes":[{"name":"n","type":"integer64"}],"rows":30},{"name":"Small","parent":"Thing","rows":10}]}"#.utf8).write(to: file)
        // h.csv's JSON would be h.json, the model file: refused, even with --force, as a usage error.
        for force in [[], ["--force"]] {
            let clash = try bench(["run", "--model", file.path, "--workloads", "count-by-type", "--repetitions", "1", "--quiet", "--output", "h.csv"] + force, in: folder)
            XCTAssertEqual(clash.status, 64, clash.stderr)
            XCTAssertTrue(firstErrorLine(clash).contains("h.json"), clash.stderr)
        }
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasPrefix(#"{"name":"mine""#), "the model file is kept")
        let own = try bench(["run", "--model", file.path, "--workloads", "count-by-type,fetch-leaf", "--repetitions", "1", "--quiet", "--output", "own.csv"], in: folder)
        XCTAssertEqual(own.status, 0, own.stderr)
        let ownRows = try ResultsFile(url: folder.appendingPathComponent("own.csv")).rows
        XCTAssertEqual(ownRows.map { $0.fields["rows"]! }, Array(repeating: "2", count: 5) + Array(repeating: "30", count: 5))

        let sweep = try bench(["sweep", "--parameter", "sub-entities", "--values", "2,3", "--scale", "90", "--repetitions", "1",
                               "--workloads", "fetch-leaf,count-all", "--quiet", "--output", "s.csv"], in: folder)
        XCTAssertEqual(sweep.status, 0, sweep.stderr)
        let sweepRows = try ResultsFile(url: folder.appendingPathComponent("s.csv")).rows
        XCTAssertEqual(sweepRows.count, 2 * 2 * 5)
        XCTAssertEqual(sweepRows.map { $0.fields["sweep_value"]! }, Array(repeating: "2", count: 10) + Array(repeating: "3", count: 10))
        XCTAssertEqual(Set(sweepRows.map { $0.fields["sweep_parameter"]! }), ["sub-entities"])
        XCTAssertEqual(sweepRows.filter { $0.workload == "fetch-leaf" }.map { $0.fields["rows"]! }, Array(repeating: "45", count: 5) + Array(repeating: "30", count: 5))

        let depth = try bench(["sweep", "--parameter", "depth", "--values", "1,4", "--scale", "80", "--repetitions", "1",
                               "--workloads", "fetch-polymorphic,count-leaf", "--quiet", "--output", "d.csv"], in: folder)
        XCTAssertEqual(depth.status, 0, depth.stderr)
        XCTAssertEqual(try ResultsFile(url: folder.appendingPathComponent("d.csv")).rows.count, 2 * 2 * 5)
        XCTAssertTrue(sweepRows.allSatisfy { $0.samples?.count == 1 }, "the samples file keys every point apart")
        // A fetch of yours at every point, read against each point's model (alone: no workload besides).
        let fetches = try bench(["sweep", "--parameter", "sub-entities", "--values", "2,3", "--scale", "90", "--repetitions", "1", "--quiet", "--output", "f.csv",
                                 "--fetch", "recent = Item WHERE title != nil SORT BY createdate DESC, uid LIMIT 10", "--fetch", "COUNT Item WHERE rank > 0"], in: folder)
        XCTAssertEqual(fetches.status, 0, fetches.stderr)
        let fetchRows = try ResultsFile(url: folder.appendingPathComponent("f.csv")).rows
        XCTAssertEqual(fetchRows.map(\.workload), Array(repeating: ["recent", "fetch-2"].flatMap { Array(repeating: $0, count: 5) }, count: 2).flatMap { $0 })
        XCTAssertEqual(Set(fetchRows.filter { $0.workload == "recent" }.map { $0.fields["rows"]! }), ["10"])
        let wrong = try bench(["sweep", "--parameter", "sub-entities", "--values", "2,3", "--scale", "90", "--output", "g.csv", "--fetch", "Item WHERE nope > 1"], in: folder)
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        XCTAssertTrue(wrong.stderr.hasPrefix("error: --fetch: unknown key 'nope' of Item"), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("(at sub-entities = 2; a fetch must fit every point's model)"), "the point that refused it: \(wrong.stderr)")
        XCTAssertEqual(try bench(["compare", "s.csv", "s.csv"], in: folder).status, 0)
    }

    func testGenerateWritesAStoreToOpenInSQLite() throws {
        let store = folder.appendingPathComponent("store.sqlite")
        let outcome = try bench(["generate", "--strategy", "single-table", "--scale", "25", "--output", store.path])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("225 objects"), "25 publications and 200 tags: \(outcome.stdout)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["store.sqlite"], "one file, no WAL or partial files left")
        // Given back as a model, it is named for what it is (it keeps no compiled model), not called damaged.
        for (strategy, model, source) in [("single-table", "publications", "--preset publications"), ("joined", "shop", "the --model it was generated from")] {
            let other = folder.appendingPathComponent("\(strategy).sqlite")
            let arguments = model == "shop" ? ["--model", Self.fixtures.appendingPathComponent("shop.json").path] : ["--preset", model]
            XCTAssertEqual(try bench(["generate", "--strategy", strategy, "--scale", "25", "--output", other.path] + arguments).status, 0)
            let read = try bench(["model", "--model", other.path])
            XCTAssertEqual(read.status, 64, read.stderr)
            XCTAssertTrue(read.stderr.hasPrefix("error: \(other.path) is a store bench generate wrote (the \(strategy) layout of the model \(model)), which keeps no compiled model"), read.stderr)
            XCTAssertTrue(read.stderr.contains("measure the model it was made from instead (\(source))"), read.stderr)
        }
    }

    /// A store that cannot grow (the disk is full; here `INHERITANCE_BENCH_MAX_PAGE_COUNT` caps it
    /// at 50 pages, and SQLite fails with SQLITE_FULL) stops `generate` with one line saying so
    /// and what to do, and leaves no file behind: no store, no partial store, no WAL.
    func testAFullDiskStopsGenerateWithOneLineAndLeavesNoFile() throws {
        for strategy in ["single-table", "table-per-entity", "enum-entity", "joined", "json-entity"] {
            let store = folder.appendingPathComponent("s.sqlite")
            let outcome = try bench(["generate", "--strategy", strategy, "--scale", "5000", "--output", store.path],
                                    environment: ["INHERITANCE_BENCH_MAX_PAGE_COUNT": "50"])
            XCTAssertEqual(outcome.status, 1, "\(strategy): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "", strategy)
            XCTAssertTrue(outcome.stderr.hasSuffix("\n") && !outcome.stderr.dropLast().contains("\n"), "\(strategy): one line: \(outcome.stderr)")
            let line = outcome.stderr
            XCTAssertTrue(line.hasPrefix("error: the store \(store.path) is full: SQLite could not grow it (SQLite error 13 (database or disk is full)"), line)
            XCTAssertTrue(line.contains("; free disk space in \(folder.path) or lower --scale"), line)
            XCTAssertTrue(line.contains("INHERITANCE_BENCH_MAX_PAGE_COUNT=50 is set"), line)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "\(strategy): no store, partial store or WAL is left")
        }
    }

    /// The same limit during `bench run`: one error line naming the temporary folder, and the
    /// run's temporary stores are removed.
    func testAFullDiskStopsARunAndRemovesItsStores() throws {
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("r.csv")
        let outcome = try bench(["run", "--scale", "5000", "--workloads", "insert-bulk", "--repetitions", "1", "--output", output.path],
                                environment: ["INHERITANCE_BENCH_MAX_PAGE_COUNT": "50", "TMPDIR": temporary.path])
        XCTAssertEqual(outcome.status, 1, outcome.stderr)
        let errors = outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
        XCTAssertEqual(errors.count, 1, outcome.stderr)
        XCTAssertTrue(errors.first?.hasPrefix("error: a store in \(temporary.path)") ?? false, outcome.stderr)
        XCTAssertTrue(errors.first?.contains("is full: SQLite could not grow it (SQLite error 13") ?? false, outcome.stderr)
        XCTAssertTrue(errors.first?.contains("or lower --scale") ?? false, outcome.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "the run's temporary stores are removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no workload completed, so no CSV")
    }

    func testModelPrintsTheTreeEachStrategysTablesAndWhichWorkloadsApply() throws {
        let outcome = try bench(["model", "--preset", "efcore-animals"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        for line in ["  1 Animal (abstract;", "    4 Pet (abstract;", "      5 Cat (5000 objects;", "single-table:", "joined:",
                     "CREATE TABLE ZPET ( Z_PK INTEGER PRIMARY KEY REFERENCES ZANIMAL (Z_PK) ON DELETE CASCADE", "fetch-branch",
                     "does not apply: no entity of the main hierarchy has a one-attribute uniqueness constraint"] {
            XCTAssertTrue(outcome.stdout.contains(line), "\(line)\n\(outcome.stdout)")
        }
        XCTAssertTrue(outcome.stdout.split(separator: "\n").contains { $0.contains("lookup-attribute") && $0.contains("does not apply") })
        XCTAssertTrue(outcome.stdout.split(separator: "\n").contains { $0.contains("fetch-branch") && $0.hasSuffix("applies") })
        let flat = folder.appendingPathComponent("flat.json")
        try Data(#"{"name":"flat","entities":[{"name":"Note","rows":5,"attributes":[{"name":"text","type":"string"}]}]}"#.utf8).write(to: flat)
        let plain = try bench(["model", "--model", flat.path, "--strategies", "single-table"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stdout.contains("no entity has sub-entities, so there is no inheritance to compare"), plain.stdout)
    }

    /// A huge `--mix` weight is a share like any other: what it multiplies must not overflow.
    /// A model through a pipe is read once per command: every option group validates it, then
    /// the command runs on it, and a pipe gives its bytes only to the first reader.
    func testAModelThroughAPipeIsReadOnce() throws {
        let json = try Data(contentsOf: Self.fixtures.appendingPathComponent("shop.json"))
        let model = try bench(["model", "--model", "/dev/stdin"], input: json)
        XCTAssertEqual(model.status, 0, model.stderr)
        XCTAssertTrue(model.stdout.hasPrefix("Model shop: 7 entities"), model.stdout)
        let csv = folder.appendingPathComponent("piped.csv")
        let run = try bench(["run", "--model", "/dev/stdin", "--scale", "200", "--repetitions", "1", "--strategies", "single-table,joined",
                             "--workloads", "count-all", "--quiet", "--output", csv.path], input: json)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").count, 3, "a header and one row per strategy")
    }

    /// A mistake names the help of the subcommand it was made in, for every subcommand.
    func testEveryMistakePointsAtItsSubcommandsHelp() throws {
        for name in ["run", "sweep", "compare", "report", "storage", "explain", "generate", "model", "list", "clean"] {
            let outcome = try bench([name, "--no-such-option"])
            XCTAssertEqual(outcome.status, 64, name)
            XCTAssertTrue(outcome.stderr.hasSuffix("(see 'bench \(name) --help')\n"), "\(name): \(outcome.stderr)")
        }
        XCTAssertTrue(try bench(["--no-such-option"]).stderr.hasSuffix("(see 'bench --help')\n"))
    }

    func testHugeMixWeightsShareTheObjects() throws {
        let library = Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path
        let alone = try bench(["model", "--model", library, "--mix", "Album=1e308", "--scale", "1000", "--strategies", "single-table"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertTrue(alone.stdout.contains("Album (1000 objects;"), alone.stdout)
        let two = try bench(["model", "--model", library, "--mix", "Album=1e306,Film=1e306", "--scale", "1000", "--strategies", "single-table"])
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertTrue(two.stdout.contains("Album (500 objects;") && two.stdout.contains("Film (500 objects;"), two.stdout)
    }

    /// A closed or full standard error loses the messages, never the command: no trap, the exit
    /// status of what happened, the results written and nothing left behind.
    func testAClosedOrFullStandardErrorStopsNothing() throws {
        let existing = folder.appendingPathComponent("taken.csv")
        try Data("keep me".utf8).write(to: existing)
        let stores = folder.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        for redirect in ["2>&-", "2>/dev/full"] {
            let usage = try bench(["model", "--scale", "0"], in: folder, standardError: redirect)
            XCTAssertEqual(usage.reason, .exit, "\(redirect): a usage error")
            XCTAssertEqual(usage.status, 64, "\(redirect): a usage error")
            let failure = try bench(["run", "--scale", "10", "--output", existing.path], in: folder, standardError: redirect)
            XCTAssertEqual(failure.reason, .exit, "\(redirect): an existing output")
            XCTAssertEqual(failure.status, 1, "\(redirect): an existing output")
            // The capped-stores warning is printed by every run that has the variable set.
            let output = folder.appendingPathComponent("run.csv")
            let run = try bench(["run", "--scale", "50", "--workloads", "count-all", "--repetitions", "1", "--quiet", "--strategies", "single-table",
                                 "--store-folder", stores.path, "--output", output.path, "--force"],
                                in: folder, environment: ["INHERITANCE_BENCH_MAX_PAGE_COUNT": "1000000"], standardError: redirect)
            XCTAssertEqual(run.reason, .exit, "\(redirect): a run that warns")
            XCTAssertEqual(run.status, 0, "\(redirect): a run that warns")
            let csv = try String(contentsOf: output, encoding: .utf8)
            XCTAssertEqual(csv.split(separator: "\n").count, 2, "\(redirect): the header and the row, and nothing meant for standard error: \(csv)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stores.path), [], "\(redirect): the run's stores are removed")
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasSuffix(".lock") }, "\(redirect): no lock is left")
        }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// `explain --analyze` on the messenger fixture shows the Z_ENT finding, without ANALYZE and
    /// after it, and exits with status 1; `run --analyze` names its results `<timestamp>.analyzed.csv`.
    func testExplainAndRunWithAnalyze() throws {
        let messenger = Self.fixtures.appendingPathComponent("messenger.json").path
        let explain = try bench(["explain", "--model", messenger, "--analyze", "--strategies", "single-table", "--output", "p.txt"], in: folder)
        XCTAssertEqual(explain.status, 1, explain.stderr)
        XCTAssertTrue(explain.stdout.contains("    SEARCH t0 USING INDEX ZMESSAGE_Z_ENT_INDEX (Z_ENT=?)\n    USE TEMP B-TREE FOR ORDER BY\n  !! fetch-ordered reads through the Z_ENT index"), explain.stdout)
        XCTAssertTrue(explain.stdout.contains("2 flagged, 0 changed by ANALYZE)"), explain.stdout)
        XCTAssertEqual(firstErrorLine(explain), "error: 2 statements do work an index should spare them: single-table fetch-ordered, single-table fetch-ordered (after ANALYZE)")
        XCTAssertTrue(try String(contentsOf: folder.appendingPathComponent("p.txt"), encoding: .utf8).contains("ANALYZE changed 0 of "))
        let run = try bench(["run", "--model", messenger, "--analyze", "--workloads", "fetch-ordered", "--repetitions", "1", "--quiet"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let results = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("results").path)
        XCTAssertTrue(results.contains { $0.hasSuffix(".analyzed.csv") } && results.contains { $0.hasSuffix(".analyzed.samples.csv") }, "\(results)")
    }

    func testAnXcodeModelRunsWritesACompleteCSVAndWarns() throws {
        let library = Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path
        let model = try bench(["model", "--model", library])
        XCTAssertEqual(model.status, 0, model.stderr)
        let warnings = model.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(warnings.count, 4, model.stderr)
        XCTAssertTrue(warnings.allSatisfy { $0.hasPrefix("warning: ") }, model.stderr)
        XCTAssertFalse(model.stderr.contains("Shelf.items"), "an ordered one-to-many is stored as Core Data stores it: nothing to warn about")
        XCTAssertTrue(warnings.contains("warning: Item.displayTitle is transient; the suite leaves it out (Core Data does not store transient attributes)"), model.stderr)
        for line in ["Model Library: 8 entities, main hierarchy Item", "version 'Library 2' of 2: 7 concrete entities sharing 10000 objects; 4 warnings",
                     "      4 Album (1429 objects;", "ZFORMAT VARCHAR, ZFORMAT1 VARCHAR"] {
            XCTAssertTrue(model.stdout.contains(line), "\(line)\n\(model.stdout)")
        }
        // bench model says how many cases a run measures (fetch-by-relationship's two variants counted).
        let casesLine = try XCTUnwrap(model.stdout.split(separator: "\n").first { $0.hasPrefix("Cases a run measures: ") }, model.stdout)
        let cases = try XCTUnwrap(Int(casesLine.split(separator: " ")[4]), String(casesLine))

        let run = try bench(["run", "--model", library, "--scale", "300", "--repetitions", "1", "--quiet", "--output", "x.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") && !$0.contains("DEBUG") && !$0.contains("release mode") }.count, 4, run.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("x.csv")).rows
        XCTAssertEqual(rows.count, 5 * cases, "five strategies × every case that applies")
        XCTAssertEqual(Set(rows.map { $0.fields["hierarchy"]! }), ["Library"])
        XCTAssertEqual(Set(rows.map { $0.fields["scale"]! }), ["300"])

        let older = try bench(["model", "--model", library, "--model-version", "Library", "--strategies", "single-table"])
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertEqual(older.stderr, "", "the first version has nothing to warn about")
        XCTAssertTrue(older.stdout.contains("version 'Library' of 2: 2 concrete entities sharing 10000 objects"), older.stdout)

        let mixed = try bench(["model", "--model", library, "--mix", "Album=3,Film=1,Tag=1,Shelf=1,Label=1", "--scale", "700", "--fan-out", "1-2", "--strategies", "single-table"])
        XCTAssertEqual(mixed.status, 0, mixed.stderr)
        for line in ["      4 Album (300 objects;", "      5 Film (100 objects;", "  8 Tag (100 objects;", "    2 Document (0 objects;"] {
            XCTAssertTrue(mixed.stdout.contains(line), "\(line)\n\(mixed.stdout)")
        }
    }

    /// The publications preset written as an Xcode model and as SwiftData source, given the
    /// preset's objects with --mix, answers every workload as the preset does: the same digests,
    /// strategy by strategy.
    func testPublicationsModelFilesAnswerAsThePreset() throws {
        let preset = try bench(["run", "--preset", "publications", "--scale", "1000", "--strategies", "single-table,joined",
                                "--repetitions", "1", "--quiet", "--output", "preset.csv"], in: folder)
        XCTAssertEqual(preset.status, 0, preset.stderr)
        func answers(_ name: String) throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try ResultsFile(url: folder.appendingPathComponent(name)).rows.map {
                ("\($0.fields["strategy"]!) \($0.workload)\($0.fields["variant"] ?? "")", "\($0.fields["rows"]!) \($0.fields["digest"]!)")
            })
        }
        let expected = try answers("preset.csv")
        XCTAssertEqual(expected.count, 2 * 24, "two strategies × the 24 cases of the publication model's default run")
        for (position, file) in ["Publications.xcdatamodel", "SwiftDataPublications"].enumerated() {
            let run = try bench(["run", "--model", Self.fixtures.appendingPathComponent(file).path,
                                 "--mix", "Publication=100,Book=300,AcademicPaper=200,WebArticle=200,BlogPost=200,Tag=200", "--scale", "1200",
                                 "--strategies", "single-table,joined", "--repetitions", "1", "--quiet", "--output", "file\(position).csv"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(try answers("file\(position).csv"), expected, file)
        }
    }

    /// A folder holding both @Model sources and an Xcode model is not read as either: which one was
    /// meant is the user's to say (with an .xcdatamodel beside the sources it used to be read as the
    /// Xcode model, with an .xcdatamodeld as the sources, without a word).
    func testAFolderOfTwoKindsOfModelIsRefused() throws {
        for bundle in ["Notes.xcdatamodel", "Notes.xcdatamodeld/Notes.xcdatamodel"] {
            let both = folder.appendingPathComponent("both-\(bundle.count)")
            let version = both.appendingPathComponent(bundle)
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data("<?xml version=\"1.0\"?>\n<model><entity name=\"Note\"><attribute name=\"text\" attributeType=\"String\"/></entity></model>\n".utf8)
                .write(to: version.appendingPathComponent("contents"))
            try Data("import SwiftData\n\n@Model\nfinal class Note {\n    var text: String = \"\"\n}\n".utf8).write(to: both.appendingPathComponent("Note.swift"))
            for command in ["model", "run"] {
                let outcome = try bench([command, "--model", both.path], in: folder)
                XCTAssertEqual(outcome.status, 64, "\(command) \(bundle): \(outcome.stderr)")
                let lines = outcome.stderr.split(separator: "\n")
                XCTAssertEqual(lines.count, 1, "\(command) \(bundle): one line: \(outcome.stderr)")
                let name = bundle.split(separator: "/")[0]
                XCTAssertTrue(lines.first?.hasPrefix("error: \(both.path) holds both SwiftData @Model sources and an Xcode model (\(name)); give one of them to --model") ?? false,
                              "\(command) \(bundle): \(outcome.stderr)")
                XCTAssertEqual(outcome.stdout, "", "\(command) \(bundle)")
            }
            // Without @Model in its Swift files, the folder is the Xcode model's, as before.
            try Data("let unrelated = 1\n".utf8).write(to: both.appendingPathComponent("Note.swift"))
            if bundle == "Notes.xcdatamodel" {
                let model = try bench(["model", "--model", both.path], in: folder)
                XCTAssertEqual(model.status, 0, model.stderr)
                XCTAssertTrue(model.stdout.contains("1 entities, main hierarchy Note"), model.stdout)
            }
        }
    }

    func testBadXcodeModelsFailWithOneLine() throws {
        let library = Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path
        func write(_ name: String, _ body: String) throws -> String {
            let version = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data("<?xml version=\"1.0\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(body)\n</model>\n".utf8).write(to: version.appendingPathComponent("contents"))
            return version.path
        }
        let malformed = try write("Malformed.xcdatamodel", "<entity name=\"Note\"><attribute name=\"text\" attributeType=\"String\"</entity>")
        let unknown = try write("Unknown.xcdatamodel", "<entity name=\"Note\"><attribute name=\"text\" attributeType=\"Text\"/></entity>")
        let dangling = try write("Dangling.xcdatamodel", "<entity name=\"Note\"><relationship name=\"folder\" maxCount=\"1\" destinationEntity=\"Folder\"/></entity>")
        let cycle = try write("Cycle.xcdatamodel", "<entity name=\"A\" parentEntity=\"B\"/><entity name=\"B\" parentEntity=\"A\"/>")
        let brokenName = try write("BrokenName.xcdatamodel", "<entity name=\"Bo&#10;ok\"><attribute name=\"text\" attributeType=\"String\"/></entity>")
        let brokenType = try write("BrokenType.xcdatamodel", "<entity name=\"Note\"><attribute name=\"text\" attributeType=\"Str&#10;ing\"/></entity>")
        let brokenJSON = folder.appendingPathComponent("broken.json")
        try Data(#"{"name":"m","entities":[{"name":"Book","parent":"Pa\nrent","rows":5}]}"#.utf8).write(to: brokenJSON)
        let hollow = folder.appendingPathComponent("Hollow.xcdatamodeld")
        try FileManager.default.createDirectory(at: hollow, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["model", "--model", brokenName], "\(brokenName): entity name 'Bo\\nok' must be 1 to 255 ASCII letters, digits and '_', starting with a capital letter (Core Data's rule) (see 'bench model --help')"),
            (["run", "--model", brokenType], "\(brokenType)/contents: line 3: attribute 'Note.text' has type 'Str\\ning', which the suite cannot store; Core Data's stored types: Binary,"),
            (["run", "--model", brokenJSON.path], "\(brokenJSON.path): entity 'Book' names parent 'Pa\\nrent', which the model does not declare (see 'bench run --help')"),
            (["run", "--model", malformed], "\(malformed)/contents is not well-formed XML: line 3, column "),
            (["model", "--model", unknown], "\(unknown)/contents: line 3: attribute 'Note.text' has type 'Text', which the suite cannot store"),
            (["run", "--model", dangling], "\(dangling)/contents: line 3: relationship 'Note.folder' points at entity 'Folder', which the model does not declare"),
            (["run", "--model", cycle], "\(cycle): entity 'A' is its own ancestor"),
            (["run", "--model", "Gone.xcdatamodeld"], "the Xcode model Gone.xcdatamodeld does not exist"),
            (["storage", "--model", hollow.path], "the Xcode model bundle \(hollow.path) holds no model version"),
            (["run", "--model", library, "--model-version", "Library 9"], "--model-version 'Library 9' is not a version of \(library); its versions: 'Library', 'Library 2'"),
            (["run", "--model-version", "Library"], "--model-version applies to an Xcode model bundle"),
            (["run", "--model", library, "--mix", "Albm=1"], "--mix names 'Albm', which the model does not declare; its concrete entities: Album, Document, Film, Item, Label, Shelf, Tag"),
            (["run", "--model", library, "--mix", "Media=1"], "--mix names 'Media', which is abstract"),
            (["run", "--model", library, "--mix", "Album=-2"], "--mix weight of 'Album' must be a positive number; got '-2'"),
            (["run", "--model", library, "--mix", "Album"], "--mix entry 'Album' must be Entity=weight"),
            (["run", "--model", library, "--fan-out", "5-1"], "--fan-out must be MIN-MAX with 0 <= MIN <= MAX <= 1000, such as 0-5; got '5-1'"),
        ]
        for ((arguments, message), outcome) in zip(cases, try benchEach(cases.map(\.0), in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
            XCTAssertEqual(lines.count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix("error: \(message)") ?? false, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "", "\(arguments)")
        }

        let flat = try write("Flat.xcdatamodel", "<entity name=\"Note\"><attribute name=\"text\" attributeType=\"String\"/></entity>")
        let plain = try bench(["run", "--model", flat, "--scale", "50", "--workloads", "count-all", "--repetitions", "1", "--quiet", "--output", "flat.csv"], in: folder)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("note: no entity of Flat has sub-entities: no inheritance to compare"), plain.stderr)
    }

    /// `bench model` on SwiftData sources: the entity tree, the warnings, every strategy's tables
    /// and the workloads that apply; bad sources are one line and exit 64.
    func testSwiftDataSourcesThroughTheCommandLine() throws {
        let studio = Self.fixtures.appendingPathComponent("SwiftDataStudio").path
        let described = try bench(["model", "--model", studio], in: folder)
        XCTAssertEqual(described.status, 0, described.stderr)
        for line in ["Model SwiftDataStudio: 8 entities, main hierarchy Item", "    3 Book (", "      5 Hardcover (", "single-table:", "json-entity:",
                     "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY", "Workloads:"] {
            XCTAssertTrue(described.stdout.contains(line), "\(line)\n\(described.stdout)")
        }
        XCTAssertTrue(described.stderr.contains("warning: Item.importedFrom is a lazy var; @Model persists stored properties that are not lazy, so it is left out"), described.stderr)

        let broken = folder.appendingPathComponent("Broken.swift")
        try Data("@Model class A {\n  var x: Int =\n}\n".utf8).write(to: broken)
        let plain = folder.appendingPathComponent("Plain.swift")
        try Data("class A { var x = 1 }\n".utf8).write(to: plain)
        // Hostile sources: a wall of optionals, generics nested 150,000 deep, a cycle of superclasses.
        let optionals = folder.appendingPathComponent("Optionals.swift")
        try Data(("@Model class A {\n  var x: Int" + String(repeating: "?", count: 400_000) + "\n}\n").utf8).write(to: optionals)
        let generics = folder.appendingPathComponent("Generics.swift")
        try Data(("@Model class A {\n  var x: " + String(repeating: "Optional<", count: 150_000) + "Int" + String(repeating: ">", count: 150_000) + "\n}\n").utf8).write(to: generics)
        let cycle = folder.appendingPathComponent("Cycle.swift")
        try Data("@Model class A: B { var x: Int }\n@Model class B: A { var y: Int }\n".utf8).write(to: cycle)
        let aliases = folder.appendingPathComponent("Aliases.swift")
        try Data("typealias Code = Label\ntypealias Label = Code\n@Model class A { var x: Code }\n".utf8).write(to: aliases)
        let cases: [([String], String)] = [
            (["run", "--model", broken.path], "\(broken.path):2:15: Swift syntax error: expected expression in variable; fix the source so that it compiles"),
            (["model", "--model", optionals.path], "\(optionals.path):2:13: 400000 '?' or '!' in a row"),
            (["model", "--model", generics.path], "\(generics.path):2:1350013: 150000 '>' in a row"),
            (["model", "--model", cycle.path], "\(cycle.path):1:14: @Model class 'A' inherits from itself"),
            (["model", "--model", aliases.path], "\(aliases.path):1:11: type alias 'Code' refers to itself (Code → Label → Code)"),
            (["storage", "--model", plain.path], "no @Model class in \(plain.path) (1 Swift file read)"),
            (["run", "--model", studio, "--model-version", "2"], "--model-version applies to an Xcode model bundle"),
        ]
        for ((arguments, message), outcome) in zip(cases, try benchEach(cases.map(\.0), in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix("error: \(message)"), "\(arguments): \(outcome.stderr)")
        }
    }

    /// `bench model` on a Core Data store: what was read, the layout proof, the entity tree; the
    /// store unchanged and nothing made beside it. Bad stores are one line and exit 64.
    func testAStoreThroughTheCommandLine() throws {
        let store = folder.appendingPathComponent("App.sqlite")
        var description = ModelPresets.named("publications")!
        for index in description.entities.indices where description.entities[index].rows != nil { description.entities[index].rows = 20 }
        try CoreDataStoreFixture.write(try Model(description), to: store.path)
        let before = try Data(contentsOf: store)
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let described = try bench(["model", "--model", store.path], in: folder)
        XCTAssertEqual(described.status, 0, described.stderr)
        for line in ["Model App: ", "Read the store \(store.path) (Core Data framework version 1447): ", "layout: ", " columns in place, ",
                     "  1 Publication (20 objects", "    4 Book (20 objects", "single-table:"] {
            XCTAssertTrue(described.stdout.contains(line), "\(line)\n\(described.stdout)")
        }
        let proof = try XCTUnwrap(described.stdout.split(separator: "\n").first { $0.hasPrefix("layout: ") })
        let numbers = proof.split(whereSeparator: { !$0.isNumber }).map { Int($0)! }
        XCTAssertEqual(numbers.count, 6, String(proof))
        XCTAssertEqual([numbers[0], numbers[2], numbers[4]], [numbers[1], numbers[3], numbers[5]], String(proof))
        XCTAssertEqual(try Data(contentsOf: store), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), listed)

        let text = folder.appendingPathComponent("Notes.sqlite")
        try Data("not a store".utf8).write(to: text)
        let plain = folder.appendingPathComponent("Plain.db")
        try Database(path: plain.path).execute("CREATE TABLE t (a INTEGER)")
        let bomb = folder.appendingPathComponent("Bomb.sqlite")
        try CoreDataStoreFixture.write(try Model(description), to: bomb.path, cache: RawDeflate.deflate([UInt8](repeating: 0, count: 80 << 20)))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let cases: [([String], String)] = [
            (["model", "--model", text.path], "\(text.path) is not an SQLite database"),
            (["run", "--model", plain.path, "--output", "out.csv"], "\(plain.path) is an SQLite database but not a Core Data store"),
            (["storage", "--model", bomb.path], "\(bomb.path) has a model cache (Z_MODELCACHE) that inflates to more than"),
        ]
        for ((arguments, message), outcome) in zip(cases, try benchEach(cases.map(\.0), in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix("error: \(message)"), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), files)
    }

    func testListNamesEveryStrategyAndWorkload() throws {
        let outcome = try bench(["list"])
        XCTAssertEqual(outcome.status, 0)
        for name in ["single-table", "table-per-entity", "enum-entity", "joined", "json-entity", "insert-bulk", "insert-single", "fetch-polymorphic", "fetch-page", "page-offset", "page-keyset",
                     "fetch-leaf", "fetch-branch", "fetch-by-relationship", "count-all", "count-leaf", "count-branch", "count-by-type", "lookup-composite",
                     "lookup-attribute", "search-title", "delete-cascade", "update", "publications", "efcore-animals", "efcore-docs", "codingmilitia",
                     "timestamps", "lookup-id", "fault", "fetch-own", "filter-sub-attribute", "filter-fk"] {
            XCTAssertTrue(outcome.stdout.contains(name), name)
        }
    }

    func testCompareExitCodesFollowPackageBenchmark() throws {
        let base = folder.appendingPathComponent("base.csv")
        let run = try bench(["run", "--scale", "60", "--workloads", "count-all,fetch-page", "--repetitions", "8", "--quiet", "--output", base.path])
        XCTAssertEqual(run.status, 0, run.stderr)

        let same = try bench(["compare", base.path, base.path])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("0 slower, 0 faster, 10 unchanged"), same.stdout)

        // A copy in which every enum-entity repetition takes ten times as long as the slowest of
        // the base run's, each a different value: so much slower, whatever noise a busy machine put
        // into the few debug-build repetitions, that every new repetition exceeds every base one.
        let doctored = folder.appendingPathComponent("new.csv")
        var samples = try CSV.parse(String(contentsOf: folder.appendingPathComponent("base.samples.csv"), encoding: .utf8))
        let column = { (name: String) in samples[0].firstIndex(of: name)! }
        let (strategy, workload, ns) = (column("strategy"), column("workload"), column("ns"))
        var slowest: [String: UInt64] = [:]
        for row in samples.dropFirst() where row[strategy] == "enum-entity" { slowest[row[workload]] = max(slowest[row[workload]] ?? 0, UInt64(row[ns])!) }
        var doctoredSamples: [String: [Double]] = [:]
        for index in samples.indices.dropFirst() where samples[index][strategy] == "enum-entity" {
            let name = samples[index][workload]
            let value = slowest[name]! * 10 + UInt64(doctoredSamples[name, default: []].count)
            samples[index][ns] = String(value)
            doctoredSamples[name, default: []].append(Double(value))
        }
        try Data(samples.map(CSV.line).joined().utf8).write(to: folder.appendingPathComponent("new.samples.csv"))
        var results = try CSV.parse(String(contentsOf: base, encoding: .utf8))
        let header = results[0]
        for index in results.indices.dropFirst() where results[index][header.firstIndex(of: "strategy")!] == "enum-entity" {
            let values = doctoredSamples[results[index][header.firstIndex(of: "workload")!]]!.sorted()
            for (name, value) in [("median_ns", Statistics.quantile(values, 0.5)), ("ci_low_ns", values[0]), ("ci_high_ns", values[values.count - 1])] {
                results[index][header.firstIndex(of: name)!] = String(value)
            }
        }
        for index in results.indices.dropFirst() { results[index][header.firstIndex(of: "samples_file")!] = "new.samples.csv" }
        try Data(results.map(CSV.line).joined().utf8).write(to: doctored)

        let slower = try bench(["compare", base.path, doctored.path, "--threshold", "5%"])
        XCTAssertEqual(slower.status, 2, slower.stdout + slower.stderr)
        XCTAssertTrue(slower.stdout.contains("2 slower"), slower.stdout)
        XCTAssertTrue(slower.stdout.contains("alpha 0.05: a change counts only when the ratio is beyond the threshold, p < alpha"), slower.stdout)
        // 8 repetitions a side: one warning line about the rank test's power (but 8 vs 8 can reach p < 0.05).
        let power = slower.stderr.split(separator: "\n").filter { $0.contains("the rank test has little power below 9 repetitions; rerun with more") }
        XCTAssertEqual(power.count, 1, slower.stderr)
        XCTAssertTrue(power.first?.hasPrefix("warning: 10 of 10 rows have fewer than 9 repetitions on a side: ") == true, slower.stderr)
        XCTAssertFalse(slower.stderr.contains("cannot reach"), slower.stderr)
        let faster = try bench(["compare", doctored.path, base.path, "--format", "markdown"])
        XCTAssertEqual(faster.status, 4, faster.stdout)
        XCTAssertTrue(faster.stdout.hasPrefix("| workload | strategy | base | new | ratio | 95% interval | U | p | verdict |"), faster.stdout)
        // Ten times as long in every repetition, 8 a side: p is 2 / C(16, 8) = 0.000155 (the normal
        // approximation's 0.00094 if two repetitions tied), not below an alpha of 0.0001, so no change.
        let strict = try bench(["compare", base.path, doctored.path, "--alpha", "0.0001"])
        XCTAssertEqual(strict.status, 0, strict.stdout + strict.stderr)
        XCTAssertTrue(strict.stdout.contains("0 slower, 0 faster, 10 unchanged (threshold 5 %, alpha 0.0001"), strict.stdout)
        // Without the samples files there is no test: the interval rule alone decides, as before.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("new.samples.csv"))
        let bare = try bench(["compare", base.path, doctored.path])
        XCTAssertEqual(bare.status, 2, bare.stdout + bare.stderr)
        XCTAssertTrue(bare.stdout.contains("† no rank test"), bare.stdout)

        let headline = try bench(["compare", "--strategies", base.path])
        XCTAssertEqual(headline.status, 0)
        let strategyColumn = headline.stdout.split(separator: "\n").dropFirst(2).compactMap { $0.split(separator: " ").dropFirst().first }
        XCTAssertEqual(strategyColumn.filter { $0 == "enum-entity" }.count, 2, headline.stdout)
        XCTAssertEqual(strategyColumn.filter { $0 == "table-per-entity" }.count, 2, headline.stdout)
        XCTAssertEqual(strategyColumn.filter { $0 == "joined" }.count, 2, headline.stdout)
        XCTAssertFalse(strategyColumn.contains("single-table"), "the baseline is what the others are compared with")

        for (arguments, message) in [
            (["compare", base.path], "give two results CSVs"),
            (["compare", base.path, folder.appendingPathComponent("none.csv").path], "none.csv does not exist"),
            (["compare", base.path, base.path, "--threshold", "much"], "The value 'much' is invalid for '--threshold"),
            (["compare", base.path, base.path, "--alpha", "0"], "--alpha must be between 0 and 1 (e.g. 0.05); got 0.0"),
            (["compare", base.path, base.path, "--alpha", "5%"], "The value '5%' is invalid for '--alpha"),
        ] {
            let outcome = try bench(arguments)
            XCTAssertNotEqual(outcome.status, 0, "\(arguments)")
            XCTAssertTrue(firstErrorLine(outcome).contains(message), "\(arguments): \(outcome.stderr)")
        }
    }

    /// A copy of the run `base` (results and samples) named `name`, with its samples changed by `doctor`.
    func copyRun(_ base: URL, as name: String, samples doctor: ([[String]]) -> [[String]]) throws -> URL {
        let copy = folder.appendingPathComponent(name)
        var results = try CSV.parse(String(contentsOf: base, encoding: .utf8))
        let column = results[0].firstIndex(of: "samples_file")!
        let samplesName = SamplesCSV.url(besides: copy).lastPathComponent
        for index in results.indices.dropFirst() { results[index][column] = samplesName }
        try Data(results.map(CSV.line).joined().utf8).write(to: copy)
        let samples = try CSV.parse(String(contentsOf: SamplesCSV.url(besides: base), encoding: .utf8))
        try Data(doctor(samples).map(CSV.line).joined().utf8).write(to: SamplesCSV.url(besides: copy))
        return copy
    }

    /// `inf` in a samples file, or a base whose samples are all 0, made the real `bench compare`
    /// die of SIGILL in the bootstrap; now it exits 1 with one line naming the file and line.
    /// A samples file of another run is set aside with one warning, and the comparison goes on.
    func testCompareRefusesSamplesThatAreNotDurationsInsteadOfCrashing() throws {
        let base = folder.appendingPathComponent("base.csv")
        let run = try bench(["run", "--scale", "60", "--workloads", "count-all", "--repetitions", "3", "--quiet", "--output", base.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let ns = SamplesCSV.columns.firstIndex(of: "ns")!
        let infinite = try copyRun(base, as: "inf.csv") { records in
            var records = records; records[2][ns] = "inf"; return records
        }
        let zeros = try copyRun(base, as: "zeros.csv") { records in
            records.enumerated().map { $0.offset == 0 ? $0.element : Array($0.element.dropLast()) + ["0"] }
        }
        for (arguments, message) in [
            (["compare", base.path, infinite.path], "error: \(SamplesCSV.url(besides: infinite).path): line 3: ns is 'inf', not a duration in nanoseconds"),
            (["compare", zeros.path, base.path], "error: \(SamplesCSV.url(besides: zeros).path): line 2: ns is '0', not a duration in nanoseconds"),
            (["compare", "--strategies", zeros.path], "error: \(SamplesCSV.url(besides: zeros).path): line 2: ns is '0'"),
        ] {
            let outcome = try bench(arguments)
            XCTAssertEqual(outcome.reason, .exit, "\(arguments): bench died of signal \(outcome.status): \(outcome.stderr.prefix(300))")
            XCTAssertEqual(outcome.status, 1, "\(arguments): \(outcome.stderr.prefix(300))")
            XCTAssertTrue(outcome.stderr.hasPrefix(message), "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "")
        }

        let foreign = try copyRun(base, as: "foreign.csv") { records in
            records.enumerated().map { $0.offset == 0 ? $0.element : ["another-run"] + $0.element.dropFirst() }
        }
        let outcome = try bench(["compare", base.path, foreign.path])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let warnings = outcome.stderr.split(separator: "\n").filter { $0.contains("does not belong") }
        XCTAssertEqual(warnings.count, 1, outcome.stderr)
        XCTAssertTrue(warnings.first?.hasPrefix("warning: the samples file \(SamplesCSV.url(besides: foreign).path) does not belong to \(foreign.path): ") == true, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("*  –  –†  unchanged"), "the CSV-only interval is used and marked, and there is no rank test: \(outcome.stdout)")
    }

    /// TMPDIR naming a file, a missing folder or a read-only place (/proc) stops every command
    /// that builds stores with one sentence naming the folder and what to do, not Foundation's
    /// NSCocoaErrorDomain dump; nothing is created (a missing TMPDIR used to be made).
    func testABadTemporaryFolderIsOneSentence() throws {
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let missing = folder.appendingPathComponent("missing")
        let cases: [(String, String)] = [
            (file.path, "error: the temporary folder \(file.path) (TMPDIR) is a file, not a folder; set TMPDIR to a writable folder, or unset it"),
            (missing.path, "error: the temporary folder \(missing.path) (TMPDIR) does not exist; set TMPDIR to a writable folder, or unset it"),
            ("/proc", "error: the temporary folder /proc (TMPDIR) is not writable ("),
        ]
        for (tmpdir, message) in cases {
            for arguments in [["run", "--scale", "10", "--workloads", "count-all", "--repetitions", "1", "--output", "r.csv"],
                              ["sweep", "--parameter", "skew", "--values", "0", "--scale", "10", "--workloads", "count-all", "--repetitions", "1", "--output", "s.csv"],
                              ["storage", "--scale", "10", "--output", "st.csv"], ["explain", "--scale", "10", "--output", "p.txt"]] {
                let outcome = try bench(arguments, in: folder, environment: ["TMPDIR": tmpdir])
                XCTAssertEqual(outcome.status, 1, "\(tmpdir) \(arguments): \(outcome.stderr)")
                let lines = outcome.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
                XCTAssertEqual(lines.count, 1, "\(tmpdir) \(arguments): \(outcome.stderr)")
                XCTAssertTrue(lines.first?.hasPrefix(message) == true, "\(tmpdir) \(arguments): \(outcome.stderr)")
                XCTAssertTrue(lines.first?.hasSuffix("; set TMPDIR to a writable folder, or unset it") == true, "\(outcome.stderr)")
                XCTAssertFalse(outcome.stderr.contains("Domain"), outcome.stderr)
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["a-file"], "no output, no lock, no TMPDIR made")
    }

    /// With standard output and standard error in one file (`> log 2>&1`), a warning written
    /// after the table lands after it: standard output, which a file buffers, is flushed first.
    func testWarningsFollowTheTableWhenBothStreamsGoToOneFile() throws {
        let log = folder.appendingPathComponent("log.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = Self.executable
        process.currentDirectoryURL = folder
        process.arguments = ["run", "--scale", "60", "--workloads", "count-all,fetch-page,lookup-composite", "--repetitions", "3", "--output", "r.csv"]
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("workload ") && $0.contains("vs single-table") }, lines.joined(separator: "\n"))
        let results = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("results: r.csv") }, lines.joined(separator: "\n"))
        // Fifteen rows (three workloads × five strategies), each starting with a workload or blank
        // name column: a warning line in their midst (as before the fix) breaks the run of rows.
        let tableRows = lines[(header + 2) ..< results].prefix { line in
            line.hasPrefix(" ") || ["count-all", "fetch-page", "lookup-composite"].contains { line.hasPrefix($0 + " ") }
        }
        XCTAssertEqual(tableRows.count, 15, "the table is whole, with no warning inside it: \(lines.joined(separator: "\n"))")
        // After the table: only the noise and uncertainty warnings (if any) before the results line, and the
        // debug-build warning (in a debug build) after it.
        let between = lines[(header + 2 + tableRows.count) ..< results].filter { !$0.isEmpty }
        XCTAssertTrue(between.allSatisfy { $0.hasPrefix("noisy: ") || $0.hasPrefix("uncertain: ") }, "\(between)")
        let debug = lines.indices.filter { lines[$0].hasPrefix("warning: this is a DEBUG build") }
        if RunContext.isDebugBuild {
            XCTAssertEqual(debug.count, 2, "printed at the start and at the end")
            XCTAssertLessThan(debug[0], header)
            XCTAssertGreaterThan(debug[1], results, "the final warning follows the results line: \(lines.joined(separator: "\n"))")
        }
    }

    /// `bench clean` removes the folder a killed bench left, never a look-alike it did not make,
    /// and names a leftover it could not remove, with exit status 1 (never "nothing to remove").
    /// A folder name is printed escaped, so that a line break in it cannot forge a line.
    func testCleanRemovesOnlyWhatBenchMadeAndSaysWhatItCouldNot() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("clean-\nremoved /x (1 MB)-\(UUID().uuidString)")
        let temporary = parent.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer {
            _ = try? Self.tool("/usr/bin/chattr", ["-R", "-i", parent.path])
            try? FileManager.default.removeItem(at: parent)
        }
        let ended = try Self.tool("/bin/sh", ["-c", "exit 0"]).pid
        func folder(_ name: String, marker: String?) throws -> URL {
            let url = parent.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            if let marker { try Data(marker.utf8).write(to: url.appendingPathComponent(".inheritance-bench-stores")) }
            try Data("x".utf8).write(to: url.appendingPathComponent("s.sqlite"))
            return url
        }
        func marker(_ command: String) -> String {
            "inheritance-bench: the temporary stores of `bench \(command)`, process \(ended); removed when it ends, or by `bench clean` once it no longer runs.\n"
        }
        let checkout = try folder("inheritance-bench-pr-\(ended)-abcdef12", marker: nil)
        try FileManager.default.createDirectory(at: checkout.appendingPathComponent(".git"), withIntermediateDirectories: false)
        let unmarked = try folder("inheritance-bench-run-\(ended)-ABCDEF12", marker: nil)
        let genuine = try folder("inheritance-bench-run-\(ended)-0A0B0C0D", marker: marker("run"))

        let first = try bench(["clean", "--store-folder", parent.path], environment: ["TMPDIR": temporary.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("removed \(genuine.path.replacingOccurrences(of: "\n", with: "\\n")) ("), first.stdout)
        XCTAssertFalse(first.stdout.split(separator: "\n").contains { $0.hasPrefix("removed /x") }, "no forged line")
        XCTAssertFalse(FileManager.default.fileExists(atPath: genuine.path))
        for kept in [checkout, unmarked] {
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: kept.path).sorted(), kept == checkout ? [".git", "s.sqlite"] : ["s.sqlite"])
        }

        let stuck = try folder("inheritance-bench-sweep-\(ended)-0A0B0C0E", marker: marker("sweep"))
        guard try Self.tool("/usr/bin/chattr", ["+i", stuck.appendingPathComponent("s.sqlite").path]).status == 0 else {
            throw XCTSkip("chattr +i is not available here, so no file can be made impossible to remove")
        }
        let second = try bench(["clean", "--store-folder", parent.path], environment: ["TMPDIR": temporary.path])
        XCTAssertEqual(second.status, 1)
        XCTAssertFalse(second.stdout.contains("nothing to remove"), second.stdout)
        XCTAssertEqual(second.stderr, "error: could not remove \(stuck.path.replacingOccurrences(of: "\n", with: "\\n")), left by a bench process that no longer runs: "
            + "cannot remove a file inside it (Operation not permitted); remove it by hand\n")
    }

    /// A tool's standard output, trimmed; nil when it fails.
    static func output(_ path: String, _ arguments: [String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// Runs a tool to its end: its exit status and the process id it had.
    static func tool(_ path: String, _ arguments: [String]) throws -> (status: Int32, pid: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, process.processIdentifier)
    }
}
