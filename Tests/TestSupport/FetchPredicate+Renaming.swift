import FetchRequests

extension FetchPredicate {
    /// The predicate with every key it names (an attribute, a key path, a relationship) renamed by
    /// `rename`: a SUBQUERY's predicate read relative to the objects it counts.
    func renamingKeys(_ rename: (String) -> String) -> FetchPredicate {
        switch self {
        case .all, .after, .key, .keyInList: self
        case let .equals(name, value): .equals(rename(name), value)
        case let .range(name, lower, upper): .range(rename(name), lower, upper)
        case let .toOne(name, object): .toOne(rename(name), object)
        case let .anyRelated(name, attribute, value): .anyRelated(rename(name), attribute, value)
        case let .toOneInList(name): .toOneInList(rename(name))
        case let .compare(name, comparison, value): .compare(rename(name), comparison, value)
        case let .isNil(name, negated): .isNil(rename(name), negated: negated)
        case let .among(name, values): .among(rename(name), values)
        case let .between(name, lower, upper): .between(rename(name), lower, upper)
        case let .string(name, op, value, options): .string(rename(name), op, value, options)
        case let .countOf(name, comparison, value): .countOf(rename(name), comparison, value)
        case let .holds(name, value): .holds(rename(name), value)
        case let .bitwise(name, mask, comparison, value): .bitwise(rename(name), mask, comparison, value)
        case let .stringCompare(name, comparison, value, options): .stringCompare(rename(name), comparison, value, options)
        case let .compareKeys(name, comparison, other): .compareKeys(rename(name), comparison, rename(other))
        case let .subquery(name, inner, comparison, value): .subquery(rename(name), inner.renamingKeys(rename), comparison, value)
        case let .and(parts): .and(parts.map { $0.renamingKeys(rename) })
        case let .or(parts): .or(parts.map { $0.renamingKeys(rename) })
        case let .not(inner): .not(inner.renamingKeys(rename))
        case let .any(inner): .any(inner.renamingKeys(rename))
        }
    }
}
