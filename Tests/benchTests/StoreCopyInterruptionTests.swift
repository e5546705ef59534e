import CoreDataStores
import Foundation
import Models
import SQLite
import TestSupport
import XCTest

/// Ctrl-C while `bench model` copies a store in use (its file and `-wal`, to read it as committed):
/// the child exits with 130, says it was interrupted, and leaves no copy in its `TMPDIR`; the
/// store and its `-wal` are unchanged.
final class StoreCopyInterruptionTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-store-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A store of about `megabytes` MB (a table of zero blobs beside the model's tables) with
    /// `connection` writing to it in WAL mode, its `-wal` not checkpointed.
    func storeInUse(at path: String, megabytes: Int) throws -> Database {
        try CoreDataStoreFixture.write(try Model(try XCTUnwrap(ModelPresets.named("publications")).scaled(to: 200)), to: path)
        let padding = try Database(path: path)
        try padding.execute("CREATE TABLE ZPADDING (Z_PK INTEGER PRIMARY KEY, ZDATA BLOB)")
        for _ in 0 ..< megabytes / 64 { try padding.execute("INSERT INTO ZPADDING (ZDATA) VALUES (zeroblob(64000000))") }
        let app = try Database(path: path)
        try app.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0")
        try app.execute("INSERT INTO ZPADDING (ZDATA) VALUES (zeroblob(1000))")
        withExtendedLifetime(padding) {}
        return app
    }

    func testCtrlCDuringThePrivateCopyExitsWith130AndLeavesNoCopy() throws {
        let manager = FileManager.default
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("Busy.sqlite").path
        let app = try storeInUse(at: path, megabytes: 1_536)
        let size = try XCTUnwrap(manager.attributesOfItem(atPath: path)[.size] as? Int)
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let modified = try manager.attributesOfItem(atPath: path)[.modificationDate] as? Date

        let stderrLog = folder.appendingPathComponent("stderr.log")
        _ = manager.createFile(atPath: stderrLog.path, contents: nil)
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["model", "--model", path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() } }

        // As soon as the private copy has bytes in it (and before it has them all), Ctrl-C.
        var copied = -1
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, copied <= 0 {
            let folders = ((try? manager.contentsOfDirectory(atPath: temporary.path)) ?? []).filter { $0.hasPrefix("inheritance-bench-store-\(pid)-") }
            if let made = folders.first {
                copied = (try? manager.attributesOfItem(atPath: temporary.appendingPathComponent(made).appendingPathComponent("store.sqlite").path)[.size] as? Int) ?? -1
            }
            if copied <= 0 { usleep(500) }
        }
        kill(pid, SIGINT)
        XCTAssertGreaterThan(copied, 0, "the copy never started")
        XCTAssertLessThan(copied, size, "the signal came after the copy (\(copied) of \(size) bytes): the test proves nothing")
        let exitDeadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < exitDeadline { usleep(10_000) }
        XCTAssertFalse(process.isRunning, "bench did not exit within 30 s of Ctrl-C")
        let messages = (try? String(contentsOf: stderrLog, encoding: .utf8)) ?? ""
        XCTAssertEqual(process.terminationReason, .exit, "bench died of the signal instead of handling it: \(messages)")
        XCTAssertEqual(process.terminationStatus, 130, messages)
        XCTAssertTrue(messages.contains("interrupted: \(path) was not read; nothing was written"), messages)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: temporary.path), [], "the private copy is left in \(temporary.path)")
        XCTAssertEqual(try manager.attributesOfItem(atPath: path)[.size] as? Int, size)
        XCTAssertEqual(try manager.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")), wal)
        withExtendedLifetime(app) {}
    }

    /// Ctrl-C after a store's read, while `bench model` prints its model into a pipe nobody reads
    /// (the process blocked in a write, with no cleanup to run): the process ends with 130 at once.
    /// The read's own handler is gone by then; the signal is neither ignored nor lost.
    func testCtrlCAfterTheReadEndsTheProcess() throws {
        let entities = (0 ..< 150).map { number in
            EntityDescription("Entity\(number)", rows: 1, attributes: (0 ..< 12).map { Attribute("attribute\($0)", .string) })
        }
        let path = folder.appendingPathComponent("Wide.sqlite").path
        try CoreDataStoreFixture.write(try Model(ModelDescription(name: "Wide", entities: entities)), to: path)
        let stderrLog = folder.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: stderrLog.path, contents: nil)
        let output = Pipe()
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["model", "--model", path]
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() } }
        // Blocked in a write to the full pipe: the model read, its printing under way.
        var waiting = ""
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, !waiting.contains("pipe_write") {
            usleep(10_000)
            waiting = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
        }
        XCTAssertTrue(waiting.contains("pipe_write"), "bench never blocked writing its output (\(waiting)): the test proves nothing")
        kill(pid, SIGINT)
        let exitDeadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < exitDeadline { usleep(10_000) }
        let messages = (try? String(contentsOf: stderrLog, encoding: .utf8)) ?? ""
        XCTAssertFalse(process.isRunning, "Ctrl-C was ignored: bench still runs 10 s after it: \(messages)")
        if !process.isRunning { XCTAssertEqual(process.terminationStatus, 130, messages) }
        withExtendedLifetime(output) {}
    }
}
