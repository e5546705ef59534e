import Models

extension JSONEntity {
    /// The names the stored model gives what it adds or renames: each relationship's stored name
    /// (a sub-entity's, when a sibling took it, with a counting suffix), each JSON entity's `kind`
    /// and `details` attributes, and the `<name>Kind` attribute of each to-one whose destination
    /// has sub-entities; within a root, no two names equal up to case.
    struct StoredNames: Sendable {
        /// Per relationship (by declaring entity): its name in the stored model.
        private(set) var relationships: [PropertyKey: String] = [:]
        /// Per to-one whose destination has sub-entities: the attribute holding its entity number.
        private(set) var entityAttributes: [PropertyKey: String] = [:]
        /// Per root with sub-entities: its `kind` and `details` attributes.
        private(set) var kind: [Int: String] = [:]
        private(set) var details: [Int: String] = [:]

        init(_ model: Model) throws {
            for root in model.roots { try name(root, model) }
        }

        /// The names of `root`'s stored entity.
        private mutating func name(_ root: Int, _ model: Model) throws {
            let entities = model.entities
            let info = entities[root]
            var used = Set(info.ownAttributes.map { $0.name.uppercased() } + info.ownRelationships.map { $0.name.uppercased() })
            func unique(_ base: String) -> String {
                var candidate = String(base.prefix(60))
                var suffix = 1
                while used.contains(candidate.uppercased()) {
                    let digits = String(suffix)
                    candidate = String(base.prefix(60 - digits.count)) + digits
                    suffix += 1
                }
                used.insert(candidate.uppercased())
                return candidate
            }
            for relationship in info.ownRelationships { relationships[PropertyKey(relationship)] = relationship.name }
            if info.hasSubentities {
                for entity in info.subtree.dropFirst() {
                    for relationship in entities[entity].ownRelationships { relationships[PropertyKey(relationship)] = unique(relationship.name) }
                }
                kind[root] = unique("kind")
                details[root] = unique("details")
            }
            for entity in info.hasSubentities ? info.subtree : root ... root {
                for relationship in entities[entity].relationships where relationship.owner == entity && !relationship.toMany
                    && entities[relationship.destination].hasSubentities {
                    let stored = try JSONEntity.need(relationships[PropertyKey(relationship)], "stored name of \(relationship.name)")
                    // A hidden to-one's name starts with a digit: the kind goes first, so that the attribute's name is one.
                    entityAttributes[PropertyKey(relationship)] = unique(relationship.isHidden ? "kind" + stored : stored + "Kind")
                }
            }
        }
    }
}
