import Generation
import Models
import SQLite

/// One way of storing a model in SQLite, derived from the model alone and never touching a
/// database: the DDL, and for each operation the statements and where their values come from. A
/// layout is an immutable value, everything it answers computed when it is derived.
/// `LayoutStore` runs any layout's statements on a store. Adding a strategy is one layout in its
/// own folder and one line in `Strategies.all` (docs/strategies.md, "Adding a strategy").
public protocol StorageLayout: Sendable {
    /// The name used on the command line and in the CSV (`single-table`, …).
    static var name: String { get }
    /// One line for `bench list`.
    static var summary: String { get }

    /// Derives the layout of `model`. Throws `ModelError` when this strategy cannot store the
    /// model (a limit of SQLite's).
    init(model: Model) throws

    var model: Model { get }
    /// The model whose entities `Z_PRIMARYKEY` lists (the stored model: flattened, one enum entity, …).
    var storedModel: Model { get }
    /// Every statement that creates an empty store, in order.
    var schemaSQL: [String] { get }

    /// How an object of concrete entity `entity` is inserted; `nil` for an abstract entity.
    func insertPlan(_ entity: Int) -> InsertPlan?

    /// The statement answering `request` with every object materialised as its concrete entity
    /// (values in `Model.Entity.attributes` order, to-one destinations in `toOneRelationships` order).
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery
    /// The statement counting the objects `request` selects (no sort, no page).
    func countQuery(_ request: FetchRequest) throws -> PreparedQuery
    /// Core Data's partial fetch (`propertiesToFetch`) of `request`: per object, in its order, the
    /// values of the attributes `properties` names, then its entity number and key
    /// (`RowDecoder.partial`); with no property, the ID pass of a batched fetch.
    func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery
    /// Whether a batched fetch reads each batch entity by entity (each concrete entity's own fetch
    /// with its keys, by the ID pass's entity numbers) rather than as one fetch of the request's
    /// entity: for a layout whose fetch by key asks every table of a hierarchy. False by default.
    var batchesByEntity: Bool { get }
    /// A many-to-many prefetch's batch (`FetchMode.prefetching`): the destinations of `relationship`
    /// linked to the objects whose keys are bound as the key list (`KeyList`), one row per link,
    /// each object's `source` the key of the object it is linked to, ordered by it.
    func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery

    /// The statements setting `attribute` to `value` on an object of `entity` whose version is
    /// checked and bumped, as Core Data's `UPDATE … SET …, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`.
    func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep]
    /// `SELECT Z_OPT FROM <table> WHERE Z_PK = ?` for an object of `entity`; `nil` when no table
    /// holds its objects.
    func versionSQL(_ entity: Int) -> String?

    /// The SQL steps of deleting an object of `entity` (see `DeleteStatements`); the store follows
    /// the delete rules with them (`LayoutStore.delete(_:)`).
    func deleteStatements(_ entity: Int) throws -> DeleteStatements

    /// Statements each answering one number, summed: the rows linking objects through a
    /// many-to-many relationship (the generating side's), over every table holding them.
    func linkCountSQL(_ relationship: Model.Relationship) throws -> [String]
}

extension StorageLayout {
    public static var name: String { "\(Self.self)" }
    /// The strategy's name (`Self.name`), for a layout known only as `any StorageLayout`.
    public var name: String { Self.name }
    public var storedModel: Model { model }

    /// `value`, or a `LayoutError` naming this strategy and saying that `what` is missing: a lookup
    /// a model could make fail is an error line, never a trap.
    static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T { try LayoutError.required(value, name, what()) }
}

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

extension Model.Entity {
    /// The many-to-many relationships whose links this entity's objects generate (`ModelObject.links` order).
    var linkedRelationships: [Model.Relationship] { relationships.filter { $0.isManyToMany && $0.generatesLinks } }
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
    /// join table the member's order key, spaced as a to-one's order key (`ObjectGenerator.orderKey`).
    func values(owner: Int64, destination: Int64) -> [Value] {
        guard case let .ordered(_, memberIsOwner) = self else { return [.integer(owner), .integer(destination)] }
        return [.integer(owner), .integer(destination), .integer(ObjectGenerator.orderKey(memberIsOwner ? owner : destination))]
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

/// One statement of an update. The first statement's changes are the objects updated; the ones
/// after it run only for an object it changed.
public struct UpdateStep: Sendable {
    public enum Source: Sendable { case value(Value), newVersion, key, oldVersion }
    public let sql: String
    public let sources: [Source]

    public init(_ sql: String, _ sources: [Source]) { self.sql = sql; self.sources = sources }

    /// Core Data's one statement: `SET <assignment>, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`.
    static func versioned(_ table: String, _ assignment: String, _ values: [Value]) -> [UpdateStep] {
        [UpdateStep("UPDATE \(table) SET \(assignment), Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", values.map { .value($0) } + [.newVersion, .key, .oldVersion])]
    }

    func values(_ object: ObjectVersion) -> [Value] {
        sources.map { source in
            switch source {
            case let .value(value): value
            case .newVersion: .integer(object.version + 1)
            case .key: .integer(object.id.key)
            case .oldVersion: .integer(object.version)
            }
        }
    }
}

/// An object and the version (`Z_OPT`) a save expects it to have.
public struct ObjectVersion: Hashable, Sendable {
    public var id: ObjectID
    public var version: Int64
    public init(id: ObjectID, version: Int64) { self.id = id; self.version = version }
}

/// What deleting one object of an entity takes in a layout, each statement binding the object's
/// key as `?1`.
public struct DeleteStatements: Sendable {
    /// Per relationship of the entity (in `relationships` order): a query of the related objects
    /// (rows `Z_ENT, Z_PK`), for cascade and deny.
    public var related: [String]
    /// Per relationship: the statements that drop references to the object from elsewhere
    /// (the destination's foreign key set to NULL, join-table rows deleted).
    public var clear: [[String]]
    /// The statements that delete the object's own row(s).
    public var delete: [String]
    public init(related: [String], clear: [[String]], delete: [String]) { self.related = related; self.clear = clear; self.delete = delete }

    /// The statements of an object kept in one row of `table` (single-table, enum-entity,
    /// json-entity). Per relationship: its destinations' table and the expression of a row's entity
    /// number there (`destination`, aliased `t1`); a to-one through its key (`toOneKey`), a
    /// many-to-many through its join table (`join`), a one-to-many through its destinations'
    /// condition on their inverse key, with the statements clearing it (`inverse`, also used for
    /// the other side of a one-to-one).
    static func oneRow(_ table: String, _ relationships: [Model.Relationship],
                       destination: (Model.Relationship) throws -> (table: String, number: String),
                       toOneKey: (Model.Relationship) throws -> String,
                       join: (Model.Relationship) throws -> (name: String, this: String, other: String),
                       inverse: (Model.Relationship) throws -> (condition: String, clear: [String])) throws -> DeleteStatements {
        var statements = DeleteStatements(related: [], clear: [], delete: ["DELETE FROM \(table) WHERE Z_PK = ?1"])
        for relationship in relationships {
            let (target, number) = try destination(relationship)
            if !relationship.toMany {
                statements.related.append("SELECT \(number), t1.Z_PK FROM \(table) t0 JOIN \(target) t1 ON t1.Z_PK = t0.\(try toOneKey(relationship)) WHERE t0.Z_PK = ?1")
                statements.clear.append(relationship.isOneToOne ? try inverse(relationship).clear : [])
            } else if relationship.isManyToMany {
                let link = try join(relationship)
                statements.related.append("SELECT \(number), t1.Z_PK FROM \(link.name) j JOIN \(target) t1 ON t1.Z_PK = j.\(link.other) WHERE j.\(link.this) = ?1")
                statements.clear.append(["DELETE FROM \(link.name) WHERE \(link.this) = ?1"])
            } else {
                let (condition, clear) = try inverse(relationship)
                statements.related.append("SELECT \(number), t1.Z_PK FROM \(target) t1 WHERE \(condition)")
                statements.clear.append(clear)
            }
        }
        return statements
    }
}

extension Value {
    /// The value as a JSON document holds it: a blob as lower-case hex text, anything else as is.
    var jsonBindable: Value {
        guard case let .blob(bytes) = self else { return self }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return .text(String(decoding: text, as: UTF8.self))
    }
}
