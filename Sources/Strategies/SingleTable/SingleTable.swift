import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// `single-table`: Core Data's own layout of the model. Each root entity's table holds its whole
/// hierarchy, rows told apart by `Z_ENT` (`CoreDataSchema` derives it rule for rule), and every
/// query is the one Core Data issues: its select list, the entity filter after the predicate (none
/// for a root, `Z_ENT >= ? AND Z_ENT <= ?` for a middle entity, `Z_ENT = ?` for one entity),
/// `SELECT DISTINCT … JOIN` through a to-many relationship, `COUNT(*)` for a count.
public struct SingleTable: OneRowLayout {
    public static let name = "single-table"
    public static let summary = "Core Data's layout: one table per hierarchy, every sub-entity's columns in it, rows told apart by Z_ENT"

    public let model: Model
    public let schema: CoreDataSchema
    /// Per entity: the columns of each to-one, in `toOneRelationships` order.
    private let toOneColumns: [[RowToOne]]
    /// Per concrete entity: its INSERT (Z_PK, Z_ENT, Z_OPT, attributes, to-ones) and its links'.
    private var insertPlans: [Int: InsertPlan] = [:]

    public init(model: Model) throws {
        self.model = model
        let schema = CoreDataSchema(model)
        self.schema = schema
        toOneColumns = try model.entities.map { entity in
            try entity.toOneRelationships.map { let columns = try schema.toOneColumns(entity.index, $0.name); return RowToOne(key: columns.key, entity: columns.entity) }
        }
        for entity in model.entities where entity.isConcrete {
            let row = InsertStep.header() + insertRow(entity).row
            insertPlans[entity.index] = InsertPlan(keyEntity: entity.root, steps: [InsertStep(into: table(entity.index), row)], links: linkInserts(entity))
        }
    }

    public var schemaSQL: [String] { schema.schemaSQL }

    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    func storedEntity(_ entity: Int) -> Int { model.entities[entity].root }

    func kindColumn(_ entity: Int) -> String? { model.entities[model.entities[entity].root].hasSubentities ? "Z_ENT" : nil }

    /// Core Data's `Z_ENT`, which every table keeps.
    func entityNumber(_ entity: Int) -> String { "t0.Z_ENT" }

    func place(_ entity: Int, _ position: Int) -> RowPlace { RowPlace(column: schema.column(entity, attributeAt: position)) }

    func toOnes(_ entity: Int) -> [RowToOne] { toOneColumns[entity] }

    func link(_ relationship: Model.Relationship) throws -> (name: String, this: String, other: String) { try schema.link(relationship) }

    /// Every table keeps `Z_ENT`, also a table of one entity.
    func entityNumber(_ entity: Int, alias: String) -> String { "\(alias).Z_ENT" }

    /// Core Data's entity filter after the predicate: none for a root, `Z_ENT >= ? AND Z_ENT <= ?`
    /// for a middle entity, `Z_ENT = ?` for one entity.
    func entityTerms(_ request: FetchRequest) -> (sql: [String], values: [Value]) {
        let filter = schema.entityFilter(request.entity, includesSubentities: request.includesSubentities)
        return (filter.map { [$0.sql] } ?? [], (filter?.values ?? []).map { .integer($0) })
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        try request.asRootFetch ? rootFetch(request) : rowFetch(request)
    }

    /// Core Data's select list (`CoreDataSchema.selectList`), rows decoded as the concrete entities of `request`'s subtree.
    func selection(_ request: FetchRequest) throws -> (list: String, decoder: RowDecoder) {
        let (list, positions) = schema.selectList(request.entity)
        return (list, try decoder(request.entity, model.concreteEntities(in: model.entities[request.entity].subtree), positions))
    }
}
