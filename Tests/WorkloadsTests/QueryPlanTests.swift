import Generation
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
        let plans = try QueryPlan.explainAll(strategies: Strategies.all, dataset: ObjectGenerator(model, seed: 1), batchSize: 100, temporaryParent: folder)
        XCTAssertTrue(plans.contains { $0.workload == "fetch-leaf" })
        XCTAssertEqual(QueryPlan.flagged(plans).map { "\($0.strategy) \($0.workload): \($0.sql)" }, [])
    }

    /// The Z_ENT rule: a plan that reads a table through its `…_Z_ENT_INDEX` while the WHERE
    /// constrains a column another index of the table leads is flagged with that index; a column
    /// named only in the ORDER BY, another table's index, or the Z_ENT index alone are not.
    func testAReadThroughTheEntityIndexPastAnIndexedColumnIsFlagged() {
        let indexes = [
            QueryPlan.IndexLead(name: "ZMESSAGE_Z_ENT_INDEX", table: "ZMESSAGE", column: "Z_ENT"),
            QueryPlan.IndexLead(name: "ZMESSAGE_ZCONVERSATION_INDEX", table: "ZMESSAGE", column: "ZCONVERSATION"),
            QueryPlan.IndexLead(name: "Z_Message_nonce", table: "ZMESSAGE", column: "ZNONCE"),
            QueryPlan.IndexLead(name: "ZOTHER_ZCONVERSATION_INDEX", table: "ZOTHER", column: "ZCONVERSATION"),
        ]
        let byEntity = ["SEARCH t0 USING INDEX ZMESSAGE_Z_ENT_INDEX (Z_ENT=?)", "USE TEMP B-TREE FOR ORDER BY"]
        func bypassed(_ sql: String, _ plan: [String] = byEntity) -> [String] {
            QueryPlan.entityIndexBypasses(plan: plan, sql: sql, indexes: indexes)
        }
        XCTAssertEqual(bypassed("SELECT t0.Z_PK FROM ZMESSAGE t0 WHERE t0.ZCONVERSATION = ? AND t0.Z_ENT = ? ORDER BY t0.Z_FOK_CONVERSATION"),
                       ["ZMESSAGE_ZCONVERSATION_INDEX"])
        XCTAssertEqual(bypassed("SELECT t0.Z_PK FROM ZMESSAGE t0 WHERE t0.Z_ENT = ? AND t0.ZNONCE = ?"), ["Z_Message_nonce"])
        XCTAssertEqual(bypassed("SELECT COUNT(*) FROM ZMESSAGE t0 WHERE t0.Z_ENT = ?",
                                ["SEARCH t0 USING COVERING INDEX ZMESSAGE_Z_ENT_INDEX (Z_ENT=?)"]), [], "Z_ENT alone: its index is the right one")
        XCTAssertEqual(bypassed("SELECT t0.Z_PK FROM ZMESSAGE t0 WHERE t0.Z_ENT = ? ORDER BY t0.ZNONCE"), [], "an ORDER BY column is not a condition")
        XCTAssertEqual(bypassed("SELECT t0.Z_PK FROM ZMESSAGE t0 WHERE t0.ZCONVERSATION = ? AND t0.Z_ENT = ?",
                                ["SEARCH t0 USING INDEX ZMESSAGE_ZCONVERSATION_INDEX (ZCONVERSATION=?)"]), [], "the attribute's index is used")
        XCTAssertEqual(bypassed("SELECT t0.Z_PK FROM ZMESSAGE t0 WHERE t1.ZCONVERSATION = ? AND t0.Z_ENT = ?"), [], "another table's column")
        let flagged = QueryPlan(strategy: "s", workload: "w", rule: .noScan, sql: "", plan: byEntity, bypassedIndexes: ["ZMESSAGE_ZCONVERSATION_INDEX"])
        XCTAssertEqual(QueryPlan.flagged([flagged]).count, 1)
        XCTAssertTrue(QueryPlan.report([flagged]).contains("!! w reads through the Z_ENT index instead of ZMESSAGE_ZCONVERSATION_INDEX"))
    }

    /// The messenger fixture (ten sub-entities of Message, TextMessage nine in ten of them, five
    /// conversations) reproduces the messenger app's plan: `fetch-ordered` of TextMessage reads
    /// every text message to find one conversation's, through `ZMESSAGE_Z_ENT_INDEX`. Without
    /// ANALYZE the two indexes tie and SQLite takes the one created last, the Z_ENT index (created
    /// after the keys' indexes, as in Core Data's own stores); after ANALYZE, SQLite's averages make
    /// `Z_ENT = ?` (a tenth of the rows, on average) look more selective than the conversation's
    /// foreign key (a sixth, NULLs counted as one value), so the plan stays. It is the one plan of
    /// any strategy flagged, before ANALYZE and after it; ANALYZE changes no single-table plan
    /// (joined's lookups by ID only swap their two primary-key searches; its sections' fetches of the
    /// small message tables scan the table and sort instead of walking the base's order index;
    /// table-per-entity's batches reorder their arms' searches).
    func testTheMessengerFixtureIsFlaggedBeforeAndAfterANALYZE() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/messenger.json")
        let model = try Model(ModelDescription.load(path: fixture.path))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plans = try QueryPlan.explainAll(strategies: Strategies.all, dataset: ObjectGenerator(model, seed: 42), batchSize: 1_000, analyze: true,
                                             temporaryParent: folder)
        let changed = QueryPlan.changedByAnalyze(plans)
        XCTAssertEqual(changed.filter { $0.before.strategy == "single-table" }.map(\.before.workload), [])
        XCTAssertEqual(Set(changed.map { "\($0.before.strategy) \($0.before.workload)" }),
                       ["joined lookup-id", "joined fault", "joined fetch-sectioned", "table-per-entity fetch-batched"])
        let ordered = plans.filter { $0.strategy == "single-table" && $0.workload == "fetch-ordered" }
        XCTAssertEqual(ordered.map(\.analyzed), [false, true])
        XCTAssertEqual(ordered.map { $0.plan.first }, Array(repeating: "SEARCH t0 USING INDEX ZMESSAGE_Z_ENT_INDEX (Z_ENT=?)", count: 2))
        XCTAssertEqual(QueryPlan.flagged(plans).map { "\($0.strategy) \($0.workload) \($0.analyzed) \($0.bypassedIndexes)" },
                       ["single-table fetch-ordered false [\"ZMESSAGE_ZCONVERSATION_INDEX\"]", "single-table fetch-ordered true [\"ZMESSAGE_ZCONVERSATION_INDEX\"]"])
        let report = QueryPlan.report(plans)
        XCTAssertTrue(report.contains("  !! fetch-ordered reads through the Z_ENT index instead of ZMESSAGE_ZCONVERSATION_INDEX"), report)
        XCTAssertTrue(report.contains("ANALYZE changed \(changed.count) of \(plans.filter { !$0.analyzed }.count) plans"), report)
    }
}
