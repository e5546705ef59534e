import Models

extension JSONEntity {
    /// The names the stored model gives what it adds or renames: each relationship's stored name
    /// (a sub-entity's, when a sibling took it, with a counting suffix), each JSON entity's `kind`
    /// and `details` attributes, and the `<name>Kind` attribute of each to-one whose destination
    /// has sub-entities; within a root, no two names equal up to case. Every relationship is kept.
    static func storedNames(_ model: Model) -> OneEntityModel.Names {
        var names = OneEntityModel.Names()
        let entities = model.entities
        for root in model.roots {
            let info = entities[root]
            var used = Set(info.ownAttributes.map { $0.name.uppercased() } + info.ownRelationships.map { $0.name.uppercased() })
            func unique(_ base: String) -> String {
                var candidate = String(base.prefix(Model.longestName))
                var suffix = 1
                while used.contains(candidate.uppercased()) {
                    let digits = String(suffix)
                    candidate = String(base.prefix(Model.longestName - digits.count)) + digits
                    suffix += 1
                }
                used.insert(candidate.uppercased())
                return candidate
            }
            var relationships = info.ownRelationships.map { ($0, $0.name) }
            if info.hasSubentities {
                relationships += info.subtree.dropFirst().flatMap { entities[$0].ownRelationships }.map { ($0, unique($0.name)) }
                names.kind[root] = unique("kind")
                names.added[root] = [Attribute(unique("details"), .string)]
            }
            for (relationship, name) in relationships {
                names.relationships[PropertyKey(relationship)] = name
                guard !relationship.toMany, entities[relationship.destination].hasSubentities else { continue }
                // A hidden to-one's name starts with a digit: the kind goes first, so that the attribute's name is one.
                names.toOneKinds[PropertyKey(relationship)] = unique(relationship.isHidden ? "kind" + name : name + "Kind")
            }
        }
        return names
    }
}
