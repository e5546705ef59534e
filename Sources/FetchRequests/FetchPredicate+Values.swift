import Generation

extension FetchPredicate {
    /// The values it holds, in the order they appear in it (an object's key as an integer).
    public var heldValues: [Value] {
        switch self {
        case .all, .keyInList, .toOneInList, .isNil, .compareKeys: []
        case let .equals(_, value), let .compare(_, _, value), let .string(_, _, value, _), let .countOf(_, _, value), let .holds(_, value),
             let .stringCompare(_, _, value, _), let .anyRelated(_, _, value):
            [value]
        case let .range(_, lower, upper), let .between(_, lower, upper), let .bitwise(_, lower, _, upper): [lower, upper]
        case let .after(values), let .among(_, values): values
        case let .key(key): [.integer(key)]
        case let .toOne(_, id): [.integer(id.key)]
        case let .and(parts), let .or(parts): parts.flatMap(\.heldValues)
        case let .not(part), let .any(part): part.heldValues
        case let .subquery(_, part, _, count): part.heldValues + [count]
        }
    }

    /// The predicate with the values it holds replaced, in `heldValues`' order, by `values`
    /// (taken from the front); `nil` when too few are left, an object's key is given a value that
    /// is not an integer, or it names an object through a to-one (whose entity a key does not tell).
    public func replacingHeldValues(_ values: inout ArraySlice<Value>) -> FetchPredicate? {
        func next() -> Value? { values.popFirst() }
        func key() -> Int64? { if case let .integer(key)? = next() { key } else { nil } }
        func parts(_ parts: [FetchPredicate]) -> [FetchPredicate]? {
            var replaced: [FetchPredicate] = []
            for part in parts {
                guard let part = part.replacingHeldValues(&values) else { return nil }
                replaced.append(part)
            }
            return replaced
        }
        switch self {
        case .all, .keyInList, .toOneInList, .isNil, .compareKeys: return self
        case let .equals(name, _): return next().map { .equals(name, $0) }
        case let .compare(name, comparison, _): return next().map { .compare(name, comparison, $0) }
        case let .string(name, op, _, options): return next().map { .string(name, op, $0, options) }
        case let .countOf(name, comparison, _): return next().map { .countOf(name, comparison, $0) }
        case let .holds(name, _): return next().map { .holds(name, $0) }
        case let .stringCompare(name, comparison, _, options): return next().map { .stringCompare(name, comparison, $0, options) }
        case let .anyRelated(name, attribute, _): return next().map { .anyRelated(name, attribute, $0) }
        case let .range(name, _, _):
            guard let lower = next(), let upper = next() else { return nil }
            return .range(name, lower, upper)
        case let .between(name, _, _):
            guard let lower = next(), let upper = next() else { return nil }
            return .between(name, lower, upper)
        case let .bitwise(name, _, comparison, _):
            guard let mask = next(), let value = next() else { return nil }
            return .bitwise(name, mask, comparison, value)
        case let .after(old):
            guard values.count >= old.count else { return nil }
            return .after(old.map { _ in next() ?? .null })
        case let .among(name, old):
            guard values.count >= old.count else { return nil }
            return .among(name, old.map { _ in next() ?? .null })
        case .key: return key().map { .key($0) }
        // The object a to-one names is of an entity its key alone does not tell.
        case .toOne: return nil
        case let .and(old): return parts(old).map { .and($0) }
        case let .or(old): return parts(old).map { .or($0) }
        case let .not(part): return part.replacingHeldValues(&values).map { .not($0) }
        case let .any(part): return part.replacingHeldValues(&values).map { .any($0) }
        case let .subquery(name, part, comparison, _):
            guard let part = part.replacingHeldValues(&values), let count = next() else { return nil }
            return .subquery(name, part, comparison, count)
        }
    }
}
