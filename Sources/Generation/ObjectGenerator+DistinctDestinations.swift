import Models

/// A to-one under a uniqueness constraint of its own (`@Relationship(.unique) var avatar:
/// Avatar?`): each destination object is pointed at by one owner at most. The owners of the
/// relationship's declaring subtree are ranked by their slot, the ranks spread by a fixed
/// permutation, and owner rank r points at the destination subtree's object in slot r when there
/// is one; the others, and the relationship's null share, are NULL. So with fewer owners than
/// destinations every owner that is not NULL points somewhere; with more, the rest are NULL
/// (validation refuses a required one with more owners than destinations).
extension ObjectGenerator {
    /// The destination of the owner in `slot` of its hierarchy's stream, distinct from every other
    /// owner's, or `nil` (in `nullShare` of the owner's entity's objects).
    func distinctDestination(of relationship: Model.Relationship, nullShare: Double, slot: Int, _ rng: inout SplitMix64) -> ObjectID? {
        if nullShare > 0, rng.nextUnit() < nullShare { return nil }
        let owner = model.entities[relationship.owner]
        let owners = streams[owner.root].slots(of: owner.subtree)
        guard owners.contains(slot) else { return nil }
        let destination = model.entities[relationship.destination]
        let stream = streams[destination.root]
        let slots = stream.slots(of: destination.subtree)
        let rank = Self.spread(slot - owners.lowerBound, of: owners.count)
        guard rank < slots.count else { return nil }
        let target = slots.lowerBound + rank
        return ObjectID(entity: stream.entities[stream.entityIndex(ofSlot: target)], key: Int64(stream.position(ofSlot: target) + 1))
    }

    /// A permutation of `0 ..< n` (multiplication by a number coprime with `n` near 0.38 n), so that
    /// the owners left NULL when destinations run out are spread over the owner's sub-entities
    /// rather than being the last entity's objects.
    static func spread(_ rank: Int, of n: Int) -> Int {
        guard n > 1 else { return rank }
        var multiplier = max(1, Int(Double(n) * 0.381_966_011_25))
        while Stream.gcd(multiplier, n) != 1 { multiplier += 1 }
        return multiplier * rank % n
    }
}
