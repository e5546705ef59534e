import Foundation
import Models
import Reporting
import SQLite
import TestSupport
import XCTest

/// `--data store`: every layout filled with the store's own objects. The run measures them (every
/// strategy agreeing, each copy proved whole), no value of a row reaches any output, the store is
/// byte-identical afterwards with no `-wal` or `-shm` beside it, and mistakes are one line.
final class DataStoreCommandTests: XCTestCase {
    var folder: URL!
    var store: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("data-store-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = folder.appendingPathComponent("Notes.sqlite")
        try ShapedStoreFixture.write(to: store.path, notes: 1_500)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testARunMeasuresTheStoresOwnObjectsAndKeepsThemPrivate() throws {
        let before = try Data(contentsOf: store)
        let run = try CommandLineTests.bench(["run", "--data", "store", "--model", store.path, "--repetitions", "2", "--output", "run.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("moving the store's 2200 objects into each layout (insert-bulk: every object and link copied in transactions of 1000):\n  single-table      "), run.stdout)
        XCTAssertTrue(run.stdout.contains(" bytes an object, "), run.stdout)
        let summary = try String(contentsOf: folder.appendingPathComponent("run.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("**Moving the store's 2200 objects into each layout"), summary)
        XCTAssertTrue(summary.contains("the store's own objects, seed"), summary)
        let csv = try String(contentsOf: folder.appendingPathComponent("run.csv"), encoding: .utf8)
        XCTAssertTrue(csv.contains(",store,"), "the rows name the store's objects")
        let storage = try CommandLineTests.bench(["storage", "--data", "store", "--model", store.path, "--output", "storage.csv"], in: folder)
        XCTAssertEqual(storage.status, 0, storage.stderr)
        let explain = try CommandLineTests.bench(["explain", "--data", "store", "--model", store.path, "--output", "plans.txt"], in: folder)
        XCTAssertEqual(explain.status, 0, explain.stderr)
        var outputs = [run.stdout, run.stderr, storage.stdout, storage.stderr, explain.stdout, explain.stderr]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name != "Notes.sqlite" {
            outputs.append(String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self))
        }
        for output in outputs { XCTAssertFalse(output.contains(ShapedStoreFixture.marker), String(output.prefix(2_000))) }
        XCTAssertEqual(try Data(contentsOf: store), before, "the store was written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path + "-shm"))
    }

    /// `bench replay --data store` times a log's saves on copies of the store's own objects: new
    /// objects after its keys, its objects updated and deleted, in every layout alike; the store
    /// is untouched and none of its values reaches an output.
    func testReplayTimesALogsSavesOnTheStoresOwnObjects() throws {
        let before = try Data(contentsOf: store)
        let save = [
            "BEGIN EXCLUSIVE", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
            "INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, ZITEMS, ZFOLDER, ZTITLE, ZBODY, ZTHUMBNAIL) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
            "UPDATE ZNOTE SET ZTITLE = ?, ZFOLDER = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "UPDATE ZFOLDER SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
            "DELETE FROM ZNOTE WHERE Z_PK = ?", "COMMIT",
        ]
        let log = (save + ["SELECT COUNT(*) FROM ZNOTE t0"] + save).map { "CoreData: sql: \($0)\n" }.joined()
        try Data(log.utf8).write(to: folder.appendingPathComponent("app.log"))
        let run = try CommandLineTests.bench(["replay", "app.log", "--data", "store", "--model", store.path, "--repetitions", "2", "--output", "r.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("    2          16     1  SAVE INSERT Checklist; UPDATE Note SET title, folder; UPDATE Folder VERSION; DELETE Note\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("the session, in the log's order: 1 fetch and 2 saves\n"), run.stdout)
        let rows = try ResultsFile(url: folder.appendingPathComponent("r.csv")).rows
        let saves = rows.filter { $0.fields["workload"] == "line-1" }
        XCTAssertEqual(saves.count, 5)
        XCTAssertEqual(Set(saves.map { $0.fields["rows"] }), ["4"], "four changes made in every layout")
        XCTAssertEqual(Set(saves.map { $0.fields["digest"] }).count, 1, "every layout holds the same objects after the save")
        XCTAssertEqual(Set(rows.filter { $0.fields["workload"] == "session" }.map { $0.fields["digest"] }).count, 1)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name != "Notes.sqlite" {
            XCTAssertFalse(String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self).contains(ShapedStoreFixture.marker), name)
        }
        XCTAssertFalse((run.stdout + run.stderr).contains(ShapedStoreFixture.marker))
        XCTAssertEqual(try Data(contentsOf: store), before, "the store was written")
    }

    /// `generate --data store` writes the store's own objects, in the layout asked for, into the file the user names only.
    func testGenerateCopiesTheObjectsIntoTheLayoutAsked() throws {
        let copy = folder.appendingPathComponent("Copy.sqlite")
        let made = try CommandLineTests.bench(["generate", "--data", "store", "--model", store.path, "--strategy", "table-per-entity", "--output", copy.path], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertFalse(made.stdout.contains(ShapedStoreFixture.marker) || made.stderr.contains(ShapedStoreFixture.marker))
        XCTAssertNotNil(try Data(contentsOf: copy).range(of: Data(ShapedStoreFixture.marker.utf8)), "the copy holds the store's rows")
    }

    func testMistakesAreOneLine() throws {
        let mistakes: [([String], String)] = [
            (["run", "--data", "store", "--model", store.path, "--scale", "100"], "--scale does not apply with --data store"),
            (["run", "--data", "store", "--preset", "publications"], "--data store copies the objects of a Core Data or SwiftData store: give the store as --model"),
            (["storage", "--data", "store", "--model", store.path, "--mix", "Note=1"], "--mix does not apply with --data store"),
            (["explain", "--data", "store", "--model", store.path, "--fan-out", "0-2"], "--fan-out does not apply with --data store"),
            (["run", "--data", "rows", "--model", store.path], "--data"),
            (["run", "--data", "store", "--model", store.path, "--log-sql", "s.log", "--log-sql-level", "2"], "with --data store those are the store's own data, which no output holds; use level 1"),
            (["sweep", "--parameter", "scale", "--data", "store"], "--data store does not apply to bench sweep"),
        ]
        for (arguments, message) in mistakes {
            let outcome = try CommandLineTests.bench(arguments, in: folder)
            XCTAssertNotEqual(outcome.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["Notes.sqlite"])
    }

    /// `--skip-bad-rows` leaves out what breaks the store's model, says so in one warning, and every
    /// layout holds the rest (each copy proved); without it the store is refused in one line.
    func testBadRowsAreRefusedOrSkippedAsAsked() throws {
        try Database(path: store.path).execute("""
            UPDATE ZNOTE SET ZITEMS = 'x' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZNOTE WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Checklist'));
            UPDATE ZNOTE SET ZFOLDER = 99999 WHERE Z_PK = 6
            """)
        let refused = try CommandLineTests.bench(["storage", "--data", "store", "--model", store.path, "--output", "s.csv"], in: folder)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("break its own model") && refused.stderr.contains("--skip-bad-rows"), refused.stderr)
        let skipped = try CommandLineTests.bench(["storage", "--data", "store", "--skip-bad-rows", "--model", store.path, "--output", "s.csv"], in: folder)
        XCTAssertEqual(skipped.status, 0, skipped.stderr)
        XCTAssertTrue(skipped.stderr.contains("--skip-bad-rows left out 1 object whose values break its model"), skipped.stderr)
        XCTAssertFalse(skipped.stderr.contains(ShapedStoreFixture.marker))
        let mistake = try CommandLineTests.bench(["storage", "--skip-bad-rows", "--model", store.path], in: folder)
        XCTAssertTrue(mistake.stderr.contains("--skip-bad-rows applies with --data store"), mistake.stderr)
    }

    /// A store with no objects has nothing of its own to copy: one line, not generated objects
    /// counted against it.
    func testAnEmptyStoreIsOneLine() throws {
        let empty = folder.appendingPathComponent("Empty.sqlite")
        try CoreDataStoreFixture.write(try Model(ShapedStoreFixture.description(notes: 30)), to: empty.path)
        let database = try Database(path: empty.path)
        for table in try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')") {
            try database.execute("DELETE FROM \(table)")
        }
        let outcome = try CommandLineTests.bench(["storage", "--data", "store", "--model", empty.path, "--output", "s.csv"], in: folder)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, "error: \(empty.path) holds no objects: it has nothing of its own to copy; leave out --data store to measure its model with generated objects\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.csv").path))
    }

    /// `--skip-bad-rows` that leaves an entity with no objects another one requires: one line
    /// saying that the store's rows, not its model, are what cannot be copied, and what to do.
    func testSkippingRowsThatLeaveARequiredDestinationEmptyIsExplained() throws {
        let model = try Model(ModelDescription(name: "Shelf", entities: [
            EntityDescription("Item", rows: 30, attributes: [Attribute("name", .string)]),
            EntityDescription("Tag", rows: 20, attributes: [Attribute("label", .string)], relationships: [RelationshipDescription("item", destination: "Item")]),
        ]))
        let path = folder.appendingPathComponent("Shelf.sqlite").path
        try CoreDataStoreFixture.writeGenerated(model, seed: 1, to: path)
        try Database(path: path).execute("UPDATE ZITEM SET ZNAME = NULL")
        let outcome = try CommandLineTests.bench(["run", "--data", "store", "--skip-bad-rows", "--model", path, "--repetitions", "1", "--output", "s.csv"], in: folder)
        XCTAssertEqual(outcome.status, 1)
        let errors = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errors.count, 1, outcome.stderr)
        XCTAssertTrue(errors.first?.contains("without the 30 objects --skip-bad-rows leaves out") == true, outcome.stderr)
        XCTAssertTrue(errors.first?.contains("its objects cannot be copied; measure the shape of its data instead: leave out --data store") == true, outcome.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.csv").path))
    }

    /// Ctrl-C while `bench run --data store` copies a store in use into the layouts: exit 130, one
    /// `interrupted:` line, neither the store's private copy nor any layout's store left in
    /// `TMPDIR`, no results file, the store and its `-wal` unchanged.
    func testCtrlCDuringTheCopyLeavesNothing() throws {
        // A layout's store in the run's own folder of stores, inside the command's private folder.
        try interruptRunOfAStoreInUse { _, subpaths in subpaths.contains { $0.contains("/") && $0.hasSuffix(".sqlite") } }
    }

    /// Ctrl-C as the command's private folder appears, before the run makes its own folder of
    /// stores in it (a run starting after the interruption's clean-up once made the private folder
    /// again, and it was left behind).
    func testCtrlCAsTheRunStartsLeavesNothing() throws {
        try interruptRunOfAStoreInUse { _, _ in true }
    }

    /// Runs `bench run --data store` on the store in use (WAL), sends SIGINT once the store's
    /// private copy exists and `ready` holds for the run's private folder and its subpaths, and
    /// checks the interruption left nothing and changed nothing.
    private func interruptRunOfAStoreInUse(when ready: (URL, [String]) -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let manager = FileManager.default
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
        let app = try Database(path: store.path)
        try app.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0")
        try app.execute("UPDATE ZFOLDER SET ZNAME = 'renamed' WHERE Z_PK = 1")
        let before = try Data(contentsOf: store), wal = try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal"))
        let stderrLog = folder.appendingPathComponent("stderr.log")
        _ = manager.createFile(atPath: stderrLog.path, contents: nil)
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["run", "--data", "store", "--model", store.path, "--workloads", "insert-bulk", "--repetitions", "200",
                             "--store-folder", temporary.path, "--output", folder.appendingPathComponent("run.csv").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        try process.run()
        let pid = process.processIdentifier
        defer { if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() } }
        func made(_ prefix: String) -> URL? {
            ((try? manager.contentsOfDirectory(atPath: temporary.path)) ?? []).first { $0.hasPrefix(prefix) }.map { temporary.appendingPathComponent($0) }
        }
        var reached = false
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, !reached {
            if made("inheritance-bench-store-\(pid)-") != nil, let run = made("inheritance-bench-run-\(pid)-") {
                reached = ready(run, (try? manager.subpathsOfDirectory(atPath: run.path)) ?? [])
            }
            if !reached { usleep(1_000) }
        }
        kill(pid, SIGINT)
        XCTAssertTrue(reached, "the moment to interrupt never came: \((try? String(contentsOf: stderrLog, encoding: .utf8)) ?? "") "
            + "\((try? manager.subpathsOfDirectory(atPath: temporary.path)) ?? []) wal \(wal.count)", file: file, line: line)
        let exitDeadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < exitDeadline { usleep(10_000) }
        let messages = (try? String(contentsOf: stderrLog, encoding: .utf8)) ?? ""
        XCTAssertFalse(process.isRunning, "bench did not exit within 30 s of Ctrl-C", file: file, line: line)
        XCTAssertEqual(process.terminationReason, .exit, messages, file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 130, messages, file: file, line: line)
        XCTAssertTrue(messages.contains("interrupted: "), messages, file: file, line: line)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: temporary.path), [], "left in \(temporary.path)", file: file, line: line)
        XCTAssertFalse(manager.fileExists(atPath: folder.appendingPathComponent("run.csv").path), file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: store), before, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path + "-wal")), wal, file: file, line: line)
        withExtendedLifetime(app) {}
    }
}
