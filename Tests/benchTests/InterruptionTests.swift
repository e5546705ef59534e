import Foundation
import Reporting
import XCTest

/// Interrupts a real `bench run` child process in the middle of its work, as Ctrl-C or a
/// service manager would, and checks what the README promises: exit status 130 (SIGINT) or
/// 143 (SIGTERM), a CSV holding only complete rows, and no temporary store or file left behind.
///
/// The child gets a private `TMPDIR`, so the run's store folder (`inheritance-bench-<pid>-<8 chars>`
/// under `FileManager.default.temporaryDirectory`) can be watched exactly.
final class InterruptionTests: XCTestCase {
    /// How long the run may take to complete its first CSV rows before the test gives up.
    static let firstRowTimeout: TimeInterval = 120
    /// How long the run may take to exit once signalled.
    static let exitTimeout: TimeInterval = 30

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-interrupt-\(UUID().uuidString)")
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

    private func interruptARun(with signalNumber: Int32, expectedStatus: Int32) throws {
        let manager = FileManager.default
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        let outputFolder = folder.appendingPathComponent("out", isDirectory: true)
        for path in [temporary, outputFolder] { try manager.createDirectory(at: path, withIntermediateDirectories: true) }
        let output = outputFolder.appendingPathComponent("r.csv")
        let stdoutLog = folder.appendingPathComponent("stdout.log"), stderrLog = folder.appendingPathComponent("stderr.log")
        for log in [stdoutLog, stderrLog] { _ = manager.createFile(atPath: log.path, contents: nil) }

        // insert-single completes its rows within seconds; insert-bulk at this scale then keeps
        // the run busy writing stores (tens of seconds in a debug build) when the signal arrives.
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["run", "--scale", "30000", "--repetitions", "3", "--workloads", "insert-single,insert-bulk",
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
            ((try? manager.contentsOfDirectory(atPath: temporary.path)) ?? []).filter { $0.hasPrefix("inheritance-bench-\(pid)-") }
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
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: outputFolder.path).sorted(), [output, samples].map(\.lastPathComponent).sorted(),
                       "a temporary .r.csv.*.tmp file is left beside the output")
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
