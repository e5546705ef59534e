import Foundation
@testable import SQLite
import XCTest

final class SQLiteTests: XCTestCase {
    /// A registered collation orders an ORDER BY; replacing it while a statement uses it fails
    /// with SQLite's error (the new order given back), the old one kept.
    func testACollationOrdersAndIsReplacedOnlyWhenIdle() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('b'), ('A'), ('c'), ('a')")
        try db.createCollation("Reversed") { a, b in a == b ? 0 : a < b ? 1 : -1 }
        XCTAssertEqual(try db.strings("SELECT a FROM t ORDER BY a COLLATE Reversed"), ["c", "b", "a", "A"])
        let statement = try db.prepare("SELECT a FROM t ORDER BY a COLLATE Reversed")
        XCTAssertTrue(try statement.step())
        XCTAssertThrowsError(try db.createCollation("Reversed") { a, b in a == b ? 0 : a < b ? -1 : 1 }) { XCTAssertTrue("\($0)".contains("could not register the collation Reversed"), "\($0)") }
        XCTAssertEqual(statement.string(at: 0), "c")
    }

    /// A function's prepared value is made once per statement for a constant argument (SQLite
    /// keeps it beside the argument), again whenever a column's value changes, and is what the
    /// body gets.
    func testAPreparedArgumentIsMadeOncePerStatement() throws {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var made = 0
            func add() { lock.withLock { made += 1 } }
            var count: Int { lock.withLock { made } }
        }
        final class Suffix { let text: String; init(_ text: String) { self.text = text } }
        let counter = Counter()
        let db = try Database(path: ":memory:")
        try db.createFunction("suffixed", arity: 2, preparing: 1, { arguments -> Suffix? in
            guard case let .text(text) = arguments[1] else { return nil }
            counter.add()
            return Suffix(text)
        }) { (arguments: [FunctionValue], prepared: Suffix?) in
            guard case let .text(text) = arguments[0], let prepared else { return .null }
            return .text(text + prepared.text)
        }
        try db.execute("CREATE TABLE t (a TEXT, b TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO t SELECT 'x' || i, CASE WHEN i <= 50 THEN '1' ELSE '2' END FROM n")
        XCTAssertEqual(try db.strings("SELECT suffixed(a, '!') FROM t ORDER BY rowid LIMIT 2"), ["x1!", "x2!"])
        XCTAssertEqual(try db.strings("SELECT COUNT(*) FROM t WHERE suffixed(a, '?') LIKE '%?'"), ["100"])
        XCTAssertEqual(counter.count, 2, "once for each statement's constant")
        XCTAssertEqual(try db.strings("SELECT suffixed(a, b) FROM t ORDER BY rowid").suffix(1), ["x1002"])
        XCTAssertLessThanOrEqual(counter.count, 2 + 100, "at most once a row for a column's values")
        XCTAssertGreaterThanOrEqual(counter.count, 2 + 2)
    }

    func testPrepareErrorCarriesCodeMessageAndSQL() throws {
        let db = try Database(path: ":memory:")
        let sql = "SELEC 1"
        XCTAssertThrowsError(try db.prepare(sql)) { error in
            let error = error as! SQLiteError
            XCTAssertEqual(error.code, 1)
            XCTAssertTrue(error.message.contains("syntax error"), error.message)
            XCTAssertEqual(error.sql, sql)
            XCTAssertEqual(error.description, "SQLite error 1 (SQL logic error): near \"SELEC\": syntax error - while executing `SELEC 1`")
        }
    }

    func testConstraintErrorOnStepCarriesExtendedCodeAndSQL() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a TEXT UNIQUE)")
        let insert = try db.cachedStatement("INSERT INTO t (a) VALUES (?)")
        try insert.bind("x", at: 1)
        try insert.run()
        try insert.bind("x", at: 1)
        XCTAssertThrowsError(try insert.run()) { error in
            let error = error as! SQLiteError
            XCTAssertEqual(error.code, 19)
            XCTAssertEqual(error.extendedCode, 2067) // SQLITE_CONSTRAINT_UNIQUE
            XCTAssertTrue(error.message.contains("UNIQUE constraint failed: t.a"), error.message)
            XCTAssertEqual(error.sql, "INSERT INTO t (a) VALUES (?)")
        }
        // The statement is usable again after the failure.
        try insert.bind("y", at: 1)
        try insert.run()
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM t"), 2)
    }

    /// A store that cannot grow says so by name (`isFull`), whatever the caller; a constraint does not.
    func testAFullStoreIsNamedFull() throws {
        let db = try Database(path: ":memory:")
        try db.execute("PRAGMA max_page_count = 3; CREATE TABLE t (a BLOB)")
        XCTAssertThrowsError(try db.execute("INSERT INTO t VALUES (zeroblob(100000))")) { error in
            XCTAssertEqual((error as? SQLiteError)?.isFull, true, "\(error)")
            XCTAssertEqual((error as? SQLiteError)?.code, 13)
        }
        let other = try Database(path: ":memory:")
        try other.execute("CREATE TABLE u (a UNIQUE); INSERT INTO u VALUES (1)")
        XCTAssertThrowsError(try other.execute("INSERT INTO u VALUES (1)")) { XCTAssertEqual(($0 as? SQLiteError)?.isFull, false) }
    }

    func testExecuteErrorCarriesSQL() throws {
        let db = try Database(path: ":memory:")
        XCTAssertThrowsError(try db.execute("DROP TABLE missing")) { error in
            let error = error as! SQLiteError
            XCTAssertEqual(error.message, "no such table: missing")
            XCTAssertEqual(error.sql, "DROP TABLE missing")
        }
    }

    func testOpeningAFileInAMissingFolderFailsWithThePath() {
        XCTAssertThrowsError(try Database(path: "/nonexistent-folder-for-tests/store.sqlite")) { error in
            let error = error as! SQLiteError
            XCTAssertEqual(error.code, 14) // SQLITE_CANTOPEN
            XCTAssertTrue(error.description.contains("/nonexistent-folder-for-tests/store.sqlite"), error.description)
        }
    }

    func testValuesRoundTripByteForByte() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (s TEXT, b BLOB, r REAL, i INTEGER)")
        let texts = ["", "plain", "quote ' double \" semicolon ; -- comment", "nul\u{0}inside", "emoji 📚 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "'); DROP TABLE t; --"]
        let uid = UUID()
        for text in texts {
            let insert = try db.cachedStatement("INSERT INTO t (s, b, r, i) VALUES (?, ?, ?, ?)")
            try insert.bind([text, uid, 1.0 / 3.0, Int64.min])
            try insert.run()
        }
        let select = try db.prepare("SELECT s, b, r, i, typeof(s) FROM t ORDER BY rowid")
        var index = 0
        while try select.step() {
            XCTAssertEqual(Array(select.string(at: 0).utf8), Array(texts[index].utf8))
            XCTAssertEqual(select.string(at: 4), "text", "an empty string must be bound as text, not NULL")
            XCTAssertEqual(select.uuid(at: 1), uid)
            XCTAssertEqual(select.double(at: 2), 1.0 / 3.0)
            XCTAssertEqual(select.int64(at: 3), Int64.min)
            index += 1
        }
        XCTAssertEqual(index, texts.count)
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM t"), Int64(texts.count), "the table survived the hostile text")
    }

    func testNullsAndOptionalReads() throws {
        let db = try Database(path: ":memory:")
        let select = try db.prepare("SELECT NULL, x'0102'")
        XCTAssertTrue(try select.step())
        XCTAssertTrue(select.isNull(at: 0))
        XCTAssertNil(select.optionalString(at: 0))
        XCTAssertNil(select.uuid(at: 1), "a blob that is not 16 bytes is not a UUID")
        XCTAssertEqual(select.bytes(at: 1), [1, 2])
    }

    func testTransactionRollsBackWhenTheBodyThrows() throws {
        struct Boom: Error {}
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a INTEGER)")
        XCTAssertThrowsError(try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            throw Boom()
        })
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM t"), 0)
        XCTAssertTrue(db.isAutocommit)
    }

    func testQueryPlanAndVersion() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT); CREATE INDEX t_a ON t (a)")
        XCTAssertEqual(try db.queryPlan("SELECT b FROM t WHERE a = ?", [1]), ["SEARCH t USING INDEX t_a (a=?)"])
        XCTAssertTrue(Database.libraryVersion.hasPrefix("3."))
    }
}
