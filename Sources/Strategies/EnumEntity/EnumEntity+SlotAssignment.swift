import Models

extension EnumEntity {
    /// The slots the sub-entities' own properties take: walking from the root's child down to an
    /// entity, each entity maps its own attributes (declaration order), then its own to-one
    /// relationships (the key, then the destination's entity number when the destination has
    /// sub-entities), onto the next free slot of their storage kind; so a property has the same slot
    /// in its whole declaring subtree, siblings reuse the same slots, and a table has as many slots
    /// of a kind as the entity that needs most. A root's own properties take no slot.
    struct SlotAssignment: Sendable {
        /// Per entity: the slot of each attribute it declares, in declaration order (none for a root).
        let attributes: [[Slot]]
        /// Per entity: the slots of each to-one relationship it declares, by name (none for a root).
        let toOnes: [[String: (key: Slot, entity: Slot?)]]
        /// Per root: how many slots of each kind (in `Slot.Kind` order) its table has; all zero for
        /// a root without sub-entities (and for every entity that is not a root).
        let counts: [[Int]]

        init(_ model: Model) {
            let entities = model.entities
            var after = Array(repeating: [0, 0, 0, 0], count: entities.count)
            var attributes = Array(repeating: [Slot](), count: entities.count)
            var toOnes = Array(repeating: [String: (key: Slot, entity: Slot?)](), count: entities.count)
            var counts = Array(repeating: [0, 0, 0, 0], count: entities.count)
            for entity in entities where !entity.isRoot {
                // The slots taken on the path from the root's child down to the parent.
                var counters = entity.parent.map { $0 == entity.root ? [0, 0, 0, 0] : after[$0] } ?? [0, 0, 0, 0]
                for attribute in entity.ownAttributes {
                    attributes[entity.index].append(Self.next(Slot.Kind(attribute.type.storage), &counters))
                }
                for relationship in entity.ownRelationships where !relationship.toMany {
                    let key = Self.next(.number, &counters)
                    let entitySlot = entities[relationship.destination].hasSubentities ? Self.next(.number, &counters) : nil
                    toOnes[entity.index][relationship.name] = (key, entitySlot)
                }
                after[entity.index] = counters
                for kind in 0 ..< 4 { counts[entity.root][kind] = max(counts[entity.root][kind], counters[kind]) }
            }
            self.attributes = attributes
            self.toOnes = toOnes
            self.counts = counts
        }

        /// The column of `slot` in the table of `root`, whose added columns are its slots, kind by
        /// kind (in `Slot.Kind` order), each kind's in number order.
        func column(_ slot: Slot, in root: StoredRoot) -> String {
            root.added[counts[root.root].prefix(slot.kind.rawValue).reduce(0, +) + slot.number - 1]
        }

        /// The next free slot of `kind`, counted in `counters`.
        private static func next(_ kind: Slot.Kind, _ counters: inout [Int]) -> Slot {
            counters[kind.rawValue] += 1
            return Slot(kind: kind, number: counters[kind.rawValue])
        }
    }
}
