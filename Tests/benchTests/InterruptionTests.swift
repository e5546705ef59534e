import Foundation
import Reporting
import StoreFiles
import XCTest

/// Interrupts a real `bench run` child process in the middle of its work, as Ctrl-C or a
/// service manager would, and checks what docs/commands.md promises: exit status 130 (SIGINT) or
/// 143 (SIGTERM), a CSV holding only complete rows, and no temporary store or file left behind.
///
/// The child gets a private `TMPDIR`, so the run's store folder (`inheritance-bench-run-<pid>-<8 chars>`
/// under `FileManager.default.temporaryDirectory`) can be watched exactly.
final class InterruptionTests: XCTestCase {
    /// How long the run may take to complete its first CSV rows before the test gives up.
    static let firstRowTimeout: TimeInterval = 120
    /// How long the run may take to exit once signalled.
    static let exitTimeout: TimeInterval = 30

    var folder: URL!

    override func setUpWithError() throws {
        // In memory where Linux offers it: the children's thousands of small commits then cost no disk writes.
        let memory = URL(fileURLWithPath: "/dev/shm")
        let base = StoreFolder.fileSystemType(memory.path) == "tmpfs" && FileManager.default.isWritableFile(atPath: memory.path)
            ? memory : FileManager.default.temporaryDirectory
        folder = base.appendingPathComponent("bench-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func testCtrlCStopsARunWithStatus130AndCleansUp() throws {
        try interruptARun(with: SIGINT, expectedStatus: 130)
    }

    func testSIGTERMStopsARunWithStatus143AndCleansUp() throws {
        try interruptARun(with: SIGTERM, expectedStatus: 143)
    }

    /// A closed terminal or ssh session sends SIGHUP, which used to kill the run on the spot and
    /// leave its stores (and now its claim on the output) behind.
    func testSIGHUPStopsARunWithStatus129AndCleansUp() throws {
        try interruptARun(with: SIGHUP, expectedStatus: 129)
    }

    private func interruptARun(with signalNumber: Int32, expectedStatus: Int32) throws {
        let manager = FileManager.default
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        let outputFolder = folder.appendingPathComponent("out", isDirectory: true)
        for path in [temporary, outputFolder] { try manager.createDirectory(at: path, withIntermediateDirectories: true) }
        let output = outputFolder.appendingPathComponent("r.csv")
        let stdoutLog = folder.appendingPathComponent("stdout.log"), stderrLog = folder.appendingPathComponent("stderr.log")
        for log in [stdoutLog, stderrLog] { _ = manager.createFile(atPath: log.path, contents: nil) }

        // insert-single completes its rows within seconds; insert-bulk at this scale then keeps
        // the run busy writing stores (several seconds in a debug build) when the signal arrives.
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["run", "--scale", "12000", "--repetitions", "1", "--workloads", "insert-single,insert-bulk",
                             "--output", output.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: stdoutLog)
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        try process.run()
        let pid = process.processIdentifier
        defer {
            if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
        }
        func stderr() -> String { (try? String(contentsOf: stderrLog, encoding: .utf8)) ?? "" }
        func runFolders() -> [String] {
            ((try? manager.contentsOfDirectory(atPath: temporary.path)) ?? []).filter { $0.hasPrefix("inheritance-bench-run-\(pid)-") }
        }

        // Wait (bounded) until the CSV holds the header and at least one row.
        let deadline = Date().addingTimeInterval(Self.firstRowTimeout)
        var rowsBefore = 0
        while process.isRunning, Date() < deadline {
            if let text = try? String(contentsOf: output, encoding: .utf8), text.split(separator: "\n").count >= 2 {
                rowsBefore = text.split(separator: "\n").count - 1
                break
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        guard rowsBefore > 0, process.isRunning else {
            return XCTFail("the run wrote no CSV row within \(Int(Self.firstRowTimeout)) s, or ended before it could be interrupted: \(stderr())")
        }
        XCTAssertEqual(runFolders().count, 1, "the run's store folder should exist while it runs")

        kill(pid, signalNumber)
        let exitDeadline = Date().addingTimeInterval(Self.exitTimeout)
        while process.isRunning, Date() < exitDeadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            return XCTFail("bench did not exit within \(Int(Self.exitTimeout)) s of signal \(signalNumber)")
        }
        let messages = stderr()

        // On Linux, Foundation reports a death by signal as terminationReason .uncaughtSignal with the
        // signal number as terminationStatus; the handler must instead exit(128 + signal).
        XCTAssertEqual(process.terminationReason, .exit, "bench died of the signal instead of handling it: \(messages)")
        XCTAssertEqual(process.terminationStatus, expectedStatus, messages)
        XCTAssertTrue(messages.contains("interrupted: the rows completed so far are in \(output.path); temporary stores removed"), messages)
        XCTAssertFalse(messages.split(separator: "\n").contains { $0.hasPrefix("error:") }, "an interruption is not reported as an error: \(messages)")

        // The results CSV and its samples file: complete lines only, every one with the header's
        // fields, each file ending with a line end.
        let records = try completeRecords(output, header: ResultsCSV.columns.map(\.name))
        XCTAssertGreaterThanOrEqual(records.count - 1, rowsBefore, "rows completed before the signal are kept")
        let digest = try XCTUnwrap(ResultsCSV.columns.firstIndex { $0.name == "digest" })
        for record in records.dropFirst() {
            XCTAssertEqual(record.first, String(ResultsCSV.schemaVersion))
            XCTAssertEqual(record[digest].count, 16, "a row without its digest: \(record)")
        }
        let samples = SamplesCSV.url(besides: output)
        XCTAssertGreaterThan(try completeRecords(samples, header: SamplesCSV.columns).count, 1, "the samples file keeps its rows")

        // Nothing left behind: no store folder for this pid (nor anything else in the private
        // TMPDIR), and no temporary file (`.r.csv.<pid>.tmp`, `.r.samples.csv.<pid>.tmp`) beside the output.
        XCTAssertEqual(runFolders(), [], "the run's temporary stores are left in \(temporary.path)")
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: temporary.path), [], "files left in the child's TMPDIR")
        // The JSON export holds exactly the CSV's rows (both are written after every case, under the same lock).
        let exported = try ResultsJSON.read(url: ResultsJSON.url(besides: output))
        XCTAssertEqual(exported.results.count, records.count - 1, "the JSON and the CSV hold the same rows")
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: outputFolder.path).sorted(),
                       [output, samples, ResultsJSON.url(besides: output), SummaryMarkdown.url(besides: output)].map(\.lastPathComponent).sorted(),
                       "a temporary .r.csv.*.tmp file or the .r.csv.lock claim is left beside the output")
    }

    // MARK: Child processes other than a plain run

    /// A `bench` child with a private TMPDIR (`folder/tmp`), its output in logs.
    struct Child {
        let process: Process
        let stderrLog: URL
        let stdoutLog: URL
        var pid: Int32 { process.processIdentifier }
        var stderr: String { (try? String(contentsOf: stderrLog, encoding: .utf8)) ?? "" }
        var stdout: String { (try? String(contentsOf: stdoutLog, encoding: .utf8)) ?? "" }
    }

    var temporary: URL { folder.appendingPathComponent("tmp", isDirectory: true) }

    func start(_ arguments: [String], name: String = UUID().uuidString) throws -> Child {
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let stdoutLog = folder.appendingPathComponent("\(name).stdout.log"), stderrLog = folder.appendingPathComponent("\(name).stderr.log")
        for log in [stdoutLog, stderrLog] { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: stdoutLog)
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        try process.run()
        addTeardownBlock { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        return Child(process: process, stderrLog: stderrLog, stdoutLog: stdoutLog)
    }

    /// Waits (bounded) until `condition` holds while the child runs; false if it ended first or timed out.
    func wait(for child: Child, timeout: TimeInterval = firstRowTimeout, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while child.process.isRunning, Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Waits (bounded) for the child to end; false if it did not.
    func waitForExit(_ child: Child, timeout: TimeInterval = exitTimeout) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while child.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !child.process.isRunning
    }

    func contents(_ url: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// Every file below `url`, as paths relative to it.
    func allFiles(_ url: URL) -> [String] {
        (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).sorted()
    }

    /// The checks every interruption shares: the handler exits with 128 + the signal, says so
    /// on one `interrupted:` line, and reports no error.
    func checkInterrupted(_ child: Child, signal signalNumber: Int32, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let messages = child.stderr
        XCTAssertEqual(child.process.terminationReason, .exit, "\(what): bench died of signal \(signalNumber) instead of handling it: \(messages)", file: file, line: line)
        XCTAssertEqual(child.process.terminationStatus, 128 + signalNumber, "\(what): \(messages)", file: file, line: line)
        XCTAssertEqual(messages.split(separator: "\n").filter { $0.hasPrefix("interrupted: ") }.count, 1, "\(what): \(messages)", file: file, line: line)
        XCTAssertFalse(messages.split(separator: "\n").contains { $0.hasPrefix("error:") }, "\(what): \(messages)", file: file, line: line)
    }

    /// Ctrl-C, SIGTERM and SIGHUP while `bench generate` builds its store: the `.partial` store,
    /// its -wal and -shm, and the claim on the output are removed; nothing else is written.
    func testInterruptingGenerateRemovesThePartialStore() throws {
        let out = folder.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let store = out.appendingPathComponent("store.sqlite")
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            let child = try start(["generate", "--strategy", "joined", "--scale", "30000", "--output", store.path], name: "generate-\(signalNumber)")
            let partial = ".store.sqlite.\(child.pid).partial"
            // Signalled once SQLite has its write-ahead log: the store, -wal and -shm all exist.
            guard wait(for: child, until: { Set(contents(out)).isSuperset(of: [partial, partial + "-wal", partial + "-shm"]) }) else {
                return XCTFail("signal \(signalNumber): the partial store and its WAL never appeared (or generate ended first): \(contents(out)) \(child.stderr)")
            }
            XCTAssertTrue(contents(out).contains(".store.sqlite.lock"), "generate claims its output")
            kill(child.pid, signalNumber)
            guard waitForExit(child) else { return XCTFail("generate did not exit within \(Int(Self.exitTimeout)) s of signal \(signalNumber)") }
            checkInterrupted(child, signal: signalNumber, "generate")
            XCTAssertTrue(child.stderr.contains("interrupted: the partial store \(out.appendingPathComponent(partial).path) removed; \(store.path) was not written"), child.stderr)
            XCTAssertEqual(contents(out), [], "signal \(signalNumber): files left beside the output")
        }
    }

    /// The same signals during `bench storage` and `bench explain`, which build every strategy's
    /// store in the temporary folder: the stores are removed, and no output file is left.
    func testInterruptingStorageOrExplainRemovesTheTemporaryStores() throws {
        let out = folder.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for (command, signalNumber) in [("storage", SIGINT), ("explain", SIGTERM), ("storage", SIGHUP), ("explain", SIGHUP)] {
            let output = out.appendingPathComponent("\(command).out")
            let child = try start([command, "--scale", "20000", "--output", output.path], name: "\(command)-\(signalNumber)")
            guard wait(for: child, until: { allFiles(temporary).contains { $0.hasSuffix(".sqlite") } }) else {
                return XCTFail("\(command): no store appeared in \(temporary.path) (or it ended first): \(child.stderr)")
            }
            kill(child.pid, signalNumber)
            guard waitForExit(child) else { return XCTFail("\(command) did not exit within \(Int(Self.exitTimeout)) s of signal \(signalNumber)") }
            checkInterrupted(child, signal: signalNumber, command)
            XCTAssertTrue(child.stderr.contains("interrupted: temporary stores removed; \(output.path) was not written"), child.stderr)
            XCTAssertEqual(allFiles(temporary), [], "\(command), signal \(signalNumber): stores left in the temporary folder")
            XCTAssertEqual(contents(out), [], "\(command), signal \(signalNumber): files left beside the output")
        }
    }

    /// `bench sweep` handles SIGHUP as SIGINT and SIGTERM: status 129, its stores removed.
    func testSIGHUPStopsASweepAndCleansUp() throws {
        let output = folder.appendingPathComponent("s.csv")
        let child = try start(["sweep", "--parameter", "skew", "--values", "0,1", "--scale", "15000", "--repetitions", "2",
                               "--workloads", "insert-bulk", "--output", output.path], name: "sweep")
        guard wait(for: child, until: { allFiles(temporary).contains { $0.hasSuffix(".sqlite") } }) else {
            return XCTFail("the sweep built no store in \(temporary.path) (or ended first): \(child.stderr)")
        }
        kill(child.pid, SIGHUP)
        guard waitForExit(child) else { return XCTFail("the sweep did not exit within \(Int(Self.exitTimeout)) s of SIGHUP") }
        checkInterrupted(child, signal: SIGHUP, "sweep")
        XCTAssertEqual(allFiles(temporary), [], "stores left in the temporary folder")
        XCTAssertFalse(contents(folder).contains(".s.csv.lock"), "the claim on the output is left")
    }

    /// A second bench given the output a running one writes is refused with one line, with or
    /// without --force; once the first has ended (here: on SIGTERM), --force replaces its file.
    func testASecondRunIsRefusedTheOutputARunningOneClaimed() throws {
        let output = folder.appendingPathComponent("r.csv")
        let first = try start(["run", "--scale", "12000", "--repetitions", "1", "--workloads", "insert-single,insert-bulk", "--output", output.path], name: "first")
        let lock = folder.appendingPathComponent(".r.csv.lock")
        guard wait(for: first, until: { FileManager.default.fileExists(atPath: output.path) }) else {
            return XCTFail("the first run wrote no row (or ended first): \(first.stderr)")
        }
        XCTAssertEqual(try String(contentsOf: lock, encoding: .utf8), "\(first.pid)\n", "the claim names the running bench")
        let rowsBefore = try String(contentsOf: output, encoding: .utf8)
        for extra in [[], ["--force"]] {
            let second = try start(["run", "--scale", "10", "--repetitions", "1", "--workloads", "count-all", "--output", output.path] + extra,
                                   name: "second\(extra.joined())")
            guard waitForExit(second) else { return XCTFail("the second run was not refused at once") }
            let errors = second.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
            XCTAssertEqual(second.process.terminationStatus, 1, second.stderr)
            XCTAssertEqual(errors, ["error: \(output.path) is being written by another bench (process \(first.pid)); wait for it to finish or choose another --output (--force does not take over a running bench's output)"],
                           "\(extra): \(second.stderr)")
            XCTAssertEqual(second.stdout, "")
        }
        XCTAssertTrue(try String(contentsOf: output, encoding: .utf8).hasPrefix(rowsBefore), "the first run's rows are untouched")
        kill(first.pid, SIGTERM)
        guard waitForExit(first) else { return XCTFail("the first run did not exit on SIGTERM") }
        checkInterrupted(first, signal: SIGTERM, "first run")
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock.path), "the claim ends with the run")
        let replaced = try start(["run", "--scale", "10", "--repetitions", "1", "--workloads", "count-all", "--quiet", "--force", "--output", output.path], name: "third")
        guard waitForExit(replaced, timeout: Self.firstRowTimeout) else { return XCTFail("the third run did not end") }
        XCTAssertEqual(replaced.process.terminationStatus, 0, replaced.stderr)
        XCTAssertEqual(try CSV.parse(String(contentsOf: output, encoding: .utf8)).count, 1 + 5, "--force replaced the ended run's file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock.path))
    }

    /// A run killed with SIGKILL (as the out-of-memory killer does) cannot remove its stores; the
    /// next command that builds stores removes them and says what it freed, and so does `bench clean`.
    func testTheStoresOfAKilledRunAreRemovedByTheNextCommand() throws {
        var killed: [String] = []
        for round in 0 ..< 2 {
            let output = folder.appendingPathComponent("r\(round).csv")
            let child = try start(["run", "--scale", "12000", "--repetitions", "1", "--workloads", "insert-single,insert-bulk", "--output", output.path],
                                  name: "killed\(round)")
            guard wait(for: child, until: { FileManager.default.fileExists(atPath: output.path) }) else {
                return XCTFail("the run wrote no row (or ended first): \(child.stderr)")
            }
            kill(child.pid, SIGKILL)
            guard waitForExit(child) else { return XCTFail("the run did not die") }
            if let before = killed.last {
                // The second run removed the first one's folder when it started.
                XCTAssertTrue(child.stderr.contains("note: removed 1 store folder left by bench processes that no longer run (killed?), freeing "), child.stderr)
                XCTAssertTrue(child.stderr.contains(temporary.appendingPathComponent(before).path), child.stderr)
            }
            killed = contents(temporary).filter { $0.hasPrefix("inheritance-bench-") }
            XCTAssertEqual(killed, contents(temporary).filter { $0.hasPrefix("inheritance-bench-run-\(child.pid)-") }, "a killed run leaves its store folder, and only its own")
            XCTAssertEqual(killed.count, 1, "\(contents(temporary))")
        }
        let storage = try start(["storage", "--scale", "50", "--output", folder.appendingPathComponent("s.csv").path], name: "storage")
        guard waitForExit(storage, timeout: Self.firstRowTimeout) else { return XCTFail("storage did not end") }
        XCTAssertEqual(storage.process.terminationStatus, 0, storage.stderr)
        let note = storage.stderr.split(separator: "\n").first { $0.hasPrefix("note: removed ") }.map(String.init) ?? ""
        XCTAssertTrue(note.hasPrefix("note: removed 1 store folder left by bench processes that no longer run (killed?), freeing "), storage.stderr)
        XCTAssertTrue(note.hasSuffix(temporary.appendingPathComponent(killed[0]).path), note)
        XCTAssertEqual(contents(temporary).filter { $0.hasPrefix("inheritance-bench-") }, [], "every store folder is gone")

        // bench clean, on a folder of a process that has ended: it names it; then nothing is left.
        let leftover = temporary.appendingPathComponent("inheritance-bench-sweep-\(storage.pid)-ABCDEF01")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        let clean = try start(["clean"], name: "clean")
        guard waitForExit(clean) else { return XCTFail("clean did not end") }
        XCTAssertEqual(clean.process.terminationStatus, 0, clean.stderr)
        XCTAssertTrue(clean.stdout.contains("removed \(leftover.path) ("), clean.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
        let again = try start(["clean"], name: "again")
        guard waitForExit(again) else { return XCTFail("clean did not end") }
        XCTAssertTrue(again.stdout.hasPrefix("nothing to remove: "), again.stdout)
        let missing = try start(["clean", "--store-folder", folder.appendingPathComponent("none").path], name: "missing")
        guard waitForExit(missing) else { return XCTFail("clean did not end") }
        XCTAssertEqual(missing.process.terminationStatus, 1)
        XCTAssertEqual(missing.stderr, "error: the store folder \(folder.appendingPathComponent("none").path) (--store-folder) does not exist; give --store-folder a writable folder\n")
    }

    /// A reader that stops early (`bench run | head -1`) closes the pipe under bench: the run ends
    /// as it would otherwise, its stores and its claim on the output removed, instead of dying of SIGPIPE.
    func testARunWhoseReaderStopsEarlyStillCleansUp() throws {
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("r.csv"), status = folder.appendingPathComponent("status")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `true` reads nothing and exits at once: every write bench makes to standard output (the
        // table, the results line) meets a closed pipe, and so does each message on standard error.
        process.arguments = ["-c", "{ \"$0\" \"$@\" 2>&1; echo $? > \(status.path); } | true", CommandLineTests.executable.path,
                             "run", "--scale", "300", "--repetitions", "2", "--workloads", "count-all,fetch-page", "--output", output.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        try process.run()
        process.waitUntilExit()
        let code = try String(contentsOf: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(code, "0", "bench died of SIGPIPE (141) instead of finishing its run")
        XCTAssertEqual(allFiles(temporary), [], "stores left in the temporary folder")
        XCTAssertEqual(contents(folder).filter { $0.hasPrefix(".") }, [], "the claim on the output is left")
        XCTAssertEqual(try CSV.parse(String(contentsOf: output, encoding: .utf8)).count, 1 + 2 * 5, "the CSV is complete")
    }

    /// A write that fails after some rows were written (here the results file's temporary name
    /// is taken by a folder, as a full disk would fail it) stops the run; the note names the file
    /// and the rows it really holds, not one more.
    func testTheNoteAfterAFailedWriteCountsTheRowsTheFileHolds() throws {
        let output = folder.appendingPathComponent("r.csv")
        // The run fails at its next write after the first rows: the end of insert-bulk, whose length the scale sets.
        let child = try start(["run", "--scale", "4000", "--repetitions", "1", "--workloads", "insert-single,insert-bulk", "--output", output.path], name: "run")
        guard wait(for: child, until: { FileManager.default.fileExists(atPath: output.path) }) else {
            return XCTFail("the run wrote no row (or ended first): \(child.stderr)")
        }
        let blocker = folder.appendingPathComponent(".r.csv.\(child.pid).tmp")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: false)
        guard waitForExit(child, timeout: Self.firstRowTimeout) else { return XCTFail("the run did not stop at its next write") }
        XCTAssertEqual(child.process.terminationStatus, 1, child.stderr)
        let rows = try CSV.parse(String(contentsOf: output, encoding: .utf8)).count - 1
        let lines = child.stderr.split(separator: "\n").filter { !$0.hasPrefix("warning:") }.map(String.init)
        let note = rows == 1 ? "note: the 1 row completed before the failure is in \(output.path)" : "note: the \(rows) rows completed before the failure are in \(output.path)"
        XCTAssertEqual(lines.count, 2, child.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("error: could not write \(output.path) (creating \(blocker.path): Is a directory)") == true, child.stderr)
        XCTAssertEqual(lines.last, note, "the note follows the error it refers to: \(child.stderr)")
        let samples = try CSV.parse(String(contentsOf: SamplesCSV.url(besides: output), encoding: .utf8))
        XCTAssertEqual(Set(samples.dropFirst().map { $0[3] + "/" + $0[4] }).count, rows, "the samples file holds the same cases as the CSV")
        try FileManager.default.removeItem(at: blocker)
        XCTAssertEqual(contents(folder).filter { $0.hasPrefix(".") }, [], "no lock or temporary file left")
        XCTAssertEqual(allFiles(temporary), [], "the run's stores are removed")
    }

    /// The records of a CSV file that must be whole: it parses, ends with a line end, starts with
    /// `header`, and every line has the header's number of fields.
    private func completeRecords(_ file: URL, header: [String]) throws -> [[String]] {
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"), "\(file.lastPathComponent) ends in the middle of a line")
        let records = try CSV.parse(text)
        XCTAssertEqual(records.first, header, file.lastPathComponent)
        for (index, record) in records.enumerated() where record.count != header.count {
            XCTFail("\(file.lastPathComponent) line \(index + 1) has \(record.count) fields, not \(header.count)")
        }
        return records
    }
}
