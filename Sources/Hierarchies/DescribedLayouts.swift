import Dataset
import Foundation
import SQLite
import Strategies

/// A root table of a Core Data model as the described strategies read it: Core Data's select list
/// (`Z_ENT, Z_PK, Z_OPT`, then every column in table order) and each column's position in it.
struct CoreDataTable {
    let name: String
    let columns: [String]
    private let positions: [String: Int32]

    init(_ model: CoreDataModel, root: String) {
        name = model.table(root)
        columns = ["Z_ENT", "Z_PK", "Z_OPT"] + model.columns(ofTable: root).map(\.name)
        positions = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, Int32($0)) })
    }

    func selectList(_ alias: String) -> String { columns.map { "\(alias).\($0)" }.joined(separator: ", ") }
    func position(_ column: String) -> Int32 { positions[column]! }
}

// MARK: - single-table

/// `single-table`: Core Data's layout. The base is the root entity, every sub-entity its child;
/// one table `Z<BASE>` holds every entity's columns (`Z_ENT` tells them apart), `uid` is unique
/// (`Z_<BASE>_UNIQUE_UID`), the owner is a foreign-key column with its index, and the queries are
/// Core Data's: its select list, `Z_ENT = ?` for one entity.
public final class DescribedSingleTable: DescribedStrategy {
    public static let name = "single-table"
    public let database: Database
    let description: HierarchyDescription
    public var hierarchy: HierarchyDescription { description }
    let model: CoreDataModel
    let table: CoreDataTable
    let decoder: RowDecoder
    let numbers: [Int64]
    let inserts: [String]

    public init(database: Database, description: HierarchyDescription) {
        self.database = database
        self.description = description
        let base = description.base
        let model = CoreDataModel([
            .init(base.name, attributes: [.init("uid", .uuid)] + DescribedModel.attributes(base.attributes),
                  toOne: DescribedModel.toOne(description), uniquenessConstraints: [["uid"]]),
        ] + description.subEntities.map { .init($0.name, parent: base.name, attributes: DescribedModel.attributes($0.attributes)) }
            + DescribedModel.ownerEntity(description))
        self.model = model
        let table = CoreDataTable(model, root: base.name)
        self.table = table
        let entities = description.concreteEntities
        let numbers = entities.map { Int64(model.number($0.name)) }
        self.numbers = numbers
        /// The columns of an entity's values: the base's attributes, then its own.
        func valueColumns(_ entity: HierarchyDescription.Concrete) -> [(String, HierarchyDescription.AttributeType)] {
            base.attributes.map { (model.column(base.name, $0.name), $0.type) }
                + entity.ownAttributes.map { (model.column(entity.name, $0.name), $0.type) }
        }
        let ownerColumn = description.owner.map { model.column(base.name, $0.relationship) }
        decoder = RowDecoder(
            discriminator: 0,
            entityByCode: Dictionary(uniqueKeysWithValues: numbers.enumerated().map { ($1, $0) }),
            shapes: entities.map { entity in
                .init(uid: table.position(model.column(base.name, "uid")), owner: ownerColumn.map(table.position),
                      columns: valueColumns(entity).map { (table.position($0.0), $0.1) })
            })
        inserts = entities.map { entity in
            let columns = ["Z_PK", "Z_ENT", "Z_OPT", model.column(base.name, "uid")] + (ownerColumn.map { [$0] } ?? []) + valueColumns(entity).map(\.0)
            return "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(DescribedModel.placeholders(columns.count)))"
        }
    }

    public var schemaSQL: [String] { model.schemaSQL }
    var store: CoreDataStore { CoreDataStore(database: database, model: model) }
    lazy var select: String = "SELECT \(table.selectList("t0")) FROM \(table.name) t0"
    lazy var uidColumn: String = "t0." + model.column(description.base.name, "uid")

    public func createSchema(owners: Int) throws {
        try store.createSchema(strategyName: Self.name)
        try DescribedModel.insertOwners(store, description, count: owners)
    }

    public func insert(_ objects: [DescribedObject]) throws {
        let owner = description.owner != nil
        try DescribedModel.insert(objects, store, base: description.base.name, inserts: inserts) { object, pk in
            DescribedModel.row(object, pk: pk, entity: numbers[object.entity], owner: owner)
        }
    }

    public func fetchAll() throws -> [DescribedObject] { try database.objects(select, [], decoder) }
    lazy var entitySQL = select + " WHERE t0.Z_ENT = ?"
    lazy var countAllSQL = "SELECT COUNT(*) FROM \(table.name)"
    lazy var countEntitySQL = "SELECT COUNT(*) FROM \(table.name) t0 WHERE t0.Z_ENT = ?"
    lazy var pageSQL = select + " ORDER BY \(uidColumn) LIMIT ? OFFSET ?"
    public func fetchEntity(_ entity: Int) throws -> [DescribedObject] { try database.objects(entitySQL, [numbers[entity]], decoder) }
    public func countAll() throws -> Int { try database.countRows(countAllSQL) }
    public func count(entity: Int) throws -> Int { try database.countRows(countEntitySQL, [numbers[entity]]) }
    public func fetchPage(offset: Int, limit: Int) throws -> [DescribedObject] { try database.objects(pageSQL, [limit, offset], decoder) }
    public func fetchPage(after uid: UUID, limit: Int) throws -> [DescribedObject] {
        try database.objects(keysetSQL, [uid, limit], decoder)
    }
    lazy var keysetSQL: String = select + " WHERE \(uidColumn) > ? ORDER BY \(uidColumn) LIMIT ?"
    lazy var uidSQL: String = select + " WHERE \(uidColumn) = ?"
    lazy var ownerSQL: String = select + " WHERE t0.\(model.column(description.base.name, description.owner?.relationship ?? "uid")) = ?"
    public func object(uid: UUID) throws -> DescribedObject? { try database.objects(uidSQL, [uid], decoder).first }
    public func objects(owner: Int64) throws -> [DescribedObject] { try database.objects(ownerSQL, [owner], decoder) }

    public func lookupQueries(_ parameters: DescribedParameters) -> [WorkloadQuery] {
        DescribedModel.lookupQueries(parameters, keyset: keysetSQL, uid: uidSQL, owner: description.owner == nil ? nil : ownerSQL)
    }
}

// MARK: - table-per-entity

/// `table-per-entity`: the hierarchy flattened (seeds 000 and 003): every concrete entity is a root
/// entity of its own with the base's attributes copied in, so each has its own table, `Z_PK`
/// counter, uid uniqueness constraint and owner index. One entity's reads touch its table alone;
/// reads across entities are one `UNION ALL` of every table (columns another entity lacks are
/// NULL), as EF Core's TPC queries are; SQLite merges the arms in uid order from the tables' uid
/// indexes for pages, and probes each table's index for lookups.
public final class DescribedTablePerEntity: DescribedStrategy {
    public static let name = "table-per-entity"
    public let database: Database
    let description: HierarchyDescription
    public var hierarchy: HierarchyDescription { description }
    let model: CoreDataModel
    let tables: [CoreDataTable]
    /// Per entity: a decoder of its own table's rows.
    let decoders: [RowDecoder]
    let numbers: [Int64]
    let inserts: [String]
    /// The `UNION ALL` select list of every table: `Z_ENT, Z_PK, Z_OPT, ZUID, [owner], base values, each entity's own values`.
    let unionArms: [String]
    let unionDecoder: RowDecoder

    public init(database: Database, description: HierarchyDescription) {
        self.database = database
        self.description = description
        let base = description.base
        let entities = description.concreteEntities
        let model = CoreDataModel(entities.map { entity in
            .init(entity.name, attributes: [.init("uid", .uuid)] + DescribedModel.attributes(base.attributes + entity.ownAttributes),
                  toOne: DescribedModel.toOne(description), uniquenessConstraints: [["uid"]])
        } + DescribedModel.ownerEntity(description))
        self.model = model
        let tables = entities.map { CoreDataTable(model, root: $0.name) }
        self.tables = tables
        let numbers = entities.map { Int64(model.number($0.name)) }
        self.numbers = numbers
        let owner = description.owner?.relationship
        func valueColumns(_ entity: HierarchyDescription.Concrete) -> [(String, HierarchyDescription.AttributeType)] {
            (base.attributes + entity.ownAttributes).map { (model.column(entity.name, $0.name), $0.type) }
        }
        var decoders: [RowDecoder] = []
        var inserts: [String] = []
        for (index, entity) in entities.enumerated() {
            let table = tables[index]
            var shapes = [RowDecoder.Shape?](repeating: nil, count: entities.count)
            shapes[index] = .init(uid: table.position(model.column(entity.name, "uid")), owner: owner.map { table.position(model.column(entity.name, $0)) },
                                  columns: valueColumns(entity).map { (table.position($0.0), $0.1) })
            decoders.append(RowDecoder(discriminator: 0, entityByCode: [numbers[index]: index], shapes: shapes))
            let columns = ["Z_PK", "Z_ENT", "Z_OPT", model.column(entity.name, "uid")] + (owner.map { [model.column(entity.name, $0)] } ?? [])
                + valueColumns(entity).map(\.0)
            inserts.append("INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(DescribedModel.placeholders(columns.count)))")
        }
        self.decoders = decoders
        self.inserts = inserts
        // The union: shared columns first, then every entity's own columns in entity order.
        var ownOffsets: [Int] = []
        var running = 0
        for entity in entities { ownOffsets.append(running); running += entity.ownAttributes.count }
        let sharedCount = 4 + (owner == nil ? 0 : 1) + base.attributes.count
        unionArms = entities.enumerated().map { index, entity in
            var list = ["t0.Z_ENT", "t0.Z_PK", "t0.Z_OPT", "t0." + model.column(entity.name, "uid")]
            if let owner { list.append("t0." + model.column(entity.name, owner)) }
            list += base.attributes.map { "t0." + model.column(entity.name, $0.name) }
            for (other, otherEntity) in entities.enumerated() {
                list += otherEntity.ownAttributes.map { other == index ? "t0." + model.column(entity.name, $0.name) : "NULL" }
            }
            return "SELECT \(list.joined(separator: ", ")) FROM \(tables[index].name) t0"
        }
        unionDecoder = RowDecoder(
            discriminator: 0,
            entityByCode: Dictionary(uniqueKeysWithValues: numbers.enumerated().map { ($1, $0) }),
            shapes: entities.enumerated().map { index, entity in
                .init(uid: 3, owner: owner == nil ? nil : 4,
                      columns: base.attributes.enumerated().map { (Int32(sharedCount - base.attributes.count + $0), $1.type) }
                          + entity.ownAttributes.enumerated().map { (Int32(sharedCount + ownOffsets[index] + $0), $1.type) })
            })
    }

    public var schemaSQL: [String] { model.schemaSQL }
    var store: CoreDataStore { CoreDataStore(database: database, model: model) }

    public func createSchema(owners: Int) throws {
        try store.createSchema(strategyName: Self.name)
        try DescribedModel.insertOwners(store, description, count: owners)
    }

    public func insert(_ objects: [DescribedObject]) throws {
        try database.transaction {
            var counts = [Int](repeating: 0, count: numbers.count)
            for object in objects { counts[object.entity] += 1 }
            let entities = description.concreteEntities
            var pks = try counts.indices.map { try counts[$0] > 0 ? store.reservePrimaryKeys(entities[$0].name, count: counts[$0]) : 0 }
            let statements = try inserts.map { try database.cachedStatement($0) }
            for object in objects {
                let statement = statements[object.entity]
                try statement.bind(DescribedModel.row(object, pk: pks[object.entity], entity: numbers[object.entity], owner: description.owner != nil))
                try statement.run()
                pks[object.entity] += 1
            }
        }
    }

    lazy var entitySQL = tables.map { "SELECT \($0.selectList("t0")) FROM \($0.name) t0" }
    lazy var countEntitySQL = tables.map { "SELECT COUNT(*) FROM \($0.name)" }
    lazy var countAllSQL = "SELECT " + tables.map { "(SELECT COUNT(*) FROM \($0.name))" }.joined(separator: " + ")
    lazy var polymorphicSQL = union(where: nil)
    lazy var pageSQL = union(where: nil) + " ORDER BY 4 LIMIT ? OFFSET ?"
    /// Every arm with `condition` (numbered parameters, shared by the arms) appended.
    func union(where condition: String?) -> String {
        unionArms.map { arm in condition.map { arm + " WHERE t0.\($0)" } ?? arm }.joined(separator: " UNION ALL ")
    }
    /// The uid column name: the same in every table (`ZUID`), as each copies the base's attributes.
    lazy var uidColumn: String = model.column(description.concreteEntities[0].name, "uid")
    var ownerColumn: String? { description.owner.map { model.column(description.concreteEntities[0].name, $0.relationship) } }

    public func fetchAll() throws -> [DescribedObject] { try database.objects(polymorphicSQL, [], unionDecoder) }
    public func fetchEntity(_ entity: Int) throws -> [DescribedObject] { try database.objects(entitySQL[entity], [], decoders[entity]) }
    public func countAll() throws -> Int { try database.countRows(countAllSQL) }
    public func count(entity: Int) throws -> Int { try database.countRows(countEntitySQL[entity]) }
    public func fetchPage(offset: Int, limit: Int) throws -> [DescribedObject] { try database.objects(pageSQL, [limit, offset], unionDecoder) }
    lazy var keysetSQL: String = union(where: "\(uidColumn) > ?1") + " ORDER BY 4 LIMIT ?2"
    lazy var uidSQL: String = union(where: "\(uidColumn) = ?1")
    lazy var ownerSQL: String = union(where: "\(ownerColumn ?? uidColumn) = ?1")
    public func fetchPage(after uid: UUID, limit: Int) throws -> [DescribedObject] { try database.objects(keysetSQL, [uid, limit], unionDecoder) }
    public func object(uid: UUID) throws -> DescribedObject? { try database.objects(uidSQL, [uid], unionDecoder).first }
    public func objects(owner: Int64) throws -> [DescribedObject] { try database.objects(ownerSQL, [owner], unionDecoder) }

    public func lookupQueries(_ parameters: DescribedParameters) -> [WorkloadQuery] {
        DescribedModel.lookupQueries(parameters, keyset: keysetSQL, uid: uidSQL, owner: description.owner == nil ? nil : ownerSQL)
    }
}
