import FetchRequests
import Generation

extension ReferenceStore {
    /// A fetch of dictionaries, as SQLite answers it over the objects the request selects: each
    /// distinct combination of the items' values once, or one row a group of equal group keys (one
    /// for all the objects, even none, without GROUP BY), its aggregates as SQLite computes them
    /// (`COUNT` of values, `total`, `avg`, `min`, `max` ignoring NULLs), HAVING in three-valued
    /// logic; sorted by the request's keys, paged. Rows in any other order are sorted by value.
    func dictionaries(_ request: FetchRequest, _ fetch: DictionaryFetch) -> [ModelObject] {
        var all = request
        (all.mode, all.sort, all.limit, all.offset) = (.plain, [], nil, nil)
        let objects = self.fetch(all)
        let rowKeys = fetch.distinct ? fetch.items.map(\.key) : fetch.groupBy
        var rows: [(key: [Value], values: [Value])] = []
        if fetch.distinct {
            var seen = Set<[Value]>()
            for object in objects {
                let values = fetch.items.map { value(object, $0.key) }
                if seen.insert(values).inserted { rows.append((values, values)) }
            }
        } else {
            let groups = Dictionary(grouping: objects) { object in fetch.groupBy.map { value(object, $0) } }
            for key in fetch.groupBy.isEmpty ? [[]] : Array(groups.keys) {
                let members = groups[key] ?? []
                let aggregates = Dictionary(uniqueKeysWithValues: fetch.items.compactMap { item -> (String, Value)? in
                    guard case let .aggregate(function, name, label) = item else { return nil }
                    return (label, Self.aggregate(function, members.map { value($0, name) }))
                })
                guard fetch.having.map({ Self.truth($0, aggregates) == true }) ?? true else { continue }
                rows.append((key, fetch.items.map { item in
                    if case let .aggregate(_, _, label) = item { return aggregates[label] ?? .null }
                    return key[fetch.groupBy.firstIndex(of: item.key) ?? 0]
                }))
            }
        }
        // Sorted by the request's keys (the rows' keys), else by value.
        let positions = request.sort.map { key in rowKeys.firstIndex(of: key.attribute) ?? 0 }
        rows.sort { a, b in
            let order = request.sort.order(positions.map { a.key[$0] }, positions.map { b.key[$0] })
            return order == .orderedSame ? Self.valuesLess(a.values, b.values) : order == .orderedAscending
        }
        let start = min(rows.count, request.offset ?? 0), end = request.limit.map { min(rows.count, start + $0) } ?? rows.count
        return rows[start ..< end].map { ModelObject(id: ObjectID(entity: request.entity, key: 0), values: $0.values, toOne: []) }
    }

    /// SQLite's aggregate of `values` (NULLs ignored): `COUNT`, `total` (0.0 for none), `avg` (NULL
    /// for none), `min`, `max` (a sum of whole numbers is exact: the suite adds no reals).
    static func aggregate(_ function: DictionaryFetch.Function, _ values: [Value]) -> Value {
        let present = values.filter { !$0.isNull }
        func number(_ value: Value) -> Double { if case let .integer(n) = value { Double(n) } else if case let .real(x) = value { x } else { 0 } }
        switch function {
        case .count: return .integer(Int64(present.count))
        case .sum: return .real(present.reduce(0) { $0 + number($1) })
        case .average: return present.isEmpty ? .null : .real(present.reduce(0) { $0 + number($1) } / Double(present.count))
        case .min: return present.min(by: Value.sqliteLess) ?? .null
        case .max: return present.max(by: Value.sqliteLess) ?? .null
        }
    }

    /// HAVING's truth for a group's aggregates, in three-valued logic.
    static func truth(_ having: DictionaryFetch.Having, _ aggregates: [String: Value]) -> Bool? {
        switch having {
        case let .compare(name, comparison, wanted): return compare(aggregates[name] ?? .null, comparison, wanted)
        case let .and(parts): return and(parts.map { truth($0, aggregates) })
        case let .or(parts): return or(parts.map { truth($0, aggregates) })
        case let .not(part): return truth(part, aggregates).map { !$0 }
        }
    }

    /// Rows by value, column by column, in SQLite's order: the order rows are compared in when their own is not defined.
    static func valuesLess(_ a: [Value], _ b: [Value]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return Value.sqliteLess(x, y) }
        return a.count < b.count
    }
}
