import Generation
import Models
import SQLite

/// `single-table`: Core Data's own layout of the model. Each root entity's table holds its whole
/// hierarchy, rows told apart by `Z_ENT` (`CoreDataSchema` derives it rule for rule), and every
/// query is the one Core Data issues: its select list, the entity filter after the predicate (none
/// for a root, `Z_ENT >= ? AND Z_ENT <= ?` for a middle entity, `Z_ENT = ?` for one entity),
/// `SELECT DISTINCT … JOIN` through a to-many relationship, `COUNT(*)` for a count.
public final class SingleTable: StorageStrategy {
    public static let name = "single-table"
    public static let summary = "Core Data's layout: one table per hierarchy, every sub-entity's columns in it, rows told apart by Z_ENT"

    public let model: Model
    public let database: Database
    public let schema: CoreDataSchema
    private let store: CoreDataStore
    /// Per concrete entity: its INSERT (Z_PK, Z_ENT, Z_OPT, attributes, to-ones).
    private var inserts: [Int: String] = [:]

    public init(model: Model, database: Database) throws {
        self.model = model
        self.database = database
        schema = CoreDataSchema(model)
        store = CoreDataStore(database: database, model: model)
        for entity in model.entities where entity.isConcrete {
            let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + (try insertColumns(entity.index))
            inserts[entity.index] = "INSERT INTO \(schema.table(of: entity.index).name) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        }
    }

    public var schemaSQL: [String] { schema.schemaSQL }

    public func createSchema() throws { try store.createSchema(schemaSQL, strategyName: Self.name) }

    /// The attribute columns, then each to-one's key (and entity) column, of an entity's INSERT.
    private func insertColumns(_ entity: Int) throws -> [String] {
        let info = model.entities[entity]
        return info.attributes.indices.map { schema.column(entity, attributeAt: $0) }
            + (try info.toOneRelationships.flatMap { relationship -> [String] in
                let columns = try schema.toOneColumns(entity, relationship.name)
                return [columns.key] + (columns.entity.map { [$0] } ?? [])
            })
    }

    public func insert(_ objects: [ModelObject]) throws {
        try database.transaction {
            try store.reserveKeys(for: objects) { model.entities[$0].root }
            for object in objects {
                let entity = model.entities[object.id.entity]
                guard let insert = inserts[entity.index] else { throw LayoutError(Self.name, "\(entity.name) is abstract; it has no objects to insert") }
                let statement = try database.cachedStatement(insert)
                var values: [Value] = [.integer(object.id.key), .integer(Int64(entity.number)), .integer(1)] + object.values
                for (relationship, destination) in zip(entity.toOneRelationships, object.toOne) {
                    values.append(destination.map { .integer($0.key) } ?? .null)
                    if try schema.toOneColumns(entity.index, relationship.name).entity != nil {
                        values.append(destination.map { .integer(Int64($0.entity + 1)) } ?? .null)
                    }
                }
                try statement.bind(values: values)
                try statement.run()
                try insertLinks(object)
            }
        }
    }

    /// The join-table rows of the many-to-many relationships whose links this object's side generates.
    private func insertLinks(_ object: ModelObject) throws {
        let generating = model.entities[object.id.entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }
        for (relationship, destinations) in zip(generating, object.links) where !destinations.isEmpty {
            let join = try schema.join(relationship)
            let (this, other) = join.columns(from: relationship.owner, relationship.name)
            let statement = try database.cachedStatement("INSERT INTO \(join.name) (\(this), \(other)) VALUES (?, ?)")
            for destination in destinations {
                try statement.bind(values: [.integer(object.id.key), .integer(destination.key)])
                try statement.run()
            }
        }
    }

    // MARK: Reads

    private func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
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
            let join = try schema.join(relationship)
            let (this, other) = join.columns(from: relationship.owner, relationship.name)
            return ("JOIN \(join.name) t1 ON t0.Z_PK = t1.\(this) JOIN \(destination) t2 ON t2.Z_PK = t1.\(other)", "t2.\(column)")
        }
        let key = try inverseKey(of: relationship).key
        return ("JOIN \(destination) t1 ON t1.\(key) = t0.Z_PK", "t1.\(column)")
    }

    /// `FROM … WHERE predicate AND entity filter`, the values bound so far in `builder`.
    private func fromWhere(_ request: FetchRequest, _ builder: inout SQLWhere) throws -> String {
        let condition = try builder.condition(request.predicate)
        let filter = schema.entityFilter(request.entity, includesSubentities: request.includesSubentities)
        let parts = [condition, filter?.sql].compactMap { $0 }
        builder.appendValues((filter?.values ?? []).map { .integer($0) })
        let table = schema.table(of: request.entity).name
        let joins = builder.joinClause
        return "FROM \(table) t0\(joins)" + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "))
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var builder = try sqlWhere(request)
        let (list, positions) = schema.selectList(request.entity)
        let from = try fromWhere(request, &builder)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let tail = builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(list) \(from)\(tail)", values: builder.values,
                             decoder: try decoder(request.entity, positions))
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var builder = try sqlWhere(request)
        let from = try fromWhere(request, &builder)
        let count = request.predicate.reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)"
        // Core Data counts a whole table without an alias.
        if request.predicate == .all, schema.entityFilter(request.entity, includesSubentities: request.includesSubentities) == nil {
            return PreparedQuery(sql: "SELECT COUNT(*) FROM \(schema.table(of: request.entity).name)", values: [], decoder: nil)
        }
        return PreparedQuery(sql: "SELECT \(count) \(from)", values: builder.values, decoder: nil)
    }

    /// Materialises a row of `selectList(entity)` as its concrete entity, switching on `Z_ENT`.
    private func decoder(_ entity: Int, _ positions: [String: Int32]) throws -> RowDecoder {
        let table = schema.table(of: entity)
        let hasHierarchy = model.entities[table.root].hasSubentities
        struct Shape { var values: [(Int32, AttributeType.Storage)]; var toOne: [(key: Int32, entity: Int32?, destination: Int)] }
        var shapes: [Int: Shape] = [:]
        func position(_ column: String) throws -> Int32 {
            guard let position = positions[column] else { throw LayoutError(Self.name, "the select list of \(table.name) lacks \(column)") }
            return position
        }
        for concrete in model.concreteEntities(in: model.entities[entity].subtree) {
            let info = model.entities[concrete]
            shapes[concrete + 1] = Shape(
                values: try info.attributes.enumerated().map { index, attribute in
                    (try position(schema.column(concrete, attributeAt: index)), attribute.type.storage)
                },
                toOne: try info.toOneRelationships.map { relationship in
                    let columns = try schema.toOneColumns(concrete, relationship.name)
                    return (try position(columns.key), try columns.entity.map(position), relationship.destination)
                })
        }
        let only = Int64(entity + 1)
        return RowDecoder { row in
            let number = hasHierarchy ? row.int64(at: 0) : only
            guard let shape = shapes[Int(number)] else {
                throw CorruptRow("a row of \(table.name) has Z_ENT \(number), which is no concrete entity of the fetched subtree")
            }
            return ModelObject(
                id: ObjectID(entity: Int(number) - 1, key: row.int64(at: 1)),
                values: shape.values.map { row.value(at: $0.0, as: $0.1) },
                toOne: shape.toOne.map { row.destination(key: $0.key, entity: $0.entity, otherwise: $0.destination) })
        }
    }

    // MARK: Writes

    public func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int {
        try database.transaction {
            var changed = 0
            for object in objects {
                let table = schema.table(of: object.id.entity).name
                let column = try schema.attributeColumn(object.id.entity, attribute)
                changed += try database.write("UPDATE \(table) SET \(column) = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                                              [value, .integer(object.version + 1), .integer(object.id.key), .integer(object.version)])
            }
            return changed
        }
    }

    public func versions(_ objects: [ObjectID]) throws -> [Int64?] {
        try objects.map { object in
            try database.rows("SELECT Z_OPT FROM \(schema.table(of: object.entity).name) WHERE Z_PK = ?", [.integer(object.key)]) { $0.int64(at: 0) }.first
        }
    }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        let table = schema.table(of: entity).name
        var related: [String] = []
        var clear: [[String]] = []
        for relationship in model.entities[entity].relationships {
            let destination = schema.table(of: relationship.destination).name
            if !relationship.toMany {
                let key = try schema.toOneColumns(entity, relationship.name).key
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(table) t0 JOIN \(destination) t1 ON t1.Z_PK = t0.\(key) WHERE t0.Z_PK = ?1")
                clear.append(relationship.isOneToOne ? clearInverse(relationship) : [])
            } else if relationship.isManyToMany {
                let join = try schema.join(relationship)
                let (this, other) = join.columns(from: relationship.owner, relationship.name)
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(join.name) j JOIN \(destination) t1 ON t1.Z_PK = j.\(other) WHERE j.\(this) = ?1")
                clear.append(["DELETE FROM \(join.name) WHERE \(this) = ?1"])
            } else {
                let columns = try inverseKey(of: relationship)
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(destination) t1 WHERE t1.\(columns.key) = ?1")
                clear.append(clearInverse(relationship))
            }
        }
        return DeleteStatements(related: related, clear: clear, delete: ["DELETE FROM \(table) WHERE Z_PK = ?1"])
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

    public func countLinks(_ relationship: Model.Relationship) throws -> Int {
        guard let join = schema.joinTable(relationship) else { return 0 }
        return try database.number(PreparedQuery(sql: "SELECT COUNT(*) FROM \(join.name)", values: [], decoder: nil))
    }
}
