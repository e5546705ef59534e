import FetchRequests
import Models

/// Where a layout reads a property of an entity by an object's key, for a key path's join: a table
/// (or a subquery) holding every object of the entity's subtree with its key as `Z_PK`, and the
/// property's expression at an alias of it.
struct KeyedColumn {
    var source: String
    var expression: (String) throws -> String
}

/// How a layout goes through a to-many relationship of a key path (`ANY tags.name`): a table (or
/// a subquery) with a row per object reached, its column holding the key of the object it is
/// reached from (`from`), its column holding the reached object's key (`to`; `Z_PK` when the rows
/// are the reached objects' own, so that their properties are read there too), and any condition
/// its rows need besides (a shared slot's kinds).
struct ManyStep {
    var source: String
    var from: String
    var to: String
    var filter: (String) -> String = { _ in "" }
}

/// The joins of a request's key paths: each step through a relationship one join (a to-one: of the
/// table holding the property read next; a to-many: of the rows linking to the objects reached,
/// then of the table holding the property unless those rows hold it), made once per path, table
/// and key, `LEFT OUTER` as Core Data promotes it (`FetchPredicate.keyPathJoins`).
struct KeyPathJoins {
    let model: Model
    /// The fetched entity.
    let entity: Int
    /// Where `entity`'s property `name` (an attribute or a to-one's key) is read by key.
    let column: (_ entity: Int, _ name: String) throws -> KeyedColumn
    /// How a to-many relationship of an entity is gone through: from the fetched row itself
    /// (`first`), or from objects a step reached.
    let many: (_ entity: Int, _ relationship: Model.Relationship, _ first: Bool) throws -> ManyStep
    /// The alias of the `n`th join (from 1).
    let alias: (Int) -> String

    /// The steps joined outer, set from the request's predicate before its first key path.
    var outer: [String: Bool] = [:]
    /// The joins made, in order: the path of the object they read, the table, the alias, the key
    /// they are made on, and their condition.
    private(set) var made: [(path: String, source: String, alias: String, on: String, condition: String)] = []
    private var aliasesTaken = 0

    init(model: Model, entity: Int, alias: @escaping (Int) -> String, column: @escaping (Int, String) throws -> KeyedColumn,
         many: @escaping (Int, Model.Relationship, Bool) throws -> ManyStep) {
        self.model = model; self.entity = entity; self.alias = alias; self.column = column; self.many = many
    }

    /// The expression of `path` (with at least one step), `first` the key its first step starts
    /// from on the fetched entity's row: a to-one's foreign key, or the row's own key before a to-many.
    mutating func expression(_ path: Model.KeyPath, first: String, aliasesTaken: Int) throws -> String {
        self.aliasesTaken = aliasesTaken
        // The key of the object reached, its entity, its path, and a join whose rows are its own.
        var key = first, entity = self.entity, prefix = "", here: (alias: String, source: String)?
        for (index, step) in path.steps.enumerated() {
            let reached = prefix.isEmpty ? step.name : prefix + "." + step.name
            if step.toMany {
                let through = try many(entity, step, index == 0)
                let alias = join(reached, through.source, on: key + "|" + through.from) { "\(key) = \($0).\(through.from)" + through.filter($0) }
                key = "\(alias).\(through.to)"
                here = through.to == "Z_PK" ? (alias, through.source) : nil
            } else if index > 0 {
                key = try read(step.name, of: entity, at: prefix, key: key, here: here)
                here = nil
            }
            (entity, prefix) = (step.destination, reached)
        }
        return try read(path.name, of: entity, at: prefix, key: key, here: here)
    }

    /// The expression of property `name` of the object at `prefix` whose key is `key`: on the rows
    /// already joined there when they hold it, else on a join of the table that does.
    private mutating func read(_ name: String, of entity: Int, at prefix: String, key: String, here: (alias: String, source: String)?) throws -> String {
        let read = try column(entity, name)
        if let here, here.source == read.source { return try read.expression(here.alias) }
        return try read.expression(join(prefix, read.source, on: key) { "\(key) = \($0).Z_PK" })
    }

    /// The alias of the join of `source` for the object at `path` on `on`, made now unless it was.
    private mutating func join(_ path: String, _ source: String, on: String, condition: (String) -> String) -> String {
        if let existing = made.first(where: { $0.path == path && $0.source == source && $0.on == on }) { return existing.alias }
        let alias = self.alias(aliasesTaken + made.count + 1)
        made.append((path, source, alias, on, condition(alias)))
        return alias
    }

    /// For a correlated subquery of the objects to-many `relationship` of the fetched entity holds
    /// (`SUBQUERY`): joins its rows first, from the fetched row's key `key`, so that every key path
    /// through the relationship reads them; the expression of the reached object's key.
    mutating func start(_ relationship: Model.Relationship, from key: String, aliasesTaken: Int) throws -> String {
        self.aliasesTaken = aliasesTaken
        outer[relationship.name] = false
        let through = try many(entity, relationship, true)
        let alias = join(relationship.name, through.source, on: key + "|" + through.from) { "\(key) = \($0).\(through.from)" + through.filter($0) }
        return "\(alias).\(through.to)"
    }

    /// A subquery's `FROM` (the first join's rows, the others joined to them) and the first join's
    /// condition, which correlates it (`start`).
    var subqueryFrom: (from: String, correlation: String) {
        var rest = self
        let first = rest.made.removeFirst()
        return ("\(first.source) \(first.alias)" + rest.clause, first.condition)
    }

    /// The joins, each preceded by a space.
    var clause: String {
        made.map { " \(outer[$0.path] == true ? "LEFT OUTER JOIN" : "JOIN") \($0.source) \($0.alias) ON \($0.condition)" }.joined()
    }
}
