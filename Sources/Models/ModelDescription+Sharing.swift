extension ModelDescription {
    /// The same model with `total` objects shared among all its concrete entities, those of roots
    /// without sub-entities too: evenly, or in proportion to `weights` (entity name → a positive
    /// weight; entities not named get none), by largest remainders so the counts add up exactly
    /// (ties go to the earlier entity). This is how an Xcode model, which has no rows, gets them.
    public func sharing(_ total: Int, weights: [String: Double]? = nil) throws -> ModelDescription {
        let concrete = entities.indices.filter { !entities[$0].abstract }
        if let weights {
            let names = concrete.map { entities[$0].name }
            let listed = names.joined(separator: ", ")
            for (name, weight) in weights.sorted(by: { $0.key < $1.key }) {
                guard let entity = entities.first(where: { $0.name == name }) else {
                    throw ModelError("--mix names '\(name)', which the model does not declare; its concrete entities: \(listed)")
                }
                guard !entity.abstract else {
                    throw ModelError("--mix names '\(name)', which is abstract (it has no objects of its own); weigh its concrete entities: \(listed)")
                }
                guard weight.isFinite, weight > 0 else { throw ModelError("--mix weight of '\(name)' must be a positive number; got \(weight)") }
            }
        }
        let described = concrete.map { weights == nil ? 1 : weights?[entities[$0].name] ?? 0 }
        let sum = described.reduce(0, +)
        guard sum.isFinite else { throw ModelError("--mix weights add up to more than the largest number (about 1.8e308); give smaller weights, such as Book=3,Film=1") }
        var copy = self
        guard sum > 0, total >= 0 else { return copy }
        // A huge weight times `total` overflows where its share does not; other weights keep the
        // arithmetic (and so the counts) of earlier versions.
        let exact = described.map { ($0 * Double(total)).isFinite ? $0 * Double(total) / sum : $0 / sum * Double(total) }
        var counts = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { (exact[$0] - Double(counts[$0]), -$0) > (exact[$1] - Double(counts[$1]), -$1) }
        for index in order.prefix(max(0, total - counts.reduce(0, +))) { counts[index] += 1 }
        for position in entities.indices where entities[position].abstract { copy.entities[position].rows = nil }
        for (position, count) in zip(concrete, counts) { copy.entities[position].rows = count }
        return copy
    }

    /// The same model with every many-to-many pair's generating side (as `Model` picks it) linking
    /// each object to `fanOut.min ... fanOut.max` destinations. The model must validate.
    public func withFanOut(_ fanOut: FanOut) throws -> ModelDescription {
        let model = try Model(self)
        var copy = self
        for entity in model.entities {
            for relationship in entity.ownRelationships where relationship.isManyToMany && relationship.generatesLinks {
                guard let position = copy.entities.firstIndex(where: { $0.name == entity.name }),
                      let declared = copy.entities[position].relationships.firstIndex(where: { $0.name == relationship.name }) else { continue }
                copy.entities[position].relationships[declared].count = fanOut
            }
        }
        _ = try Model(copy)
        return copy
    }
}
