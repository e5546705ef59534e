import Foundation
import Models
import Reporting
import Strategies
import XCTest

/// `bench replay --dry-run`: an app's Core Data SQL log read and its statements told by kind; no
/// bound value in any output; a log that is not one, one line and a non-zero exit, nothing written.
extension CommandLineTests {
    /// A level-2 log of a save and the reads after it, the app's own lines between, a bound value
    /// that must never be printed (`marker`) and one statement not understood.
    static let replayMarker = "Quokka-7f3a19"
    static var replayLog: String {
        """
        2026-11-30 09:12:44.101 Shelves[812:3301] CoreData: annotation: Connecting to sqlite database file at "/private/\(replayMarker)/Shelves.sqlite"
        CoreData: sql: pragma recursive_triggers=1
        CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA
        app: shelves loaded
        CoreData: sql: BEGIN EXCLUSIVE
        CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
        CoreData: details: SQLite bind[0] = (int64)2
        CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
        CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES(?, ?, ?, ?)
        CoreData: details: SQLite bind[3] = "\(replayMarker)"
        CoreData: sql: COMMIT
        CoreData: sql: SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZITEM t0 WHERE  t0.ZTITLE = ?  ORDER BY t0.ZTITLE
        CoreData: details: SQLite bind[0] = "\(replayMarker)"
        CoreData: annotation: sql connection fetch time: 0.0004s
        CoreData: annotation: fetch using NSSQLiteStatement <0x6000> on entity 'Item' with sql text 'SELECT … WHERE t0.ZTITLE = ?' returned 1 rows with values: ("\(replayMarker)")
        CoreData: annotation: total fetch execution time: 0.0007s for 1 rows.
        CoreData: sql: SELECT COUNT(*) FROM ZITEM
        CoreData: annotation: total count request execution time: 0.0002s for count of 41.
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZTITLE IN ('\(replayMarker)',
        """
    }

    func testReplayDryRunTellsTheLogsStatementsAndNeverItsValues() throws {
        let log = folder.appendingPathComponent("shelves.log")
        try Data(Self.replayLog.utf8).write(to: log)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let dry = try bench(["replay", log.path, "--dry-run"], in: folder)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.hasPrefix("shelves.log: 19 lines, 18 of them Core Data's; 10 statements, 9 understood, 1 not (bound values logged: level 2 or more)\n"), dry.stdout)
        for line in ["fetch                                 1     0.0007 s     1", "count                                 1     0.0002 s    41", "key reservation                       2            -     -",
                     "store upkeep (not replayed)           2            -     -", "ZITEM         fetch 1, count 1, insert 1", "line 19: cut off"] {
            XCTAssertTrue(dry.stdout.contains(line), "\(line) in\n\(dry.stdout)")
        }
        XCTAssertFalse((dry.stdout + dry.stderr).contains(Self.replayMarker), "a bound value, a row or the store's path printed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), before, "nothing written")
        let strict = try bench(["replay", log.path, "--dry-run", "--strict"], in: folder)
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stderr, "error: 1 of the log's statements are not understood (listed above); --strict allows none\n")
        let timed = try bench(["replay", log.path], in: folder)
        XCTAssertEqual(timed.status, 64)
        XCTAssertTrue(timed.stderr.hasPrefix("error: timing a log needs the app's model: give it with --model"), timed.stderr)
    }

    func testReplayRefusesWhatIsNotALogInOneLine() throws {
        let files: [(name: String, data: Data, says: String)] = [
            ("app.log", Data("app started\nno Core Data here\n".utf8), "holds no line of Core Data's SQL log ('CoreData: sql: …') in its 2 lines"),
            ("binary.log", Data([0x43, 0x6F, 0x72, 0x65, 0x00, 0x01, 0x02]), "line 1 holds a NUL byte"),
            ("latin1.log", Data("CoreData: sql: SELECT 0, t0.Z_PK FROM ZCAF".utf8) + Data([0xC9, 0x0A]), "line 1 is not UTF-8 text"),
            ("cut.log", Data("CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZITEM t0 WHERE t0.ZTITLE = ? AND (".utf8), "none of the 1 statements of"),
            ("bind.log", Data("CoreData: details: SQLite bind[0] = \"\(Self.replayMarker)\"\n".utf8), "holds 1 lines of Core Data's but no statement"),
            ("notes.log", Data("CoreData: annotation: Connecting to sqlite database file at \"/x.sqlite\"\n".utf8), "holds 1 lines of Core Data's but no statement"),
        ]
        for file in files { try file.data.write(to: folder.appendingPathComponent(file.name)) }
        let fifo = folder.appendingPathComponent("fifo.log").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let cases = files.map { ([folder.appendingPathComponent($0.name).path], $0.says) }
            + [([fifo], "is not a regular file"), (["/dev/zero"], "is not a regular file"), ([folder.path], "is a folder"), ([folder.appendingPathComponent("none.log").path], "no file at")]
        let outcomes = try benchEach(cases.map { ["replay"] + $0.0 + ["--dry-run"] }, in: folder)
        for ((_, says), outcome) in zip(cases, outcomes) {
            XCTAssertEqual(outcome.status, 1, says)
            XCTAssertEqual(outcome.stdout, "", says)
            XCTAssertTrue(outcome.stderr.hasPrefix("error: ") && outcome.stderr.contains(says) && outcome.stderr.filter { $0 == "\n" }.count == 1, "\(says): \(outcome.stderr)")
            XCTAssertFalse(outcome.stderr.contains(Self.replayMarker))
        }
        XCTAssertTrue(outcomes[3].stderr.contains("cut off"), outcomes[3].stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before, "nothing written")
    }

    func testReplayDryRunReadsTheLogThroughTheModelAndRefusesAnotherVersionInOneLine() throws {
        let log = """
            CoreData: sql: SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?
            CoreData: details: SQLite bind[0] = (int64)4
            CoreData: annotation: total count request execution time: 0.0002s for count of 41.
            CoreData: sql: SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS = ?
            CoreData: annotation: to-many relationship fault "tags" for objectID 0x1 <x-coredata://S/Book/p2> fulfilled from database.  Got 3 rows
            CoreData: sql: UPDATE OR FAIL ZTAG SET ZNAME = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?
            """
        try Data(log.utf8).write(to: folder.appendingPathComponent("own.log"))
        try Data(log.replacingOccurrences(of: "SET ZNAME", with: "SET ZLABEL").utf8).write(to: folder.appendingPathComponent("other.log"))
        let outcomes = try benchEach([["replay", "own.log", "--dry-run", "--preset", "publications"], ["replay", "other.log", "--dry-run", "--preset", "publications"]], in: folder)
        XCTAssertEqual(outcomes[0].status, 0, outcomes[0].stderr)
        XCTAssertTrue(outcomes[0].stdout.contains("entity       statements by kind\nBook         count 1\nPublication  to-many fault 1\nTag          to-many fault 1, update 1\n"), outcomes[0].stdout)
        XCTAssertEqual(outcomes[1].status, 1)
        XCTAssertEqual(outcomes[1].stdout, "")
        XCTAssertEqual(outcomes[1].stderr, "error: other.log line 6: column ZLABEL is not a column of ZTAG in the model's layout: the log is of another version of the model than the preset publications "
            + "(give the model the app ran with)\n")
        // A model that cannot be read is a bad option, as for every command: exit 64, one line.
        let missing = try Self.bench(["replay", "own.log", "--dry-run", "--model", "none.json"], in: folder)
        XCTAssertEqual(missing.status, 64, missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }.count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("none.json does not exist"), missing.stderr)
    }

    /// `--no-session` times the log's fetches and saves alone, not the session.
    func testNoSessionLeavesTheSessionOut() throws {
        let log = ["SELECT COUNT(*) FROM ZTAG t0", "BEGIN EXCLUSIVE", "UPDATE ZTAG SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT"]
            .map { "CoreData: sql: \($0)\n" }.joined()
        try Data(log.utf8).write(to: folder.appendingPathComponent("app.log"))
        let run = try bench(["replay", "app.log", "--preset", "publications", "--scale", "300", "--repetitions", "2", "--no-session", "--output", "r.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("r.csv")).rows
        XCTAssertEqual(Set(rows.map { $0.fields["workload"]! }), ["line-1", "line-2"])
        XCTAssertFalse(run.stdout.contains("The session"), run.stdout)
    }

    func testReplayTimesTheLogsFetchesInEveryLayoutWeightedByHowOftenItMakesThem() throws {
        let layout = try SingleTable(model: try Model(ModelPresets.publications))
        let book = layout.schema.selectList(3).sql, all = layout.schema.selectList(0).sql
        var log = ""
        for _ in 0 ..< 3 {
            log += "CoreData: sql: SELECT \(book) FROM ZPUBLICATION t0 WHERE t0.ZISBN = ? AND t0.Z_ENT = ?\n"
            log += "CoreData: details: SQLite bind[0] = \"\(Self.replayMarker)\"\nCoreData: details: SQLite bind[1] = (int64)4\n"
            log += "CoreData: annotation: total fetch execution time: 0.0004s for 1 rows.\n"
        }
        log += "CoreData: sql: SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.ZPAGECOUNT > ? AND t0.Z_ENT = ?\n"
        log += "CoreData: details: SQLite bind[0] = (int64)300\nCoreData: details: SQLite bind[1] = (int64)4\n"
        log += "CoreData: sql: SELECT \(all) FROM ZPUBLICATION t0 WHERE t0.Z_PK = ?\n"
        log += "CoreData: annotation: fault fulfilled from database for : 0x1 <x-coredata://S/Book/p2>\n"
        log += "CoreData: sql: BEGIN EXCLUSIVE\nCoreData: sql: UPDATE OR FAIL ZTAG SET ZNAME = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?\nCoreData: sql: COMMIT\n"
        try Data(log.utf8).write(to: folder.appendingPathComponent("app.log"))
        let run = try bench(["replay", "app.log", "--preset", "publications", "--scale", "300", "--repetitions", "2", "--output", "r.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("entity       statements by kind\nBook         fetch 3, count 1\nPublication  fault 1\nTag          update 1\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("the log's reads as fetches: 3 distinct, 5 of its 5 reads\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("    3           3     0.0012 s  drawn ~1 rows     1  Book WHERE isbn == %@\n"), "generated data: the app's values name none of its objects\n\(run.stdout)")
        // The transaction is a save, timed in every layout on a fresh copy of the store each time.
        XCTAssertTrue(run.stdout.contains("the log's transactions as saves: 1 distinct, 3 of its 3 save statements\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("    1           3    18  SAVE UPDATE Tag SET name\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("line-18/save"), run.stdout)
        XCTAssertTrue(run.stdout.contains("- Your mix (3 fetches and 1 save, each weighted by how often the app makes it) takes single-table "), run.stdout)
        // By kind: how many fetches, how often, each layout's time for them and its ratio.
        let lines = run.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertTrue(run.stdout.contains("the log's reads and saves by kind, each as often as the log makes it"), run.stdout)
        for (kind, fetches, times) in [("fetch", "1", "3"), ("count", "1", "1"), ("fault", "1", "1"), ("save", "1", "1")] {
            let row = lines.first { $0.first == kind && $0.count > 3 && $0[1] == fetches && $0[2] == times }
            XCTAssertEqual(row?.filter { $0.hasSuffix("×") }.count, 4, "\(kind): a ratio for each of the four other layouts\n\(run.stdout)")
        }
        // Beside single-table's time here, the device's own, for the one fetch the log timed.
        XCTAssertTrue(run.stdout.contains("the device's logged time beside single-table's here"), run.stdout)
        let beside = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.hasSuffix("  Book WHERE isbn == %@") && $0.contains("400.0 µs") }, run.stdout)
        XCTAssertTrue(beside.hasPrefix("   1      3      400.0 µs"), String(beside))
        XCTAssertTrue(run.stdout.contains("this fetch as often as the log makes it: the device logged 0.0012 s, single-table here "), run.stdout)
        let rows = try ResultsFile(url: folder.appendingPathComponent("r.csv")).rows
        XCTAssertEqual(rows.map { $0.fields["workload"]! }, ["line-1", "line-13", "line-16", "line-18", "session"].flatMap { Array(repeating: $0, count: 5) })
        // The session: the three lookups, the count, the fault and the save in the log's order, in every layout alike.
        XCTAssertTrue(run.stdout.contains("the session, in the log's order: 5 fetches and 1 save\n"), run.stdout)
        // The answer says the session's time in every layout, as the summary does.
        XCTAssertTrue(run.stdout.contains("- The session (the log's fetches and saves one after another, in its order) takes single-table "), run.stdout)
        XCTAssertTrue(try String(contentsOf: folder.appendingPathComponent("r.md"), encoding: .utf8).contains("- The session (the log's fetches and saves one after another, in its order) takes `single-table` "))
        let session = rows.filter { $0.fields["workload"] == "session" }
        XCTAssertEqual(Set(session.map { $0.fields["digest"] }).count, 1, "every layout answers the session alike")
        XCTAssertEqual(Set(session.map { $0.fields["mix_weight"] }), [""], "the session is not part of the weighted mix")
        // Each case says what it asks: the CSV's request, and the summary's list of them.
        XCTAssertEqual(Set(rows.filter { $0.fields["workload"] == "line-18" }.map { $0.fields["request"] }), ["SAVE UPDATE Tag SET name"])
        let summary = try String(contentsOf: folder.appendingPathComponent("r.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("**Your fetches and saves**\n\n- line-1: `Book WHERE isbn == %@`, weight 3 in the app's mix\n"), summary)
        XCTAssertTrue(summary.contains("- line-18/save: `SAVE UPDATE Tag SET name`, weight 1 in the app's mix\n"), summary)
        let json = try String(contentsOf: folder.appendingPathComponent("r.json"), encoding: .utf8)
        XCTAssertTrue(json.contains(#""request":"COUNT Book WHERE pageCount > %@""#), String(json.prefix(3_000)))
        XCTAssertNotNil(lines.first { $0.first == "session," && $0.filter { $0.hasSuffix("×") }.count == 4 }, run.stdout)
        XCTAssertEqual(rows.filter { $0.fields["workload"] == "line-18" }.map { $0.fields["variant"] }, Array(repeating: "save", count: 5))
        XCTAssertEqual(Set(rows.filter { $0.fields["workload"] == "line-18" }.map { $0.fields["rows"] }), ["1"], "the save's one change made in every layout")
        XCTAssertEqual(rows.filter { $0.fields["workload"] == "line-1" }.map { $0.fields["mix_weight"] }, Array(repeating: "3", count: 5))
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("r.") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            XCTAssertFalse(text.contains(Self.replayMarker), "\(file) holds a bound value")
        }
        XCTAssertFalse((run.stdout + run.stderr).contains(Self.replayMarker))
        // With --values logged each fetch is given the values the log bound where they fit: the
        // lookup's text and the count's number; the fault, whose key the log does not bind, is drawn.
        let logged = try bench(["replay", "app.log", "--preset", "publications", "--scale", "300", "--values", "logged", "--dry-run"], in: folder)
        XCTAssertEqual(logged.status, 0, logged.stderr)
        for line in ["    3           3     0.0012 s  logged 3     1  Book WHERE isbn == %@\n", "    1           1            -  logged 1    13  COUNT Book WHERE pageCount > %@\n",
                     "    1           1            -  drawn       16  Publication WHERE self == %@\n"] {
            XCTAssertTrue(logged.stdout.contains(line), logged.stdout)
        }
        XCTAssertFalse((logged.stdout + logged.stderr).contains(Self.replayMarker))
    }
}

/// `bench run --log-sql`: the baseline's statements in Core Data's log format, which `bench
/// replay` reads whole; a log the run could not write as asked is refused before anything runs.
extension CommandLineTests {
    func testRunLogsItsStatementsAndReplayReadsEveryOne() throws {
        let log = folder.appendingPathComponent("statements.log"), csv = folder.appendingPathComponent("run.csv")
        let common = ["--preset", "publications", "--scale", "600"]
        // A fetch of Core Data's string functions and comparator sort: the logging connection has them too.
        let run = try bench(["run"] + common + ["--workloads", "fault,count-leaf,fetch-batched,fetch-page,insert-single,delete-cascade,update", "--strategies", "single-table,joined",
                                                "--fetch", "Publication WHERE title CONTAINS[c] %@ SORT BY title localizedStandard, uid",
                                                "--repetitions", "1", "--output", csv.path, "--log-sql", log.path, "--log-sql-level", "2"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("statements of single-table to \(log.path) (bench replay reads it)"), run.stderr)
        let text = try String(contentsOf: log, encoding: .utf8)
        for line in ["bench: insert-single\nCoreData: sql: BEGIN IMMEDIATE\nCoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?\nCoreData: details: SQLite bind[0] = ",
                     "bench: delete-cascade\nCoreData: sql: BEGIN IMMEDIATE\n", "bench: update\nCoreData: sql: BEGIN IMMEDIATE\nCoreData: sql: UPDATE ZPUBLICATION SET ",
                     "bench: fault\nCoreData: sql: SELECT ", "CoreData: details: SQLite bind[0] = ",
                     "CoreData: annotation: Bound intarray _Z_intarray0\nCoreData: sql: ", "fault fulfilled from database for : 0x"] {
            XCTAssertTrue(text.contains(line), line)
        }
        XCTAssertFalse(text.contains("INSERT INTO _Z_intarray0"), "the key list's own statements are Core Data's internals")
        XCTAssertTrue(text.contains("bench: fetch-1\nCoreData: sql: SELECT ") && text.contains("NSCoreDataStringSearch(t0.ZTITLE, ?, "), "the fetch of yours")
        let replay = try bench(["replay", log.path, "--dry-run", "--strict"] + common, in: folder)
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertTrue(replay.stdout.contains(" understood, 0 not (bound values logged: level 2 or more)"), replay.stdout)
        XCTAssertTrue(replay.stdout.contains("BATCH 20 READ 600"), replay.stdout)
        // The writes: every transaction a save, the delete's and the update's whole.
        XCTAssertTrue(replay.stdout.contains("the log's transactions as saves: "), replay.stdout)
        XCTAssertTrue(replay.stdout.contains("  SAVE UPDATE Publication ×60 SET "), replay.stdout)
        XCTAssertTrue(replay.stdout.contains("  SAVE UNLINK ALL Publication.tags; DELETE Publication; "), replay.stdout)
        XCTAssertFalse(replay.stdout.contains("not replayed"), replay.stdout)
        XCTAssertTrue(replay.stdout.contains(" of them are logged (level 2) and drawn instead (--values drawn)\n"), "generated data: the saves' logged values are drawn by default\n\(replay.stdout)")
        // Timed with the values logged (the same seed's objects): every layout answers each lookup as single-table did.
        let timed = try bench(["replay", log.path, "--values", "logged", "--repetitions", "1", "--strategies", "single-table,table-per-entity,json-entity",
                               "--output", "replay.csv", "--quiet"] + common, in: folder)
        XCTAssertEqual(timed.status, 0, timed.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("replay.csv")).rows
        let faults = rows.filter { $0.fields["strategy"] == "single-table" && $0.fields["workload"] != nil }.compactMap { Int($0.fields["rows"] ?? "") }
        XCTAssertTrue(faults.contains(10), "a lookup case of the ten logged occurrences answers one object each: \(faults)")
    }

    /// A bulk insert of a large scale logs its first whole transactions, up to about 20,000
    /// statements, and its line says how many of them.
    func testABulkInsertsLogHoldsItsFirstTransactionsAndSaysHowMany() throws {
        let log = folder.appendingPathComponent("bulk.log")
        let run = try bench(["run", "--preset", "publications", "--scale", "6000", "--workloads", "insert-bulk", "--strategies", "single-table", "--repetitions", "1",
                             "--output", "bulk.csv", "--quiet", "--log-sql", log.path], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let text = try String(contentsOf: log, encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("bench: insert-bulk") })
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        XCTAssertTrue(line.hasPrefix("bench: insert-bulk: its first ") && line.contains(" transactions are logged (a case's log holds whole transactions up to about 20000 statements)"), String(line))
        XCTAssertEqual(numbers.count, 3, String(line))
        XCTAssertEqual(text.components(separatedBy: "CoreData: sql: COMMIT\n").count - 1, numbers.first, "the transactions the line names are in the log")
        XCTAssertLessThan(numbers[0], numbers[1])
    }

    func testALogTheRunCouldNotWriteIsRefusedBeforeAnythingRuns() throws {
        let model = folder.appendingPathComponent("model.json")
        try Data(#"{"name": "m", "entities": [{"name": "A", "attributes": [{"name": "x", "type": "integer"}]}, {"name": "B", "parent": "A", "rows": 10}]}"#.utf8).write(to: model)
        let kept = folder.appendingPathComponent("kept.log")
        try Data("keep\n".utf8).write(to: kept)
        let mistakes: [([String], String)] = [
            (["--log-sql-level", "2"], "--log-sql-level applies with --log-sql FILE"),
            (["--log-sql", "a.log", "--log-sql-level", "3"], "--log-sql-level 3 is not a level the log is written at; give 1 (statements) or 2 (with their values)"),
            (["--log-sql", "a.log", "--strategies", "joined"], "--log-sql logs single-table's statements: add it to --strategies"),
            (["--log-sql", model.path], "the model file --model reads"),
            (["--log-sql", kept.path], "already exists; choose another --log-sql or pass --force to replace it"),
            (["--log-sql", "r.csv", "--output", "r.csv"], "the results CSV --output writes"),
        ]
        for (arguments, message) in mistakes {
            let outcome = try bench(["run", "--model", model.path, "--workloads", "count-all", "--repetitions", "1"] + arguments, in: folder)
            XCTAssertNotEqual(outcome.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
        }
        XCTAssertEqual(try String(contentsOf: kept, encoding: .utf8), "keep\n")
        let replaced = try bench(["run", "--model", model.path, "--workloads", "count-all", "--strategies", "single-table", "--repetitions", "1", "--output", "r.csv",
                                  "--log-sql", kept.path, "--force", "--quiet"], in: folder)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(try String(contentsOf: kept, encoding: .utf8).hasPrefix("bench: count-all\nCoreData: sql: SELECT COUNT("), "--force replaces the log")
        for file in ["r.csv", "r.samples.csv", "r.json", "r.md"] { try FileManager.default.removeItem(at: folder.appendingPathComponent(file)) }
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), ["model.json", "kept.log"], "nothing written")
    }
}
