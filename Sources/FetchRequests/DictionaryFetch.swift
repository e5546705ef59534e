import Generation

/// A fetch of dictionaries (`resultType = .dictionaryResultType`) that are not objects' values:
/// distinct values (`returnsDistinctResults`), or aggregates (`NSExpressionDescription`s of
/// `count:`, `sum:`, `average:`, `min:`, `max:`) over groups (`propertiesToGroupBy`), filtered by
/// `havingPredicate`. Each row is one dictionary: its items' values in order.
public struct DictionaryFetch: Hashable, Sendable {
    /// What each row holds, in order.
    public var items: [Item]
    /// The keys the rows are grouped by (each one of `items`' keys): one row a group.
    public var groupBy: [String]
    /// Which groups are kept: comparisons of the items' names (`$n > 3`, an aggregate's name), or nil.
    public var having: Having?
    /// `returnsDistinctResults`: each combination of values once (a fetch of keys only).
    public var distinct: Bool

    public init(items: [Item], groupBy: [String] = [], having: Having? = nil, distinct: Bool = false) {
        self.items = items; self.groupBy = groupBy; self.having = having; self.distinct = distinct
    }

    /// A value of each row: a key (an attribute, or a to-one's destination's key), or an aggregate
    /// of an attribute over the rows of a group (of all the rows, without `groupBy`).
    public enum Item: Hashable, Sendable {
        case key(String)
        case aggregate(Function, String, name: String)

        /// The attribute or to-one it reads.
        public var key: String {
            switch self {
            case let .key(name), let .aggregate(_, name, _): name
            }
        }
    }

    /// An `NSExpression` function Core Data runs in SQLite, by its name in NSExpression's format.
    public enum Function: String, Hashable, Sendable, CaseIterable {
        case count, sum, average, min, max
    }

    /// `havingPredicate`: `$name <op> value` of the items' aggregates, ANDed, ORed, negated.
    public indirect enum Having: Hashable, Sendable {
        case compare(String, FetchPredicate.Comparison, Value)
        case and([Having])
        case or([Having])
        case not(Having)
    }

    /// The attributes its items read, each once, in order.
    public var keys: [String] {
        var keys: [String] = []
        for item in items where !keys.contains(item.key) { keys.append(item.key) }
        for key in groupBy where !keys.contains(key) { keys.append(key) }
        return keys
    }

    /// The aggregate named `name`.
    public func aggregate(named name: String) -> (Function, String)? {
        for case let .aggregate(function, key, named) in items where named == name { return (function, key) }
        return nil
    }
}
