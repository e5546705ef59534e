import FetchRequests
import Generation
import Models
@testable import Strategies
import TestSupport
import XCTest

/// docs/strategies.md's "Adding a strategy", done once for a one-table layout and once for a
/// multi-table one: layouts registered only in this test target (`Strategies.all` does not list
/// them) answer the read battery as the reference does and write as single-table does, run by the
/// one store every layout shares; the multi-table toy writes no update, delete or link count of
/// its own (`MultiTableLayout`'s).
final class AddingAStrategyTests: XCTestCase {
    func testAToyLayoutPassesTheAgreementTests() throws {
        let registry: [any StorageLayout.Type] = [BareSingleTable.self, BareJoined.self]
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
        XCTAssertFalse(Strategies.names.contains(BareSingleTable.name))
        let joined = try Joined(model: model), toy = try BareJoined(model: model)
        XCTAssertEqual(toy.schemaSQL, joined.schemaSQL.filter { !$0.hasPrefix("CREATE INDEX") })
        XCTAssertFalse(Strategies.names.contains(BareJoined.name))
        // Its writes are the shared ones, over the places it gives: joined's statements.
        for entity in model.entities where entity.isConcrete {
            XCTAssertEqual(try toy.deleteStatements(entity.index).related, try joined.deleteStatements(entity.index).related)
            XCTAssertEqual(try toy.deleteStatements(entity.index).clear, try joined.deleteStatements(entity.index).clear)
            XCTAssertEqual(toy.versionSQL(entity.index), joined.versionSQL(entity.index))
        }
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
    func updatePlan(_ entity: Int, changes: [AttributeChange], toOnes: [ToOneChange]) throws -> [UpdateStep] { try tables.updatePlan(entity, changes: changes, toOnes: toOnes) }
    func unlinkSQL(_ relationship: Model.Relationship, owner: Int, destination: Int) throws -> String { try tables.unlinkSQL(relationship, owner: owner, destination: destination) }
    func versionSQL(_ entity: Int) -> String? { tables.versionSQL(entity) }
    func deleteStatements(_ entity: Int) throws -> DeleteStatements { try tables.deleteStatements(entity) }
    func linkCountSQL(_ relationship: Model.Relationship) throws -> [String] { try tables.linkCountSQL(relationship) }
}

/// The multi-table toy: joined's tables without a single index. It gives its reads and where an
/// object's rows, identity and properties are; the updates, versions, deletes and link counts are
/// `MultiTableLayout`'s.
struct BareJoined: MultiTableLayout {
    static let name = "bare-joined"
    static let summary = "joined without indexes (a test's toy)"

    private let tables: Joined
    var model: Model { tables.model }
    var schemaSQL: [String] { tables.schemaSQL.filter { !$0.hasPrefix("CREATE INDEX") } }

    init(model: Model) throws { tables = try Joined(model: model) }

    func insertPlan(_ entity: Int) -> InsertPlan? { tables.insertPlan(entity) }
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery { try tables.fetchQuery(request) }
    func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try tables.countQuery(request) }
    func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery { try tables.partialQuery(request, properties: properties) }
    func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery { try tables.linkedQuery(relationship) }

    func rowTables(_ entity: Int) -> [String] { tables.rowTables(entity) }
    func identity(_ entity: Int) -> RowIdentity? { tables.identity(entity) }
    func holders(_ entity: Int) -> [Int] { tables.holders(entity) }
    func attributePlace(_ entity: Int, _ position: Int) -> (table: String, column: String) { tables.attributePlace(entity, position) }
    func toOnePlace(_ entity: Int, _ position: Int) -> (table: String, key: String, entity: String?) { tables.toOnePlace(entity, position) }
    func joinLinks(_ entity: Int, _ relationship: Model.Relationship) throws -> [JoinLink] { try tables.joinLinks(entity, relationship) }
    func joinTableNames(_ relationship: Model.Relationship) -> [String] { tables.joinTableNames(relationship) }
}
