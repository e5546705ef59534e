import CoreDataLayout
import Generation
import Models
import SQLite

/// How one object is inserted: the `Z_PRIMARYKEY` row its key is reserved on, its statements,
/// and the INSERT of each of its many-to-many links.
public struct InsertPlan: Sendable {
    /// The stored entity (0-based, in `StorageLayout.storedModel`) whose `Z_PRIMARYKEY` row counts the key.
    public var keyEntity: Int
    public var steps: [InsertStep]
    /// Per many-to-many relationship whose links the entity generates (`ModelObject.links` order):
    /// the INSERT of one link (the object's key, the destination's).
    public var links: [LinkInsert]

    public init(keyEntity: Int, steps: [InsertStep], links: [LinkInsert]) { self.keyEntity = keyEntity; self.steps = steps; self.links = links }
}

/// The INSERT of one link: one statement, or one per destination entity (a join table per pair).
public enum LinkInsert: Sendable {
    case one(String)
    case byDestination([Int: String])
    /// Into a join table with an order column (an ordered many-to-many): its third value is the
    /// member's order key, the member being the owner or the destination.
    case ordered(String, memberIsOwner: Bool)

    /// The INSERT of a link into a join table (its name, the owner's column, the other side's).
    static func into(_ join: (name: String, this: String, other: String)) -> LinkInsert {
        .one("INSERT INTO \(join.name) (\(join.this), \(join.other)) VALUES (?, ?)")
    }

    func sql(to entity: Int) -> String? {
        switch self {
        case let .one(sql), let .ordered(sql, _): sql
        case let .byDestination(statements): statements[entity]
        }
    }

    /// The values of one link's INSERT: the owner's key, the destination's, and for an ordered
    /// join table the member's order key: `order` (a store's own), else spaced as a to-one's order
    /// key (`ObjectGenerator.orderKey`).
    func values(owner: Int64, destination: Int64, order: Int64? = nil) -> [Value] {
        guard case let .ordered(_, memberIsOwner) = self else { return [.integer(owner), .integer(destination)] }
        return [.integer(owner), .integer(destination), .integer(order ?? ObjectGenerator.orderKey(memberIsOwner ? owner : destination))]
    }
}

/// One INSERT of an object: the statement and where each of its parameters comes from.
public struct InsertStep: Sendable, Equatable {
    /// Where a parameter comes from.
    public enum Source: Sendable, Equatable {
        /// The object's key, its entity's number (`Z_ENT`), its first version (1), a number fixed by the layout.
        case key, entityNumber, version, constant(Int64)
        /// The attribute value at a position, as is or (`detail`) as a JSON value (a blob as hex).
        case value(Int), detail(Int)
        /// A to-one's destination key, or its entity's number.
        case toOneKey(Int), toOneEntity(Int)
    }

    public let sql: String
    public let sources: [Source]

    public init(sql: String, sources: [Source]) { self.sql = sql; self.sources = sources }

    /// The INSERT of one row into `table`: a `?` per column, bound from the column's source; then,
    /// when given, a last column whose value is an expression binding `sources`.
    init(into table: String, _ row: [(column: String, source: Source)], then last: (column: String, value: String, sources: [Source])? = nil) {
        let columns = row.map(\.column) + (last.map { [$0.column] } ?? []), values = row.map { _ in "?" } + (last.map { [$0.value] } ?? [])
        self.init(sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))",
                  sources: row.map(\.source) + (last?.sources ?? []))
    }

    /// `Z_PK`, `Z_ENT` (the entity's number, or `stored`: the stored entity's), `Z_OPT`.
    static func header(stored: Int? = nil) -> [(column: String, source: Source)] {
        [("Z_PK", .key), ("Z_ENT", stored.map { .constant(Int64($0 + 1)) } ?? .entityNumber), ("Z_OPT", .version)]
    }

    /// Each attribute's column, bound from its value.
    static func values(_ columns: [String]) -> [(column: String, source: Source)] { columns.enumerated().map { ($1, .value($0)) } }

    /// Each to-one's key column, then its entity-number column when it has one.
    static func toOnes(_ columns: [(key: String, entity: String?)]) -> [(column: String, source: Source)] {
        columns.enumerated().flatMap { position, pair in [(pair.key, Source.toOneKey(position))] + (pair.entity.map { [($0, Source.toOneEntity(position))] } ?? []) }
    }

    /// The values of `object` for the statement's parameters.
    func values(_ object: ModelObject) -> [Value] {
        sources.map { source in
            switch source {
            case .key: .integer(object.id.key)
            case .entityNumber: .integer(Int64(object.id.entity + 1))
            case .version: .integer(1)
            case let .constant(number): .integer(number)
            case let .value(position): object.values[position]
            case let .detail(position): object.values[position].jsonBindable
            case let .toOneKey(position): object.toOne[position].map { .integer($0.key) } ?? .null
            case let .toOneEntity(position): object.toOne[position].map { .integer(Int64($0.entity + 1)) } ?? .null
            }
        }
    }
}

extension CoreDataSchema {
    /// The INSERT of one link into join table `link` (its name, the owner's column, the other
    /// side's; see `link`), with the member's order key when the table has an order column.
    func linkInsert(_ link: (name: String, this: String, other: String)) -> LinkInsert {
        guard let order = joinTables.first(where: { $0.name == link.name })?.orderColumn else { return .into(link) }
        let member = "Z_" + order.dropFirst("Z_FOK_".count)
        return .ordered("INSERT INTO \(link.name) (\(link.this), \(link.other), \(order)) VALUES (?, ?, ?)", memberIsOwner: member == link.this)
    }
}
