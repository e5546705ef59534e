import Foundation
import XCTest

@testable import CoreDataLogs

final class LogReaderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("log-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ text: String, _ name: String = "app.log") throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func statements(_ text: String) throws -> (reader: LogReader, statements: [LoggedStatement]) {
        var reader = LogReader(file: try LogFile(path: try write(text)))
        var statements: [LoggedStatement] = []
        try reader.read { statements.append($0) }
        return (reader, statements)
    }

    func testLinesOfCoreDataAreReadWhateverPrecedesThem() throws {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCOUNTRY t0
            2014-07-01 10:00:00.000 App[123:4567] CoreData: sql: SELECT COUNT(*) FROM ZCOUNTRY
              CoreData: sql: BEGIN EXCLUSIVE
            \u{1B}[1;34mCoreData: \u{1B}[0msql: \u{1B}[32mCOMMIT\u{1B}[0m
            the app's own line mentioning CoreData without a category
            """
        let (reader, statements) = try statements(log)
        XCTAssertEqual(statements.map(\.sql), ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCOUNTRY t0", "SELECT COUNT(*) FROM ZCOUNTRY", "BEGIN EXCLUSIVE", "COMMIT"])
        XCTAssertEqual(statements.map(\.line), [1, 2, 3, 4])
        XCTAssertEqual(reader.lines, 5)
        XCTAssertEqual(reader.coreDataLines, 4)
        XCTAssertEqual(try statements.map { try $0.kind().get() }, [.fetch, .count, .begin, .commit])
    }

    func testAnnotationsAndBoundValuesBelongToTheStatementBeforeThem() throws {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCOUNTRY t0 WHERE  t0.ZNAME = ? AND t0.ZSIZE > ? AND t0.ZDATE < ? AND t0.ZRATE = ? AND t0.ZNOTE = ?
            CoreData: details: SQLite bind[0] = "Maui"
            CoreData: details: SQLite bind[1] = (int64)42
            CoreData: details: SQLite bind[2] = (timestamp)712345678.123
            CoreData: details: SQLite bind[3] = 2.5
            CoreData: details: SQLite bind[4] = nil
            CoreData: annotation: sql connection fetch time: 0.0004s
            CoreData: annotation: fetch using NSSQLiteStatement <0x600002c3c0a0> on entity 'Country' with sql text 'SELECT 0, t0.Z_PK FROM ZCOUNTRY t0 returned 9 rows' returned 5 rows
            CoreData: annotation: total fetch execution time: 0.0007s for 5 rows.
            CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZITEM t0
            CoreData: annotation: total count request execution time: 0.0003s for count of 12.
            """
        let (reader, statements) = try statements(log)
        XCTAssertTrue(reader.hasValues)
        XCTAssertEqual(statements[0].values, [.text("Maui"), .integer(42), .timestamp(712_345_678.123), .real(2.5), .null])
        XCTAssertEqual(statements[0].connectionSeconds, 0.0004)
        XCTAssertEqual(statements[0].totalSeconds, 0.0007)
        XCTAssertEqual(statements[0].rows, 5)
        XCTAssertEqual(statements[0].fetchEntity, "Country")
        XCTAssertEqual(statements[1].values, [])
        XCTAssertEqual(statements[1].rows, 12)
        XCTAssertEqual(statements[1].loggedSeconds, 0.0003)
    }

    func testABoundValueSaysOnlyWhatKindItIs() {
        XCTAssertEqual("\(BoundValue.text("Maui"))", "a text of 4 bytes")
        XCTAssertEqual("\(BoundValue.integer(42))", "an integer")
        XCTAssertEqual("\([BoundValue.timestamp(7.5), .printed("<62706c69>")])", "[a date, a printed value of 10 bytes]")
    }

    func testEachKindOfStatementIsTold() throws {
        let log = """
            CoreData: sql: SELECT t0.Z_ENT, t0.Z_PK FROM ZITEM t0 ORDER BY t0.ZDATE DESC
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: sql: SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZITEM t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 20
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZTAG t0 WHERE  t0.Z_PK IN (?,?,?)
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCOUNTRY t0 WHERE  t0.Z_PK = ?
            CoreData: annotation: fault fulfilled from database for : 0x8f1c2b0a0 <x-coredata://2F1E-11/Country/p4>
            CoreData: sql: SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_2TAGS WHERE t1.Z_1NOTES = ?
            CoreData: annotation: to-many relationship fault "tags" for objectID 0x8f1c <x-coredata://2F1E-11/Note/p3> fulfilled from database.  Got 7 rows
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZNOTE FROM ZATTACHMENT t0 WHERE  t0.ZNOTE IN (SELECT * FROM _Z_intarray0)
            CoreData: annotation: Prefetching with key 'attachments'.  Got 1581 rows.
            CoreData: sql: SELECT t0.ZNAME, COUNT( t0.Z_PK) FROM ZITEM t0 GROUP BY  t0.ZNAME HAVING COUNT( t0.Z_PK) > ?
            CoreData: sql: SELECT t0.ZNAME FROM ZITEM t0
            CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
            CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
            CoreData: sql: INSERT INTO ZMOOD(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
            CoreData: sql: INSERT OR REPLACE INTO Z_1PERSONS(Z_1COMPANIES, Z_2PERSONS) VALUES (1, 2)
            CoreData: sql: UPDATE ZITEM SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?
            CoreData: sql: DELETE FROM Z_1TAGS WHERE Z_1NOTES = ?
            CoreData: sql: ROLLBACK
            CoreData: sql: pragma page_count
            CoreData: sql: SELECT TBL_NAME FROM SQLITE_MASTER WHERE TBL_NAME = 'Z_METADATA'
            CoreData: sql: INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(?, ?, ?, 0)
            CoreData: sql: SELECT Z_PK, Z_TIMESTAMP FROM ATRANSACTION WHERE Z_PK > ?
            """
        let kinds: [StatementKind] = [.idPass, .batch, .batch, .fault, .toManyFault, .prefetch, .dictionaryFetch, .dictionaryFetch, .keyReservation, .keyReservation,
                                      .insert, .insert, .update, .delete, .commit, .storeUpkeep, .storeUpkeep, .storeUpkeep, .storeUpkeep]
        let statements = try statements(log).statements
        XCTAssertEqual(try statements.map { try $0.kind().get() }, kinds)
        XCTAssertEqual(statements[4].toMany?.relationship, "tags")
        XCTAssertEqual(statements[4].toMany?.entity, "Note")
        XCTAssertEqual(statements[4].rows, 7)
        XCTAssertEqual(statements[3].faultEntity, "Country")
        XCTAssertEqual(statements[5].prefetchKey, "attachments")
        XCTAssertEqual(statements[5].rows, 1581)
        XCTAssertEqual(SQLTokens(statements[4].sql).tables, ["Z_1TAGS", "ZTAG"])
        XCTAssertEqual(SQLTokens(statements[1].sql).tables, ["ZITEM"])
    }

    func testAStatementBrokenOverLinesIsJoinedAndTheAppsLinesAreNot() throws {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCOUNTRY t0
               WHERE  t0.ZNAME = ?
            ORDER BY t0.ZNAME
            loaded 5 countries
            WHERE is not continued after the app's line
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE (t0.ZA = ? OR
            t0.ZB = ?)
            CoreData: annotation: sql connection fetch time: 0.0004s
            ORDER BY after an annotation is the app's
            """
        let statements = try statements(log).statements
        XCTAssertEqual(statements.map(\.sql), ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCOUNTRY t0 WHERE t0.ZNAME = ? ORDER BY t0.ZNAME",
                                               "SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE (t0.ZA = ? OR t0.ZB = ?)"])
    }

    func testWhatIsNotUnderstoodIsNamedWithItsLine() throws {
        let log = """
            CoreData: details: SQLite bind[0] = "before any statement"
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZITEM t0 WHERE t0.ZNAME IN (?,
            CoreData: sql: EXPLAIN SELECT 1
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = 'unclosed
            CoreData: sql: SELECT 1
            CoreData: sql:
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZITEM t0
            """
        var reader = LogReader(file: try LogFile(path: try write(log)))
        var summary = LogSummary()
        try reader.read { summary.add($0) }
        for stray in reader.strays { summary.addStray(line: stray.line, why: stray.why) }
        XCTAssertEqual(summary.understood, 1)
        XCTAssertEqual(summary.notUnderstoodCount, 6)
        XCTAssertEqual(summary.notUnderstood["a bound value with no statement before it"], LineList([1]))
        XCTAssertEqual(summary.notUnderstood.first { $0.key.hasPrefix("cut off") }?.value, LineList([2, 4]))
        XCTAssertEqual(summary.notUnderstood["EXPLAIN is not a statement Core Data sends"], LineList([3]))
        XCTAssertEqual(summary.notUnderstood["a SELECT that reads no table"], LineList([5]))
        XCTAssertEqual(summary.notUnderstood["no SQL in it"], LineList([6]))
        XCTAssertEqual(summary.kinds[.fetch]?.statements, 1)
    }

    func testASummaryCountsKindsTimesRowsAndTables() throws {
        var log = ""
        for index in 0 ..< 3 {
            log += "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZITEM t0 WHERE t0.ZRANK > ?\n"
            log += "CoreData: annotation: total fetch execution time: 0.0010s for \(index) rows.\n"
        }
        log += "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZITEM t0\n"
        var reader = LogReader(file: try LogFile(path: try write(log)))
        var summary = LogSummary()
        try reader.read { summary.add($0) }
        let fetches = try XCTUnwrap(summary.kinds[.fetch])
        XCTAssertEqual(fetches.statements, 4)
        XCTAssertEqual(fetches.timed, 3)
        XCTAssertEqual(fetches.seconds, 0.003, accuracy: 1e-12)
        XCTAssertEqual(fetches.rows, 3)
        XCTAssertEqual(summary.tables, ["ZITEM": [.fetch: 4]])
        XCTAssertEqual(summary.total.statements, 4)
    }

    func testAPrefetchRunsInsideTheFetchThatSetItOffAndEachKeepsItsOwnTotal() throws {
        // Core Data's order: the fetch's rows, the prefetch's key array and statement, the
        // prefetch's total and its annotation, and the fetch's own total last.
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZSHELF t0
            CoreData: annotation: sql connection fetch time: 0.0003s
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: annotation: Bound intarray values.
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLABEL, t0.ZSHELF FROM ZBOOK t0 WHERE  t0.ZSHELF IN (SELECT * FROM _Z_intarray0)  ORDER BY t0.ZSHELF
            CoreData: annotation: sql connection fetch time: 0.0021s
            CoreData: annotation: total fetch execution time: 0.0024s for 311 rows.
            CoreData: annotation: Prefetching with key 'books'.  Got 311 rows.
            CoreData: annotation: total fetch execution time: 0.0053s for 27 rows.
            CoreData: sql: SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZLABEL FROM ZBOOK t0 WHERE t0.Z_PK = ?
            CoreData: annotation: sql connection fetch time: 0.0005s
            CoreData: annotation: total fetch execution time: 0.0008s for 1 rows.
            CoreData: annotation: fault fulfilled from database for : 0xd000000000100002 <x-coredata://5E0C1B52-0000-4000-8000-00000000AB12/Novel/p4>
            CoreData: sql: pragma page_count
            CoreData: annotation: sql execution time: 0.0002s
            """
        let statements = try statements(log).statements
        XCTAssertEqual(statements.map(\.line), [1, 5, 10, 14])
        XCTAssertEqual(try statements.map { try $0.kind().get() }, [.fetch, .prefetch, .fault, .storeUpkeep])
        XCTAssertEqual(statements.map(\.rows), [27, 311, 1, nil])
        XCTAssertEqual(statements.map(\.totalSeconds), [0.0053, 0.0024, 0.0008, 0.0002])
        XCTAssertEqual(statements[2].faultEntity, "Novel")
    }

    func testCategoriesAloneColourAndCatastrophicModeAreRead() throws {
        let log = """
            sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZSTOP t0 WHERE (? <=  t0.ZLONGITUDE AND  t0.ZLONGITUDE <= ?)  LIMIT 100
            annotation: sql connection fetch time: 0.0008s
            CoreData: error: total fetch execution time: 0.0012s for 100 rows.
            CoreData: sql: \u{1B}[32msql: \u{1B}[34m\u{1B}[47mSELECT COUNT(*) FROM ZSTOP\u{1B}[0m
            CoreData: annotation: total count request execution time: \u{1B}[31m0.0002\u{1B}[0ms for count of 412.
            CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate observeChangesForStore:](429): observing
            the sql: word inside an app's line
            """
        let (reader, statements) = try statements(log)
        XCTAssertEqual(statements.map(\.sql), ["SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZSTOP t0 WHERE (? <= t0.ZLONGITUDE AND t0.ZLONGITUDE <= ?) LIMIT 100", "SELECT COUNT(*) FROM ZSTOP"])
        XCTAssertEqual(statements.map(\.rows), [100, 412])
        XCTAssertEqual(statements.map(\.totalSeconds), [0.0012, 0.0002])
        XCTAssertEqual(reader.coreDataLines, 6)
    }

    func testHostileLinesAreReadWithoutACrashOrAHang() throws {
        var log = "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZITEM t0\n"
        log += "CoreData: annotation: total fetch execution time: 0.1000s for 99999999999999999999999 rows.\n"
        log += "CoreData: details: SQLite bind[-1] = 1\nCoreData: details: SQLite bind[99999999999] = 1\nCoreData: details: SQLite bind[9223372036854775807] = 1\n"
        for _ in 0 ..< 2 {
            log += "CoreData: sql: SELECT COUNT(*) FROM ZITEM\nCoreData: annotation: total count request execution time: 0.1s for count of 999999999999.\n"
        }
        // A statement cut off inside its IN list, then thousands of the app's lines: at most 100 are joined to it.
        log += "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME IN (?,\n" + String(repeating: "app: still working\n", count: 5000)
        log += "CoreData: sql: COMMIT\rCoreData: sql: BEGIN EXCLUSIVE\r"
        let (reader, statements) = try statements(log)
        XCTAssertEqual(statements.count, 6)
        XCTAssertNil(statements[0].rows, "a count past a trillion is no count")
        XCTAssertEqual(statements[0].values, [], "bound values of impossible positions are passed over")
        XCTAssertLessThanOrEqual(statements[3].sql.count, 64 + 100 * 20)
        XCTAssertEqual(statements.suffix(2).map(\.sql), ["COMMIT", "BEGIN EXCLUSIVE"], "a carriage return alone ends a line")
        XCTAssertEqual(reader.lines, 5012)
        var summary = LogSummary()
        for statement in statements { summary.add(statement) }
        XCTAssertEqual(summary.kinds[.count]?.rows, 1_999_999_999_998)
        XCTAssertEqual(1.addingSaturated(.max), .max)
    }
}
