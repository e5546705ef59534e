extension ModelDescription {
    /// The same model with `total` objects in its inheritance hierarchies (the roots that have
    /// sub-entities; every root when none has), shared out in proportion to the described rows by
    /// largest remainders, so the counts add up exactly (ties go to the earlier entity). Entities
    /// outside those hierarchies (tags, owners) keep their rows.
    public func scaled(to total: Int) -> ModelDescription {
        let parents = Set(entities.compactMap(\.parent))
        var rootOf: [String: String] = [:]
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            var current = entity
            var seen: Set<String> = [entity.name]
            while let parent = current.parent, let next = byName[parent], seen.insert(parent).inserted { current = next }
            rootOf[entity.name] = current.name
        }
        let inheritingRoots = Set(entities.filter { parents.contains($0.name) && $0.parent == nil }.map(\.name))
        let scaledPositions = entities.indices.filter { position in
            let entity = entities[position]
            return !entity.abstract && (inheritingRoots.isEmpty || inheritingRoots.contains(rootOf[entity.name] ?? ""))
        }
        let described = scaledPositions.map { Double(max(0, entities[$0].rows ?? 0)) }
        let sum = described.reduce(0, +)
        guard sum > 0, total >= 0 else { return self }
        let exact = described.map { $0 * Double(total) / sum }
        var counts = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { (exact[$0] - Double(counts[$0]), -$0) > (exact[$1] - Double(counts[$1]), -$1) }
        for index in order.prefix(max(0, total - counts.reduce(0, +))) { counts[index] += 1 }
        var copy = self
        for (position, count) in zip(scaledPositions, counts) { copy.entities[position].rows = count }
        return copy
    }
}
