import Models

/// `joined`'s layout of a model (see `Joined` for its rules), derived from the model alone, without
/// a database: one table per entity holding its own columns, each entity's path from its root, the
/// DDL, and the statements that insert an object and read a root row's version. Built in steps,
/// each from the ones before it.
public struct JoinedLayout: Sendable {
    public let model: Model
    /// Core Data's layout of the model: the join tables and their names.
    public let schema: CoreDataSchema
    /// Per entity (by index): its table.
    let tables: [Table]
    /// Per entity: the column of each attribute it declares, by position in its `attributes` (the
    /// same position in every descendant); "" for inherited positions.
    let attributeColumns: [[String]]
    /// Per entity: the columns of each to-one relationship it declares.
    let toOneColumns: [[String: (key: String, entity: String?)]]
    /// Per entity: the entities from its root down to it.
    let paths: [[Int]]
    /// Per root: the query of a row's version (`Z_OPT`).
    let versionSQL: [Int: String]
    /// Every statement that creates an empty store, in order.
    public private(set) var schemaSQL: [String] = []
    /// Per concrete entity: one INSERT per table on its path, root first.
    private(set) var inserts: [Int: [InsertStep]] = [:]
    /// Per concrete entity: the INSERT of each join table its objects' generated links go to.
    private(set) var linkSQL: [Int: [String]] = [:]

    /// Throws `LayoutError` when a lookup the layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        schema = CoreDataSchema(model)
        var tables: [Table] = []
        var attributeColumns: [[String]] = []
        var toOneColumns: [[String: (key: String, entity: String?)]] = []
        var paths: [[Int]] = []
        tables.reserveCapacity(model.entities.count)
        for entity in model.entities {
            paths.append((entity.parent.map { paths[$0] } ?? []) + [entity.index])
            let own = Self.ownTable(entity, model)
            tables.append(own.table)
            attributeColumns.append(own.attributeColumns)
            toOneColumns.append(own.toOneColumns)
        }
        self.tables = tables
        self.attributeColumns = attributeColumns
        self.toOneColumns = toOneColumns
        self.paths = paths
        versionSQL = Dictionary(uniqueKeysWithValues: model.roots.map { ($0, "SELECT Z_OPT FROM \(tables[$0].name) WHERE Z_PK = ?") })
        schemaSQL = tableSQL + (try indexSQL()) + CoreDataSchema.bookkeepingSQL
        for entity in model.entities where entity.isConcrete {
            inserts[entity.index] = try insertSteps(entity.index)
            linkSQL[entity.index] = try linkInserts(entity.index)
        }
    }

    /// An entity's table and where its own properties are: Core Data's rules applied to the
    /// entity's own attributes (by name) and to-ones (by name, each a key then, when the
    /// destination has sub-entities, its entity number), stably sorted by type group.
    private static func ownTable(_ entity: Model.Entity, _ model: Model)
        -> (table: Table, attributeColumns: [String], toOneColumns: [String: (key: String, entity: String?)]) {
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
        let table = Table(name: "Z" + entity.name.uppercased(), entity: entity.index, fetchOrder: columns, tableOrder: tableOrder,
                          index: Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) }))
        return (table, ownColumns, toOnes)
    }

    // MARK: Names

    /// The declaring entity and column of an attribute of `entity`.
    func attributeColumn(_ entity: Int, _ name: String) -> (owner: Int, column: String)? {
        let info = model.entities[entity]
        guard let position = info.attributeIndex(name) else { return nil }
        let owner = info.attributeOwners[position]
        return (owner, attributeColumns[owner][position])
    }

    /// The declaring entity and columns of a to-one relationship of `entity`.
    func toOneColumn(_ entity: Int, _ name: String) -> (owner: Int, key: String, entity: String?)? {
        guard let relationship = model.entities[entity].relationship(name), !relationship.toMany,
              let columns = toOneColumns[relationship.owner][name] else { return nil }
        return (relationship.owner, columns.key, columns.entity)
    }

    /// The declaring entity and column of a property (attribute or to-one) of `entity`.
    private func place(_ entity: Int, _ property: String) throws -> (owner: Int, column: String) {
        let info = model.entities[entity]
        if let position = info.attributeIndex(property) {
            let owner = info.attributeOwners[position]
            return (owner, attributeColumns[owner][position])
        }
        let owner = try Joined.need(info.relationship(property), "property '\(property)' of \(info.name)").owner
        return (owner, try Joined.need(toOneColumns[owner][property], "to-one column '\(property)'").key)
    }

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
                sql.append(try constraintSQL(entity, constraint))
            }
            for index in entity.fetchIndexes {
                sql.append(try fetchIndexSQL(entity, index))
            }
        }
        for join in schema.joinTables {
            sql.append("CREATE INDEX \(join.name)_\(join.second.column)_INDEX ON \(join.name) (\(join.second.column), \(join.first.column))")
        }
        return sql
    }

    /// A uniqueness constraint's index, on the table of its last property (UNIQUE only when every
    /// property is in that table).
    private func constraintSQL(_ entity: Model.Entity, _ constraint: [String]) throws -> String {
        let places = try constraint.map { try place(entity.index, $0) }
        let owner = try Joined.need(places.last, "property in a uniqueness constraint of \(entity.name)").owner
        let mixed = places.contains { $0.owner != owner }
        let columns = places.filter { $0.owner == owner }.map { $0.column + " COLLATE BINARY ASC" }
        return "CREATE \(mixed ? "" : "UNIQUE ")INDEX Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_")) ON \(tables[owner].name) (\(columns.joined(separator: ", ")))"
    }

    /// A fetch index, on the table of its last property (the root's for `entity` alone), with that
    /// table's columns.
    private func fetchIndexSQL(_ entity: Model.Entity, _ index: FetchIndex) throws -> String {
        let last = index.elements.last { $0.property != nil }?.property
        let owner = try last.map { try place(entity.index, $0).owner } ?? entity.root
        let columns = try index.elements.compactMap { element -> String? in
            let direction = " COLLATE BINARY " + (element.ascending ? "ASC" : "DESC")
            guard let property = element.property else { return owner == entity.root ? "Z_ENT" + direction : nil }
            let place = try place(entity.index, property)
            return place.owner == owner ? place.column + direction : nil
        }
        return "CREATE INDEX Z_\(entity.name)_\(index.name) ON \(tables[owner].name) (\(columns.joined(separator: ", ")))"
    }

    // MARK: Inserts

    /// The INSERTs of an object of `entity`: the root's row, then one row per table down its path.
    private func insertSteps(_ entity: Int) throws -> [InsertStep] {
        let info = model.entities[entity]
        let toOneIndex = Dictionary(uniqueKeysWithValues: info.toOneRelationships.enumerated().map { ($1.name, $0) })
        return try paths[entity].map { owner in
            let table = tables[owner]
            var columns = ["Z_PK"]
            var sources: [InsertStep.Source] = [.key]
            if owner == info.root { columns += ["Z_ENT", "Z_OPT"]; sources += [.entityNumber, .version] }
            for column in table.fetchOrder {
                columns.append(column.name)
                switch column.role {
                case let .attribute(position): sources.append(.value(position))
                case let .foreignKey(name): sources.append(.toOneKey(try Joined.need(toOneIndex[name], "to-one '\(name)' of \(info.name)")))
                case let .foreignEntity(name): sources.append(.toOneEntity(try Joined.need(toOneIndex[name], "to-one '\(name)' of \(info.name)")))
                }
            }
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            return InsertStep(sql: "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(marks))", sources: sources)
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
}

extension JoinedLayout {
    /// One entity's table: its name and its own columns, in fetch order and in table order.
    struct Table: Sendable {
        let name: String
        let entity: Int
        let fetchOrder: [CoreDataSchema.Column]
        let tableOrder: [CoreDataSchema.Column]
        /// Index in `fetchOrder` of each column name.
        let index: [String: Int]
    }
}
