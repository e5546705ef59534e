import Foundation
import Models
import Strategies
@testable import Workloads
import XCTest

final class QueryPlanTests: XCTestCase {
    /// A read of a whole table may scan it; a WHERE or an ORDER BY makes the scan a finding. Words
    /// inside names (`ZWHERE`, `"order by"`) are not keywords.
    func testOnlyRealKeywordsMakeAScanUnexpected() {
        func scans(_ sql: String) -> [String] {
            QueryPlan(strategy: "s", workload: "fetch-leaf", rule: .noScanUnlessWholeTable, sql: sql, plan: ["SCAN t0"]).unexpectedFullScans
        }
        XCTAssertEqual(scans("SELECT t0.Z_PK, t0.ZWHERE, t0.ZORDER FROM ZJOIN t0"), [])
        XCTAssertEqual(scans(#"SELECT "where", "order by", 'WHERE x' FROM "Select""#), [])
        XCTAssertEqual(scans("SELECT [where] FROM t"), [])
        XCTAssertEqual(scans("SELECT Z_PK FROM ZJOIN WHERE Z_ENT = ?"), ["SCAN t0"])
        XCTAssertEqual(scans("SELECT Z_PK FROM ZJOIN where Z_ENT = ?"), ["SCAN t0"])
        XCTAssertEqual(scans("SELECT Z_PK FROM ZJOIN\nORDER  BY ZWHERE"), ["SCAN t0"])
        
    }

    /// Attributes named like SQL keywords: every strategy's plans keep their rules (a column
    /// `ZWHERE` once made `bench explain` flag a scan of a whole leaf table).
    func testAModelWithKeywordNamesKeepsEveryPlanRule() throws {
        let model = try Model(ModelDescription(name: "kw", entities: [
            EntityDescription("Select", abstract: true, attributes: [
                Attribute("order", .string), Attribute("where", .string), Attribute("group", .integer32),
            ], uniquenessConstraints: [["where"]]),
            EntityDescription("Join", parent: "Select", rows: 40, attributes: [Attribute("limit", .double)]),
            EntityDescription("Union", parent: "Select", rows: 40, attributes: [Attribute("from", .date)]),
        ]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plans = try QueryPlan.explainAll(strategies: Strategies.names, model: model, seed: 1, batchSize: 100, temporaryParent: folder)
        XCTAssertTrue(plans.contains { $0.workload == "fetch-leaf" })
        XCTAssertEqual(QueryPlan.flagged(plans).map { "\($0.strategy) \($0.workload): \($0.sql)" }, [])
    }
}
