import Generation
import Models
import SQLite

/// One way of storing a model in SQLite. A strategy derives its layout (DDL) and its SQL from the
/// model alone, in its own file; the engine calls only this protocol. Adding a strategy is one new
/// file plus one line in `Strategies.all`.
public protocol StorageStrategy: AnyObject {
    /// The name used on the command line and in the CSV (`single-table`, …).
    static var name: String { get }
    /// One line for `bench list`.
    static var summary: String { get }

    /// Derives the layout of `model` over a connection to a store (empty, or populated earlier).
    /// Throws `ModelError` when this strategy cannot store the model (a limit of SQLite's).
    init(model: Model, database: Database) throws

    var model: Model { get }
    var database: Database { get }
    /// Every statement that creates an empty store, in order.
    var schemaSQL: [String] { get }

    /// Creates the tables, indexes and bookkeeping rows of an empty store.
    func createSchema() throws
    /// Inserts the objects (of any entities) with their to-one references and generated
    /// many-to-many links, as one save (one transaction).
    func insert(_ objects: [ModelObject]) throws

    /// The statement answering `request` with every object materialised as its concrete entity
    /// (values in `Model.Entity.attributes` order, to-one destinations in `toOneRelationships` order).
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery
    /// The statement counting the objects `request` selects (no sort, no page).
    func countQuery(_ request: FetchRequest) throws -> PreparedQuery

    /// One save that sets `attribute` to `value` on each object whose version (`Z_OPT`) is as given,
    /// and bumps each one's version, as Core Data's `UPDATE … SET …, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`.
    /// Returns the objects changed.
    func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int
    /// The version (`Z_OPT`) of each object, `nil` for one not stored.
    func versions(_ objects: [ObjectID]) throws -> [Int64?]

    /// The SQL steps of deleting an object of `entity` (see `DeleteStatements`); the engine follows
    /// the delete rules with them (`delete(_:)`).
    func deleteStatements(_ entity: Int) throws -> DeleteStatements

    /// Rows linking objects through a many-to-many relationship (the generating side's), summed
    /// over every table holding them.
    func countLinks(_ relationship: Model.Relationship) throws -> Int
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
}

/// A delete refused by a `deny` rule.
public struct DeleteDenied: Error, CustomStringConvertible {
    public let description: String
}

extension StorageStrategy {
    public static var name: String { "\(Self.self)" }

    /// `value`, or a `LayoutError` naming this strategy and saying that `what` is missing: a lookup
    /// a model could make fail is an error line, never a trap.
    static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T { try LayoutError.required(value, name, what()) }

    /// Every object `request` selects.
    public func fetch(_ request: FetchRequest) throws -> [ModelObject] { try database.objects(try fetchQuery(request)) }
    public func count(_ request: FetchRequest) throws -> Int { try database.number(try countQuery(request)) }

    /// One save that deletes the objects and follows every relationship's delete rule, as Core
    /// Data's delete propagation does: cascade deletes the related objects too, nullify clears
    /// their references, deny refuses the whole save while related objects exist; join-table rows
    /// go in every case. Returns the objects deleted (cascades included).
    public func delete(_ ids: [ObjectID]) throws -> Int {
        var plans: [Int: DeleteStatements] = [:]
        func plan(_ entity: Int) throws -> DeleteStatements {
            if let known = plans[entity] { return known }
            let made = try deleteStatements(entity)
            plans[entity] = made
            return made
        }
        return try database.transaction {
            var deleted = Set<ObjectID>()
            func remove(_ id: ObjectID) throws {
                guard deleted.insert(id).inserted else { return }
                let statements = try plan(id.entity)
                let key = [Value.integer(id.key)]
                for (index, relationship) in model.entities[id.entity].relationships.enumerated() {
                    switch relationship.deleteRule {
                    case .cascade:
                        let related = try database.rows(statements.related[index], key) { row in
                            ObjectID(entity: Int(row.int64(at: 0)) - 1, key: row.int64(at: 1))
                        }
                        for clear in statements.clear[index] { _ = try database.write(clear, key) }
                        for other in related { try remove(other) }
                    case .deny:
                        let related = try database.rows(statements.related[index], key) { $0.int64(at: 1) }
                        if !related.isEmpty {
                            throw DeleteDenied(description: "deleting \(model.entities[id.entity].name) \(id.key) is denied: its relationship '\(relationship.name)' still reaches \(related.count) objects")
                        }
                    case .nullify, .noAction:
                        if relationship.deleteRule == .nullify || relationship.isManyToMany {
                            for clear in statements.clear[index] { _ = try database.write(clear, key) }
                        }
                    }
                }
                for statement in statements.delete { _ = try database.write(statement, key) }
            }
            for id in ids { try remove(id) }
            return deleted.count
        }
    }
}
