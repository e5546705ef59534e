import Dataset
import Foundation
import SQLite

/// A Core Data model described in code, and the SQLite layout Core Data derives from it.
///
/// Every strategy in the suite is a Core Data model of the same publications; they differ in
/// how the model is shaped (one hierarchy, flattened entities, one enum-typed entity). This type
/// applies Core Data's storage rules (see `../shared/COREDATA.md` and the README) so that each
/// store looks like one Core Data would write:
/// - only root entities get a table, `Z` + upper-cased name, holding every sub-entity's columns;
/// - `Z_PK`, `Z_ENT`, `Z_OPT` first, then attribute columns ordered by SQL type
///   (INTEGER, FLOAT/TIMESTAMP, VARCHAR, BLOB), then by entity number, then by name; a name
///   declared again by a later sub-entity gets a numeric suffix (`ZURL`, `ZURL1`);
/// - entity numbers: roots in name order, each followed depth-first by its sub-entities in name order;
/// - many-to-many join tables `Z_<n><RELATIONSHIP>` with an index on the reversed pair;
/// - `<TABLE>_Z_ENT_INDEX` on a root that has sub-entities, `Z_<ENTITY>_UNIQUE_<ATTRS>` for a
///   uniqueness constraint, `Z_<Entity>_<name>` for a fetch index;
/// - `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`.
public struct CoreDataModel: Sendable {
    public enum AttributeType: Sendable {
        case integer16, integer32, integer64, boolean, double, date, string, uuid, binary

        public var sqlType: String {
            switch self {
            case .integer16, .integer32, .integer64, .boolean: "INTEGER"
            case .double: "FLOAT"
            case .date: "TIMESTAMP"
            case .string: "VARCHAR"
            case .uuid, .binary: "BLOB"
            }
        }

        /// Core Data orders a table's columns by type: integers, floating point and dates, strings, blobs.
        var columnRank: Int {
            switch sqlType {
            case "INTEGER": 0
            case "FLOAT", "TIMESTAMP": 1
            case "VARCHAR": 2
            default: 3
            }
        }
    }

    public struct Attribute: Sendable {
        public var name: String
        public var type: AttributeType
        public init(_ name: String, _ type: AttributeType) { self.name = name; self.type = type }
    }

    /// A to-many relationship whose inverse is also to-many.
    public struct ManyToMany: Sendable {
        public var name: String
        public var destination: String
        public var inverse: String
        public init(_ name: String, destination: String, inverse: String) {
            self.name = name; self.destination = destination; self.inverse = inverse
        }
    }

    /// A to-one relationship: a column `Z<NAME>` holding the destination's `Z_PK`, indexed as
    /// `<TABLE>_<COLUMN>_INDEX`. (Core Data adds a companion `Z<n>_<NAME>` column holding the
    /// destination's `Z_ENT` when the destination has sub-entities; the suite's destinations have none.)
    public struct ToOne: Sendable {
        public var name: String
        public var destination: String
        public init(_ name: String, destination: String) { self.name = name; self.destination = destination }
    }

    /// A compound fetch index; the element "entity" stands for the `Z_ENT` column.
    public struct FetchIndex: Sendable {
        public var name: String
        public var elements: [String]
        public init(_ name: String, _ elements: [String]) { self.name = name; self.elements = elements }
    }

    public struct Entity: Sendable {
        public var name: String
        public var parent: String?
        public var attributes: [Attribute]
        public var manyToMany: [ManyToMany]
        public var toOne: [ToOne]
        public var uniquenessConstraints: [[String]]
        public var fetchIndexes: [FetchIndex]

        public init(
            _ name: String, parent: String? = nil, attributes: [Attribute] = [], manyToMany: [ManyToMany] = [],
            toOne: [ToOne] = [], uniquenessConstraints: [[String]] = [], fetchIndexes: [FetchIndex] = []
        ) {
            precondition(toOne.allSatisfy { relation in !attributes.contains { $0.name == relation.name } })
            self.name = name
            self.parent = parent
            self.attributes = attributes
            self.manyToMany = manyToMany
            self.toOne = toOne
            self.uniquenessConstraints = uniquenessConstraints
            self.fetchIndexes = fetchIndexes
        }
    }

    public let entities: [Entity]
    /// Entity names in entity-number order (number = index + 1).
    public let orderedNames: [String]

    public init(_ entities: [Entity]) {
        self.entities = entities
        var ordered: [String] = []
        func visit(_ name: String) {
            ordered.append(name)
            for child in entities.filter({ $0.parent == name }).map(\.name).sorted() { visit(child) }
        }
        for root in entities.filter({ $0.parent == nil }).map(\.name).sorted() { visit(root) }
        orderedNames = ordered
    }

    // MARK: Names and numbers

    public func entity(_ name: String) -> Entity {
        guard let entity = entities.first(where: { $0.name == name }) else { preconditionFailure("no entity \(name)") }
        return entity
    }

    /// Core Data's entity number (`Z_ENT`).
    public func number(_ name: String) -> Int {
        guard let index = orderedNames.firstIndex(of: name) else { preconditionFailure("no entity \(name)") }
        return index + 1
    }

    public func root(_ name: String) -> String {
        var current = entity(name)
        while let parent = current.parent { current = entity(parent) }
        return current.name
    }

    /// The entity and all its descendants, in entity-number order.
    public func family(_ name: String) -> [String] {
        let children = entities.filter { $0.parent == name }.map(\.name).sorted()
        return [name] + children.flatMap(family)
    }

    public func hasSubentities(_ name: String) -> Bool { entities.contains { $0.parent == name } }

    /// The table holding rows of `name`: its root entity's table.
    public func table(_ name: String) -> String { "Z" + root(name).uppercased() }

    /// A column of a root table: the attribute that declared it, and its SQL name and type.
    public struct Column: Sendable {
        public var entity: String
        public var attribute: String
        public var name: String
        public var type: AttributeType
    }

    /// The attribute columns of a root's table, in Core Data's order (after `Z_PK, Z_ENT, Z_OPT`).
    public func columns(ofTable rootName: String) -> [Column] {
        var used = Set<String>()
        var columns: [(number: Int, column: Column)] = []
        for name in family(rootName) {
            // A to-one relationship's foreign key is an INTEGER column among the attributes.
            let relations = entity(name).toOne.map { Attribute($0.name, .integer64) }
            for attribute in (entity(name).attributes + relations).sorted(by: { $0.name < $1.name }) {
                let base = "Z" + attribute.name.uppercased()
                var columnName = base
                var suffix = 1
                while used.contains(columnName) { columnName = base + String(suffix); suffix += 1 }
                used.insert(columnName)
                columns.append((number(name), Column(entity: name, attribute: attribute.name, name: columnName, type: attribute.type)))
            }
        }
        return columns.sorted {
            ($0.column.type.columnRank, $0.number, $0.column.name) < ($1.column.type.columnRank, $1.number, $1.column.name)
        }.map(\.column)
    }

    /// The column storing `attribute` of `entityName` (inherited attributes resolve to the ancestor's column).
    public func column(_ entityName: String, _ attribute: String) -> String {
        var owner: String? = entityName
        while let name = owner {
            if entity(name).attributes.contains(where: { $0.name == attribute }) || entity(name).toOne.contains(where: { $0.name == attribute }) {
                guard let column = columns(ofTable: root(name)).first(where: { $0.entity == name && $0.attribute == attribute })
                else { break }
                return column.name
            }
            owner = entity(name).parent
        }
        preconditionFailure("\(entityName) has no attribute \(attribute)")
    }

    /// A many-to-many join table: its name and the columns pointing at each side.
    public struct JoinTable: Sendable, Equatable {
        public var name: String
        /// The column holding the `Z_PK` of the entity that owns the relationship named first.
        public var firstColumn: String
        public var secondColumn: String
    }

    /// The join table of `entityName.relationship`, named after whichever side has the lower entity number.
    public func joinTable(_ entityName: String, _ relationship: String) -> JoinTable {
        guard let relation = entity(entityName).manyToMany.first(where: { $0.name == relationship }) else {
            preconditionFailure("\(entityName) has no relationship \(relationship)")
        }
        let (a, b) = (number(entityName), number(relation.destination))
        // Side (entity, its relationship name) that names the table.
        let owner = a <= b ? (entityName, relation.name, relation.destination, relation.inverse)
                           : (relation.destination, relation.inverse, entityName, relation.name)
        let ownerNumber = number(owner.0), otherNumber = number(owner.2)
        return JoinTable(
            name: "Z_\(ownerNumber)\(owner.1.uppercased())",
            // Each column: the number of the entity its rows are, and the name of the relationship whose destination they are.
            firstColumn: "Z_\(ownerNumber)\(owner.3.uppercased())",
            secondColumn: "Z_\(otherNumber)\(owner.1.uppercased())"
        )
    }

    /// The SQL for `entityName` as `joinTable` sees it: (join table, this side's column, other side's column).
    public func joinColumns(_ entityName: String, _ relationship: String) -> (table: String, this: String, other: String) {
        let join = joinTable(entityName, relationship)
        let relation = entity(entityName).manyToMany.first { $0.name == relationship }!
        let thisIsFirst = number(entityName) <= number(relation.destination)
        return (join.name, thisIsFirst ? join.firstColumn : join.secondColumn, thisIsFirst ? join.secondColumn : join.firstColumn)
    }

    // MARK: DDL

    /// Every statement that creates an empty store for this model, in order.
    public var schemaSQL: [String] {
        var sql: [String] = []
        let roots = orderedNames.filter { entity($0).parent == nil }
        for root in roots {
            let table = table(root)
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + self.columns(ofTable: root).map { "\($0.name) \($0.type.sqlType)" }
            sql.append("CREATE TABLE \(table) ( \(columns.joined(separator: ", ")) )")
        }
        // Join tables, once per relationship pair.
        var seen = Set<String>()
        for name in orderedNames {
            for relation in entity(name).manyToMany {
                let join = joinTable(name, relation.name)
                guard seen.insert(join.name).inserted else { continue }
                sql.append("CREATE TABLE \(join.name) ( \(join.firstColumn) INTEGER, \(join.secondColumn) INTEGER, PRIMARY KEY (\(join.firstColumn), \(join.secondColumn)) )")
            }
        }
        for root in roots where hasSubentities(root) {
            let table = table(root)
            sql.append("CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
        }
        for name in orderedNames {
            for relation in entity(name).toOne {
                let column = column(name, relation.name)
                sql.append("CREATE INDEX \(table(name))_\(column)_INDEX ON \(table(name)) (\(column))")
            }
        }
        for name in orderedNames {
            for constraint in entity(name).uniquenessConstraints {
                let columns = constraint.map { column(name, $0) }
                let indexName = "Z_\(name.uppercased())_UNIQUE_" + constraint.map { $0.uppercased() }.joined(separator: "_")
                sql.append("CREATE UNIQUE INDEX \(indexName) ON \(table(name)) (\(columns.joined(separator: ", ")))")
            }
            for index in entity(name).fetchIndexes {
                let columns = index.elements.map { ($0 == "entity" ? "Z_ENT" : column(name, $0)) + " COLLATE BINARY ASC" }
                sql.append("CREATE INDEX Z_\(name)_\(index.name) ON \(table(name)) (\(columns.joined(separator: ", ")))")
            }
        }
        seen.removeAll()
        for name in orderedNames {
            for relation in entity(name).manyToMany {
                let join = joinTable(name, relation.name)
                guard seen.insert(join.name).inserted else { continue }
                sql.append("CREATE INDEX \(join.name)_\(join.secondColumn)_INDEX ON \(join.name) (\(join.secondColumn), \(join.firstColumn))")
            }
        }
        return sql + Self.bookkeepingSQL
    }

    /// Core Data's bookkeeping tables, the last statements of every store's schema.
    public static let bookkeepingSQL = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]
}

/// The store-level machinery every Core Data layout shares: pragmas, schema creation, the
/// bookkeeping rows, and primary-key allocation through `Z_PRIMARYKEY`.
public struct CoreDataStore {
    public let database: Database
    public let model: CoreDataModel

    public init(database: Database, model: CoreDataModel) {
        self.database = database
        self.model = model
    }

    /// Creates the tables, indexes and bookkeeping rows of an empty store.
    public func createSchema(strategyName: String) throws {
        try createSchema(model.schemaSQL, strategyName: strategyName)
    }

    /// Runs `schemaSQL`, a layout written by hand or extended with DDL `CoreDataModel` cannot
    /// derive (an expression or partial index; it must create `CoreDataModel.bookkeepingSQL`'s
    /// tables too), then writes the bookkeeping rows for `model`'s entities, in one transaction.
    /// The SQL is the strategy's own constant text, never built from values.
    public func createSchema(_ schemaSQL: [String], strategyName: String) throws {
        try database.transaction {
            for statement in schemaSQL { try database.execute(statement) }
            let insert = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for name in model.orderedNames {
                let parent = model.entity(name).parent.map(model.number) ?? 0
                try insert.bind([model.number(name), name, parent])
                try insert.run()
            }
            let metadata = try database.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            let storeUUID = UUID().uuidString
            try metadata.bind([storeUUID, Self.metadataPlist(storeUUID: storeUUID, strategyName: strategyName)])
            try metadata.run()
            // Core Data caches its compiled model here; the suite has no compiled model, so the row holds an empty blob.
            try database.execute("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (x'')")
        }
    }

    /// The binary property list Core Data keeps in `Z_METADATA.Z_PLIST`.
    static func metadataPlist(storeUUID: String, strategyName: String) -> [UInt8] {
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreUUID": storeUUID,
            "NSPersistenceFrameworkVersion": 1,
            "NSStoreModelVersionIdentifiers": [strategyName],
            "NSStoreModelVersionHashesVersion": 3,
        ]
        let data = (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)) ?? Data()
        return [UInt8](data)
    }

    public static let readMaxSQL = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"
    /// Sets the new `Z_MAX`, guarded by the old one (Core Data's optimistic reservation).
    public static let reserveSQL = "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"

    /// Reserves `count` primary keys for `entityName`'s hierarchy (`Z_MAX` lives on the root's row)
    /// and returns the first; call it inside the save's transaction, as Core Data does.
    public func reservePrimaryKeys(_ entityName: String, count: Int) throws -> Int64 {
        let root = model.number(model.root(entityName))
        let current = try database.scalarInt(Self.readMaxSQL, [root]) ?? 0
        let update = try database.cachedStatement(Self.reserveSQL)
        try update.bind([current + Int64(count), root, current])
        try update.run()
        return current + 1
    }

    /// Inserts the tags as `ZTAG` rows with `Z_PK` 1, 2, … in dataset order (tag index `i` has `Z_PK` `i + 1`).
    public func insertTags(_ tags: [TagRecord], entity: String = "Tag") throws {
        try database.transaction {
            let first = try reservePrimaryKeys(entity, count: tags.count)
            let insert = try database.prepare(
                "INSERT INTO \(model.table(entity)) (Z_PK, Z_ENT, Z_OPT, \(model.column(entity, "name"))) VALUES (?, ?, 1, ?)")
            for (offset, tag) in tags.enumerated() {
                try insert.bind([first + Int64(offset), model.number(entity), tag.name])
                try insert.run()
            }
        }
    }
}
