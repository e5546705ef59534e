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

        init(_ model: Model, _ assignment: SlotAssignment) {
            var used: [Int: Set<String>] = [:]
            for root in model.roots {
                let entity = model.entities[root]
                used[root] = Set(entity.attributes.map { $0.name.uppercased() } + entity.relationships.map { $0.name.uppercased() })
            }
            let kindAndSlots = Self.kindAndSlotNames(model, assignment, &used)
            kind = kindAndSlots.kind
            slots = kindAndSlots.slots
            toOneKind = Self.toOneKindNames(model, &used)
            kept = Self.keptNames(model, &used)
        }

        /// The name of `slot` in the enum entity of `root`.
        func name(of slot: Slot, in root: Int) -> String? {
            guard let names = slots[root]?[slot.kind.rawValue], names.indices.contains(slot.number - 1) else { return nil }
            return names[slot.number - 1]
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

        /// Per root with sub-entities: its `kind` attribute, then its slots.
        private static func kindAndSlotNames(_ model: Model, _ assignment: SlotAssignment, _ used: inout [Int: Set<String>])
            -> (kind: [Int: String], slots: [Int: [[String]]]) {
            var kindNames: [Int: String] = [:]
            var slotNames: [Int: [[String]]] = [:]
            for root in model.roots where model.entities[root].hasSubentities {
                kindNames[root] = allocate("kind", &used[root, default: []])
                slotNames[root] = Slot.Kind.allCases.map { kind in
                    let count = assignment.counts[root][kind.rawValue]
                    return count == 0 ? [] : (1 ... count).map { allocate("\(kind.prefix)\($0)", &used[root, default: []]) }
                }
            }
            return (kindNames, slotNames)
        }

        /// The entity-number attribute of each root's to-one whose destination has sub-entities.
        private static func toOneKindNames(_ model: Model, _ used: inout [Int: Set<String>]) -> [PropertyKey: String] {
            var names: [PropertyKey: String] = [:]
            for root in model.roots {
                for relationship in model.entities[root].relationships where !relationship.toMany && model.entities[relationship.destination].hasSubentities {
                    // A hidden to-one's name starts with a digit: the kind goes first, so that the attribute's name is one.
                    let base = relationship.name.count <= 55 && !relationship.isHidden ? relationship.name + "_kind" : "kind_" + relationship.name.prefix(50)
                    names[PropertyKey(relationship)] = allocate(base, &used[root, default: []])
                }
            }
            return names
        }

        /// Relationships kept as relationships: a root's to-ones, many-to-many ones, and one-to-many
        /// ones whose to-one side is declared by a root (a sub-entity's to-one is a slot).
        private static func keptNames(_ model: Model, _ used: inout [Int: Set<String>]) -> [PropertyKey: String] {
            var names: [PropertyKey: String] = [:]
            for entity in model.entities {
                for relationship in entity.ownRelationships {
                    let kept: Bool
                    if !relationship.toMany { kept = entity.isRoot }
                    else if relationship.isManyToMany { kept = true }
                    else { kept = model.inverse(of: relationship).map { model.entities[$0.owner].isRoot } ?? false }
                    guard kept else { continue }
                    names[PropertyKey(relationship)] = entity.isRoot ? relationship.name : allocate(relationship.name, &used[entity.root, default: []])
                }
            }
            return names
        }
    }
}
