/// What a model's uniqueness constraints ask of its values: which attributes the generator makes
/// distinct, and the key that makes the ordered reads a total order.
extension Model {
    /// Whether `attribute` of `entity` alone is under a uniqueness constraint declared by the entity or an ancestor.
    public func isUnique(_ attribute: String, of entity: Int) -> Bool {
        constraints(of: entity).contains([attribute])
    }

    /// The uniqueness constraints that bind `entity`'s objects: its own and its ancestors'.
    public func constraints(of entity: Int) -> [[String]] {
        var found: [[String]] = []
        var current: Int? = entity
        while let index = current {
            found += entities[index].uniquenessConstraints
            current = entities[index].parent
        }
        return found
    }

    /// The attribute of a constraint whose values the generator makes distinct, so that every
    /// object satisfies it: the constraint's first attribute that can hold a distinct value per
    /// object (not a boolean, not a relationship). `nil` when it has none.
    public func distinctAttribute(of constraint: [String], in entity: Int) -> String? {
        constraint.first { name in entities[entity].attribute(name).map { $0.type != .boolean } ?? false }
    }

    /// Whether the generator gives `attribute` of `entity` a distinct value in every object: it
    /// carries a uniqueness constraint (its own, or a compound one it leads; see `distinctAttribute`).
    public func generatesDistinctValues(_ attribute: String, of entity: Int) -> Bool {
        constraints(of: entity).contains { distinctAttribute(of: $0, in: entity) == attribute }
    }

    /// The attribute whose values make the main hierarchy's order total: the order's last element
    /// (unique by validation). The generator never leaves it NULL, so that the ordered reads, and
    /// their pages, have one answer (SQLite, like Core Data, leaves the order of equal keys undefined).
    public var orderKey: String? { order?.last?.property }
}
