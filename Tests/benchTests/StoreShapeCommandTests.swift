import Foundation
import TestSupport
import XCTest

/// `bench model --model App.sqlite` prints the data's shape beside the entity tree, and no value of
/// the store's rows reaches any output: not the command's lines, not a store generated from its
/// shape (every text the fixture writes holds `ShapedStoreFixture.marker`).
final class StoreShapeCommandTests: XCTestCase {
    func testTheShapeIsPrintedAndNoRowValueLeavesTheStore() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shape-command-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Notes.sqlite")
        try ShapedStoreFixture.write(to: store.path, notes: 3_000)
        let described = try CommandLineTests.bench(["model", "--model", store.path], in: folder)
        XCTAssertEqual(described.status, 0, described.stderr)
        for line in ["Shape: the NULL shares of 6 optional properties, the fan-outs of 3 to-manys, the lengths of 5 text and binary attributes, the distinct shares of 1 indexed attributes; model and shape read in ",
                     "  1 Folder (300 objects; 1 attributes, 1 relationships)\n      fan-out: notes median ",
                     "      length: body median ", "; thumbnail median ", "      distinct: title "] {
            XCTAssertTrue(described.stdout.contains(line), "\(line)\n\(described.stdout)")
        }
        let generated = folder.appendingPathComponent("Generated.sqlite")
        let made = try CommandLineTests.bench(["generate", "--model", store.path, "--strategy", "single-table", "--output", generated.path], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        for output in [described.stdout, described.stderr, made.stdout, made.stderr] {
            XCTAssertFalse(output.contains(ShapedStoreFixture.marker), output)
        }
        let bytes = try Data(contentsOf: generated)
        XCTAssertGreaterThan(bytes.count, 100_000)
        XCTAssertNil(bytes.range(of: Data(ShapedStoreFixture.marker.utf8)))
    }

    /// Ctrl-C while a store in use (a `-wal` beside it) is copied to be read: the private copy is
    /// removed, the command says so and exits with 130, and the user's files are as they were.
    func testCtrlCDuringThePrivateCopyRemovesIt() throws {
        let memory = URL(fileURLWithPath: "/dev/shm")
        let base = FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("shape-interrupt-\(UUID().uuidString.prefix(8))")
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("App.sqlite")
        try ShapedStoreFixture.write(to: store.path, notes: 300)
        // A long copy: the store grown (sparse) to 800 MB, and a -wal beside it, so it is copied.
        XCTAssertEqual(truncate(store.path, 800 << 20), 0)
        try Data(repeating: 1, count: 4_096).write(to: URL(fileURLWithPath: store.path + "-wal"))
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["model", "--model", store.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var copying = false
        while Date() < deadline, process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            if names.contains(where: { $0.hasPrefix("inheritance-bench-store-") }) { copying = true; break }
            usleep(1_000)
        }
        XCTAssertTrue(copying, "the copy never started")
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertTrue(stderr.contains("interrupted: the private copy of the store removed; nothing was written"), stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), listed)
    }
}
