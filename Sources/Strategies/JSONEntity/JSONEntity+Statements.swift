import FetchRequests
import Generation
import Models
import SQLite

/// Each statement of `JSONEntity`, derived from its layout.
extension JSONEntity {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    /// The properties of the fetched entity a predicate compares (for the partial indexes it may
    /// use): of a key path, the to-one it starts with.
    private static func properties(_ predicate: FetchPredicate, sort: [SortKey]) -> Set<String> {
        switch predicate {
        case let .toOne(name, _), let .toOneInList(name): return [name]
        case .after: return Set(sort.map(\.attribute))
        default:
            let compared = Set(predicate.comparedAttributes.map { String($0.prefix { $0 != "." }) })
            return predicate.parts.reduce(into: compared) { $0.formUnion(properties($1, sort: sort)) }
        }
    }

    /// The entity filter: none for a whole table, `t0.ZKIND BETWEEN a AND b` for a subtree, `t0.ZKIND = n`
    /// for one entity (literal numbers, so that SQLite can match partial indexes); then the `WHERE` of
    /// every partial index on a wider subtree that covers a property the request compares or sorts by.
    func entityTerms(_ request: FetchRequest) -> (sql: [String], values: [Value]) {
        let info = model.entities[request.entity]
        guard let kind = kindColumn(info.index) else { return ([], []) }
        let range = request.includesSubentities ? info.subtree : info.index ... info.index
        guard range != model.entities[info.root].subtree else { return ([], []) }
        var terms = [JSONEntity.kindTerm(range, column: "t0.\(kind)")]
        let used = Self.properties(request.predicate, sort: request.sort).union(request.sort.map { String($0.attribute.prefix { $0 != "." }) })
        guard !used.isEmpty else { return (terms, []) }
        for index in partialIndexes where index.root == info.root && index.subtree != range
            && index.subtree.contains(range.lowerBound) && index.subtree.contains(range.upperBound) && !index.properties.isDisjoint(with: used) {
            let term = JSONEntity.kindTerm(index.subtree, column: "t0.\(kind)")
            if !terms.contains(term) { terms.append(term) }
        }
        return (terms, [])
    }

    /// The select list and decoder of a fetch of `request`'s entity, whatever the request: the
    /// columns of its whole subtree's concrete entities.
    func selection(_ request: FetchRequest) throws -> (list: String, decoder: RowDecoder) { readers[request.entity] }
}
