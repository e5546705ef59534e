import Models

extension EnumEntity {
    /// The names of the properties the stored model adds or renames, each the first spelling no
    /// other property of its entity takes (`allocate`): an enum entity's `kind` attribute and its
    /// slots, a root's `<name>_kind` beside a to-one whose destination has sub-entities, and the
    /// sub-entities' relationships kept as the enum entity's.
    struct SlotNames: Sendable {
        /// Per root with sub-entities: its `kind` attribute.
        let kind: [Int: String]
        /// Per root with sub-entities: its slots, per kind (in `Slot.Kind` order), slot `n` at `n - 1`.
        let slots: [Int: [[String]]]
        /// Per to-one relationship of a root whose destination has sub-entities: its integer attribute
        /// holding the destination's entity number.
        let toOneKind: [PropertyKey: String]
        /// Per relationship kept as a relationship: its name in the stored model (a root's own, as
        /// declared; a sub-entity's, made unique in the enum entity).
        let kept: [PropertyKey: String]

        /// Root by root, each name claimed in turn: the kind, the slots (kind by kind, in number
        /// order), the root's to-ones' entity-number attributes, the sub-entities' kept relationships.
        init(_ model: Model, _ assignment: SlotAssignment) {
            var kind: [Int: String] = [:], slots: [Int: [[String]]] = [:], toOneKind: [PropertyKey: String] = [:], kept: [PropertyKey: String] = [:]
            for root in model.roots {
                let entity = model.entities[root]
                var used = Set(entity.attributes.map { $0.name.uppercased() } + entity.relationships.map { $0.name.uppercased() })
                if entity.hasSubentities {
                    kind[root] = Self.allocate("kind", &used)
                    slots[root] = Slot.Kind.allCases.map { slot in
                        let count = assignment.counts[root][slot.rawValue]
                        return count == 0 ? [] : (1 ... count).map { Self.allocate("\(slot.prefix)\($0)", &used) }
                    }
                }
                for relationship in entity.relationships where !relationship.toMany && model.entities[relationship.destination].hasSubentities {
                    // A hidden to-one's name starts with a digit: the kind goes first, so that the attribute's name is one.
                    let base = relationship.name.count <= 55 && !relationship.isHidden ? relationship.name + "_kind" : "kind_" + relationship.name.prefix(50)
                    toOneKind[PropertyKey(relationship)] = Self.allocate(base, &used)
                }
                for relationship in entity.subtree.flatMap({ model.entities[$0].ownRelationships }) where Self.isKept(relationship, model) {
                    kept[PropertyKey(relationship)] = relationship.owner == root ? relationship.name : Self.allocate(relationship.name, &used)
                }
            }
            self.kind = kind
            self.slots = slots
            self.toOneKind = toOneKind
            self.kept = kept
        }

        /// Whether a relationship is kept as one: a root's to-one, a many-to-many one, a one-to-many
        /// one whose to-one side is declared by a root (a sub-entity's to-one is a slot).
        private static func isKept(_ relationship: Model.Relationship, _ model: Model) -> Bool {
            if !relationship.toMany { return model.entities[relationship.owner].isRoot }
            return relationship.isManyToMany || model.inverse(of: relationship).map { model.entities[$0.owner].isRoot } ?? false
        }

        /// What the stored model adds or renames, as `OneEntityModel` takes it: per root with
        /// sub-entities its `kind`, its slots (kind by kind) and its `byKind` fetch index on the kind.
        func stored(_ model: Model) -> OneEntityModel.Names {
            var stored = OneEntityModel.Names(relationships: kept, toOneKinds: toOneKind)
            for (root, kind) in self.kind {
                stored.kind[root] = kind
                stored.added[root] = zip(Slot.Kind.allCases, slots[root] ?? []).flatMap { slot, names in names.map { Attribute($0, slot.type, optional: true) } }
                var indexNames = Set(model.entities[root].fetchIndexes.map { $0.name.uppercased() })
                stored.indexes[root] = [FetchIndex(Self.allocate("byKind", &indexNames), [FetchIndex.Element(property: kind)])]
            }
            return stored
        }

        /// `base`, else `base_`, `base_2`, … : the first spelling no property of the entity takes (without case).
        static func allocate(_ base: String, _ used: inout Set<String>) -> String {
            var name = base
            var suffix = 1
            while used.contains(name.uppercased()) {
                name = String(base.prefix(55)) + (suffix == 1 ? "_" : "_\(suffix)")
                suffix += 1
            }
            used.insert(name.uppercased())
            return name
        }
    }
}
