import CoreDataLayout
import Generation
import Models
import SQLite

/// `joined`: class-table inheritance (Hibernate's `JOINED`, Django's multi-table inheritance, EF
/// Core's table-per-type), derived from any model.
///
/// Tables: a root's table `Z<ROOT>` holds `Z_PK, Z_ENT, Z_OPT` and the root's own attributes and
/// to-one columns; every other entity of a hierarchy (abstract middle entities included) has a
/// table `Z<NAME>` of its OWN attributes and to-one columns only, keyed by the base row's key:
/// `Z_PK INTEGER PRIMARY KEY REFERENCES Z<ROOT> (Z_PK) ON DELETE CASCADE`. An object of entity E
/// is one row in the root's table plus one row in each table on the path from the root to E.
/// Column names and order follow Core Data's rules table by table (own attributes by name, then
/// own to-ones by name, a to-one to a destination with sub-entities adding `Z<n>_NAME`; then
/// stably sorted by type group); as each table holds one entity's columns, no name needs a
/// counting suffix (BlogPost's and WebArticle's `url` are both `ZURL`). A root without
/// sub-entities is a plain Core Data table. Join tables are Core Data's (`CoreDataSchema`), and
/// `Z_PRIMARYKEY` lists every entity of the model, `Z_MAX` on each root's row.
///
/// Indexes: `Z<ROOT>_Z_ENT_INDEX` on a root with sub-entities; `<TABLE>_<COLUMN>_INDEX` on every
/// foreign key, in the table that holds it; each uniqueness constraint and fetch index on the
/// table that holds its columns (see `Joined.indexSQL` for one mixing several tables);
/// each join table's reversed pair.
///
/// Reads of entity E start from E's table (`t0`), `JOIN` the tables of its ancestors up to the
/// root (`t1`, `t2`, …) and `LEFT JOIN` those of its descendants, and select `Z_ENT, Z_PK, Z_OPT`,
/// the root's columns, then each entity's own in entity-number order (then each left-joined
/// table's `Z_PK`, which tells a missing sub-row from a row of all NULLs). A middle entity with
/// its sub-entities is exactly its table's rows (no `Z_ENT` filter); one entity alone adds
/// `Z_ENT = ?` on the root's table when it has sub-entities. Above 64 tables in one join (SQLite's
/// limit), a fetch is a `UNION ALL` of one arm per concrete entity (its path of inner joins, NULL
/// for the other entities' columns), filtered, sorted and paged as a whole. A count joins only the
/// tables its predicate reads (`SELECT COUNT(*) FROM ZBOOK`).
///
/// Writes: an update of a root column is Core Data's one statement; of a sub-table column, the
/// version is checked and bumped on the root row, then the column set on the sub-row. Stores keep
/// `PRAGMA foreign_keys` off (as every strategy): a delete removes the sub-rows itself, deepest
/// table first, then the base row.
///
/// Everything is derived from the model once, when the layout is built; the statements are
/// derived from it in `Joined+Statements.swift`.
public struct Joined: MultiTableLayout {
    public static let name = "joined"
    public static let summary = "Class-table inheritance: the root's table holds the shared columns and Z_ENT, every sub-entity a table of its own columns keyed by the base row's Z_PK"

    public let model: Model
    /// Core Data's layout of the model: the join tables and their names.
    public let schema: CoreDataSchema
    /// Per entity (by index): its table.
    let tables: [Table]
    /// Per entity: the column of each attribute it declares, by position in its `attributes` (the
    /// same position in every descendant); "" for inherited positions.
    let attributeColumns: [[String]]
    /// Per entity: the columns of each of its to-one relationships, by position in its
    /// `toOneRelationships` (the same position in every descendant); inherited ones their declarer's.
    let toOneColumns: [[(key: String, entity: String?)]]
    /// Per entity: the entities from its root down to it.
    let paths: [[Int]]
    /// Every statement that creates an empty store, in order.
    public private(set) var schemaSQL: [String] = []
    /// Per concrete entity: one INSERT per table on its path, root first, and of its generated links.
    private(set) var insertPlans: [Int: InsertPlan] = [:]
    /// Per entity: its read alone, then with its sub-entities when it has any (`reader(_:includesSubentities:)`).
    private(set) var readers: [[JoinedReader]] = []

    /// Throws `LayoutError` when a lookup the layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        schema = CoreDataSchema(model)
        var tables: [Table] = []
        var attributeColumns: [[String]] = []
        var toOneColumns: [[(key: String, entity: String?)]] = []
        var paths: [[Int]] = []
        tables.reserveCapacity(model.entities.count)
        for entity in model.entities {
            paths.append((entity.parent.map { paths[$0] } ?? []) + [entity.index])
            var own = Self.ownTable(entity, model)
            if let parent = entity.parent { own.toOneColumns.replaceSubrange(toOneColumns[parent].indices, with: toOneColumns[parent]) }
            tables.append(own.table)
            attributeColumns.append(own.attributeColumns)
            toOneColumns.append(own.toOneColumns)
        }
        self.tables = tables
        self.attributeColumns = attributeColumns
        self.toOneColumns = toOneColumns
        self.paths = paths
        schemaSQL = tableSQL + (try indexSQL()) + (try rtreeSQL()) + CoreDataSchema.bookkeepingSQL
        for entity in model.entities where entity.isConcrete {
            insertPlans[entity.index] = try insertPlan(entity)
        }
        readers = model.entities.map { entity in
            (entity.hasSubentities ? [false, true] : [false]).map { JoinedReader(self, entity: entity.index, includesSubentities: $0) }
        }
    }

    /// An entity's table and where its own properties are: Core Data's rules applied to the
    /// entity's own attributes (by name) and to-ones (by name, each a key then, when the
    /// destination has sub-entities, its entity number), stably sorted by type group.
    private static func ownTable(_ entity: Model.Entity, _ model: Model)
        -> (table: Table, attributeColumns: [String], toOneColumns: [(key: String, entity: String?)]) {
        var names = UniqueNames(taken: ["Z_PK", "Z_ENT", "Z_OPT"])
        var columns: [CoreDataSchema.Column] = []
        var properties: [MultiTableRead.Column.Property] = []
        func add(_ name: String, _ sqlType: String, _ role: CoreDataSchema.Column.Role, _ property: MultiTableRead.Column.Property, group: Int) -> String {
            let name = names.claim(name)
            columns.append(CoreDataSchema.Column(name: name, sqlType: sqlType, entity: entity.index, role: role, group: group))
            properties.append(property)
            return name
        }
        var ownColumns = Array(repeating: "", count: entity.attributes.count)
        let own = entity.attributes.indices.filter { entity.attributeOwners[$0] == entity.index }
        for position in own.sorted(by: { entity.attributes[$0].name < entity.attributes[$1].name }) {
            let attribute = entity.attributes[position]
            ownColumns[position] = add("Z" + attribute.name.uppercased(), attribute.type.sqlType, .attribute(position), .attribute(position), group: attribute.type.columnGroup)
        }
        let toOnes = entity.toOneRelationships
        var toOneColumns = Array(repeating: (key: "", entity: String?.none), count: toOnes.count)
        for position in toOnes.indices.filter({ toOnes[$0].owner == entity.index }).sorted(by: { toOnes[$0].name < toOnes[$1].name }) {
            let relationship = toOnes[position]
            let key = add("Z" + relationship.name.uppercased(), "INTEGER", .foreignKey(relationship.name), .toOneKey(position), group: 0)
            let entityColumn = model.entities[relationship.destination].hasSubentities
                ? add("Z\(relationship.destination + 1)_" + relationship.name.uppercased(), "INTEGER", .foreignEntity(relationship.name), .toOneEntity(position), group: 0)
                : nil
            toOneColumns[position] = (key, entityColumn)
        }
        let tableOrder = columns.enumerated().sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }.map(\.element)
        let table = Table(name: "Z" + entity.name.uppercased(), fetchOrder: columns, tableOrder: tableOrder, properties: properties)
        return (table, ownColumns, toOneColumns)
    }

    // MARK: Names

    /// The name of a column a read selects, in its owner's table.
    func columnName(_ column: MultiTableRead.Column) -> String {
        switch column.property {
        case let .attribute(position): attributeColumns[column.owner][position]
        case let .toOneKey(position): toOneColumns[column.owner][position].key
        case let .toOneEntity(position): toOneColumns[column.owner][position].entity ?? "NULL"
        }
    }

    // MARK: Where objects are (`MultiTableLayout`)

    /// The tables on the path from the root to `entity`.
    func rowTables(_ entity: Int) -> [String] { paths[entity].map { tables[$0].name } }

    /// The root's table, for every entity of its hierarchy.
    func identity(_ entity: Int) -> RowIdentity? { RowIdentity(table: tables[model.entities[entity].root].name, number: .column) }

    /// The root's table holds the identities of a whole subtree.
    func holders(_ entity: Int) -> [Int] { [entity] }

    func attributePlace(_ entity: Int, _ position: Int) -> (table: String, column: String) {
        let owner = model.entities[entity].attributeOwners[position]
        return (tables[owner].name, attributeColumns[owner][position])
    }

    func toOnePlace(_ entity: Int, _ position: Int) -> (table: String, key: String, entity: String?) {
        let columns = toOneColumns[entity][position]
        return (tables[model.entities[entity].toOneRelationships[position].owner].name, columns.key, columns.entity)
    }

    /// Core Data's one join table, its partner the destination (whose root's table holds every destination's identity).
    func joinLinks(_ entity: Int, _ relationship: Model.Relationship) throws -> [JoinLink] {
        let join = try schema.join(relationship)
        let (this, other) = join.columns(from: relationship.owner, relationship.name)
        return [JoinLink(join: join.name, this: this, other: other, partner: relationship.destination)]
    }

    func joinTableNames(_ relationship: Model.Relationship) -> [String] { schema.joinTable(relationship).map { [$0.name] } ?? [] }

    // MARK: DDL

    var tableSQL: [String] {
        model.entities.map { entity in
            let table = tables[entity.index]
            let key = entity.isRoot
                ? ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                : ["Z_PK INTEGER PRIMARY KEY REFERENCES \(tables[entity.root].name) (Z_PK) ON DELETE CASCADE"]
            let columns = key + table.tableOrder.map { "\($0.name) \($0.sqlType)" }
            return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
        } + schema.joinTables.map { join in
            "CREATE TABLE \(join.name) ( \(join.first.column) INTEGER, \(join.second.column) INTEGER, PRIMARY KEY (\(join.first.column), \(join.second.column)) )"
        }
    }

    /// Core Data's indexes, each on the table that holds its columns. A uniqueness constraint or
    /// fetch index whose properties live in several tables (some inherited, some the entity's own)
    /// cannot be one index: it goes on the table of its LAST property's declaring entity, with
    /// that table's columns only (a fetch index keeps its `entity` element only on a root's
    /// table, the one holding `Z_ENT`). Such a uniqueness constraint becomes a plain index (it
    /// still serves lookups; one index cannot enforce uniqueness across two tables, and a
    /// UNIQUE index on some of the columns would refuse valid rows).
    func indexSQL() throws -> [String] {
        var sql: [String] = []
        for root in model.roots where model.entities[root].hasSubentities {
            let table = tables[root].name
            sql.append("CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
        }
        for table in tables {
            for column in table.fetchOrder { if case .foreignKey = column.role {
                sql.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))")
            } }
        }
        for entity in model.entities {
            for constraint in entity.uniquenessConstraints {
                let index = try indexPlace(entity, constraint.map { FetchIndex.Element(property: $0) })
                let columns = index.kept.map { $0.column + " COLLATE BINARY ASC" }
                sql.append("CREATE \(index.mixed ? "" : "UNIQUE ")INDEX \(CoreDataSchema.uniqueIndexName(entity.name, constraint)) ON \(index.table) (\(columns.joined(separator: ", ")))")
            }
            for fetchIndex in entity.fetchIndexes where !fetchIndex.rtree {
                let index = try indexPlace(entity, fetchIndex.elements)
                let columns = index.kept.map { $0.column + " COLLATE BINARY " + ($0.element.ascending ? "ASC" : "DESC") }
                sql.append("CREATE INDEX Z_\(entity.name)_\(fetchIndex.name) ON \(index.table) (\(columns.joined(separator: ", ")))")
            }
        }
        for join in schema.joinTables {
            sql.append("CREATE INDEX \(join.name)_\(join.second.column)_INDEX ON \(join.name) (\(join.second.column), \(join.first.column))")
        }
        return sql
    }

    /// Where an index of `entity` goes: the table keeping its last property (the root's when it
    /// names none but the key), the elements that table keeps (the entity number only on the
    /// root's, which holds `Z_ENT`) with their columns, and whether some are kept elsewhere.
    private func indexPlace(_ entity: Model.Entity, _ elements: [FetchIndex.Element]) throws
        -> (table: String, kept: [(column: String, element: FetchIndex.Element)], mixed: Bool) {
        let root = tables[entity.root].name
        let last = elements.last { $0.property != nil && !$0.isPrimaryKey }?.property
        let table = try last.map { try place(entity.index, $0).table } ?? root
        var kept: [(column: String, element: FetchIndex.Element)] = [], mixed = false
        for element in elements {
            guard let property = element.property else { if table == root { kept.append(("Z_ENT", element)) }; continue }
            let place = element.isPrimaryKey ? (table: table, column: "Z_PK") : try place(entity.index, property)
            if place.table == table { kept.append((place.column, element)) } else { mixed = true }
        }
        return (table, kept, mixed)
    }

    /// Each R-tree index, on the table of its last element (as a fetch index), its triggers on that table.
    func rtreeSQL() throws -> [String] {
        try model.entities.flatMap { entity in
            try entity.fetchIndexes.filter(\.rtree).flatMap { fetchIndex -> [String] in
                let index = try indexPlace(entity, fetchIndex.elements)
                return CoreDataSchema.rtreeSQL(entity: entity.name, index: fetchIndex.name, table: index.table,
                                               columns: index.kept.map { place in (place.column, { "\($0).\(place.column)" }) })
            }
        }
    }

    // MARK: Inserts

    /// The INSERTs of an object of `info`: the root's row, then one row per table down its path; and
    /// the INSERT of each many-to-many relationship whose links its objects generate.
    private func insertPlan(_ info: Model.Entity) throws -> InsertPlan {
        let steps = paths[info.index].map { owner in
            let table = tables[owner]
            var row: [(column: String, source: InsertStep.Source)] = owner == info.root ? InsertStep.header() : [("Z_PK", .key)]
            for (column, property) in zip(table.fetchOrder, table.properties) {
                switch property {
                case let .attribute(position): row.append((column.name, .value(position)))
                case let .toOneKey(position): row.append((column.name, .toOneKey(position)))
                case let .toOneEntity(position): row.append((column.name, .toOneEntity(position)))
                }
            }
            return InsertStep(into: table.name, row)
        }
        let links = try info.linkedRelationships.map { LinkInsert.into(try schema.link($0)) }
        return InsertPlan(keyEntity: info.root, steps: steps, links: links)
    }
}

extension Joined {
    /// One entity's table: its name and its own columns, in fetch order and in table order.
    struct Table: Sendable {
        let name: String
        let fetchOrder: [CoreDataSchema.Column]
        let tableOrder: [CoreDataSchema.Column]
        /// The property each column of `fetchOrder` holds.
        let properties: [MultiTableRead.Column.Property]
    }
}
