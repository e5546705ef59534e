import Dataset
import Foundation
import SQLite
import Strategies

/// What `enum-entity` and `json-entity` share: one flat entity named after the base, with `uid`,
/// the base's attributes, a `kind` attribute (the concrete entity's index) and the entity's own
/// values somewhere else in the row; a fetch index on `kind` serves one entity's reads.
public class DescribedFlatEntity {
    public let database: Database
    let description: HierarchyDescription
    public var hierarchy: HierarchyDescription { description }
    let model: CoreDataModel
    let table: CoreDataTable
    var decoder: RowDecoder!
    var inserts: [String] = []
    let entityNumber: Int64

    init(database: Database, description: HierarchyDescription, extraAttributes: [CoreDataModel.Attribute]) {
        self.database = database
        self.description = description
        let base = description.base
        model = CoreDataModel([
            .init(base.name, attributes: [.init("uid", .uuid), .init("kind", .integer16)] + DescribedModel.attributes(base.attributes) + extraAttributes,
                  toOne: DescribedModel.toOne(description), uniquenessConstraints: [["uid"]],
                  fetchIndexes: [.init("byKind", ["kind"])]),
        ] + DescribedModel.ownerEntity(description))
        table = CoreDataTable(model, root: base.name)
        entityNumber = Int64(model.number(base.name))
    }

    func column(_ attribute: String) -> String { model.column(description.base.name, attribute) }
    var ownerColumn: String? { description.owner.map { column($0.relationship) } }
    /// `Z_PK, Z_ENT, Z_OPT, ZKIND, ZUID, [owner], base attributes`: the head of every INSERT.
    var insertHead: [String] {
        ["Z_PK", "Z_ENT", "Z_OPT", column("kind"), column("uid")] + (ownerColumn.map { [$0] } ?? []) + description.base.attributes.map { column($0.name) }
    }
    /// Where the base's values are, for a decoder's shape.
    var sharedShape: RowDecoder.Shape {
        .init(uid: table.position(column("uid")), owner: ownerColumn.map(table.position),
              columns: description.base.attributes.map { (table.position(column($0.name)), $0.type) })
    }

    public var schemaSQL: [String] { model.schemaSQL }
    var store: CoreDataStore { CoreDataStore(database: database, model: model) }
    lazy var select: String = "SELECT \(table.selectList("t0")) FROM \(table.name) t0"

    func createSchema(owners: Int, strategyName: String) throws {
        try store.createSchema(strategyName: strategyName)
        try DescribedModel.insertOwners(store, description, count: owners)
    }

    public func insert(_ objects: [DescribedObject]) throws {
        let owner = description.owner != nil
        try DescribedModel.insert(objects, store, base: description.base.name, inserts: inserts) { object, pk in
            DescribedModel.row(object, pk: pk, entity: entityNumber, owner: owner, leading: [object.entity])
        }
    }

    public func fetchAll() throws -> [DescribedObject] { try database.objects(select, [], decoder) }
    lazy var entitySQL = select + " WHERE t0.\(column("kind")) = ?"
    lazy var countAllSQL = "SELECT COUNT(*) FROM \(table.name)"
    lazy var countEntitySQL = "SELECT COUNT(*) FROM \(table.name) t0 WHERE t0.\(column("kind")) = ?"
    lazy var pageSQL = select + " ORDER BY \(uidColumn) LIMIT ? OFFSET ?"
    public func fetchEntity(_ entity: Int) throws -> [DescribedObject] { try database.objects(entitySQL, [entity], decoder) }
    public func countAll() throws -> Int { try database.countRows(countAllSQL) }
    public func count(entity: Int) throws -> Int { try database.countRows(countEntitySQL, [entity]) }
    lazy var uidColumn: String = "t0." + column("uid")
    public func fetchPage(offset: Int, limit: Int) throws -> [DescribedObject] { try database.objects(pageSQL, [limit, offset], decoder) }
    lazy var keysetSQL: String = select + " WHERE \(uidColumn) > ? ORDER BY \(uidColumn) LIMIT ?"
    lazy var uidSQL: String = select + " WHERE \(uidColumn) = ?"
    lazy var ownerSQL: String = select + " WHERE t0.\(ownerColumn ?? column("uid")) = ?"
    public func fetchPage(after uid: UUID, limit: Int) throws -> [DescribedObject] { try database.objects(keysetSQL, [uid, limit], decoder) }
    public func object(uid: UUID) throws -> DescribedObject? { try database.objects(uidSQL, [uid], decoder).first }
    public func objects(owner: Int64) throws -> [DescribedObject] { try database.objects(ownerSQL, [owner], decoder) }

    public func lookupQueries(_ parameters: DescribedParameters) -> [WorkloadQuery] {
        DescribedModel.lookupQueries(parameters, keyset: keysetSQL, uid: uidSQL, owner: description.owner == nil ? nil : ownerSQL)
            + [WorkloadQuery(workload: "fetch-leaf", sql: entitySQL, values: [description.leafIndex])]
    }
}

/// `enum-entity` (seed 001's `ItemData`): one flat entity whose `kind` says which entity a row is,
/// and whose entities' own values share generic slot columns by type: an entity's *k*-th integer
/// (or boolean) attribute goes in `slotInteger<k>`, its *k*-th double in `slotReal<k>`, date in
/// `slotDate<k>`, string in `slotString<k>`. There are as many slots of a type as the entity with
/// the most attributes of that type needs.
public final class DescribedEnumEntity: DescribedFlatEntity, DescribedStrategy {
    public static let name = "enum-entity"

    static func slotName(_ type: HierarchyDescription.AttributeType, _ number: Int) -> String {
        switch type {
        case .integer, .boolean: "slotInteger\(number)"
        case .double: "slotReal\(number)"
        case .date: "slotDate\(number)"
        case .string: "slotString\(number)"
        }
    }

    /// The slot of each of an entity's own attributes.
    static func slots(_ attributes: [HierarchyDescription.Attribute]) -> [String] {
        var used: [String: Int] = [:]
        return attributes.map { attribute in
            let category = slotName(attribute.type, 0)
            used[category, default: 0] += 1
            return slotName(attribute.type, used[category]!)
        }
    }

    public required init(database: Database, description: HierarchyDescription) {
        var slotTypes: [String: CoreDataModel.AttributeType] = [:]
        for entity in description.concreteEntities {
            for (slot, attribute) in zip(Self.slots(entity.ownAttributes), entity.ownAttributes) {
                slotTypes[slot] = attribute.type == .boolean ? .integer64 : attribute.type.coreData
            }
        }
        super.init(database: database, description: description,
                   extraAttributes: slotTypes.keys.sorted().map { .init($0, slotTypes[$0]!) })
        let entities = description.concreteEntities
        decoder = RowDecoder(
            discriminator: table.position(column("kind")),
            entityByCode: Dictionary(uniqueKeysWithValues: entities.indices.map { (Int64($0), $0) }),
            shapes: entities.map { entity in
                var shape = sharedShape
                shape.columns += zip(Self.slots(entity.ownAttributes), entity.ownAttributes).map { (table.position(column($0)), $1.type) }
                return shape
            })
        inserts = entities.map { entity in
            let columns = insertHead + Self.slots(entity.ownAttributes).map(column)
            return "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(DescribedModel.placeholders(columns.count)))"
        }
    }

    public func createSchema(owners: Int) throws { try createSchema(owners: owners, strategyName: Self.name) }
}

/// `json-entity`: one flat entity whose `kind` says which entity a row is, and whose entity's own
/// values are one JSON object in `details` (`ZDETAILS`), keyed by attribute name, written by
/// SQLite's `json_object` with the values bound, and read back in Swift.
public final class DescribedJSONEntity: DescribedFlatEntity, DescribedStrategy {
    public static let name = "json-entity"

    public required init(database: Database, description: HierarchyDescription) {
        super.init(database: database, description: description, extraAttributes: [.init("details", .string)])
        let entities = description.concreteEntities
        let details = table.position(column("details"))
        decoder = RowDecoder(
            discriminator: table.position(column("kind")),
            entityByCode: Dictionary(uniqueKeysWithValues: entities.indices.map { (Int64($0), $0) }),
            shapes: entities.map { entity in
                var shape = sharedShape
                shape.details = (details, entity.ownAttributes.map { Array($0.name.utf8) }, entity.ownAttributes.map(\.type))
                return shape
            })
        inserts = entities.map { entity in
            let columns = insertHead + [column("details")]
            // Keys are attribute names (validated identifiers) in the statement text; the values are bound.
            let object = "json_object(" + entity.ownAttributes.map { "'\($0.name)', ?" }.joined(separator: ", ") + ")"
            return "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(DescribedModel.placeholders(columns.count - 1)), \(object))"
        }
    }

    public func createSchema(owners: Int) throws { try createSchema(owners: owners, strategyName: Self.name) }
}

// MARK: - joined

/// `joined` (class-table inheritance: Hibernate JOINED, EF Core TPT): the base's table `Z<BASE>`
/// (Core Data's layout of the base entity alone: `Z_PK`, `Z_ENT`, `Z_OPT`, uid, owner, the base's
/// attributes) plus one table per sub-entity holding its own attributes under the same `Z_PK`.
/// Reads across entities LEFT JOIN every sub-entity table to the base; one entity's reads join its
/// table alone. SQLite joins at most 64 tables in one statement, so above 63 sub-entities the
/// polymorphic reads are a `UNION ALL` of one inner join per sub-entity instead.
public final class DescribedJoined: DescribedStrategy {
    public static let name = "joined"
    public let database: Database
    let description: HierarchyDescription
    public var hierarchy: HierarchyDescription { description }
    let model: CoreDataModel
    let base: CoreDataTable
    /// Each sub-entity's table: its name and its columns' names and SQL types, in Core Data's order.
    let subTables: [(name: String, columns: [String], types: [String])]
    let numbers: [Int64]
    /// Per concrete entity: the base's INSERT, and the sub-entity table's (nil for the base).
    let inserts: [(base: String, own: String?)]
    let polymorphicSelect: String
    let polymorphicDecoder: RowDecoder
    let sharedList: [String]

    /// SQLite joins at most 64 tables in one statement.
    static let joinLimit = 64

    public init(database: Database, description: HierarchyDescription) {
        self.database = database
        self.description = description
        let baseEntity = description.base
        let model = CoreDataModel([
            .init(baseEntity.name, attributes: [.init("uid", .uuid)] + DescribedModel.attributes(baseEntity.attributes),
                  toOne: DescribedModel.toOne(description), uniquenessConstraints: [["uid"]]),
        ] + description.subEntities.map { .init($0.name, parent: baseEntity.name) } + DescribedModel.ownerEntity(description))
        self.model = model
        let base = CoreDataTable(model, root: baseEntity.name)
        self.base = base
        let entities = description.concreteEntities
        let numbers = entities.map { Int64(model.number($0.name)) }
        self.numbers = numbers
        let subTables = description.subEntities.map { sub in
            let own = CoreDataModel([.init(sub.name, attributes: DescribedModel.attributes(sub.attributes))])
            let columns = own.columns(ofTable: sub.name)
            return (name: "Z" + sub.name.uppercased(), columns: columns.map(\.name), types: columns.map(\.type.sqlType))
        }
        self.subTables = subTables
        func column(_ attribute: String) -> String { model.column(baseEntity.name, attribute) }
        let ownerColumn = description.owner.map { column($0.relationship) }
        let shared = ["Z_ENT", "Z_PK", "Z_OPT", column("uid")] + (ownerColumn.map { [$0] } ?? []) + baseEntity.attributes.map { column($0.name) }
        let sharedList = shared.map { "b." + $0 }
        self.sharedList = sharedList
        let subByEntity: [Int?] = entities.map { entity in description.subEntities.firstIndex { $0.name == entity.name && !entity.isBase } }
        /// An own attribute's column in its sub-entity table (no name repeats within one entity, so no suffix).
        func ownColumn(_ attribute: String) -> String { "Z" + attribute.uppercased() }
        inserts = entities.enumerated().map { index, entity in
            let baseColumns = ["Z_PK", "Z_ENT"] + shared.dropFirst(2)
            let baseInsert = "INSERT INTO \(base.name) (\(baseColumns.joined(separator: ", "))) VALUES (\(DescribedModel.placeholders(baseColumns.count)))"
            guard let sub = subByEntity[index] else { return (baseInsert, nil) }
            let columns = ["Z_PK"] + entity.ownAttributes.map { ownColumn($0.name) }
            return (baseInsert, "INSERT INTO \(subTables[sub].name) (\(columns.joined(separator: ", "))) VALUES (\(DescribedModel.placeholders(columns.count)))")
        }
        // Polymorphic select: shared columns, then every sub-entity's own columns in sub-entity order.
        var ownOffsets: [Int] = []
        var running = shared.count
        for sub in description.subEntities { ownOffsets.append(running); running += sub.attributes.count }
        let ownLists = description.subEntities.enumerated().map { sub, entity in entity.attributes.map { "s\(sub).\(ownColumn($0.name))" } }
        if description.subEntities.count < Self.joinLimit {
            polymorphicSelect = "SELECT \((sharedList + ownLists.flatMap { $0 }).joined(separator: ", ")) FROM \(base.name) b "
                + subTables.enumerated().map { "LEFT JOIN \($1.name) s\($0) ON s\($0).Z_PK = b.Z_PK" }.joined(separator: " ")
        } else {
            // One arm per concrete entity; other entities' columns are NULL.
            polymorphicSelect = entities.indices.map { index in
                let sub = subByEntity[index]
                let list = sharedList + ownLists.enumerated().flatMap { other, columns in other == sub ? columns : columns.map { _ in "NULL" } }
                let from = sub.map { "\(base.name) b JOIN \(subTables[$0].name) s\($0) ON s\($0).Z_PK = b.Z_PK" }
                    ?? "\(base.name) b WHERE b.Z_ENT = \(numbers[index])"
                return "SELECT * FROM (SELECT \(list.joined(separator: ", ")) FROM \(from))"
            }.joined(separator: " UNION ALL ")
        }
        let sharedValues = Array(shared.indices.suffix(baseEntity.attributes.count))
        polymorphicDecoder = RowDecoder(
            discriminator: 0,
            entityByCode: Dictionary(uniqueKeysWithValues: numbers.enumerated().map { ($1, $0) }),
            shapes: entities.indices.map { index in
                let own = subByEntity[index].map { sub in description.subEntities[sub].attributes.enumerated().map { (Int32(ownOffsets[sub] + $0), $1.type) } } ?? []
                return .init(uid: 3, owner: ownerColumn == nil ? nil : 4,
                             columns: zip(sharedValues, baseEntity.attributes).map { (Int32($0), $1.type) } + own)
            })
    }

    public var schemaSQL: [String] {
        let subDDL = subTables.map { table in
            "CREATE TABLE \(table.name) ( \((["Z_PK INTEGER PRIMARY KEY"] + zip(table.columns, table.types).map { "\($0) \($1)" }).joined(separator: ", ")) )"
        }
        return Array(model.schemaSQL.dropLast(CoreDataModel.bookkeepingSQL.count)) + subDDL + CoreDataModel.bookkeepingSQL
    }

    var store: CoreDataStore { CoreDataStore(database: database, model: model) }

    public func createSchema(owners: Int) throws {
        try store.createSchema(schemaSQL, strategyName: Self.name)
        try DescribedModel.insertOwners(store, description, count: owners)
    }

    public func insert(_ objects: [DescribedObject]) throws {
        try database.transaction {
            var pk = try store.reservePrimaryKeys(description.base.name, count: objects.count)
            let baseCount = description.base.attributes.count
            let prepared = try inserts.map { (try database.cachedStatement($0.base), try $0.own.map { try database.cachedStatement($0) }) }
            for object in objects {
                let (baseStatement, ownStatement) = prepared[object.entity]
                let baseValues = DescribedModel.row(object, pk: pk, entity: numbers[object.entity], owner: description.owner != nil,
                                                    valueCount: baseCount)
                try baseStatement.bind(baseValues)
                try baseStatement.run()
                if let statement = ownStatement {
                    try statement.bind([pk] + object.values.dropFirst(baseCount).map { $0 })
                    try statement.run()
                }
                pk += 1
            }
        }
    }

    lazy var uidColumn: String = model.column(description.base.name, "uid")
    var ownerColumn: String { model.column(description.base.name, description.owner?.relationship ?? "uid") }
    /// The polymorphic select narrowed by `condition` on the base's columns (alias `b`), with `tail` appended.
    func polymorphic(where condition: String?, _ tail: String = "") -> String {
        if description.subEntities.count < Self.joinLimit {
            return polymorphicSelect + (condition.map { " WHERE b.\($0)" } ?? "") + tail
        }
        // Filter and order the union as a whole; SQLite pushes the filter down into every arm.
        return "SELECT * FROM (\(polymorphicSelect)) b" + (condition.map { " WHERE b.\($0)" } ?? "") + tail
    }

    lazy var polymorphicSQL = polymorphic(where: nil)
    lazy var pageSQL = polymorphic(where: nil, " ORDER BY b.\(uidColumn) LIMIT ? OFFSET ?")
    lazy var entitySelects = description.concreteEntities.indices.map(entitySelect)
    lazy var countEntitySQL: [String] = description.concreteEntities.map { entity in
        entity.isBase ? "SELECT COUNT(*) FROM \(base.name) b WHERE b.Z_ENT = ?" : "SELECT COUNT(*) FROM Z\(entity.name.uppercased())"
    }

    public func fetchAll() throws -> [DescribedObject] { try database.objects(polymorphicSQL, [], polymorphicDecoder) }

    func entitySelect(_ entity: Int) -> (String, [(any SQLiteBindable)?], RowDecoder) {
        let concrete = description.concreteEntities[entity]
        var shapes = [RowDecoder.Shape?](repeating: nil, count: numbers.count)
        let shared = polymorphicDecoder.shapes[entity]!
        guard let sub = description.subEntities.firstIndex(where: { $0.name == concrete.name }), !concrete.isBase else {
            shapes[entity] = .init(uid: 3, owner: shared.owner, columns: Array(shared.columns.prefix(description.base.attributes.count)))
            return ("SELECT \(sharedList.joined(separator: ", ")) FROM \(base.name) b WHERE b.Z_ENT = ?", [numbers[entity]],
                    RowDecoder(discriminator: 0, entityByCode: [numbers[entity]: entity], shapes: shapes))
        }
        let own = concrete.ownAttributes.map { "s.Z" + $0.name.uppercased() }
        shapes[entity] = .init(uid: 3, owner: shared.owner,
                               columns: Array(shared.columns.prefix(description.base.attributes.count))
                                   + concrete.ownAttributes.enumerated().map { (Int32(sharedList.count + $0), $1.type) })
        return ("SELECT \((sharedList + own).joined(separator: ", ")) FROM \(base.name) b JOIN \(subTables[sub].name) s ON s.Z_PK = b.Z_PK", [],
                RowDecoder(discriminator: 0, entityByCode: [numbers[entity]: entity], shapes: shapes))
    }

    public func fetchEntity(_ entity: Int) throws -> [DescribedObject] {
        let (sql, values, decoder) = entitySelects[entity]
        return try database.objects(sql, values, decoder)
    }
    lazy var countAllSQL = "SELECT COUNT(*) FROM \(base.name)"
    public func countAll() throws -> Int { try database.countRows(countAllSQL) }
    public func count(entity: Int) throws -> Int {
        try database.countRows(countEntitySQL[entity], description.concreteEntities[entity].isBase ? [numbers[entity]] : [])
    }
    lazy var keysetSQL: String = polymorphic(where: "\(uidColumn) > ?", " ORDER BY b.\(uidColumn) LIMIT ?")
    lazy var uidSQL: String = polymorphic(where: "\(uidColumn) = ?")
    lazy var ownerSQL: String = polymorphic(where: "\(ownerColumn) = ?")
    public func fetchPage(offset: Int, limit: Int) throws -> [DescribedObject] { try database.objects(pageSQL, [limit, offset], polymorphicDecoder) }
    public func fetchPage(after uid: UUID, limit: Int) throws -> [DescribedObject] { try database.objects(keysetSQL, [uid, limit], polymorphicDecoder) }
    public func object(uid: UUID) throws -> DescribedObject? { try database.objects(uidSQL, [uid], polymorphicDecoder).first }
    public func objects(owner: Int64) throws -> [DescribedObject] { try database.objects(ownerSQL, [owner], polymorphicDecoder) }

    public func lookupQueries(_ parameters: DescribedParameters) -> [WorkloadQuery] {
        DescribedModel.lookupQueries(parameters, keyset: keysetSQL, uid: uidSQL, owner: description.owner == nil ? nil : ownerSQL)
    }
}
