import Generation
import Models
import SQLite

/// `single-table`: Core Data's own layout of the model. Each root entity's table holds its whole
/// hierarchy, rows told apart by `Z_ENT` (`CoreDataSchema` derives it rule for rule), and every
/// query is the one Core Data issues: its select list, the entity filter after the predicate (none
/// for a root, `Z_ENT >= ? AND Z_ENT <= ?` for a middle entity, `Z_ENT = ?` for one entity),
/// `SELECT DISTINCT … JOIN` through a to-many relationship, `COUNT(*)` for a count.
public final class SingleTable: StorageLayout {
    public static let name = "single-table"
    public static let summary = "Core Data's layout: one table per hierarchy, every sub-entity's columns in it, rows told apart by Z_ENT"

    public let model: Model
    public let schema: CoreDataSchema
    /// Per concrete entity: its INSERT (Z_PK, Z_ENT, Z_OPT, attributes, to-ones) and its links'.
    private var insertPlans: [Int: InsertPlan] = [:]

    public init(model: Model) throws {
        self.model = model
        schema = CoreDataSchema(model)
        for entity in model.entities where entity.isConcrete {
            let toOnes = try entity.toOneRelationships.map { try schema.toOneColumns(entity.index, $0.name) }
            let columns = entity.attributes.indices.map { schema.column(entity.index, attributeAt: $0) }
            let row = InsertStep.header() + InsertStep.values(columns) + InsertStep.toOnes(toOnes)
            let links = entity.linkedRelationships.map { (try? schema.link($0)).map(LinkInsert.into) ?? .byDestination([:]) }
            insertPlans[entity.index] = InsertPlan(keyEntity: entity.root, steps: [InsertStep(into: schema.table(of: entity.index).name, row)], links: links)
        }
    }

    public var schemaSQL: [String] { schema.schemaSQL }

    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { "t0." + (try self.schema.attributeColumn(entity, $0)) },
            toOne: { "t0." + (try self.schema.toOneColumns(entity, $0).key) },
            key: "t0.Z_PK",
            related: { relationshipName, attribute in try self.relatedJoin(entity, relationshipName, attribute) },
            sort: try request.sort.map { ("t0." + (try self.schema.attributeColumn(entity, $0.attribute)), $0.ascending) })
    }

    /// Core Data's joins for `ANY relationship.attribute == ?`: through the join table (many-to-many)
    /// or the destination's foreign key (one-to-many).
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String) throws -> (joins: String, expression: String) {
        guard let relationship = model.entities[entity].relationship(name) else {
            throw LayoutError(Self.name, "\(model.entities[entity].name) has no relationship '\(name)'")
        }
        let destination = schema.table(of: relationship.destination).name
        let column = try schema.attributeColumn(relationship.destination, attribute)
        if relationship.isManyToMany {
            let join = try schema.link(relationship)
            return ("JOIN \(join.name) t1 ON t0.Z_PK = t1.\(join.this) JOIN \(destination) t2 ON t2.Z_PK = t1.\(join.other)", "t2.\(column)")
        }
        let key = try inverseKey(of: relationship).key
        return ("JOIN \(destination) t1 ON t1.\(key) = t0.Z_PK", "t1.\(column)")
    }

    /// The read of `request` from its entity's root table: Core Data's entity filter after the predicate.
    func read(_ request: FetchRequest) throws -> OneTableRead {
        let filter = schema.entityFilter(request.entity, includesSubentities: request.includesSubentities)
        return OneTableRead(builder: try sqlWhere(request), table: schema.table(of: request.entity).name, predicate: request.predicate,
                            terms: filter.map { [$0.sql] } ?? [], termValues: (filter?.values ?? []).map { .integer($0) })
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        if request.asRootFetch { return try rootFetch(request) }
        let read = try read(request)
        let (list, positions) = schema.selectList(request.entity)
        return try read.fetch(request, list: list, decoder: try decoder(request.entity, positions))
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try read(request).count(request) }

    /// Materialises a row of `selectList(entity)` as its concrete entity, named by `Z_ENT`.
    func decoder(_ entity: Int, _ positions: [String: Int32]) throws -> RowDecoder {
        let table = schema.table(of: entity)
        func position(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(table.name)") }
        let shapes = try model.concreteEntities(in: model.entities[entity].subtree).map { concrete in
            let info = model.entities[concrete]
            return RowShape(
                entity: concrete, attributes: info.attributes,
                positions: try info.attributes.indices.map { try position(schema.column(concrete, attributeAt: $0)) },
                toOne: try info.toOneRelationships.map { relationship in
                    let columns = try schema.toOneColumns(concrete, relationship.name)
                    return RowShape.ToOne(key: try position(columns.key), entity: try columns.entity.map(position), destination: relationship.destination)
                })
        }
        return RowDecoder(shapes: shapes, fixed: model.entities[table.root].hasSubentities ? nil : entity, table: table.name)
    }

    // MARK: Writes

    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        UpdateStep.versioned(schema.table(of: entity).name, "\(try schema.attributeColumn(entity, attribute)) = ?", [value])
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(schema.table(of: entity).name) WHERE Z_PK = ?" }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        try DeleteStatements.oneRow(
            schema.table(of: entity).name, model.entities[entity].relationships,
            destination: { (self.schema.table(of: $0.destination).name, "t1.Z_ENT") },
            toOneKey: { try self.schema.toOneColumns(entity, $0.name).key },
            join: schema.link,
            inverse: { ("t1.\(try self.inverseKey(of: $0).key) = ?1", self.clearInverse($0)) })
    }

    /// The foreign key (and entity column) through which a one-to-many relationship's destinations
    /// point back at its owner: the columns of its inverse to-one.
    private func inverseKey(of relationship: Model.Relationship) throws -> (key: String, entity: String?) {
        guard let inverse = model.inverse(of: relationship) else {
            throw LayoutError(Self.name, "\(model.entities[relationship.owner].name).\(relationship.name) has no inverse to-one")
        }
        return try schema.toOneColumns(relationship.destination, inverse.name)
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// hold through the inverse to-one (the many side of a one-to-many, the other side of a one-to-one).
    private func clearInverse(_ relationship: Model.Relationship) -> [String] {
        guard let inverse = model.inverse(of: relationship), let columns = schema.columns(relationship.destination, toOne: inverse.name) else { return [] }
        let destination = schema.table(of: relationship.destination).name
        let entityColumn = columns.entity.map { ", \($0) = NULL" } ?? ""
        let orderKey = model.orderKey(of: inverse).flatMap { schema.column(relationship.destination, attribute: $0) }.map { ", \($0) = NULL" } ?? ""
        return ["UPDATE \(destination) SET \(columns.key) = NULL\(entityColumn)\(orderKey), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"]
    }

    public func linkCountSQL(_ relationship: Model.Relationship) -> [String] {
        schema.joinTable(relationship).map { ["SELECT COUNT(*) FROM \($0.name)"] } ?? []
    }
}
