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
}
