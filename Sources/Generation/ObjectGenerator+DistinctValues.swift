import Models

/// Values that follow a measured distinct share (`Attribute.distinctShare`, a store's shape): the
/// objects that carry the attribute (its declaring entity's subtree, a contiguous run of slots)
/// are dealt round-robin into `D` groups by slot, `D` the share of the non-NULL values they are
/// expected to hold; each group's value is made once from a stream of its own, so the objects of
/// a group share it and the attribute holds about `D` distinct values at any scale (fewer only
/// where the type's values are fewer, a boolean's two, or two groups draw the same value).
extension ObjectGenerator {
    /// One attribute's groups: how many, the first slot of the objects that carry it, its stream's salt.
    struct ValueGroups: Sendable {
        let count: Int
        let firstSlot: Int
        let salt: UInt64

        /// The group of the object in `slot`.
        func group(ofSlot slot: Int) -> Int { (slot - firstSlot) % count }
    }

    /// Per entity, per attribute: its groups, when the attribute has a distinct share to follow
    /// (not for an attribute whose values are unique, nor for an order key or the key the ordered reads sort by).
    static func valueGroups(_ model: Model, streams: [Stream]) -> [[ValueGroups?]] {
        model.entities.map { entity in
            entity.attributes.enumerated().map { position, attribute in
                let owner = model.entities[entity.attributeOwners[position]]
                let readsOrder = owner.index == model.mainRoot && attribute.name == model.orderKey
                guard let share = attribute.distinctShare, !attribute.isOrderKey, !readsOrder, !model.generatesDistinctValues(attribute.name, of: entity.index) else { return nil }
                let carriers = streams[owner.index].slots(of: owner.subtree)
                let nonNull = Double(carriers.count) * (1 - attribute.effectiveNullShare)
                let count = min(carriers.count, max(1, Int((share * nonNull).rounded())))
                guard count > 0 else { return nil }
                return ValueGroups(count: count, firstSlot: carriers.lowerBound, salt: stableHash(owner.name + "." + attribute.name))
            }
        }
    }

    /// The value of `maker` for the object in `slot`: NULL as the object's own value is, else its
    /// group's value. The object's own value is still drawn, so that the draws of the attributes
    /// after it, and their NULLs, are the same as without the share.
    func groupedValue(_ maker: ValueMaker, _ groups: ValueGroups, key: Int64, slot: Int, _ rng: inout SplitMix64) -> Value {
        guard maker.make(key: key, &rng) != .null else { return .null }
        let group = groups.group(ofSlot: slot)
        var shared = SplitMix64(seed: seed ^ groups.salt, stream: UInt64(group))
        return maker.value(key: Int64(group + 1), from: &shared)
    }
}
