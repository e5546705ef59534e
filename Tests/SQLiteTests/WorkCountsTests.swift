import Foundation
@testable import SQLite
import XCTest

/// SQLite's own work counters, summed over what a piece of code ran.
final class WorkCountsTests: XCTestCase {
    private func store() throws -> Database {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b INTEGER, c TEXT); CREATE TABLE u (x INTEGER, y INTEGER)")
        try db.transaction {
            let insert = try db.cachedStatement("INSERT INTO t (b, c) VALUES (?, ?)")
            for index in 0 ..< 1_000 {
                try insert.bind([Int64(index % 10), "row \(index)"])
                try insert.run()
            }
            let other = try db.cachedStatement("INSERT INTO u (x, y) VALUES (?, ?)")
            for index in 0 ..< 200 {
                try other.bind([Int64(index), Int64(index % 7)])
                try other.run()
            }
        }
        return db
    }

    /// A full scan counts its rows, an index read none; a sort and an automatic index are counted;
    /// statements are counted whether they were prepared before or inside, cached or not, and
    /// whether they ran to the end or stopped early.
    func testEachKindOfWorkIsCounted() throws {
        let db = try store()
        let scan = try db.countingWork { try db.scalarInt("SELECT count(*) FROM t WHERE b = ?", [Int64(3)]) }
        XCTAssertEqual(scan.result, 100)
        XCTAssertEqual(scan.work.fullScanSteps, 999, "every row but the first is a step forward of the scan")
        XCTAssertEqual(scan.work.runs, 1)
        XCTAssertEqual(scan.work.sorts, 0)
        XCTAssertGreaterThan(scan.work.vmSteps, 1_000)

        try db.execute("CREATE INDEX t_b ON t (b)")
        let indexed = try db.countingWork { try db.scalarInt("SELECT count(*) FROM t WHERE b = ?", [Int64(3)]) }
        XCTAssertEqual(indexed.result, 100)
        XCTAssertEqual(indexed.work.fullScanSteps, 0)
        XCTAssertLessThan(indexed.work.vmSteps, scan.work.vmSteps)

        let sorted = try db.countingWork { try db.strings("SELECT c FROM t ORDER BY c DESC LIMIT 3") }
        XCTAssertEqual(sorted.result, ["row 999", "row 998", "row 997"])
        XCTAssertEqual(sorted.work.sorts, 1)

        let joined = try db.countingWork { try db.scalarInt("SELECT count(*) FROM u JOIN u AS v ON v.y = u.x") }
        XCTAssertEqual(joined.result, 200, "each of the 200 rows of v matches the u row whose x is its y")
        XCTAssertGreaterThan(joined.work.autoIndexRows, 0, "SQLite indexes v.y for the join")

        // A statement stepped once and left open is counted too, and two statements add up.
        let early = try db.prepare("SELECT a FROM t WHERE c LIKE 'row%'")
        let both = try db.countingWork { () throws -> Bool in
            _ = try db.scalarInt("SELECT count(*) FROM t WHERE c = 'x'")
            return try early.step()
        }
        XCTAssertTrue(both.result)
        XCTAssertEqual(both.work.runs, 2)
        XCTAssertEqual(both.work.fullScanSteps, 999, "the whole scan of the count; the open one has read one row")
    }

    /// The same statements on the same data count the same, however often they ran before; the
    /// page cache counts what was read and written.
    func testTheSameWorkCountsTheSame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("work-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) } }
        var counted: [WorkCounts] = []
        for round in 0 ..< 3 {
            let db = try Database(path: path)
            if round == 0 {
                try db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)")
                try db.transaction {
                    let insert = try db.cachedStatement("INSERT INTO t (b) VALUES (?)")
                    for index in 0 ..< 5_000 {
                        try insert.bind([String(repeating: "x", count: 100 + index % 50)])
                        try insert.run()
                    }
                }
                continue
            }
            let first = try db.countingWork { try db.strings("SELECT b FROM t WHERE a % 100 = 0").count }
            let again = try db.countingWork { try db.strings("SELECT b FROM t WHERE a % 100 = 0").count }
            XCTAssertEqual(first.result, 50)
            XCTAssertGreaterThan(first.work.cacheMisses, 10, "a fresh connection reads the table's pages from the file")
            XCTAssertEqual(again.work.cacheMisses, 0, "then finds them in its cache")
            XCTAssertGreaterThan(again.work.cacheHits, first.work.cacheHits)
            let write = try db.countingWork { try db.execute("UPDATE t SET b = 'y' WHERE a = 1") }
            XCTAssertGreaterThan(write.work.cacheWrites, 0)
            try db.execute("UPDATE t SET b = 'x' WHERE a = 1")
            counted.append(first.work)
        }
        XCTAssertEqual(counted[0], counted[1], "two fresh connections doing the same count the same")
        XCTAssertGreaterThan(Database.memoryHighWater(), 0)
    }
}
