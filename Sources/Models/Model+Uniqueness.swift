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

    /// The to-one of a constraint that names no attribute able to take a distinct value
    /// (`@Relationship(.unique) var avatar: Avatar?`, or `[avatar, isMain]`): its first to-one,
    /// whose destinations the generator makes distinct instead. `nil` when the constraint has such
    /// an attribute (that one is made distinct) or no to-one.
    public func distinctToOne(of constraint: [String], in entity: Int) -> String? {
        guard distinctAttribute(of: constraint, in: entity) == nil else { return nil }
        let toOnes = Set(entities[entity].toOneRelationships.map(\.name))
        return constraint.first { toOnes.contains($0) }
    }

    /// Whether the generator gives every object of `relationship`'s owner subtree a destination of
    /// its own (or NULL): some entity of that subtree has a constraint whose distinct to-one it is.
    /// One-to-one relationships pair their objects one to one already.
    public func generatesDistinctDestinations(_ relationship: Relationship) -> Bool {
        guard !relationship.toMany, !relationship.isOneToOne else { return false }
        return entities[relationship.owner].subtree.contains { entity in
            constraints(of: entity).contains { distinctToOne(of: $0, in: entity) == relationship.name }
        }
    }

    /// The attribute whose values make the main hierarchy's order total: the order's last element
    /// (unique by validation). The generator never leaves it NULL, so that the ordered reads, and
    /// their pages, have one answer (SQLite, like Core Data, leaves the order of equal keys undefined).
    public var orderKey: String? { order?.last?.property }
}
