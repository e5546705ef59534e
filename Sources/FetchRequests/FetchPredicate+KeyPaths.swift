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
    /// The name of the object's entity (`entity == %@`, an `NSEntityDescription`; its Core Data
    /// entity number, `Z_ENT`, the entity's position from 1), unless the entity has a property of that name.
    public static let entityKey = "entity"

    /// The relationship steps the predicate's key paths join, by the path up to and including the
    /// step (`author`, `author.publisher`), and whether Core Data joins the step `LEFT OUTER`: when
    /// a key path through it is used inside an OR or by a nil test (the join is promoted along the
    /// whole path). Otherwise the join is inner, and an object the step does not reach (its
    /// relationship nil) is not selected, whatever the rest of the predicate says.
    public var keyPathJoins: [String: Bool] { keyPathJoins(sortingBy: []) }

    /// The steps the predicate's key paths and those of `sort` join: a sort key's steps always
    /// `LEFT OUTER` (Core Data's `NSSQLOrderIntermediate` promotes every step of a sort key's path),
    /// so that an object its path does not reach is sorted (its value NULL), not left out.
    public func keyPathJoins(sortingBy sort: [SortKey]) -> [String: Bool] {
        var joins: [String: Bool] = [:]
        func visit(_ predicate: FetchPredicate, inOr: Bool) {
            switch predicate {
            case let .equals(name, _), let .range(name, _, _), let .compare(name, _, _), let .among(name, _), let .between(name, _, _),
                 let .string(name, _, _, _), let .stringCompare(name, _, _, _), let .bitwise(name, _, _, _):
                add(name, outer: inOr)
            case let .compareKeys(name, _, other):
                add(name, outer: inOr)
                add(other, outer: inOr)
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
        for key in sort { add(key.attribute, outer: true) }
        return joins
    }

    /// How many `ANY relationship.attribute == value` conditions the predicate holds (in a layout
    /// keeping objects in several tables, each joins two).
    public var relatedCount: Int {
        switch self {
        case .anyRelated: 1
        default: parts.reduce(0) { $0 + $1.relatedCount }
        }
    }
}
