import Models

/// Key paths through to-one relationships: a name compared by a predicate (`equals`, `range`,
/// `compare`, `isNil`, `among`, `between`, `string`) may be `author.name` or
/// `author.publisher.city`, every name but the last a to-one relationship (`Model.keyPath`). A
/// to-one itself (`author`, `author.publisher`) stands for its destination's key: compared with
/// nil, or by `compare` (`==`, `!=`) and `among` with `.integer` keys (`author == %@`, `author IN
/// %@`); so does `self`, the object's own key (`self == %@`, `self IN %@`).
extension FetchPredicate {
    /// The name of the object itself, as NSPredicate writes it.
    public static let selfKey = "self"

    /// The relationship steps the predicate's key paths join, by the path up to and including the
    /// step (`author`, `author.publisher`), and whether Core Data joins the step `LEFT OUTER`: when
    /// a key path through it is used inside an OR or by a nil test (the join is promoted along the
    /// whole path). Otherwise the join is inner, and an object the step does not reach (its
    /// relationship nil) is not selected, whatever the rest of the predicate says.
    public var keyPathJoins: [String: Bool] {
        var joins: [String: Bool] = [:]
        func visit(_ predicate: FetchPredicate, inOr: Bool) {
            switch predicate {
            case let .equals(name, _), let .range(name, _, _), let .compare(name, _, _), let .among(name, _), let .between(name, _, _),
                 let .string(name, _, _, _):
                add(name, outer: inOr)
            case let .isNil(name, _):
                add(name, outer: true)
            case let .or(parts):
                for part in parts { visit(part, inOr: true) }
            default:
                for part in predicate.parts { visit(part, inOr: inOr) }
            }
        }
        func add(_ name: String, outer: Bool) {
            var prefix = ""
            for step in name.split(separator: ".").dropLast() {
                prefix += prefix.isEmpty ? String(step) : "." + step
                joins[prefix] = (joins[prefix] ?? false) || outer
            }
        }
        visit(self, inOr: false)
        return joins
    }
}

/// Where a layout reads a property of an entity by an object's key, for a key path's join: a table
/// (or a subquery) holding every object of the entity's subtree with its key as `Z_PK`, and the
/// property's expression at an alias of it.
struct KeyedColumn {
    var source: String
    var expression: (String) throws -> String
}

/// The joins of a request's key paths: each step through a to-one relationship one join of the
/// table holding the property read next, made once per path and table, `LEFT OUTER` as Core Data
/// promotes it (`FetchPredicate.keyPathJoins`).
struct KeyPathJoins {
    let model: Model
    /// The fetched entity.
    let entity: Int
    /// Where `entity`'s property `name` (an attribute or a to-one's key) is read by key.
    let column: (_ entity: Int, _ name: String) throws -> KeyedColumn
    /// The alias of the `n`th join (from 1).
    let alias: (Int) -> String

    /// The steps joined outer, set from the request's predicate before its first key path.
    var outer: [String: Bool] = [:]
    /// The joins made, in order: the path, the alias, the table and the join condition.
    private(set) var made: [(path: String, source: String, alias: String, on: String)] = []

    init(model: Model, entity: Int, alias: @escaping (Int) -> String, column: @escaping (Int, String) throws -> KeyedColumn) {
        self.model = model; self.entity = entity; self.alias = alias; self.column = column
    }

    /// The expression of `path` (with at least one step), `first` the expression of its first
    /// step's foreign key on the fetched entity's row.
    mutating func expression(_ path: Model.KeyPath, first: String, aliasesTaken: Int) throws -> String {
        var key = first, prefix = path.steps[0].name
        for (index, step) in path.steps.enumerated() {
            let last = index == path.steps.count - 1
            let name = last ? path.name : path.steps[index + 1].name
            let read = try column(step.destination, name)
            let alias: String
            if let existing = made.first(where: { $0.path == prefix && $0.source == read.source && $0.on == key }) {
                alias = existing.alias
            } else {
                alias = self.alias(aliasesTaken + made.count + 1)
                made.append((prefix, read.source, alias, key))
            }
            key = try read.expression(alias)
            if !last { prefix += "." + name }
        }
        return key
    }

    /// The joins, each preceded by a space.
    var clause: String {
        made.map { " \(outer[$0.path] == true ? "LEFT OUTER JOIN" : "JOIN") \($0.source) \($0.alias) ON \($0.on) = \($0.alias).Z_PK" }.joined()
    }
}
