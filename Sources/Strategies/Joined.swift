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
/// table that holds its columns (see `indexSQL` for one mixing several tables); each join table's
/// reversed pair.
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
public final class Joined: StorageStrategy {
    public static let name = "joined"
    public static let summary = "Class-table inheritance: the root's table holds the shared columns and Z_ENT, every sub-entity a table of its own columns keyed by the base row's Z_PK"

    public let model: Model
    public let database: Database
    /// Core Data's layout of the model: the join tables and their names.
    public let schema: CoreDataSchema
    private let store: CoreDataStore

    /// One entity's table: its name and its own columns, in fetch order and in table order.
    struct Table {
        let name: String
        let entity: Int
        let fetchOrder: [CoreDataSchema.Column]
        let tableOrder: [CoreDataSchema.Column]
        /// Index in `fetchOrder` of each column name.
        let index: [String: Int]
    }

    /// Per entity (by index): its table.
    private let tables: [Table]
    /// Per entity: the column of each attribute it declares, by position in its `attributes` (the
    /// same position in every descendant); "" for inherited positions.
    private let attributeColumns: [[String]]
    /// Per entity: the columns of each to-one relationship it declares.
    private let toOneColumns: [[String: (key: String, entity: String?)]]
    /// Per entity: the entities from its root down to it.
    private let paths: [[Int]]
    public let schemaSQL: [String]
    /// Per concrete entity: one INSERT per table on its path, root first.
    private var inserts: [Int: [InsertStep]] = [:]
    /// Per concrete entity: the INSERT of each join table its objects' generated links go to.
    private var linkSQL: [Int: [String]] = [:]
    private var readers: [ReaderKey: Reader] = [:]
    private var updates: [String: (base: String, sub: String?)] = [:]
    private let versionSQL: [Int: String]

    /// SQLite joins at most 64 tables in one SELECT.
    static let maximumJoinedTables = 64

    public init(model: Model, database: Database) throws {
        self.model = model
        self.database = database
        schema = CoreDataSchema(model)
        store = CoreDataStore(database: database, model: model)

        var tables: [Table] = []
        var attributeColumns: [[String]] = []
        var toOneColumns: [[String: (key: String, entity: String?)]] = []
        var paths: [[Int]] = []
        tables.reserveCapacity(model.entities.count)
        for entity in model.entities {
            paths.append((entity.parent.map { paths[$0] } ?? []) + [entity.index])
            var names = UniqueNames(taken: ["Z_PK", "Z_ENT", "Z_OPT"])
            var columns: [CoreDataSchema.Column] = []
            var ownColumns = Array(repeating: "", count: entity.attributes.count)
            let own = entity.attributes.indices.filter { entity.attributeOwners[$0] == entity.index }
            for position in own.sorted(by: { entity.attributes[$0].name < entity.attributes[$1].name }) {
                let attribute = entity.attributes[position]
                let name = names.claim("Z" + attribute.name.uppercased())
                columns.append(CoreDataSchema.Column(name: name, sqlType: attribute.type.sqlType, entity: entity.index,
                                                     role: .attribute(position), group: attribute.type.columnGroup))
                ownColumns[position] = name
            }
            var toOnes: [String: (key: String, entity: String?)] = [:]
            for relationship in entity.ownRelationships.filter({ !$0.toMany }).sorted(by: { $0.name < $1.name }) {
                let key = names.claim("Z" + relationship.name.uppercased())
                columns.append(CoreDataSchema.Column(name: key, sqlType: "INTEGER", entity: entity.index,
                                                     role: .foreignKey(relationship.name), group: 0))
                var entityColumn: String?
                if model.entities[relationship.destination].hasSubentities {
                    let name = names.claim("Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                    columns.append(CoreDataSchema.Column(name: name, sqlType: "INTEGER", entity: entity.index,
                                                         role: .foreignEntity(relationship.name), group: 0))
                    entityColumn = name
                }
                toOnes[relationship.name] = (key, entityColumn)
            }
            let tableOrder = columns.enumerated().sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }.map(\.element)
            tables.append(Table(name: "Z" + entity.name.uppercased(), entity: entity.index, fetchOrder: columns, tableOrder: tableOrder,
                                index: Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })))
            attributeColumns.append(ownColumns)
            toOneColumns.append(toOnes)
        }
        self.tables = tables
        self.attributeColumns = attributeColumns
        self.toOneColumns = toOneColumns
        self.paths = paths
        versionSQL = Dictionary(uniqueKeysWithValues: model.roots.map { ($0, "SELECT Z_OPT FROM \(tables[$0].name) WHERE Z_PK = ?") })
        schemaSQL = Self.tableSQL(model, schema, tables) + (try Self.indexSQL(model, schema, tables, attributeColumns, toOneColumns))
            + CoreDataSchema.bookkeepingSQL
        for entity in model.entities where entity.isConcrete {
            inserts[entity.index] = try insertSteps(entity.index)
            linkSQL[entity.index] = try linkInserts(entity.index)
        }
    }

    // MARK: Names

    /// `value`, or a `LayoutError` saying that `what` is missing.
    private static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T { try LayoutError.required(value, name, what()) }


    /// The declaring entity and column of an attribute of `entity`.
    private func attributeColumn(_ entity: Int, _ name: String) -> (owner: Int, column: String)? {
        let info = model.entities[entity]
        guard let position = info.attributeIndex(name) else { return nil }
        let owner = info.attributeOwners[position]
        return (owner, attributeColumns[owner][position])
    }

    /// The declaring entity and columns of a to-one relationship of `entity`.
    private func toOneColumn(_ entity: Int, _ name: String) -> (owner: Int, key: String, entity: String?)? {
        guard let relationship = model.entities[entity].relationship(name), !relationship.toMany,
              let columns = toOneColumns[relationship.owner][name] else { return nil }
        return (relationship.owner, columns.key, columns.entity)
    }

    // MARK: DDL

    static func tableSQL(_ model: Model, _ schema: CoreDataSchema, _ tables: [Table]) -> [String] {
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
    static func indexSQL(_ model: Model, _ schema: CoreDataSchema, _ tables: [Table], _ attributeColumns: [[String]],
                         _ toOneColumns: [[String: (key: String, entity: String?)]]) throws -> [String] {
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
        /// The declaring entity and column of a property (attribute or to-one) of `entity`.
        func place(_ entity: Int, _ property: String) throws -> (owner: Int, column: String) {
            let info = model.entities[entity]
            if let position = info.attributeIndex(property) {
                let owner = info.attributeOwners[position]
                return (owner, attributeColumns[owner][position])
            }
            let owner = try Self.need(info.relationship(property), "property '\(property)' of \(info.name)").owner
            return (owner, try Self.need(toOneColumns[owner][property], "to-one column '\(property)'").key)
        }
        for entity in model.entities {
            for constraint in entity.uniquenessConstraints {
                let places = try constraint.map { try place(entity.index, $0) }
                let owner = try Self.need(places.last, "property in a uniqueness constraint of \(entity.name)").owner
                let mixed = places.contains { $0.owner != owner }
                let columns = places.filter { $0.owner == owner }.map { $0.column + " COLLATE BINARY ASC" }
                sql.append("CREATE \(mixed ? "" : "UNIQUE ")INDEX Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_")) ON \(tables[owner].name) (\(columns.joined(separator: ", ")))")
            }
            for index in entity.fetchIndexes {
                let last = index.elements.last { $0.property != nil }?.property
                let owner = try last.map { try place(entity.index, $0).owner } ?? entity.root
                let columns = try index.elements.compactMap { element -> String? in
                    let direction = " COLLATE BINARY " + (element.ascending ? "ASC" : "DESC")
                    guard let property = element.property else { return owner == entity.root ? "Z_ENT" + direction : nil }
                    let place = try place(entity.index, property)
                    return place.owner == owner ? place.column + direction : nil
                }
                sql.append("CREATE INDEX Z_\(entity.name)_\(index.name) ON \(tables[owner].name) (\(columns.joined(separator: ", ")))")
            }
        }
        for join in schema.joinTables {
            sql.append("CREATE INDEX \(join.name)_\(join.second.column)_INDEX ON \(join.name) (\(join.second.column), \(join.first.column))")
        }
        return sql
    }

    public func createSchema() throws { try store.createSchema(schemaSQL, strategyName: Self.name) }

    // MARK: Insert

    /// Where an INSERT's parameter comes from.
    private enum Source {
        case key, entityNumber, version
        case value(Int)
        case toOneKey(Int)
        case toOneEntity(Int)
    }

    private struct InsertStep { let sql: String; let sources: [Source] }

    /// The INSERTs of an object of `entity`: the root's row, then one row per table down its path.
    private func insertSteps(_ entity: Int) throws -> [InsertStep] {
        let info = model.entities[entity]
        let toOneIndex = Dictionary(uniqueKeysWithValues: info.toOneRelationships.enumerated().map { ($1.name, $0) })
        return try paths[entity].map { owner in
            let table = tables[owner]
            var columns = ["Z_PK"]
            var sources: [Source] = [.key]
            if owner == info.root { columns += ["Z_ENT", "Z_OPT"]; sources += [.entityNumber, .version] }
            for column in table.fetchOrder {
                columns.append(column.name)
                switch column.role {
                case let .attribute(position): sources.append(.value(position))
                case let .foreignKey(name): sources.append(.toOneKey(try Self.need(toOneIndex[name], "to-one '\(name)' of \(info.name)")))
                case let .foreignEntity(name): sources.append(.toOneEntity(try Self.need(toOneIndex[name], "to-one '\(name)' of \(info.name)")))
                }
            }
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            return InsertStep(sql: "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(marks))", sources: sources)
        }
    }

    public func insert(_ objects: [ModelObject]) throws {
        try database.transaction {
            var highest: [Int: Int64] = [:]
            for object in objects {
                let root = model.entities[object.id.entity].root
                highest[root] = max(highest[root] ?? 0, object.id.key)
            }
            for (root, key) in highest.sorted(by: { $0.key < $1.key }) { try store.reserveKeys(entityNumber: root + 1, upTo: key) }
            for object in objects {
                guard let steps = inserts[object.id.entity] else {
                    throw CorruptRow("cannot insert an object of abstract entity '\(model.entities[object.id.entity].name)'")
                }
                for step in steps {
                    let statement = try database.cachedStatement(step.sql)
                    for (offset, source) in step.sources.enumerated() {
                        let index = Int32(offset + 1)
                        switch source {
                        case .key: try statement.bind(object.id.key, at: index)
                        case .entityNumber: try statement.bind(Int64(object.id.entity + 1), at: index)
                        case .version: try statement.bind(Int64(1), at: index)
                        case let .value(position): try object.values[position].bind(to: statement, at: index)
                        case let .toOneKey(position):
                            if let destination = object.toOne[position] { try statement.bind(destination.key, at: index) }
                            else { try statement.bindNull(at: index) }
                        case let .toOneEntity(position):
                            if let destination = object.toOne[position] { try statement.bind(Int64(destination.entity + 1), at: index) }
                            else { try statement.bindNull(at: index) }
                        }
                    }
                    try statement.run()
                }
                try insertLinks(object)
            }
        }
    }

    /// The INSERT of each many-to-many relationship whose links an entity's objects generate, in `links` order.
    private func linkInserts(_ entity: Int) throws -> [String] {
        try model.entities[entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }.map { relationship in
            let join = try schema.join(relationship)
            let (this, other) = join.columns(from: relationship.owner, relationship.name)
            return "INSERT INTO \(join.name) (\(this), \(other)) VALUES (?, ?)"
        }
    }

    /// The join-table rows of the many-to-many relationships whose links this object's side generates.
    private func insertLinks(_ object: ModelObject) throws {
        for (sql, destinations) in zip(linkSQL[object.id.entity] ?? [], object.links) where !destinations.isEmpty {
            let statement = try database.cachedStatement(sql)
            for destination in destinations {
                try statement.bind(object.id.key, at: 1)
                try statement.bind(destination.key, at: 2)
                try statement.run()
            }
        }
    }

    // MARK: Reads

    private struct ReaderKey: Hashable { let entity: Int; let includesSubentities: Bool }

    /// What every read of one entity (with or without its sub-entities) shares: the tables, their
    /// aliases, the select list, the FROM clause and the row decoder.
    private struct Reader {
        let entity: Int
        /// The tables read: the path from the root, then the descendants (when included), in entity-number order.
        let entities: [Int]
        let descendants: [Int]
        let alias: [Int: String]
        /// Position in the select list of the first own column of each entity in `entities`.
        let base: [Int: Int32]
        /// `Z_ENT, Z_PK, Z_OPT`, every entity's own columns (then the left-joined tables' `Z_PK`).
        let selectList: String
        let decoder: RowDecoder
        /// The concrete entities whose objects the read returns.
        let concrete: [Int]
        /// Whether a fetch must be a `UNION ALL` of one arm per concrete entity (too many tables to join).
        let needsUnion: Bool
    }

    private func reader(_ entity: Int, includesSubentities: Bool) throws -> Reader {
        let info = model.entities[entity]
        let key = ReaderKey(entity: entity, includesSubentities: includesSubentities && info.hasSubentities)
        if let known = readers[key] { return known }
        let path = paths[entity]
        let descendants = key.includesSubentities ? Array(info.subtree.dropFirst()) : []
        let entities = path + descendants
        var alias: [Int: String] = [entity: "t0"]
        for (offset, ancestor) in path.dropLast().reversed().enumerated() { alias[ancestor] = "t\(offset + 1)" }
        for (offset, descendant) in descendants.enumerated() { alias[descendant] = "t\(path.count + offset)" }
        let root = try Self.need(alias[info.root], "alias of \(info.name)'s root")
        var items = [model.entities[info.root].hasSubentities ? "\(root).Z_ENT" : "0", "t0.Z_PK", "\(root).Z_OPT"]
        var base: [Int: Int32] = [:]
        for member in entities {
            base[member] = Int32(items.count)
            let name = try Self.need(alias[member], "alias of \(model.entities[member].name)")
            items += tables[member].fetchOrder.map { "\(name).\($0.name)" }
        }
        let needsUnion = entities.count > Self.maximumJoinedTables
        var markers: [Int: Int32] = [:]
        if !needsUnion {
            for descendant in descendants {
                markers[descendant] = Int32(items.count)
                items.append("\(try Self.need(alias[descendant], "alias of \(model.entities[descendant].name)")).Z_PK")
            }
        }
        let concrete = key.includesSubentities ? model.concreteEntities(in: info.subtree) : (info.isConcrete ? [entity] : [])
        let made = Reader(entity: entity, entities: entities, descendants: descendants, alias: alias, base: base,
                          selectList: items.joined(separator: ", "),
                          decoder: try decoder(entity, concrete: concrete, base: base, markers: markers),
                          concrete: concrete, needsUnion: needsUnion)
        readers[key] = made
        return made
    }

    /// Materialises a row as its concrete entity (named by `Z_ENT`). A row whose entity is unknown
    /// to the read, or whose sub-row is missing on its path, throws `CorruptRow`.
    private func decoder(_ entity: Int, concrete: [Int], base: [Int: Int32], markers: [Int: Int32]) throws -> RowDecoder {
        func position(_ owner: Int, _ column: String) throws -> Int32 {
            let start = try Self.need(base[owner], "columns of \(model.entities[owner].name) in the select list")
            return start + Int32(try Self.need(tables[owner].index[column], "column \(column) of \(tables[owner].name)"))
        }
        struct Shape {
            var values: [(Int32, AttributeType.Storage)]
            var toOne: [(key: Int32, entity: Int32?, destination: Int)]
            var markers: [Int32]
        }
        var shapes: [Int: Shape] = [:]
        for member in concrete {
            let info = model.entities[member]
            shapes[member + 1] = Shape(
                values: try info.attributes.enumerated().map { index, attribute in
                    let owner = info.attributeOwners[index]
                    return (try position(owner, attributeColumns[owner][index]), attribute.type.storage)
                },
                toOne: try info.toOneRelationships.map { relationship in
                    let owner = relationship.owner
                    let columns = try Self.need(toOneColumns[owner][relationship.name], "to-one '\(relationship.name)' of \(info.name)")
                    return (try position(owner, columns.key), try columns.entity.map { try position(owner, $0) }, relationship.destination)
                },
                markers: paths[member].compactMap { markers[$0] })
        }
        let root = model.entities[entity].root
        let hasHierarchy = model.entities[root].hasSubentities
        let only = Int64(entity + 1)
        let tableName = tables[entity].name
        return RowDecoder { row in
            let number = hasHierarchy ? row.int64(at: 0) : only
            guard let shape = shapes[Int(number)] else {
                throw CorruptRow("a row read from \(tableName) has Z_ENT \(number), which is no concrete entity of the fetched subtree")
            }
            for marker in shape.markers where row.isNull(at: marker) {
                throw CorruptRow("the object \(row.int64(at: 1)) of \(tableName) has Z_ENT \(number) but lacks its row in a sub-entity's table")
            }
            return ModelObject(
                id: ObjectID(entity: Int(number) - 1, key: row.int64(at: 1)),
                values: shape.values.map { row.value(at: $0.0, as: $0.1) },
                toOne: shape.toOne.map { row.destination(key: $0.key, entity: $0.entity, otherwise: $0.destination) })
        }
    }

    /// The tables a condition reads, and the aliases its joins through to-many relationships took.
    private final class Tracker {
        var entities = Set<Int>()
        var related = 0
    }

    /// The WHERE builder of a request over `reader`'s tables (`union`: over the `UNION ALL`
    /// subquery `t0`, whose columns are named `c<position>`).
    private func sqlWhere(_ request: FetchRequest, _ reader: Reader, union: Bool, _ tracker: Tracker) throws -> SQLWhere {
        let entity = request.entity
        func expression(_ owner: Int, _ column: String) throws -> String {
            tracker.entities.insert(owner)
            guard union else { return "\(try Self.need(reader.alias[owner], "alias of \(model.entities[owner].name)")).\(column)" }
            let start = try Self.need(reader.base[owner], "columns of \(model.entities[owner].name) in the union")
            return "t0.c\(start + Int32(try Self.need(tables[owner].index[column], "column \(column) of \(tables[owner].name)")))"
        }
        func attribute(_ name: String) throws -> String {
            let (owner, column) = try Self.need(attributeColumn(entity, name), "attribute '\(name)' of \(model.entities[entity].name)")
            return try expression(owner, column)
        }
        return SQLWhere(
            attribute: attribute,
            toOne: { name in
                let columns = try Self.need(self.toOneColumn(entity, name), "to-one '\(name)' of \(self.model.entities[entity].name)")
                return try expression(columns.owner, columns.key)
            },
            key: "t0.Z_PK",
            related: { relationship, name in try self.relatedJoin(entity, relationship, name, tracker) },
            sort: try request.sort.map { (try attribute($0.attribute), $0.ascending) })
    }

    /// The joins for `ANY relationship.attribute == ?`: through the join table (many-to-many) or the
    /// table holding the inverse's foreign key (one-to-many), then the table holding the attribute.
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String, _ tracker: Tracker) throws -> (joins: String, expression: String) {
        let relationship = try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
        let (owner, column) = try Self.need(attributeColumn(relationship.destination, attribute), "attribute '\(attribute)' of the destination of \(name)")
        let target = tables[owner].name
        let first = "r\(tracker.related + 1)", second = "r\(tracker.related + 2)"
        tracker.related += 2
        if relationship.isManyToMany {
            let join = try schema.join(relationship)
            let (this, other) = join.columns(from: relationship.owner, relationship.name)
            return ("JOIN \(join.name) \(first) ON \(first).\(this) = t0.Z_PK JOIN \(target) \(second) ON \(second).Z_PK = \(first).\(other)",
                    "\(second).\(column)")
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let foreign = try Self.need(toOneColumn(relationship.destination, inverse.name), "to-one '\(inverse.name)'")
        let holder = tables[foreign.owner].name
        if foreign.owner == owner {
            return ("JOIN \(holder) \(first) ON \(first).\(foreign.key) = t0.Z_PK", "\(first).\(column)")
        }
        return ("JOIN \(holder) \(first) ON \(first).\(foreign.key) = t0.Z_PK JOIN \(target) \(second) ON \(second).Z_PK = \(first).Z_PK",
                "\(second).\(column)")
    }

    /// `Z_ENT = ?` on the root's table when the request reads one entity of a hierarchy (a leaf's
    /// table, or a middle entity's with its sub-entities, holds exactly the objects asked for).
    private func entityFilter(_ request: FetchRequest) -> Bool {
        let info = model.entities[request.entity]
        return info.hasSubentities && !request.includesSubentities
    }

    /// `FROM E t0 JOIN <ancestors> <joins> LEFT JOIN <descendants>`, keeping the ancestors in `only` when given.
    private func fromClause(_ reader: Reader, only: Set<Int>? = nil, joins: String, descendants: Bool) throws -> String {
        let path = paths[reader.entity]
        var text = "FROM \(tables[reader.entity].name) t0"
        for ancestor in path.dropLast().reversed() where only?.contains(ancestor) ?? true {
            let alias = try Self.need(reader.alias[ancestor], "alias of \(model.entities[ancestor].name)")
            text += " JOIN \(tables[ancestor].name) \(alias) ON \(alias).Z_PK = t0.Z_PK"
        }
        text += joins
        if descendants {
            for descendant in reader.descendants {
                let alias = try Self.need(reader.alias[descendant], "alias of \(model.entities[descendant].name)")
                text += " LEFT JOIN \(tables[descendant].name) \(alias) ON \(alias).Z_PK = t0.Z_PK"
            }
        }
        return text
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let reader = try reader(request.entity, includesSubentities: request.includesSubentities)
        let tracker = Tracker()
        let related = 2 * request.predicate.relatedCount
        if reader.needsUnion || reader.entities.count + related > Self.maximumJoinedTables {
            return try unionQuery(request, reader, tracker)
        }
        var builder = try sqlWhere(request, reader, union: false, tracker)
        var parts = [try builder.condition(request.predicate)].compactMap { $0 }
        if entityFilter(request) {
            let root = model.entities[request.entity].root
            parts.append("\(try Self.need(reader.alias[root], "alias of \(model.entities[root].name)")).Z_ENT = ?")
            builder.appendValues([.integer(Int64(request.entity + 1))])
        }
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let from = try fromClause(reader, joins: builder.joinClause, descendants: true)
        let tail = (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")) + builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(reader.selectList) \(from)\(tail)", values: builder.values, decoder: reader.decoder)
    }

    /// A fetch of a subtree too wide to join: one arm per concrete entity (its path of inner joins,
    /// `Z_ENT = ?` when it has sub-entities, NULL for the columns of entities off its path), the
    /// union filtered, sorted and paged as a whole.
    private func unionQuery(_ request: FetchRequest, _ reader: Reader, _ tracker: Tracker) throws -> PreparedQuery {
        var armValues: [Value] = []
        var arms: [String] = []
        for (number, member) in reader.concrete.enumerated() {
            let path = paths[member]
            let onPath = Set(path)
            var alias: [Int: String] = [member: "s0"]
            for (offset, ancestor) in path.dropLast().reversed().enumerated() { alias[ancestor] = "s\(offset + 1)" }
            let root = try Self.need(alias[path[0]], "alias of the root")
            var items = ["\(root).Z_ENT", "s0.Z_PK", "\(root).Z_OPT"]
            for entity in reader.entities {
                let columns = tables[entity].fetchOrder
                if onPath.contains(entity) {
                    let name = try Self.need(alias[entity], "alias of \(model.entities[entity].name)")
                    items += columns.map { "\(name).\($0.name)" }
                } else {
                    items += columns.map { _ in "NULL" }
                }
            }
            if number == 0 {
                items = items.enumerated().map { position, item in
                    item + " AS " + (position < 3 ? ["Z_ENT", "Z_PK", "Z_OPT"][position] : "c\(position)")
                }
            }
            var arm = "SELECT \(items.joined(separator: ", ")) FROM \(tables[member].name) s0"
            for ancestor in path.dropLast().reversed() {
                let name = try Self.need(alias[ancestor], "alias of \(model.entities[ancestor].name)")
                arm += " JOIN \(tables[ancestor].name) \(name) ON \(name).Z_PK = s0.Z_PK"
            }
            if model.entities[member].hasSubentities {
                arm += " WHERE \(root).Z_ENT = ?"
                armValues.append(.integer(Int64(member + 1)))
            }
            arms.append(arm)
        }
        var builder = try sqlWhere(request, reader, union: true, tracker)
        let condition = try builder.condition(request.predicate)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let from = "FROM (\(arms.joined(separator: " UNION ALL "))) t0" + builder.joinClause
        let tail = (condition.map { " WHERE " + $0 } ?? "") + builder.orderBy + builder.page(request)
        // The arms have no `Z_PK` markers (every table on an arm's path is inner-joined).
        let decoder = reader.needsUnion ? reader.decoder : try decoder(reader.entity, concrete: reader.concrete, base: reader.base, markers: [:])
        return PreparedQuery(sql: "SELECT \(distinct)t0.* \(from)\(tail)", values: armValues + builder.values, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let reader = try reader(request.entity, includesSubentities: request.includesSubentities)
        let filter = entityFilter(request)
        if request.predicate == .all, !filter {
            return PreparedQuery(sql: "SELECT COUNT(*) FROM \(tables[request.entity].name)", values: [], decoder: nil)
        }
        let tracker = Tracker()
        var builder = try sqlWhere(request, reader, union: false, tracker)
        var parts = [try builder.condition(request.predicate)].compactMap { $0 }
        let root = model.entities[request.entity].root
        if filter {
            tracker.entities.insert(root)
            parts.append("\(try Self.need(reader.alias[root], "alias of \(model.entities[root].name)")).Z_ENT = ?")
            builder.appendValues([.integer(Int64(request.entity + 1))])
        }
        let count = request.predicate.reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)"
        let from = try fromClause(reader, only: tracker.entities, joins: builder.joinClause, descendants: false)
        return PreparedQuery(sql: "SELECT \(count) \(from)" + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")),
                             values: builder.values, decoder: nil)
    }

    // MARK: Writes

    /// Core Data's `UPDATE … SET <col> = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?` on the root's
    /// table; for a column of a sub-entity's table, the version is checked and bumped on the root's
    /// row, and the column set on the sub-row of each object whose version matched.
    public func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int {
        try database.transaction {
            var changed = 0
            var byEntity: [Int: (base: String, sub: String?)] = [:]
            for object in objects {
                let statements = try byEntity[object.id.entity] ?? updateSQL(object.id.entity, attribute)
                byEntity[object.id.entity] = statements
                let key = Value.integer(object.id.key)
                if let sub = statements.sub {
                    let bumped = try database.write(statements.base, [.integer(object.version + 1), key, .integer(object.version)])
                    if bumped > 0 { _ = try database.write(sub, [value, key]) }
                    changed += bumped
                } else {
                    changed += try database.write(statements.base, [value, .integer(object.version + 1), key, .integer(object.version)])
                }
            }
            return changed
        }
    }

    private func updateSQL(_ entity: Int, _ attribute: String) throws -> (base: String, sub: String?) {
        let (owner, column) = try Self.need(attributeColumn(entity, attribute), "attribute '\(attribute)' of \(model.entities[entity].name)")
        let cacheKey = "\(owner).\(attribute)"
        if let known = updates[cacheKey] { return known }
        let root = tables[model.entities[owner].root].name
        let made: (base: String, sub: String?) = model.entities[owner].isRoot
            ? ("UPDATE \(root) SET \(column) = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", nil)
            : ("UPDATE \(root) SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "UPDATE \(tables[owner].name) SET \(column) = ? WHERE Z_PK = ?")
        updates[cacheKey] = made
        return made
    }

    public func versions(_ objects: [ObjectID]) throws -> [Int64?] {
        try objects.map { object in
            try database.rows(try Self.need(versionSQL[model.entities[object.entity].root], "version query"), [.integer(object.key)]) { $0.int64(at: 0) }.first
        }
    }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        var related: [String] = []
        var clear: [[String]] = []
        for relationship in model.entities[entity].relationships {
            let destination = tables[model.entities[relationship.destination].root].name
            if !relationship.toMany {
                let columns = try Self.need(toOneColumn(entity, relationship.name), "to-one '\(relationship.name)'")
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(tables[columns.owner].name) t0 JOIN \(destination) t1 ON t1.Z_PK = t0.\(columns.key) WHERE t0.Z_PK = ?1")
                clear.append(relationship.isOneToOne ? clearInverse(relationship) : [])
            } else if relationship.isManyToMany {
                let join = try schema.join(relationship)
                let (this, other) = join.columns(from: relationship.owner, relationship.name)
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(join.name) j JOIN \(destination) t1 ON t1.Z_PK = j.\(other) WHERE j.\(this) = ?1")
                clear.append(["DELETE FROM \(join.name) WHERE \(this) = ?1"])
            } else {
                let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(relationship.name)")
                let columns = try Self.need(toOneColumn(relationship.destination, inverse.name), "to-one '\(inverse.name)'")
                let holder = tables[columns.owner].name
                related.append(holder == destination
                    ? "SELECT t1.Z_ENT, t1.Z_PK FROM \(destination) t1 WHERE t1.\(columns.key) = ?1"
                    : "SELECT t1.Z_ENT, t1.Z_PK FROM \(holder) t2 JOIN \(destination) t1 ON t1.Z_PK = t2.Z_PK WHERE t2.\(columns.key) = ?1")
                clear.append(clearInverse(relationship))
            }
        }
        // The deepest table first, the base row last (`PRAGMA foreign_keys` stays off).
        let delete = paths[entity].reversed().map { "DELETE FROM \(tables[$0].name) WHERE Z_PK = ?1" }
        return DeleteStatements(related: related, clear: clear, delete: delete)
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// hold through the inverse to-one (the many side of a one-to-many, the other side of a
    /// one-to-one). When the foreign key is in a sub-entity's table and the version in the root's,
    /// the version is bumped first, then the key cleared.
    private func clearInverse(_ relationship: Model.Relationship) -> [String] {
        guard let inverse = model.inverse(of: relationship), let columns = toOneColumn(relationship.destination, inverse.name) else { return [] }
        let destination = tables[model.entities[relationship.destination].root].name
        let holder = tables[columns.owner].name
        // The order key is declared with the to-one, so it is in the same table.
        let entityColumn = (columns.entity.map { ", \($0) = NULL" } ?? "")
            + (model.orderKey(of: inverse).flatMap { attributeColumn(relationship.destination, $0) }.map { ", \($0.column) = NULL" } ?? "")
        if holder == destination {
            return ["UPDATE \(destination) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"]
        }
        return [
            "UPDATE \(destination) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (SELECT Z_PK FROM \(holder) WHERE \(columns.key) = ?1)",
            "UPDATE \(holder) SET \(columns.key) = NULL\(entityColumn) WHERE \(columns.key) = ?1",
        ]
    }

    public func countLinks(_ relationship: Model.Relationship) throws -> Int {
        guard let join = schema.joinTable(relationship) else { return 0 }
        return try database.number(PreparedQuery(sql: "SELECT COUNT(*) FROM \(join.name)", values: [], decoder: nil))
    }
}

extension FetchPredicate {
    /// How many `ANY relationship.attribute == value` conditions the predicate holds (each joins two tables).
    var relatedCount: Int {
        switch self {
        case .anyRelated: 1
        case let .and(predicates): predicates.reduce(0) { $0 + $1.relatedCount }
        default: 0
        }
    }
}
