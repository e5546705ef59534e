extension FetchPredicate {
    /// How many `ANY relationship.attribute == value` conditions the predicate holds (each joins two tables).
    var relatedCount: Int {
        switch self {
        case .anyRelated: 1
        case let .and(predicates): predicates.reduce(0) { $0 + $1.relatedCount }
        default: 0
        }
    }
}
