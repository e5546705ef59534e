@testable import CoreDataStores
import SQLite
import XCTest

/// The windows of keys a large hierarchy is read by, on keys as large as SQLite's.
final class StoreShapeSampleTests: XCTestCase {
    /// A `MAX(Z_PK)` near `Int64.max` times the sample limit does not overflow: the windows still
    /// start at 1 and stay within the keys.
    func testHugeKeysAreSampledWithoutOverflow() throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY)")
        try database.execute("INSERT INTO ZNOTE (Z_PK) VALUES (1), (9000000000000000000)")
        let sample = try StoreShape.Sample(database, table: "ZNOTE", objects: 300_000, limit: 200_000)
        XCTAssertEqual(sample.ranges.count, StoreShape.windows)
        XCTAssertEqual(sample.ranges.first?.lowerBound, 1)
        XCTAssertTrue(sample.ranges.allSatisfy { $0.lowerBound <= $0.upperBound && $0.upperBound <= 9_000_000_000_000_000_000 })
    }
}
