import Generation
import Models

/// A fetch an app makes, written as `[name =] [COUNT | IDS] [ONLY] Entity [PROPERTIES [DISTINCT]
/// item, …] [WHERE predicate] [GROUP BY key, … [HAVING …]] [SORT BY key [ASC|DESC], …] [LIMIT n]
/// [OFFSET n] [BATCH n [READ m] | PREFETCH relationship, …]`, its predicate in NSPredicate's
/// format exactly as an app writes it; each `%@` stands for a value drawn from the data
/// (`requests(_:seed:draws:)`), literals are as written. `COUNT` makes it a count request
/// (`countForFetchRequest`), `IDS` a fetch of object IDs (`managedObjectIDResultType`),
/// `PROPERTIES` a fetch of those attributes (`propertiesToFetch`), `DISTINCT` of their distinct
/// values, and aggregates (`count:(title)`, `sum:(pageCount) AS pages`) with `GROUP BY` and
/// `HAVING $pages > 100` a fetch of dictionaries (`DictionaryFetch`).
public struct FetchSpec: Sendable {
    /// The name given before `=`, or nil.
    public var name: String?
    /// The fetch as given.
    public var text: String
    /// The fetched entity (with its sub-entities, as an `NSFetchRequest` by default).
    public var entity: Int
    public var predicate: FetchTemplate
    public var sort: [SortKey]
    public var limit: Int?
    public var offset: Int?
    /// Whether it is a count request: the number of objects, not the objects.
    public var counts = false
    /// The attributes it fetches (`PROPERTIES`; none for `IDS`: each object's ID alone), or nil for whole objects.
    public var properties: [String]?
    /// Whether the entity's sub-entities' objects are fetched too (`ONLY Entity`: not).
    public var includesSubentities = true
    /// `fetchBatchSize` (`BATCH n [READ m]`): the ID pass, then the objects by key lists of `size`
    /// until `read` of them (every one when nil) are read, as a list scrolled that far faults them in.
    public var batch: (size: Int, read: Int?)?
    /// `relationshipKeyPathsForPrefetching` (`PREFETCH tags, notes`): the objects, then each
    /// to-many relationship's destinations by the objects' keys; nil for none.
    public var prefetch: [String]?
    /// A fetch of dictionaries that are not objects' values (`PROPERTIES DISTINCT …`, aggregates,
    /// `GROUP BY`, `HAVING`), or nil.
    public var dictionary: DictionaryFetch?

    /// Whether the predicate holds a `%@`.
    public var hasPlaceholders: Bool { predicate.hasPlaceholders }
}

/// An operand of a comparison: a literal, or `%@`.
public enum FetchOperand: Sendable, Equatable {
    case value(Value)
    case drawn
}

/// A predicate whose operands may be `%@` (`FetchPredicate` once each is drawn).
public indirect enum FetchTemplate: Sendable, Equatable {
    /// TRUEPREDICATE (no predicate).
    case all
    case compare(String, FetchPredicate.Comparison, FetchOperand)
    case isNil(String, negated: Bool)
    case among(String, [FetchOperand])
    /// `attribute IN %@`: a list of values drawn from the data.
    case amongDrawn(String)
    case between(String, FetchOperand, FetchOperand)
    case string(String, FetchPredicate.StringOperator, FetchOperand, FetchPredicate.StringOptions)
    /// `attribute <op>[c|d|cd] value`.
    case stringCompare(String, FetchPredicate.Comparison, FetchOperand, FetchPredicate.StringOptions)
    /// `attribute <op> other`: two keys compared.
    case compareKeys(String, FetchPredicate.Comparison, String)
    /// `relationship.@count <op> n`, or `<op> %@` (a count drawn from the data).
    case countOf(String, FetchPredicate.Comparison, FetchOperand)
    /// `(attribute & mask) <op> value`.
    case bitwise(String, FetchOperand, FetchPredicate.Comparison, FetchOperand)
    /// `relationship CONTAINS %@`, `%@ IN relationship`, `ANY relationship == %@`: a to-many
    /// holding an object drawn from its destination's.
    case holds(String)
    /// `ANY` before a comparison through a to-many relationship.
    case any(FetchTemplate)
    /// `SUBQUERY(relationship, $x, predicate).@count <op> n`, the predicate's keys through the
    /// relationship (`tags.name` for `$x.name`).
    case subquery(String, FetchTemplate, FetchPredicate.Comparison, Int64)
    case and([FetchTemplate])
    case or([FetchTemplate])
    case not(FetchTemplate)

    var hasPlaceholders: Bool {
        switch self {
        case .all, .isNil, .compareKeys: false
        case let .countOf(_, _, operand): operand == .drawn
        case .amongDrawn, .holds: true
        case let .compare(_, _, operand), let .string(_, _, operand, _), let .stringCompare(_, _, operand, _): operand == .drawn
        case let .among(_, operands): operands.contains(.drawn)
        case let .between(_, lower, upper), let .bitwise(_, lower, _, upper): lower == .drawn || upper == .drawn
        case let .and(parts), let .or(parts): parts.contains { $0.hasPlaceholders }
        case let .not(part), let .any(part), let .subquery(_, part, _, _): part.hasPlaceholders
        }
    }
}
