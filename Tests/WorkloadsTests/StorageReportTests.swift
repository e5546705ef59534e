import Dataset
import Foundation
import SQLite
import Strategies
import TestSupport
@testable import Workloads
import XCTest

final class StorageReportTests: XCTestCase {
    func testNullCellsAreCountedExactly() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE \"odd \"\"name\" (a INTEGER, b TEXT, c BLOB)")
        try db.execute("INSERT INTO \"odd \"\"name\" VALUES (1, NULL, NULL), (2, 'x', NULL), (NULL, NULL, NULL), (4, 'y', x'00')")
        let (cells, nulls) = try StorageReport.nullCells(db, table: "odd \"name")
        XCTAssertEqual(cells, 12)
        XCTAssertEqual(nulls, 6)
    }

    func testEveryStrategysStoreIsMeasured() throws {
        let reports = try StorageReport.run(strategies: Strategies.names, dataset: DatasetConfiguration(seed: 4, scale: 600), batchSize: 100)
        XCTAssertEqual(reports.map(\.strategy), Strategies.names)
        for report in reports {
            XCTAssertEqual(report.publications, 600)
            XCTAssertEqual(Int64(report.pageCount * report.pageSize), report.fileBytes, "\(report.strategy): the checkpointed file is its pages")
            XCTAssertEqual(report.objects.reduce(0) { $0 + $1.pages }, report.pageCount, "\(report.strategy): dbstat accounts for every page (nothing was deleted, so no free pages)")
            XCTAssertTrue(report.objects.contains { $0.name == "ZTAG" && $0.type == "table" })
            XCTAssertTrue(report.objects.contains { $0.name == "Z_TAG_UNIQUE_NAME" && $0.type == "index" && $0.table == "ZTAG" })
        }
        let byName = Dictionary(uniqueKeysWithValues: reports.map { ($0.strategy, $0) })
        // The wide table is sparse; the flattened tables have no NULL cells at all.
        XCTAssertGreaterThan(byName["single-table"]!.publicationNullShare!, 0.3)
        XCTAssertEqual(byName["table-per-entity"]!.publicationNullShare!, 0)
    }
}
