import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// A store of any layout: runs the layout's statements on a connection (an empty store, or one
/// populated earlier). Every operation is written here once, whatever the strategy.
public final class LayoutStore {
    public let layout: any StorageLayout
    public let database: Database
    private let bookkeeping: CoreDataBookkeeping

    public var model: Model { layout.model }
    public var name: String { layout.name }
    public var schemaSQL: [String] { layout.schemaSQL }

    public init(_ layout: any StorageLayout, database: Database) {
        self.layout = layout
        self.database = database
        // Core Data's own SQL functions, which string predicates call (a failure here is an
        // allocation's; the statement calling one would then say the function is missing).
        try? CoreDataFunctions.register(on: database)
        bookkeeping = CoreDataBookkeeping(database: database, model: layout.storedModel)
    }

    /// A store of `type`'s layout of `model`, derived here (for a test or a single store; a run
    /// derives each layout once and shares it).
    public convenience init(_ type: any StorageLayout.Type, _ model: Model, database: Database) throws {
        self.init(try type.init(model: model), database: database)
    }

    /// Creates the tables, indexes and bookkeeping rows of an empty store.
    public func createSchema() throws { try bookkeeping.createSchema(layout.schemaSQL, strategyName: layout.name) }

    private func insertPlan(_ entity: Int) throws -> InsertPlan {
        guard let plan = layout.insertPlan(entity) else { throw LayoutError.abstract(layout.name, model.entities[entity], "insert") }
        return plan
    }

    /// Moves each hierarchy's `Z_PRIMARYKEY` counter past the objects' keys, inside a save.
    func reserveKeys(for objects: [ModelObject]) throws {
        try bookkeeping.reserveKeys(for: objects) { try insertPlan($0).keyEntity }
    }

    /// Inserts the objects (of any entities) with their to-one references and generated
    /// many-to-many links, as one save (one transaction).
    public func insert(_ objects: [ModelObject]) throws {
        try database.transaction {
            try reserveKeys(for: objects)
            for object in objects {
                let plan = try insertPlan(object.id.entity)
                for step in plan.steps {
                    let statement = try database.cachedStatement(step.sql)
                    try statement.bind(values: step.values(object))
                    try statement.run()
                }
                for (index, (link, destinations)) in zip(plan.links, object.links).enumerated() {
                    for (position, destination) in destinations.enumerated() {
                        guard let sql = link.sql(to: destination.entity) else {
                            throw CorruptRow("no join table links \(model.entities[object.id.entity].name) to \(model.entities[destination.entity].name)")
                        }
                        let statement = try database.cachedStatement(sql)
                        let order = object.linkOrders.flatMap { index < $0.count && position < $0[index].count ? $0[index][position] : nil }
                        try statement.bind(values: link.values(owner: object.id.key, destination: destination.key, order: order))
                        try statement.run()
                    }
                }
            }
        }
    }

    /// Every object `request` selects, read as its mode runs (`StorageLayout.readQuery`).
    public func fetch(_ request: FetchRequest) throws -> [ModelObject] { try database.objects(try layout.readQuery(request)) }
    public func count(_ request: FetchRequest) throws -> Int { try database.number(try layout.countQuery(request)) }

    /// One save that sets `attribute` to `value` on each object whose version (`Z_OPT`) is as given,
    /// and bumps each one's version. Returns the objects changed.
    public func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int {
        try database.transaction {
            var plans: [Int: [UpdateStep]] = [:]
            var changed = 0
            for object in objects {
                let steps = try plans[object.id.entity] ?? layout.updatePlan(object.id.entity, attribute: attribute, value: value)
                plans[object.id.entity] = steps
                guard let first = steps.first else { continue }
                let count = try database.write(first.sql, first.values(object))
                if count > 0 {
                    for step in steps.dropFirst() { _ = try database.write(step.sql, step.values(object)) }
                }
                changed += count
            }
            return changed
        }
    }

    /// The version (`Z_OPT`) of each object, `nil` for one not stored.
    public func versions(_ objects: [ObjectID]) throws -> [Int64?] {
        try objects.map { object in
            guard let sql = layout.versionSQL(object.entity) else { return nil }
            return try database.rows(sql, [.integer(object.key)]) { $0.int64(at: 0) }.first
        }
    }

    /// Rows linking objects through a many-to-many relationship (the generating side's), summed
    /// over every table holding them.
    public func countLinks(_ relationship: Model.Relationship) throws -> Int {
        try layout.linkCountSQL(relationship).reduce(0) { $0 + (try database.number(PreparedQuery(sql: $1, values: [], decoder: nil))) }
    }

    /// One save that deletes the objects and follows every relationship's delete rule, as Core
    /// Data's delete propagation does: cascade deletes the related objects too, nullify clears
    /// their references, deny refuses the whole save while related objects exist; join-table rows
    /// go in every case. Returns the objects deleted (cascades included).
    public func delete(_ ids: [ObjectID]) throws -> Int {
        var plans: [Int: DeleteStatements] = [:]
        func plan(_ entity: Int) throws -> DeleteStatements {
            if let known = plans[entity] { return known }
            let made = try layout.deleteStatements(entity)
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

/// A delete refused by a `deny` rule.
public struct DeleteDenied: Error, CustomStringConvertible {
    public let description: String
}
