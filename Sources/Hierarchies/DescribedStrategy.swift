import Dataset
import Foundation
import SQLite
import Strategies

/// One way of storing a described hierarchy in SQLite: the five strategies of the publication
/// suite, with their layouts derived from a `HierarchyDescription` instead of written for the
/// publication model. Every layout follows Core Data's conventions (`CoreDataModel`), as the
/// publication strategies do; `single-table` is Core Data's own layout for the hierarchy.
public protocol DescribedStrategy: AnyObject {
    static var name: String { get }
    init(database: Database, description: HierarchyDescription)
    var database: Database { get }
    /// The hierarchy this store holds.
    var hierarchy: HierarchyDescription { get }
    /// Every statement that creates an empty store, in order.
    var schemaSQL: [String] { get }

    /// Creates the tables, indexes and bookkeeping rows, and inserts `owners` owner rows (`Z_PK` 1 … `owners`).
    func createSchema(owners: Int) throws
    /// Inserts the objects as one save (one transaction).
    func insert(_ objects: [DescribedObject]) throws
    /// Every object, each as its concrete entity, in no promised order.
    func fetchAll() throws -> [DescribedObject]
    /// Every object of concrete entity `entity` (an index in `concreteEntities`), in no promised order.
    func fetchEntity(_ entity: Int) throws -> [DescribedObject]
    func countAll() throws -> Int
    func count(entity: Int) throws -> Int
    /// Objects `offset ..< offset + limit` in uid order (uids compared as bytes).
    func fetchPage(offset: Int, limit: Int) throws -> [DescribedObject]
    /// The `limit` objects after `uid` in uid order (keyset pagination).
    func fetchPage(after uid: UUID, limit: Int) throws -> [DescribedObject]
    func object(uid: UUID) throws -> DescribedObject?
    /// Every object whose owner is `owner`, in no promised order.
    func objects(owner: Int64) throws -> [DescribedObject]
    /// The SQL of the lookups, with sample values bound, for `EXPLAIN QUERY PLAN` checks.
    func lookupQueries(_ parameters: DescribedParameters) -> [WorkloadQuery]
}

/// The described strategies, in the publication suite's order.
public enum DescribedStrategies {
    public static let all: [any DescribedStrategy.Type] = [
        DescribedSingleTable.self, DescribedTablePerEntity.self, DescribedEnumEntity.self, DescribedJoined.self, DescribedJSONEntity.self,
    ]
    public static var names: [String] { all.map { $0.name } }
}

/// A row that does not decode into an object of the hierarchy.
public struct DescribedRowError: Error, CustomStringConvertible {
    public let description: String
}

extension HierarchyDescription.AttributeType {
    var coreData: CoreDataModel.AttributeType {
        switch self {
        case .integer: .integer64
        case .boolean: .boolean
        case .double: .double
        case .date: .date
        case .string: .string
        }
    }
}

extension DescribedValue: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws {
        switch self {
        case let .integer(value): try statement.bind(value, at: index)
        case let .real(value): try statement.bind(value, at: index)
        case let .text(value): try statement.bind(value, at: index)
        }
    }
}

/// How a result row becomes an object: which column says the entity, and where each entity's
/// uid, owner and values are.
struct RowDecoder {
    struct Shape {
        var uid: Int32
        var owner: Int32?
        /// Column and type of each value read from a column (the base's, then the entity's own).
        var columns: [(Int32, HierarchyDescription.AttributeType)]
        /// For `json-entity`: the column holding the entity's own values as a JSON object, and their keys and types.
        var details: (column: Int32, keys: [[UInt8]], types: [HierarchyDescription.AttributeType])?
    }

    var discriminator: Int32
    var entityByCode: [Int64: Int]
    var shapes: [Shape?]

    func decode(_ row: Statement) throws -> DescribedObject {
        let code = row.int64(at: discriminator)
        guard let entity = entityByCode[code], let shape = shapes[entity] else {
            throw DescribedRowError(description: "a row has entity code \(code), which no entity of the hierarchy has")
        }
        guard let uid = row.uuid(at: shape.uid) else {
            throw DescribedRowError(description: "a row of entity \(entity) has no 16-byte uid")
        }
        var values = shape.columns.map { column, type in Self.value(row, column, type) }
        if let details = shape.details { values += try Self.jsonValues(row.string(at: details.column), details.keys, details.types) }
        return DescribedObject(entity: entity, uid: uid, owner: shape.owner.map { row.int64(at: $0) } ?? 0, values: values)
    }

    static func value(_ row: Statement, _ column: Int32, _ type: HierarchyDescription.AttributeType) -> DescribedValue {
        switch type {
        case .integer, .boolean: .integer(row.int64(at: column))
        case .double, .date: .real(row.double(at: column))
        case .string: .text(row.string(at: column))
        }
    }

    /// The values of `keys` in a flat JSON object, in `keys` order; a missing key or a value of the
    /// wrong type is an error.
    static func jsonValues(_ text: String, _ keys: [[UInt8]], _ types: [HierarchyDescription.AttributeType]) throws -> [DescribedValue] {
        var text = text
        var values = [DescribedValue?](repeating: nil, count: keys.count)
        try text.withUTF8 { bytes in
            var reader = FlatJSON.Reader(bytes: bytes)
            reader.skipWhitespace()
            try reader.expect(UInt8(ascii: "{"))
            reader.skipWhitespace()
            if reader.consume(UInt8(ascii: "}")) { return }
            repeat {
                reader.skipWhitespace()
                let key = try reader.stringContent()
                reader.skipWhitespace()
                try reader.expect(UInt8(ascii: ":"))
                reader.skipWhitespace()
                guard let slot = key.withBytes({ name in keys.firstIndex { $0.elementsEqual(name) } }), values[slot] == nil else {
                    throw DescribedRowError(description: "details hold an unexpected or repeated key at byte \(reader.index)")
                }
                switch types[slot] {
                case .integer, .boolean: values[slot] = .integer(try reader.integer())
                case .double, .date: values[slot] = .real(try reader.number())
                case .string: values[slot] = .text(try reader.stringContent().string(at: reader.index))
                }
                reader.skipWhitespace()
            } while reader.consume(UInt8(ascii: ","))
            try reader.expect(UInt8(ascii: "}"))
        }
        return try values.enumerated().map { index, value in
            guard let value else { throw DescribedRowError(description: "details lack \(String(decoding: keys[index], as: UTF8.self))") }
            return value
        }
    }
}

extension Database {
    /// Every row of `sql` with `values` bound, decoded by `decoder`.
    func objects(_ sql: String, _ values: [(any SQLiteBindable)?] = [], _ decoder: RowDecoder) throws -> [DescribedObject] {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var result: [DescribedObject] = []
        while try statement.step() { result.append(try decoder.decode(statement)) }
        return result
    }

    func countRows(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> Int {
        Int(try scalarInt(sql, values) ?? 0)
    }
}

/// What the Core Data layouts among the described strategies share: the model's owner entity,
/// the uid uniqueness constraint, and the owner rows.
enum DescribedModel {
    static func ownerEntity(_ description: HierarchyDescription) -> [CoreDataModel.Entity] {
        guard let owner = description.owner else { return [] }
        return [.init(owner.entity, attributes: [.init("name", .string)], uniquenessConstraints: [["name"]])]
    }

    static func toOne(_ description: HierarchyDescription) -> [CoreDataModel.ToOne] {
        description.owner.map { [.init($0.relationship, destination: $0.entity)] } ?? []
    }

    static func attributes(_ attributes: [HierarchyDescription.Attribute]) -> [CoreDataModel.Attribute] {
        attributes.map { .init($0.name, $0.type.coreData) }
    }

    /// Inserts owners `1 … count`, named by `HierarchyGenerator.ownerName`, as `Z_PK` 1 … count.
    static func insertOwners(_ store: CoreDataStore, _ description: HierarchyDescription, count: Int) throws {
        guard let owner = description.owner else { return }
        try store.insertTags((0 ..< count).map { TagRecord(name: HierarchyGenerator.ownerName($0 + 1)) }, entity: owner.entity)
    }

    /// The values of an INSERT of `Z_PK, Z_ENT, Z_OPT, uid, [owner], values…`.
    /// With `valueCount`, only the first that many values (the base's, for `joined`'s base table).
    static func row(_ object: DescribedObject, pk: Int64, entity: Int64, owner: Bool, leading: [(any SQLiteBindable)?] = [],
                    valueCount: Int? = nil) -> [(any SQLiteBindable)?] {
        var row: [(any SQLiteBindable)?] = [pk, entity, 1] + leading + [object.uid]
        if owner { row.append(object.owner) }
        row += object.values.prefix(valueCount ?? object.values.count).map { $0 }
        return row
    }

    /// One save of `objects` into one table: keys reserved on the base's `Z_PRIMARYKEY` row, each
    /// object through its entity's INSERT (`inserts[object.entity]`), bound by `row(object, pk)`.
    static func insert(_ objects: [DescribedObject], _ store: CoreDataStore, base: String, inserts: [String],
                       row: (DescribedObject, Int64) -> [(any SQLiteBindable)?]) throws {
        let database = store.database
        try database.transaction {
            var pk = try store.reservePrimaryKeys(base, count: objects.count)
            let statements = try inserts.map { try database.cachedStatement($0) }
            for object in objects {
                let statement = statements[object.entity]
                try statement.bind(row(object, pk))
                try statement.run()
                pk += 1
            }
        }
    }

    /// The statements of the lookups that must not scan a table, with sample values bound.
    static func lookupQueries(_ parameters: DescribedParameters, keyset: String, uid: String, owner: String?) -> [WorkloadQuery] {
        [
            WorkloadQuery(workload: "page-keyset", sql: keyset, values: [parameters.deepPageCursor, DescribedParameters.pageSize]),
            WorkloadQuery(workload: "lookup-id", sql: uid, values: [parameters.lookupUIDs.first ?? parameters.deepPageCursor]),
        ] + (owner.map { [WorkloadQuery(workload: "filter-fk", sql: $0, values: [parameters.owner])] } ?? [])
    }

    /// `?, ?, …` for `count` parameters.
    static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }
}
