import Generation
import Models

/// What a workload asks a store, as Core Data's `NSFetchRequest` would: an entity (with or
/// without its sub-entities), a predicate, sort descriptors and a page. Every strategy turns the
/// same request into its own SQL; values are bound, never spliced.
public struct FetchRequest: Hashable, Sendable {
    public var entity: Int
    public var includesSubentities: Bool
    public var predicate: FetchPredicate
    public var sort: [SortKey]
    public var limit: Int?
    public var offset: Int?
    /// Core Data sends the request as a fetch of the root entity (its whole table, the whole
    /// hierarchy's list, no entity condition) though its answer is `entity`'s: firing the fault of an
    /// object its ID names (`predicate` `.key`, read by `Z_PK` alone), or a root's fetch filtered on
    /// an attribute only `entity` and its sub-entities have (no other object has a value). A layout
    /// may send it so; the others read `entity` as the request says.
    public var asRootFetch: Bool
    /// How Core Data runs the fetch when it is more than one statement (`FetchMode`):
    /// in batches, partly (`propertiesToFetch`), in sections by entity. `.plain` is one statement.
    public var mode: FetchMode

    public init(entity: Int, includesSubentities: Bool = true, predicate: FetchPredicate = .all, sort: [SortKey] = [],
                limit: Int? = nil, offset: Int? = nil, asRootFetch: Bool = false, mode: FetchMode = .plain) {
        self.entity = entity; self.includesSubentities = includesSubentities; self.predicate = predicate; self.sort = sort
        self.limit = limit; self.offset = offset; self.asRootFetch = asRootFetch; self.mode = mode
    }

    /// Firing the fault of object `id`: Core Data's read of one object by its object ID.
    public static func fault(_ id: ObjectID) -> FetchRequest {
        FetchRequest(entity: id.entity, includesSubentities: false, predicate: .key(id.key), asRootFetch: true)
    }

    /// The object whose fault the request fires (a request `fault(_:)` makes), else `nil`.
    public var faultedObject: ObjectID? {
        guard case let .key(key) = predicate, !includesSubentities, asRootFetch, mode == .plain, sort.isEmpty, limit == nil, offset == nil else { return nil }
        return ObjectID(entity: entity, key: key)
    }

    /// The request with every value replaced by a placeholder: requests of one shape share one SQL statement.
    public var shape: FetchRequest {
        var copy = self
        copy.predicate = predicate.shape
        copy.limit = limit.map { _ in 0 }
        copy.offset = offset.map { _ in 0 }
        return copy
    }
}

/// An attribute to sort by: of the fetched entity, or at the end of a key path through to-one
/// relationships (`author.name`; an object its path does not reach sorts as NULL, first ascending).
public struct SortKey: Hashable, Sendable {
    public var attribute: String
    public var ascending: Bool
    /// How a string attribute's values are ordered.
    public var comparator: Comparator
    public init(_ attribute: String, ascending: Bool = true, comparator: Comparator = .binary) {
        self.attribute = attribute; self.ascending = ascending; self.comparator = comparator
    }

    /// An `NSSortDescriptor`'s selector, SwiftData's `SortDescriptor` comparator: how strings are
    /// ordered. SwiftData sorts a `String` key `.localizedStandard` unless told otherwise.
    public enum Comparator: String, Hashable, Sendable, CaseIterable {
        /// `compare:`, SwiftData's `.lexical`: by their bytes, as an index orders them.
        case binary = "lexical"
        /// `caseInsensitiveCompare:`.
        case caseInsensitive
        /// `localizedCompare:`, SwiftData's `.localized`.
        case localized
        /// `localizedCaseInsensitiveCompare:`.
        case localizedCaseInsensitive
        /// `localizedStandardCompare:`, SwiftData's `.localizedStandard` (Finder's order: case-
        /// and width-insensitive, numbers by value).
        case localizedStandard
    }
}

/// What a request selects: the forms of Core Data's `NSPredicate` a fetch from SQLite can hold.
/// Each value it holds is one bound parameter. The name a form compares may be a key path through
/// to-one relationships (`FetchPredicate+KeyPaths.swift`).
public indirect enum FetchPredicate: Hashable, Sendable {
    case all
    /// `attribute == value`.
    case equals(String, Value)
    /// `lower <= attribute < upper` (a date window, a string prefix as a range).
    case range(String, Value, Value)
    /// Keyset pagination: the rows strictly after these values of the request's sort keys, in the
    /// request's order (every sort key has the same direction).
    case after([Value])
    /// The object with this key (`Z_PK`): a lookup by object ID.
    case key(Int64)
    /// `relationship == object` for a to-one relationship (a foreign key).
    case toOne(String, ObjectID)
    /// `ANY relationship.attribute == value` through a to-many relationship.
    case anyRelated(String, String, Value)
    /// The objects whose key is in the key list bound before the statement (Core Data's
    /// `t0.Z_PK IN (SELECT * FROM _Z_intarray0)`, `KeyList`).
    case keyInList
    /// The objects whose to-one relationship's key is in the bound key list (a prefetch of the
    /// inverse to-many's destinations).
    case toOneInList(String)
    case and([FetchPredicate])
    /// `attribute <op> value`: `==`, `!=`, `<`, `<=`, `>`, `>=` of an attribute of the fetched
    /// entity and a constant.
    case compare(String, Comparison, Value)
    /// `attribute == nil`, or `attribute != nil` when `negated`.
    case isNil(String, negated: Bool)
    /// `attribute IN {values}`.
    case among(String, [Value])
    /// `attribute BETWEEN {lower, upper}`, both bounds included.
    case between(String, Value, Value)
    /// `attribute CONTAINS value`, `BEGINSWITH`, `ENDSWITH`, `LIKE` or `MATCHES`, with `[c]`, `[d]`,
    /// `[l]` or a combination.
    case string(String, StringOperator, Value, StringOptions)
    /// `p OR q OR …`.
    case or([FetchPredicate])
    /// `NOT p`.
    case not(FetchPredicate)
    /// `relationship.@count <op> value`: how many objects a to-many relationship of the fetched
    /// entity holds, compared with a whole number.
    case countOf(String, Comparison, Value)
    /// `relationship CONTAINS object` (also `object IN relationship`, `ANY relationship == object`):
    /// a to-many relationship of the fetched entity holds the object with this key.
    case holds(String, Value)
    /// `(attribute & mask) <op> value`: an integer attribute's bits compared (`(flags & 4) == 4`).
    case bitwise(String, Value, Comparison, Value)
    /// `attribute <op>[c|d|cd] value`: a comparison of strings with options (`name ==[c] %@`).
    case stringCompare(String, Comparison, Value, StringOptions)
    /// `attribute <op> other`: two keys of the object compared (`duration > currentTime`).
    case compareKeys(String, Comparison, String)
    /// `ANY p`: a comparison whose key path goes through to-many relationships (`ANY tags.name ==
    /// value`), true of an object when it is of one of the objects reached (as Core Data's joins
    /// read it: `FetchPredicate+KeyPaths.swift`).
    case any(FetchPredicate)
    /// `SUBQUERY(relationship, $x, predicate).@count <op> value`: how many of the objects a to-many
    /// relationship of the fetched entity holds the predicate selects, compared with a whole
    /// number. The predicate's keys are key paths through the relationship, as after `ANY`
    /// (`$x.name` is `tags.name`); each object it holds is counted once.
    case subquery(String, FetchPredicate, Comparison, Value)

    /// A string operator of `NSComparisonPredicate`.
    public enum StringOperator: String, Hashable, Sendable, CaseIterable {
        case contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"
    }

    /// A string comparison's options: `[c]`, `[d]`, `[cd]`.
    public struct StringOptions: Hashable, Sendable {
        public var caseInsensitive: Bool
        public var diacriticInsensitive: Bool
        /// `[l]`: in the user's locale (SwiftData's `localizedStandardContains` is `CONTAINS[cdl]`).
        /// Core Data passes it to its functions; the suite's compare without a locale, the same on
        /// every machine, so it changes the statement, not the answer.
        public var localized: Bool
        /// `[n]`: the strings are normalized already, so Core Data compares them literally, its
        /// case and diacritic options aside (a LIKE or MATCHES keeps them): `==[n]` is SQL's `=`,
        /// `BEGINSWITH[n]` a range of the column (`FetchPredicate.prefixEnd`), `CONTAINS[n]` a
        /// literal search.
        public var normalized: Bool
        public init(caseInsensitive: Bool = false, diacriticInsensitive: Bool = false, localized: Bool = false, normalized: Bool = false) {
            self.caseInsensitive = caseInsensitive; self.diacriticInsensitive = diacriticInsensitive; self.localized = localized; self.normalized = normalized
        }
    }

    /// The least string after every string that begins with `prefix`, in SQLite's order: the
    /// prefix with its last UTF-16 unit one more, as Core Data bounds `BEGINSWITH[n]` (`x >= prefix
    /// AND x < end`); nil for an empty prefix or one ending in U+D7FF, U+DFFF or U+FFFF, which it
    /// searches for instead.
    public static func prefixEnd(_ prefix: String) -> String? {
        var units = Array(prefix.utf16)
        guard let last = units.popLast(), ![0xD7FF, 0xDFFF, 0xFFFF].contains(last) else { return nil }
        units.append(last + 1)
        return String(decoding: units, as: UTF16.self)
    }

    /// A comparison's operator, as `NSComparisonPredicate` names it.
    public enum Comparison: String, Hashable, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    package var shape: FetchPredicate {
        switch self {
        case .all: .all
        case let .equals(name, _): .equals(name, .null)
        case let .range(name, _, _): .range(name, .null, .null)
        case let .after(values): .after(values.map { _ in .null })
        case .key: .key(0)
        case let .toOne(name, object): .toOne(name, ObjectID(entity: object.entity, key: 0))
        case let .anyRelated(relationship, attribute, _): .anyRelated(relationship, attribute, .null)
        case .keyInList, .toOneInList: self
        case let .and(predicates): .and(predicates.map(\.shape))
        case let .compare(name, comparison, _): .compare(name, comparison, .null)
        case let .isNil(name, negated): .isNil(name, negated: negated)
        case let .among(name, values): .among(name, values.map { _ in .null })
        case let .between(name, _, _): .between(name, .null, .null)
        case let .string(name, op, _, options): .string(name, op, .null, options)
        case let .or(predicates): .or(predicates.map(\.shape))
        case let .not(predicate): .not(predicate.shape)
        case let .countOf(name, comparison, _): .countOf(name, comparison, .null)
        case let .any(predicate): .any(predicate.shape)
        case let .subquery(name, predicate, comparison, _): .subquery(name, predicate.shape, comparison, .null)
        case let .stringCompare(name, comparison, _, options): .stringCompare(name, comparison, .null, options)
        case .compareKeys: self
        case let .holds(name, _): .holds(name, .null)
        case let .bitwise(name, _, comparison, _): .bitwise(name, .null, comparison, .null)
        }
    }

    /// The predicate with each value compared with an attribute of the fetched entity (by the
    /// forms `equals`, `range`, `compare`, `among`, `between`, at any depth) replaced by
    /// `transform(attribute, value)`; the other forms as they are.
    package func mappingAttributeValues(_ transform: (String, Value) throws -> Value) rethrows -> FetchPredicate {
        switch self {
        case let .equals(name, value): .equals(name, try transform(name, value))
        case let .range(name, lower, upper): .range(name, try transform(name, lower), try transform(name, upper))
        case let .compare(name, comparison, value): .compare(name, comparison, try transform(name, value))
        case let .among(name, values): .among(name, try values.map { try transform(name, $0) })
        case let .between(name, lower, upper): .between(name, try transform(name, lower), try transform(name, upper))
        case let .string(name, op, value, options): .string(name, op, try transform(name, value), options)
        case let .stringCompare(name, comparison, value, options): .stringCompare(name, comparison, try transform(name, value), options)
        case let .and(predicates): .and(try predicates.map { try $0.mappingAttributeValues(transform) })
        case let .or(predicates): .or(try predicates.map { try $0.mappingAttributeValues(transform) })
        case let .not(predicate): .not(try predicate.mappingAttributeValues(transform))
        case let .any(predicate): .any(try predicate.mappingAttributeValues(transform))
        case let .subquery(name, predicate, comparison, value): .subquery(name, try predicate.mappingAttributeValues(transform), comparison, value)
        case .all, .after, .key, .toOne, .anyRelated, .keyInList, .toOneInList, .isNil, .countOf, .compareKeys, .holds, .bitwise: self
        }
    }

    /// The names the predicate compares: attributes of the fetched entity, key paths through its
    /// to-ones (`author.name`), to-ones a nil test names; not those it reaches through a to-many.
    package var comparedAttributes: Set<String> {
        switch self {
        case let .equals(name, _), let .range(name, _, _), let .compare(name, _, _), let .isNil(name, _), let .among(name, _), let .between(name, _, _),
             let .string(name, _, _, _), let .stringCompare(name, _, _, _), let .bitwise(name, _, _, _): [name]
        case let .compareKeys(name, _, other): [name, other]
        case let .and(predicates), let .or(predicates): predicates.reduce(into: Set<String>()) { $0.formUnion($1.comparedAttributes) }
        case let .not(predicate), let .any(predicate), let .subquery(_, predicate, _, _): predicate.comparedAttributes
        case .all, .after, .key, .toOne, .anyRelated, .keyInList, .toOneInList, .countOf, .holds: []
        }
    }

    /// The predicates directly inside it (of `and`, `or`, `not`, `any`).
    package var parts: [FetchPredicate] {
        switch self {
        case let .and(predicates), let .or(predicates): predicates
        case let .not(predicate), let .any(predicate): [predicate]
        default: []
        }
    }
}
