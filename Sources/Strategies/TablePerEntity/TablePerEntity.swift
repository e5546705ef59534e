import CoreDataLayout
import Generation
import Models
import SQLite

/// `table-per-entity` (EF Core's TPC): the entity hierarchy flattened, the
/// class hierarchy kept in code. Every concrete entity of a hierarchy with sub-entities becomes a
/// root entity of its own holding its inherited attributes and its own; abstract entities get no
/// table; roots without sub-entities (Tag, Owner) stay as they are. The stored model
/// (`storedModel`) is that flattened model, and `CoreDataSchema` of it gives the tables, column
/// names, join tables and DDL, so each table is one dense table with its own `Z_PRIMARYKEY` row.
///
/// - Keys: an object keeps the key the generator gives it (its position in its original
///   hierarchy + 1), so each table's keys are a sparse subset and a key still names one object of
///   the original hierarchy; `Z_MAX` of a table is its highest key. `Z_ENT` holds the flattened
///   entity's number; reads report the original model's entity number.
/// - Constraints and fetch indexes of an entity and its ancestors are copied to every concrete
///   table below them (an `entity` element is dropped; an index left empty is dropped).
/// - A to-one relationship whose destination subtree has several concrete tables keeps its
///   foreign key plus an entity column `Z<n>_NAME` (n: the original destination's number) holding
///   the original model's entity number of the object it reaches.
/// - A many-to-many relationship gets one join table per (concrete source table, concrete
///   destination table) pair, named by Core Data's rule on the flattened model; on a side that
///   reaches several tables the flattened relationships are named after the destination
///   (`books`, `blogPosts`), the original name staying with the original destination.
/// - One entity's read is Core Data's query of its table alone. A read across several concrete
///   entities is one `UNION ALL` with an arm per concrete entity of the subtree and one select
///   list (`Z_ENT` as the original entity number, `Z_PK`, `Z_OPT`, then every attribute and to-one
///   of the subtree, `NULL` where an arm lacks it, named as Core Data's single table would name
///   them), the predicate in every arm and `ORDER BY` / `LIMIT` / `OFFSET` on the whole union, so
///   SQLite merges the arms off each table's index. A count sums one `COUNT(*)` per arm.
///
/// Everything is derived from the model alone when the layout is built (the flattened model,
/// the tables, their columns, the DDL, the INSERTs, the reads' select lists); the statements
/// are derived from them (`TablePerEntity+Statements.swift`).
public struct TablePerEntity: MultiTableLayout {
    public static let name = "table-per-entity"
    public static let summary = "The hierarchy flattened (EF Core's TPC): one dense table per concrete entity, reads across entities one UNION ALL"

    public let model: Model
    /// Per original entity: its concrete entities (itself and descendants), in number order.
    let concrete: [[Int]]
    /// The flattened model Core Data stores (one root per concrete entity).
    public let storedModel: Model
    /// Core Data's layout of `storedModel`.
    public let schema: CoreDataSchema
    /// Per original entity: the flattened entity (`nil` when abstract).
    let flat: [Int?]
    /// Per original entity: its table (`""` when abstract).
    let tables: [String]
    /// Per original concrete entity: the column of each attribute, in `attributes` order.
    let attributeColumns: [[String]]
    /// Per original concrete entity: the columns of each to-one, in `toOneRelationships` order.
    let toOneColumns: [[ToOneColumns]]
    /// The join tables of each many-to-many relationship as held by each concrete entity, by partner.
    let links: [Held: [JoinLink]]
    /// Every statement that creates an empty store, in order.
    public let schemaSQL: [String]
    /// Per concrete entity: how its objects are inserted.
    private(set) var insertPlans: [Int: InsertPlan] = [:]

    /// Throws `ModelError` when the flattened model is not valid, `LayoutError` when a lookup the
    /// layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        let concrete = model.entities.map { model.concreteEntities(in: $0.subtree) }
        self.concrete = concrete
        let (description, flatNames) = Self.flatten(model, concrete)
        do { storedModel = try Model(description) } catch let error as ModelError {
            throw ModelError("the flattened model of '\(model.name)' is not valid: \(error.description)")
        }
        schema = CoreDataSchema(storedModel)
        let columns = try Self.columns(model, storedModel, schema, concrete)
        flat = columns.flat
        tables = columns.tables
        attributeColumns = columns.attributeColumns
        toOneColumns = columns.toOneColumns
        links = try Self.joinLinks(model, schema, flatNames, columns.flat)
        schemaSQL = Self.tableSQL(storedModel, schema, entityColumns: columns.entityColumns)
            + schema.tableSQL.dropFirst(storedModel.roots.count) + schema.indexSQL + schema.rtreeSQL + CoreDataSchema.bookkeepingSQL
        for entity in model.entities where entity.isConcrete {
            if let flat = flat[entity.index] { insertPlans[entity.index] = insertPlan(entity, flat: flat) }
        }
    }

    // MARK: Names

    /// Each concrete entity's flattened entity, table and columns; and the entity column of each
    /// to-one that reaches several tables, by flattened entity and relationship.
    private static func columns(_ model: Model, _ storedModel: Model, _ schema: CoreDataSchema, _ concrete: [[Int]]) throws
        -> (flat: [Int?], tables: [String], attributeColumns: [[String]], toOneColumns: [[ToOneColumns]], entityColumns: [PropertyKey: String]) {
        let entities = model.entities
        var flat = [Int?](repeating: nil, count: entities.count)
        var tables = Array(repeating: "", count: entities.count)
        var attributeColumns = Array(repeating: [String](), count: entities.count)
        var toOneColumns = Array(repeating: [ToOneColumns](), count: entities.count)
        var entityColumns: [PropertyKey: String] = [:]
        for entity in entities where entity.isConcrete {
            let index = try TablePerEntity.need(storedModel.index(of: entity.name), "flattened entity \(entity.name)")
            flat[entity.index] = index
            let table = schema.table(of: index)
            tables[entity.index] = table.name
            attributeColumns[entity.index] = entity.attributes.indices.map { schema.column(index, attributeAt: $0) }
            var names = UniqueNames(taken: ["Z_PK", "Z_ENT", "Z_OPT"] + table.fetchOrder.map(\.name))
            toOneColumns[entity.index] = try entity.toOneRelationships.map { relationship in
                let key = try schema.toOneColumns(index, relationship.name).key
                let targets = concrete[relationship.destination]
                guard targets.count > 1 else { return ToOneColumns(key: key, entity: nil, destination: targets.first ?? relationship.destination) }
                let name = names.claim("Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                entityColumns[PropertyKey(owner: index, name: relationship.name)] = name
                return ToOneColumns(key: key, entity: name, destination: relationship.destination)
            }
        }
        return (flat, tables, attributeColumns, toOneColumns, entityColumns)
    }

    /// The join tables of each split many-to-many relationship, found by the flattened relationship
    /// (`flatNames`: by held relationship and partner) that names a side, sorted by partner.
    private static func joinLinks(_ model: Model, _ schema: CoreDataSchema, _ flatNames: [Held: [Int: String]], _ flat: [Int?]) throws -> [Held: [JoinLink]] {
        var joinBySide: [PropertyKey: CoreDataSchema.JoinTable] = [:]
        for join in schema.joinTables {
            joinBySide[PropertyKey(owner: join.first.entity, name: join.first.relationship)] = join
            joinBySide[PropertyKey(owner: join.second.entity, name: join.second.relationship)] = join
        }
        return try flatNames.reduce(into: [:]) { links, held in
            let index = try TablePerEntity.need(flat[held.key.entity], "flattened entity for \(model.entities[held.key.entity].name)")
            links[held.key] = try held.value.sorted { $0.key < $1.key }.map { partner, flatName in
                let join = try TablePerEntity.need(joinBySide[PropertyKey(owner: index, name: flatName)], "join table for \(flatName)")
                let (this, other) = join.columns(from: index, flatName)
                return JoinLink(join: join.name, this: this, other: other, partner: partner)
            }
        }
    }

    // MARK: Lookups

    /// The column of attribute `attribute` of concrete `entity`.
    func column(_ entity: Int, _ attribute: String) throws -> String {
        let position = try attributePosition(entity, attribute)
        return attributeColumns[entity][position]
    }

    /// Each join table of many-to-many `relationship` once, from the concrete entities holding it.
    func joinTables(_ relationship: Model.Relationship) -> [JoinLink] {
        var seen = Set<String>()
        return concrete[relationship.owner].flatMap { joinLinks($0, relationship) }.filter { seen.insert($0.join).inserted }
    }

    // MARK: Where objects are (`MultiTableLayout`)

    /// A concrete entity's own table.
    func rowTables(_ entity: Int) -> [String] { flat[entity] == nil ? [] : [tables[entity]] }

    /// A concrete entity's table, its entity number a literal (the table's `Z_ENT` is the flattened model's).
    func identity(_ entity: Int) -> RowIdentity? { flat[entity] == nil ? nil : RowIdentity(table: tables[entity], number: .literal(entity + 1)) }

    /// Each concrete entity's table holds its own objects.
    func holders(_ entity: Int) -> [Int] { concrete[entity] }

    func attributePlace(_ entity: Int, _ position: Int) -> (table: String, column: String) { (tables[entity], attributeColumns[entity][position]) }

    func toOnePlace(_ entity: Int, _ position: Int) -> (table: String, key: String, entity: String?) {
        (tables[entity], toOneColumns[entity][position].key, toOneColumns[entity][position].entity)
    }

    /// The join tables `relationship` reaches from concrete `entity`, by partner.
    func joinLinks(_ entity: Int, _ relationship: Model.Relationship) -> [JoinLink] {
        links[Held(entity: entity, relationship: PropertyKey(relationship))] ?? []
    }

    func joinTableNames(_ relationship: Model.Relationship) -> [String] { joinTables(relationship).map(\.join) }

    // MARK: DDL and INSERTs

    /// Core Data's tables of the flattened model's roots, each entity column right after its foreign key.
    private static func tableSQL(_ storedModel: Model, _ schema: CoreDataSchema, entityColumns: [PropertyKey: String]) -> [String] {
        storedModel.roots.map { root in
            let table = schema.table(of: root)
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            for column in table.tableOrder {
                columns.append("\(column.name) \(column.sqlType)")
                if case let .foreignKey(name) = column.role, let entityColumn = entityColumns[PropertyKey(owner: root, name: name)] {
                    columns.append("\(entityColumn) INTEGER")
                }
            }
            return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
        }
    }

    /// A concrete entity's INSERT (`Z_PK, Z_ENT, Z_OPT`, its attributes, then each to-one's key and
    /// entity column); per many-to-many relationship whose links its objects generate, the link
    /// INSERT per partner.
    private func insertPlan(_ entity: Model.Entity, flat: Int) -> InsertPlan {
        let row = InsertStep.header(stored: flat) + InsertStep.values(attributeColumns[entity.index])
            + InsertStep.toOnes(toOneColumns[entity.index].map { ($0.key, $0.entity) })
        let linkInserts = entity.linkedRelationships.map { relationship in
            LinkInsert.byDestination(Dictionary(joinLinks(entity.index, relationship).map { link in
                (link.partner, "INSERT INTO \(link.join) (\(link.this), \(link.other)) VALUES (?, ?)")
            }, uniquingKeysWith: { _, last in last }))
        }
        return InsertPlan(keyEntity: flat, steps: [InsertStep(into: tables[entity.index], row)], links: linkInserts)
    }
}

extension TablePerEntity {
    /// A relationship (by its declaring entity and name) as held by one concrete entity.
    struct Held: Hashable, Sendable {
        var entity: Int
        var relationship: PropertyKey
    }

    /// A to-one relationship's columns in one entity's table.
    struct ToOneColumns: Sendable {
        var key: String
        /// The column holding the destination's original entity number (several concrete destinations).
        var entity: String?
        /// The destination's entity when there is no entity column.
        var destination: Int
    }
}
