import Generation
import Models
import Strategies
import TestSupport
import XCTest

/// docs/strategies.md's "Adding a strategy", done once: a layout registered only in this test
/// target (`Strategies.all` does not list it) answers the read battery as the reference does and
/// writes as single-table does, run by the one store every layout shares.
final class AddingAStrategyTests: XCTestCase {
    func testAToyLayoutPassesTheAgreementTests() throws {
        let registry: [any StorageLayout.Type] = [BareSingleTable.self]
        for description in StrategyAgreementTests.models + StrategyAgreementTests.cornerModels {
            let reads = try StrategyAgreement(registry, description)
            try reads.checkReads()
            reads.assertAskedEnough(moreThan: 100)
            try StrategyAgreement(registry, description, against: SingleTable.self).checkWrites()
        }
    }

    func testTheToyLayoutIsItsOwn() throws {
        let model = try Model(ModelPresets.publications)
        let bare = try BareSingleTable(model: model).schemaSQL
        XCTAssertFalse(bare.contains { $0.hasPrefix("CREATE INDEX") })
        XCTAssertEqual(bare, try SingleTable(model: model).schemaSQL.filter { !$0.hasPrefix("CREATE INDEX") })
        XCTAssertNil(Strategies.named(BareSingleTable.name))
    }
}

/// The toy: Core Data's tables and statements without a single index (what a store would cost
/// without them). Everything but the DDL is single-table's.
struct BareSingleTable: StorageLayout {
    static let name = "bare-single-table"
    static let summary = "single-table without indexes (a test's toy)"

    private let tables: SingleTable
    var model: Model { tables.model }
    var schemaSQL: [String] { tables.schemaSQL.filter { !$0.hasPrefix("CREATE INDEX") } }

    init(model: Model) throws { tables = try SingleTable(model: model) }

    func insertPlan(_ entity: Int) -> InsertPlan? { tables.insertPlan(entity) }
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery { try tables.fetchQuery(request) }
    func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try tables.countQuery(request) }
    func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery { try tables.partialQuery(request, properties: properties) }
    func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery { try tables.linkedQuery(relationship) }
    func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] { try tables.updatePlan(entity, attribute: attribute, value: value) }
    func versionSQL(_ entity: Int) -> String? { tables.versionSQL(entity) }
    func deleteStatements(_ entity: Int) throws -> DeleteStatements { try tables.deleteStatements(entity) }
    func linkCountSQL(_ relationship: Model.Relationship) throws -> [String] { try tables.linkCountSQL(relationship) }
}
