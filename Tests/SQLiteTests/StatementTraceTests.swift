@testable import SQLite
import XCTest

final class StatementTraceTests: XCTestCase {
    /// Each statement once, in the order it started, with its rows, a count's number and its
    /// time, and nothing a trigger runs; nothing once the trace has stopped.
    func testEachStatementIsRecordedWithItsRowsNumberAndValues() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a INTEGER, b TEXT); CREATE TABLE log (n INTEGER); CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END")
        let trace = StatementTrace(on: db)
        let insert = try db.cachedStatement("INSERT INTO t (a, b) VALUES (?, ?)")
        for (a, b) in [(1, "x'y"), (2, "z"), (3, "w")] {
            try insert.bind(a, at: 1); try insert.bind(b, at: 2)
            try insert.run()
        }
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM t WHERE a > ?", [1]), 2)
        XCTAssertEqual(try db.strings("SELECT b FROM t ORDER BY a"), ["x'y", "z", "w"])
        let entries = trace.stop()
        XCTAssertEqual(entries.map(\.sql), Array(repeating: "INSERT INTO t (a, b) VALUES (?, ?)", count: 3) + ["SELECT COUNT(*) FROM t WHERE a > ?", "SELECT b FROM t ORDER BY a"])
        XCTAssertEqual(entries.map(\.rows), [0, 0, 0, 1, 3])
        XCTAssertEqual(entries[3].number, 2)
        XCTAssertNil(entries[4].number, "a column of text is no number")
        XCTAssertTrue(entries.allSatisfy { $0.nanoseconds > 0 }, "\(entries.map(\.nanoseconds))")
        _ = try db.strings("SELECT 1")
        XCTAssertEqual(trace.take(), [], "stopped")
    }

    func testTakeReturnsWhatWasRecordedSinceTheLastCall() throws {
        let db = try Database(path: ":memory:")
        let trace = StatementTrace(on: db)
        _ = try db.scalarInt("SELECT ?", [7])
        let first = trace.take()
        XCTAssertEqual(first.map(\.sql), ["SELECT ?"])
        XCTAssertEqual(first[0].number, 7)
        _ = try db.strings("SELECT 2")
        XCTAssertEqual(trace.stop().map(\.sql), ["SELECT 2"], "take empties what was recorded")
    }

    /// With `values`, each statement with the values bound to it as it started, by parameter and
    /// of the type bound (a real to its last digit, text and bytes as they are); without, none,
    /// and a connection whose trace stopped records no binding.
    func testAValuesTraceRecordsWhatEachStatementWasBound() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a INTEGER, b REAL, c TEXT, d BLOB, e)")
        let insert = try db.cachedStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        let trace = StatementTrace(on: db, values: true)
        try insert.bind([Int64(-3), 0.30000000000000004, "it's", nil, nil])
        try withUnsafeBytes(of: UInt16(0xFF0A).littleEndian) { try insert.bind(bytes: $0, at: 4) }
        try insert.run()
        try insert.bind([Int64(4), 1.5, "", nil, Int64(9)])
        try insert.run()
        try db.execute("DELETE FROM t WHERE a = 4")
        let entries = trace.stop()
        XCTAssertEqual(entries.map(\.values), [[.integer(-3), .real(0.30000000000000004), .text("it's"), .blob([0x0A, 0xFF]), .null], [.integer(4), .real(1.5), .text(""), .null, .integer(9)], []])
        XCTAssertFalse(db.bindings.on)
        try insert.bind([Int64(5), 1.0, "x", nil, nil])
        XCTAssertTrue(db.bindings.values.isEmpty, "no trace, nothing kept")
        let plain = StatementTrace(on: db)
        try insert.run()
        XCTAssertEqual(plain.stop().map(\.values), [nil], "a trace without values records none")
    }
}
