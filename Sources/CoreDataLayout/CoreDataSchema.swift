import Models

/// The relational model Core Data derives from a managed object model (its `NSSQLModel`), rule
/// for rule, and the DDL it writes. `single-table` is this layout of the model itself; other
/// strategies build a differently shaped model (flattened, one enum entity) and take this
/// layout of theirs. The rules and their evidence are in docs/strategies.md ("Core Data's layout"):
///
/// - only a root entity gets a table, `Z` + its name upper-cased, holding the columns of its
///   whole hierarchy; rows start `Z_PK, Z_ENT, Z_OPT`;
/// - the root's column list is built entity by entity in entity-number order, each entity's
///   attributes by name, then its to-one relationships by name (each a foreign key `ZNAME`, then
///   `Z<n>_NAME` holding the destination's entity number when the destination has
///   sub-entities); a name taken earlier in the hierarchy gets a counting suffix (`ZURL1`);
/// - the table's columns are that list sorted, stably, by type group: INTEGER (integers,
///   booleans, to-ones), FLOAT and TIMESTAMP, DECIMAL, VARCHAR, UUID and URI, Transformable,
///   binary BLOB; the hidden to-ones of to-manys without an inverse, then the order keys, after
///   every entity's own columns;
/// - a many-to-many pair gets one join table, named from the side met first when every entity
///   (sub-entities inheriting) is walked in case-insensitive name order (of two sides of one
///   entity, the later by name); a relationship that is its own inverse has `REFLEXIVE` as its
///   second column; an ordered side adds its order key `Z_FOK_…`;
/// - indexes, table by table: `<TABLE>_<COLUMN>_INDEX` on every foreign key, then
///   `<TABLE>_Z_ENT_INDEX` on a root with sub-entities; then `Z_<Entity>_UNIQUE_<a>_<b>` for a uniqueness constraint and
///   `Z_<Entity>_<name>` for a fetch index (`COLLATE BINARY ASC|DESC` on every column; none for
///   an index of one to-one), the reversed pair of every join table; then `Z_PRIMARYKEY`,
///   `Z_METADATA`, `Z_MODELCACHE`.
public struct CoreDataSchema: Sendable {
    /// The name Core Data gives a uniqueness constraint's index: `Z_<Entity>_UNIQUE_<a>_<b>`.
    public static func uniqueIndexName(_ entity: String, _ constraint: [String]) -> String {
        "Z_\(entity)_UNIQUE_\(constraint.joined(separator: "_"))"
    }

    public let model: Model

    /// A column of a root's table.
    public struct Column: Sendable, Equatable {
        public enum Role: Sendable, Equatable {
            /// Attribute number `index` of the entity's `attributes`.
            case attribute(Int)
            /// The foreign key of a to-one relationship.
            case foreignKey(String)
            /// The destination's entity number of a to-one relationship whose destination has sub-entities.
            case foreignEntity(String)
        }
        public let name: String
        public let sqlType: String
        /// The entity that declares the property.
        public let entity: Int
        public let role: Role
        /// Core Data's type group, which orders a table's columns.
        public let group: Int

        public init(name: String, sqlType: String, entity: Int, role: Role, group: Int) {
            self.name = name; self.sqlType = sqlType; self.entity = entity; self.role = role; self.group = group
        }
    }

    /// A root's table: its name, its columns in fetch order (entity by entity) and in table order.
    public struct Table: Sendable {
        public let name: String
        public let root: Int
        public let fetchOrder: [Column]
        public let tableOrder: [Column]
    }

    /// A many-to-many join table.
    public struct JoinTable: Sendable, Equatable {
        public let name: String
        /// The side that names the table: its declaring entity, its relationship and its column.
        public let first: (entity: Int, relationship: String, column: String)
        public let second: (entity: Int, relationship: String, column: String)
        /// An ordered side's order key, `Z_FOK_` + the column of its members without `Z_` (each
        /// link's member's order key: `linkInsert`).
        public let orderColumn: String?

        public static func == (a: JoinTable, b: JoinTable) -> Bool {
            a.name == b.name && a.first.column == b.first.column && a.second.column == b.second.column && a.orderColumn == b.orderColumn
        }

        /// (this side's column, the other side's column) for `relationship` declared by `entity`.
        public func columns(from entity: Int, _ relationship: String) -> (this: String, other: String) {
            first.entity == entity && first.relationship == relationship ? (first.column, second.column) : (second.column, first.column)
        }
    }

    public let tables: [Int: Table]
    /// Per entity: its root's table (the one that holds its rows).
    private let tableOfEntity: [Table]
    public let joinTables: [JoinTable]
    /// Per entity: the column of each of its attributes (inherited ones resolve to the ancestor's column).
    private let attributeColumns: [[String]]
    /// Per entity and to-one relationship name: the foreign key column and the entity column (if any).
    private let toOneColumns: [[String: (key: String, entity: String?)]]

    public init(_ model: Model) {
        self.model = model
        var tables: [Int: Table] = [:]
        var attributeColumns = model.entities.map { Array(repeating: "", count: $0.attributes.count) }
        var toOneColumns = Array(repeating: [String: (key: String, entity: String?)](), count: model.entities.count)
        for root in model.roots {
            tables[root] = Self.table(ofRoot: root, in: model, attributeColumns: &attributeColumns, toOneColumns: &toOneColumns)
        }
        self.tables = tables
        tableOfEntity = model.entities.compactMap { tables[$0.root] }
        self.attributeColumns = attributeColumns
        self.toOneColumns = toOneColumns
        joinTables = Self.joinTables(of: model)
    }

    /// The table of `root`, its columns named and ordered as Core Data does; each column's name
    /// goes to `attributeColumns` or `toOneColumns` for the entity that declares its property and
    /// every descendant.
    private static func table(ofRoot root: Int, in model: Model, attributeColumns: inout [[String]],
                              toOneColumns: inout [[String: (key: String, entity: String?)]]) -> Table {
        var names = UniqueNames(taken: ["Z_PK", "Z_ENT", "Z_OPT"])
        var columns: [Column] = []
        for index in model.entities[root].subtree {
            let entity = model.entities[index]
            let own = entity.attributes.indices.filter { entity.attributeOwners[$0] == index && !entity.attributes[$0].isOrderKey }
            for position in own.sorted(by: { entity.attributes[$0].name < entity.attributes[$1].name }) {
                addAttribute(position, of: entity)
            }
            for relationship in entity.ownRelationships.filter({ !$0.toMany && !$0.isHidden }).sorted(by: { $0.name < $1.name }) {
                addToOne(relationship, of: entity)
            }
        }
        // The to-ones Core Data adds for to-many relationships without an inverse, and the order
        // keys of ordered to-many relationships (`Z_FOK_<INVERSE>`, INTEGER), come after every
        // entity's own columns: Core Data adds them in a later pass over the hierarchy
        // (`_generateInverseRelationshipsAndMore`); a real Photos store shows `Z_FOK_PARENTFOLDER`
        // after the last sub-entity's integers, before the first timestamp. Every hidden to-one
        // comes before every order key (a real Reminders store: `Z4REMINDERS`, then
        // `Z_FOK_REMINDER`); within each kind, entity by entity and by name. Within one entity
        // Core Data adds the order keys in a private hash table's order of its property names,
        // which the suite does not reproduce (docs/strategies.md, "Several order keys").
        for index in model.entities[root].subtree {
            let entity = model.entities[index]
            for relationship in entity.ownRelationships.filter({ $0.isHidden }).sorted(by: { $0.name < $1.name }) {
                addToOne(relationship, of: entity)
            }
        }
        for index in model.entities[root].subtree {
            let entity = model.entities[index]
            let keys = entity.attributes.indices.filter { entity.attributeOwners[$0] == index && entity.attributes[$0].isOrderKey }
            for position in keys.sorted(by: { entity.attributes[$0].name < entity.attributes[$1].name }) {
                addAttribute(position, of: entity)
            }
        }
        func addAttribute(_ position: Int, of entity: Model.Entity) {
            let attribute = entity.attributes[position]
            let name = names.claim("Z" + attribute.name.uppercased())
            columns.append(Column(name: name, sqlType: attribute.type.sqlType, entity: entity.index, role: .attribute(position),
                                  group: attribute.type.columnGroup))
            for descendant in entity.subtree { attributeColumns[descendant][position] = name }
        }
        func addToOne(_ relationship: Model.Relationship, of entity: Model.Entity) {
            let key = names.claim("Z" + relationship.name.uppercased())
            columns.append(Column(name: key, sqlType: "INTEGER", entity: entity.index, role: .foreignKey(relationship.name), group: 0))
            var entityColumn: String?
            if model.entities[relationship.destination].hasSubentities {
                let name = names.claim("Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                columns.append(Column(name: name, sqlType: "INTEGER", entity: entity.index, role: .foreignEntity(relationship.name), group: 0))
                entityColumn = name
            }
            for descendant in entity.subtree { toOneColumns[descendant][relationship.name] = (key, entityColumn) }
        }
        // A stable sort by type group keeps the fetch order within each group.
        let tableOrder = columns.enumerated().sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }.map(\.element)
        return Table(name: "Z" + model.entities[root].name.uppercased(), root: root, fetchOrder: columns, tableOrder: tableOrder)
    }

    /// The join tables: walk every entity in case-insensitive name order; the first many-to-many
    /// side met for a pair names the table after its declaring entity's number. Two sides
    /// declared by one entity: the one later by name names it (a real store's
    /// `Z_1FAVORITES (Z_1FAVORITEFOLDERS, Z_1FAVORITES, …)`). A relationship that is its own
    /// inverse: the second column is `REFLEXIVE` (every real Photos store's
    /// `Z_45MERGECANDIDATES (Z_45MERGECANDIDATES, REFLEXIVE)`). An ordered side keeps its members'
    /// order in `Z_FOK_` + its members' column without `Z_` (`Z_FOK_1FAVORITES`, Photos'
    /// `Z_FOK_34ASSETS`).
    private static func joinTables(of model: Model) -> [JoinTable] {
        var joins: [JoinTable] = []
        var named = Set<String>()
        var joinColumnNames: [Int: UniqueNames] = [:]
        for index in model.entities.indices.sorted(by: { Model.nameOrder(model.entities[$0].name, model.entities[$1].name) }) {
            for met in model.entities[index].relationships where met.isManyToMany {
                guard let found = model.inverse(of: met) else { continue }
                let pair = [("\(met.owner)", met.name), ("\(found.owner)", found.name)]
                    .map { "\($0.0).\($0.1)" }.sorted().joined(separator: "|")
                guard named.insert(pair).inserted else { continue }
                let swap = met.owner == found.owner && Model.nameOrder(met.name, found.name)
                let (relationship, inverse) = swap ? (found, met) : (met, found)
                let reflexive = relationship.owner == inverse.owner && relationship.name == inverse.name
                func column(_ side: Model.Relationship, _ other: Model.Relationship) -> String {
                    let root = model.entities[side.owner].root
                    return joinColumnNames[root, default: UniqueNames()].claim("Z_\(side.owner + 1)" + other.name.uppercased())
                }
                let firstColumn = column(relationship, inverse)
                let secondColumn = reflexive ? "REFLEXIVE" : column(inverse, relationship)
                let order = relationship.ordered ? secondColumn : inverse.ordered && !reflexive ? firstColumn : nil
                joins.append(JoinTable(name: "Z_\(relationship.owner + 1)" + relationship.name.uppercased(),
                                       first: (relationship.owner, relationship.name, firstColumn),
                                       second: (inverse.owner, inverse.name, secondColumn),
                                       orderColumn: order.map { "Z_FOK_" + $0.dropFirst(2) }))
            }
        }
        return joins
    }

    // MARK: Names

    public func table(of entity: Int) -> Table { tableOfEntity[entity] }

    /// The column of attribute `name` of `entity` (declared by it or an ancestor).
    public func column(_ entity: Int, attribute name: String) -> String? {
        model.entities[entity].attributeIndex(name).map { attributeColumns[entity][$0] }
    }

    public func column(_ entity: Int, attributeAt position: Int) -> String { attributeColumns[entity][position] }

    /// The foreign key column (and entity column) of a to-one relationship of `entity`.
    public func columns(_ entity: Int, toOne name: String) -> (key: String, entity: String?)? { toOneColumns[entity][name] }

    /// The column of attribute `name` of `entity`, or a `LayoutError` naming it.
    public func attributeColumn(_ entity: Int, _ name: String) throws -> String {
        guard let column = column(entity, attribute: name) else {
            throw LayoutError(layoutOf: model, "\(model.entities[entity].name) has no attribute '\(name)'")
        }
        return column
    }

    /// The columns of to-one `name` of `entity`, or a `LayoutError` naming it.
    public func toOneColumns(_ entity: Int, _ name: String) throws -> (key: String, entity: String?) {
        guard let columns = columns(entity, toOne: name) else {
            throw LayoutError(layoutOf: model, "\(model.entities[entity].name) has no to-one relationship '\(name)'")
        }
        return columns
    }

    /// The join table of many-to-many `relationship`, or a `LayoutError` naming it.
    public func join(_ relationship: Model.Relationship) throws -> JoinTable {
        guard let join = joinTable(relationship) else {
            throw LayoutError(layoutOf: model, "\(model.entities[relationship.owner].name).\(relationship.name) has no join table")
        }
        return join
    }

    /// Many-to-many `relationship`'s join table as its owner sees it: its name, the owner's column,
    /// the other side's.
    public func link(_ relationship: Model.Relationship) throws -> (name: String, this: String, other: String) {
        let join = try join(relationship)
        let (this, other) = join.columns(from: relationship.owner, relationship.name)
        return (join.name, this, other)
    }

    /// The column of a property (attribute or to-one) or of `entity` (Z_ENT) for a fetch index
    /// element. A validated model's index names only properties of its entity.
    func indexColumn(_ entity: Int, _ element: FetchIndex.Element) -> String {
        guard let property = element.property else { return "Z_ENT" }
        if element.isPrimaryKey { return "Z_PK" }
        return column(entity, attribute: property) ?? columns(entity, toOne: property)?.key ?? "Z" + property.uppercased()
    }

    /// The join table of `relationship` (declared by `relationship.owner`).
    public func joinTable(_ relationship: Model.Relationship) -> JoinTable? {
        joinTables.first { ($0.first.entity == relationship.owner && $0.first.relationship == relationship.name)
            || ($0.second.entity == relationship.owner && $0.second.relationship == relationship.name) }
    }

    // MARK: DDL

    /// Every statement that creates an empty store, in order (the bookkeeping tables last).
    public var schemaSQL: [String] { tableSQL + indexSQL + rtreeSQL + Self.bookkeepingSQL }

    public var tableSQL: [String] {
        model.roots.map { root in
            let table = self.table(of: root)
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.tableOrder.map { "\($0.name) \($0.sqlType)" }
                + (legacyIndexes ? legacyConstraintClauses(root: root) : [])
            return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
        } + joinTables.map { join in
            let order = join.orderColumn.map { " \($0) INTEGER," } ?? ""
            return "CREATE TABLE \(join.name) ( \(join.first.column) INTEGER, \(join.second.column) INTEGER,\(order) PRIMARY KEY (\(join.first.column), \(join.second.column)) )"
        }
    }

    /// Every index of the layout: today's (`todaysIndexSQL`), or an earlier framework's for a model
    /// read from its store (`legacyIndexSQL`).
    public var indexSQL: [String] { legacyIndexes ? legacyIndexSQL : todaysIndexSQL }

    /// The indexes as a framework with fetch indexes (iOS 11 on) writes them.
    public var todaysIndexSQL: [String] {
        // Table by table the automatic indexes first, then each entity's uniqueness and fetch indexes.
        var sql = model.roots.flatMap(keyIndexSQL)
        for entity in model.entities {
            let table = self.table(of: entity.index).name
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.map { indexColumn(entity.index, FetchIndex.Element(property: $0)) + " COLLATE BINARY ASC" }
                sql.append("CREATE UNIQUE INDEX \(Self.uniqueIndexName(entity.name, constraint)) ON \(table) (\(columns.joined(separator: ", ")))")
            }
            for index in entity.fetchIndexes where makesIndex(index, of: entity.index) {
                let columns = index.elements.map { indexColumn(entity.index, $0) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC") }
                // A partial index's condition as Core Data writes it: the columns unqualified, the constants in the SQL.
                let condition = index.condition?.sql { indexColumn(entity.index, FetchIndex.Element(property: $0)) }.map { " WHERE " + $0 } ?? ""
                sql.append("CREATE INDEX Z_\(entity.name)_\(index.name) ON \(table) (\(columns.joined(separator: ", ")))" + condition)
            }
        }
        return sql + joinIndexSQL
    }

    /// A root's table's automatic indexes: each to-one key's, then the `Z_ENT` index where it has
    /// sub-entities (real stores' order; it decides SQLite's tie between the two without
    /// statistics: see docs/strategies.md).
    func keyIndexSQL(_ root: Int) -> [String] {
        let table = self.table(of: root)
        var sql: [String] = []
        for column in table.fetchOrder { if case .foreignKey = column.role {
            sql.append("CREATE INDEX \(table.name)_\(column.name)_INDEX ON \(table.name) (\(column.name))")
        } }
        if model.entities[root].hasSubentities { sql.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)") }
        return sql
    }

    /// Each join table's second index, its columns reversed.
    var joinIndexSQL: [String] {
        joinTables.map { join in "CREATE INDEX \(join.name)_\(join.second.column)_INDEX ON \(join.name) (\(join.second.column), \(join.first.column))" }
    }

    /// Whether a fetch index of `entity` is an index of the table: not an R-tree (a virtual table
    /// of its own), nor one whose one element is a to-one relationship (the foreign key's own index
    /// serves: none of 155 such declarations in 26 real stores' models has an index in its store).
    func makesIndex(_ index: FetchIndex, of entity: Int) -> Bool {
        !index.rtree && !(index.elements.count == 1 && index.elements[0].property.flatMap { self.columns(entity, toOne: $0) } != nil)
    }

    /// Each R-tree index's virtual table and triggers (`rtreeSQL(entity:index:table:columns:)`),
    /// on the table of the entity that declares it.
    public var rtreeSQL: [String] {
        model.entities.flatMap { entity in
            entity.fetchIndexes.filter(\.rtree).flatMap { index in
                Self.rtreeSQL(entity: entity.name, index: index.name, table: table(of: entity.index).name, columns: index.elements.map { element in
                    let column = indexColumn(entity.index, element)
                    return (column, { "\($0).\(column)" })
                })
            }
        }
    }

    /// An R-tree index as Core Data makes it (a public Photos store's `Z_RT_Asset_boundedByRect`,
    /// from a location attribute over latitude and longitude): the virtual table
    /// `Z_RT_<Entity>_<index> USING RTREE (Z_PK INTEGER PRIMARY KEY, <C>_MIN FLOAT, <C>_MAX FLOAT, …)`,
    /// each element a point (its minimum and maximum the row's value), kept by triggers after each
    /// insert, update and delete of a row of `table`, written as Core Data writes them. `columns`:
    /// each element's column stem and its value in a trigger, given the row's name (`NEW`).
    public static func rtreeSQL(entity: String, index: String, table: String, columns: [(stem: String, value: (String) -> String)]) -> [String] {
        let name = "Z_RT_\(entity)_\(index)"
        let list = (["Z_PK"] + columns.flatMap { ["\($0.stem)_MIN", "\($0.stem)_MAX"] }).joined(separator: ", ")
        // The store's spacing: the first element's two values ` ,` apart, every other value `, `.
        let values = columns.map { $0.value("NEW") }
        let points = values.enumerated().map { $0.offset == 0 ? "\($0.element) ,\($0.element)" : "\($0.element), \($0.element)" }
        func insert(_ verb: String) -> String { "\(verb) INTO \(name) (\(list)) VALUES (\((["NEW.Z_PK"] + points).joined(separator: ", ")))" }
        let definition = (["Z_PK INTEGER PRIMARY KEY"] + columns.flatMap { ["\($0.stem)_MIN FLOAT", "\($0.stem)_MAX FLOAT"] }).joined(separator: ", ")
        return [
            "CREATE VIRTUAL TABLE \(name) USING RTREE (\(definition))",
            "CREATE TRIGGER \(name)_INSERT AFTER INSERT ON \(table) FOR EACH ROW BEGIN \(insert("INSERT OR REPLACE")) ; END",
            "CREATE TRIGGER \(name)_UPDATE AFTER UPDATE ON \(table) FOR EACH ROW BEGIN DELETE FROM \(name) WHERE Z_PK = NEW.Z_PK ; \(insert("INSERT")) ; END",
            "CREATE TRIGGER \(name)_DELETE AFTER DELETE ON \(table) FOR EACH ROW BEGIN DELETE FROM \(name) WHERE Z_PK = OLD.Z_PK ; END",
        ]
    }

    /// Core Data's bookkeeping tables, the last statements of every store's schema.
    public static let bookkeepingSQL = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    // MARK: Queries

    /// Core Data's select list for a fetch of `entity`: `t0.Z_ENT, t0.Z_PK, t0.Z_OPT` (a literal `0`
    /// for Z_ENT in a table without sub-entities), then the root's columns in fetch order up to the
    /// last one of the entity's subtree, each column of an entity that is neither an ancestor nor
    /// in the subtree written as a literal `0`. Returns the SQL and each column's position.
    public func selectList(_ entity: Int, alias: String = "t0") -> (sql: String, positions: [String: Int32]) {
        let table = self.table(of: entity)
        let subtree = model.entities[entity].subtree
        var ancestors = Set<Int>()
        var current = model.entities[entity].parent
        while let index = current { ancestors.insert(index); current = model.entities[index].parent }
        let last = table.fetchOrder.lastIndex { subtree.contains($0.entity) || ancestors.contains($0.entity) } ?? -1
        var items = [model.entities[table.root].hasSubentities ? "\(alias).Z_ENT" : "0", "\(alias).Z_PK", "\(alias).Z_OPT"]
        var positions: [String: Int32] = ["Z_ENT": 0, "Z_PK": 1, "Z_OPT": 2]
        for column in table.fetchOrder.prefix(last + 1) {
            if subtree.contains(column.entity) || ancestors.contains(column.entity) {
                positions[column.name] = Int32(items.count)
                items.append("\(alias).\(column.name)")
            } else {
                items.append("0")
            }
        }
        return (items.joined(separator: ", "), positions)
    }

    /// Core Data's entity filter for a fetch: none for a root with its sub-entities, `Z_ENT >= ? AND
    /// Z_ENT <= ?` for a middle entity with its sub-entities, `Z_ENT = ?` for one entity alone;
    /// the SQL and its values (entity numbers).
    public func entityFilter(_ entity: Int, includesSubentities: Bool, alias: String = "t0") -> (sql: String, values: [Int64])? {
        let info = model.entities[entity]
        if includesSubentities, info.hasSubentities {
            if info.isRoot { return nil }
            return ("\(alias).Z_ENT >= ? AND \(alias).Z_ENT <= ?", [Int64(info.number), Int64(info.subtreeEnd + 1)])
        }
        if info.isRoot, !info.hasSubentities { return nil }
        return ("\(alias).Z_ENT = ?", [Int64(info.number)])
    }
}
