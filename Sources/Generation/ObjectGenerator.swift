import Foundation
import Models

/// Generates a model's objects as streams, one per root hierarchy: object `j` of a hierarchy
/// depends only on the seed, the model and `j`, so memory does not grow with the scale and any
/// object can be made on its own. Its key (`Z_PK` in every store) is `j + 1`.
///
/// Within a hierarchy, objects of every concrete entity are interleaved: object `j` takes slot
/// `(a·j + c) mod n` of the concrete entities' consecutive slot ranges (entity-number order, `a`
/// coprime with `n`), so every prefix of the stream mixes the types while each entity gets
/// exactly its rows. Because a subtree's concrete entities are consecutive in entity-number
/// order, "an object of entity E or its sub-entities" is a contiguous range of slots, which
/// makes a relationship's random destination one draw and one inversion of the permutation.
public struct ObjectGenerator: Sendable {
    public let model: Model
    public let seed: UInt64
    /// Per entity: the stream of its root's hierarchy.
    let streams: [Stream]
    /// Per entity: the value maker of each attribute.
    private let makers: [[ValueMaker]]
    /// Per entity: each order key attribute's position and the position of its to-one.
    private let orderKeys: [[(attribute: Int, toOne: Int)]]
    /// Per entity, per relationship (`relationships` order): whether it is a to-one whose owners
    /// each get a destination of their own (`distinctDestination`).
    private let distinctToOnes: [[Bool]]
    /// Per entity, per attribute: the groups that follow a measured distinct share (`valueGroups`).
    private let valueGroups: [[ValueGroups?]]
    /// The to-ones (`"<declaring entity index>.<name>"`) that an entity of their declaring subtree
    /// gives a NULL share of its own (`linkedByEntity`).
    let sharedByEntity: Set<String>

    struct Stream: Sendable {
        /// Concrete entities of the hierarchy, in entity-number order, and the first slot of each.
        let entities: [Int]
        let starts: [Int]
        let count: Int
        let multiplier: Int
        let inverse: Int
        let offset: Int

        init(model: Model, root: Int, seed: UInt64) {
            entities = model.concreteEntities(in: model.entities[root].subtree)
            var starts = [0]
            var total = 0
            for entity in entities {
                total += model.entities[entity].rows
                starts.append(total)
            }
            self.starts = starts
            count = total
            var multiplier = max(1, Int(Double(count) * 0.618_033_988_75))
            while Self.gcd(multiplier, max(count, 1)) != 1 { multiplier += 1 }
            self.multiplier = multiplier
            inverse = count > 1 ? Self.modularInverse(multiplier, count) : 0
            offset = count > 0 ? Int(seed % UInt64(count)) : 0
        }

        static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

        static func modularInverse(_ a: Int, _ n: Int) -> Int {
            var (t, newT, r, newR) = (0, 1, n, a % n)
            while newR != 0 {
                let q = r / newR
                (t, newT) = (newT, t - q * newT)
                (r, newR) = (newR, r - q * newR)
            }
            return t < 0 ? t + n : t
        }

        func slot(_ position: Int) -> Int { (multiplier * position % count + offset) % count }
        func position(ofSlot slot: Int) -> Int { count > 1 ? inverse * ((slot - offset + count) % count) % count : 0 }

        /// Index in `entities` of the entity that owns `slot`.
        func entityIndex(ofSlot slot: Int) -> Int {
            var low = 0, high = entities.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= slot { low = middle } else { high = middle - 1 }
            }
            return low
        }

        /// The slots of the objects of a subtree (its concrete entities are consecutive).
        func slots(of subtree: ClosedRange<Int>) -> Range<Int> {
            guard let first = entities.firstIndex(where: subtree.contains), let last = entities.lastIndex(where: subtree.contains) else { return 0 ..< 0 }
            return starts[first] ..< starts[last + 1]
        }
    }

    public init(_ model: Model, seed: UInt64) {
        self.model = model
        self.seed = seed
        let byRoot = Dictionary(uniqueKeysWithValues: model.roots.map { ($0, Stream(model: model, root: $0, seed: seed)) })
        // Every entity's root is one of the roots; the fallback builds the same stream again.
        streams = model.entities.map { byRoot[$0.root] ?? Stream(model: model, root: $0.root, seed: seed) }
        makers = model.entities.map { entity in
            entity.attributes.enumerated().map { position, attribute in
                let orderKey = entity.attributeOwners[position] == model.mainRoot && attribute.name == model.orderKey
                return ValueMaker(attribute, unique: model.generatesDistinctValues(attribute.name, of: entity.index), neverNull: orderKey,
                                  nullShare: entity.nullShare(ofAttributeAt: position))
            }
        }
        distinctToOnes = model.entities.map { $0.relationships.map(model.generatesDistinctDestinations) }
        valueGroups = Self.valueGroups(model, streams: streams)
        sharedByEntity = Set(model.entities.flatMap { entity in
            entity.toOneRelationships.filter { entity.nullShares[$0.name] != nil }.map { "\($0.owner).\($0.name)" }
        })
        orderKeys = model.entities.map { entity in
            entity.attributes.indices.compactMap { position in
                guard let toOne = entity.attributes[position].orderKeyOf,
                      let index = entity.toOneRelationships.firstIndex(where: { $0.name == toOne }) else { return nil }
                return (position, index)
            }
        }
    }

    /// Objects in the hierarchy of `root`.
    public func count(root: Int) -> Int { streams[root].count }
    /// The concrete entity of object `position` of the hierarchy of `root`.
    public func entity(root: Int, at position: Int) -> Int {
        let stream = streams[root]
        return stream.entities[stream.entityIndex(ofSlot: stream.slot(position))]
    }

    /// The object at `position` (0-based) of the hierarchy of `root`; its key is `position + 1`.
    public func object(root: Int, at position: Int) -> ModelObject {
        let stream = streams[root]
        precondition((0 ..< stream.count).contains(position), "object \(position) is outside 0..<\(stream.count)")
        let slot = stream.slot(position)
        let entityIndex = stream.entities[stream.entityIndex(ofSlot: slot)]
        let entity = model.entities[entityIndex]
        let key = Int64(position + 1)
        var rng = SplitMix64(seed: seed, stream: UInt64(root) << 40 ^ UInt64(position))
        var values = zip(makers[entityIndex], valueGroups[entityIndex]).map { maker, groups in
            groups.map { groupedValue(maker, $0, key: key, slot: slot, &rng) } ?? maker.make(key: key, &rng)
        }
        var toOne: [ObjectID?] = []
        var links: [[ObjectID]] = []
        for (index, relationship) in entity.relationships.enumerated() {
            if relationship.isOneToOne {
                toOne.append(partner(of: relationship, root: root, slot: slot))
            } else if distinctToOnes[entityIndex][index] {
                toOne.append(distinctDestination(of: relationship, nullShare: entity.nullShare(of: relationship), slot: slot, &rng))
            } else if !relationship.toMany, let shape = shapedFanOut(of: relationship) {
                toOne.append(shapedDestination(of: relationship, following: shape, root: root, slot: slot))
            } else if !relationship.toMany {
                let nullShare = entity.nullShare(of: relationship)
                if nullShare > 0, rng.nextUnit() < nullShare { toOne.append(nil); continue }
                toOne.append(destination(of: relationship, &rng))
            } else if relationship.isManyToMany, relationship.generatesLinks, let shape = relationship.fanOut {
                links.append(shapedLinks(of: relationship, following: shape, root: root, slot: slot))
            } else if relationship.isManyToMany, relationship.generatesLinks {
                var counter = SplitMix64(seed: seed, stream: UInt64(root) << 40 ^ UInt64(position) ^ 0x5EED_11C5 << 44)
                let count = linkCount(relationship, &counter)
                var chosen: [ObjectID] = []
                var attempts = 0
                while chosen.count < count, attempts < 50 * count {
                    attempts += 1
                    if let target = destination(of: relationship, &rng), !chosen.contains(target) { chosen.append(target) }
                }
                links.append(chosen)
            }
        }
        // An ordered to-many's order key: the members in the order they were added (by key), spaced
        // 1024 apart from 2048 as Core Data spaces them; NULL when the object is in no set.
        for (attribute, position) in orderKeys[entityIndex] {
            values[attribute] = toOne[position] == nil ? .null : .integer(Self.orderKey(key))
        }
        return ModelObject(id: ObjectID(entity: entityIndex, key: key), values: values, toOne: toOne, links: links)
    }

    /// The attribute values of a new object of `entity` with `key`, one beyond the objects (a
    /// save's insert, an update's new values): made as any object's (a unique attribute's from the
    /// key), an order key left NULL.
    public func newValues(entity: Int, key: Int64) -> [Value] {
        var rng = SplitMix64(seed: seed, stream: 0x5A7E << 48 ^ UInt64(entity) << 40 ^ UInt64(truncatingIfNeeded: key))
        var values = makers[entity].map { $0.make(key: key, &rng) }
        for (attribute, _) in orderKeys[entity] { values[attribute] = .null }
        return values
    }

    /// The order key of the member with `key` in an ordered relationship (a to-one's `Z_FOK_`
    /// column, an ordered many-to-many's join table): by key, 1024 apart from 2048 (key 1).
    public static func orderKey(_ key: Int64) -> Int64 { 1_024 * (key + 1) }

    /// The destinations a many-to-many relationship can reach: every object of its destination's subtree.
    public func destinationCount(_ relationship: Model.Relationship) -> Int {
        let destination = model.entities[relationship.destination]
        return streams[destination.root].slots(of: destination.subtree).count
    }

    /// How many links the generating side gives one object (capped by the destinations there are).
    private func linkCount(_ relationship: Model.Relationship, _ rng: inout SplitMix64) -> Int {
        let span = relationship.count.max - relationship.count.min + 1
        return min(destinationCount(relationship), relationship.count.min + Int(rng.next() % UInt64(span)))
    }

    /// A random object of the relationship's destination subtree: uniform, or Zipf-popular by slot rank.
    private func destination(of relationship: Model.Relationship, _ rng: inout SplitMix64) -> ObjectID? {
        let destination = model.entities[relationship.destination]
        let stream = streams[destination.root]
        let slots = stream.slots(of: destination.subtree)
        guard !slots.isEmpty else { return nil }
        let rank = Self.rank(rng.nextUnit(), of: slots.count, exponent: relationship.popularity)
        let slot = slots.lowerBound + rank
        let position = stream.position(ofSlot: slot)
        return ObjectID(entity: stream.entities[stream.entityIndex(ofSlot: slot)], key: Int64(position + 1))
    }

    /// The partner of the object in `slot` of `root`'s stream through a one-to-one relationship.
    /// The generating side's objects (of its declaring subtree, where the inverse can point) and
    /// the other side's (of its destination's subtree, likewise) are paired by rank in their slot
    /// ranges: rank i with rank (i + 1) mod m, m the smaller of the two counts (i with i ^ 1 for a
    /// relationship that is its own inverse), so both sides compute the same pairs and A.b is B
    /// exactly when B.a is A. A pair is absent in the generating side's null share of the pairs.
    private func partner(of relationship: Model.Relationship, root: Int, slot: Int) -> ObjectID? {
        guard let inverse = model.inverse(of: relationship) else { return nil }
        let (generating, other) = relationship.generatesLinks ? (relationship, inverse) : (inverse, relationship)
        /// Of two nested subtrees, the inner one's root entity.
        func inner(_ a: Int, _ b: Int) -> Int { model.entities[a].subtree.contains(b) ? b : a }
        let aTree = model.entities[inner(generating.owner, other.destination)]
        let bTree = model.entities[inner(generating.destination, other.owner)]
        let aStream = streams[aTree.root], bStream = streams[bTree.root]
        let aSlots = aStream.slots(of: aTree.subtree), bSlots = bStream.slots(of: bTree.subtree)
        let m = min(aSlots.count, bSlots.count)
        let reflexive = generating.owner == other.owner && generating.name == other.name
        func present(_ rank: Int) -> Bool {
            guard generating.nullShare > 0 else { return true }
            var rng = SplitMix64(seed: seed, stream: Self.stableHash(generating.name) ^ UInt64(generating.owner) << 48 ^ UInt64(rank))
            return rng.nextUnit() >= generating.nullShare
        }
        func object(_ stream: Stream, _ slot: Int) -> ObjectID {
            ObjectID(entity: stream.entities[stream.entityIndex(ofSlot: slot)], key: Int64(stream.position(ofSlot: slot) + 1))
        }
        if reflexive {
            guard root == aTree.root, aSlots.contains(slot) else { return nil }
            let rank = slot - aSlots.lowerBound, mate = rank ^ 1
            guard mate < m, present(min(rank, mate)) else { return nil }
            return object(aStream, aSlots.lowerBound + mate)
        }
        if relationship.generatesLinks {
            guard root == aTree.root, aSlots.contains(slot) else { return nil }
            let rank = slot - aSlots.lowerBound
            guard rank < m, present(rank) else { return nil }
            return object(bStream, bSlots.lowerBound + (rank + 1) % m)
        }
        guard root == bTree.root, bSlots.contains(slot) else { return nil }
        let rank = slot - bSlots.lowerBound
        guard rank < m else { return nil }
        let mate = (rank - 1 + m) % m
        guard present(mate) else { return nil }
        return object(aStream, aSlots.lowerBound + mate)
    }

    /// FNV-1a of a name: a hash that is the same in every process (Swift's `Hasher` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// The popularity rank (0 most popular) for a uniform `unit`: uniform when `exponent` is 0, else
    /// the inverse of the continuous Zipf (power-law) distribution over `1 ... n`.
    static func rank(_ unit: Double, of n: Int, exponent: Double) -> Int {
        guard exponent > 0, n > 1 else { return min(n - 1, Int(unit * Double(n))) }
        let x: Double
        if abs(exponent - 1) < 1e-9 {
            x = exp(unit * log(Double(n) + 1))
        } else {
            let a = 1 - exponent
            x = pow(unit * (pow(Double(n) + 1, a) - 1) + 1, 1 / a)
        }
        return min(n - 1, max(0, Int(x) - 1))
    }

    /// The most popular and the least popular destination of a relationship: of a many-to-many
    /// that follows measured fan-outs, the one with the most links and the one with the fewest
    /// (`shapedDestination`); else the first and the last rank of its popularity.
    public func popularDestination(_ relationship: Model.Relationship) -> ObjectID? {
        shapedDestination(of: relationship, busiest: true) ?? destinationAt(rank: 0, relationship)
    }
    public func rareDestination(_ relationship: Model.Relationship) -> ObjectID? {
        shapedDestination(of: relationship, busiest: false) ?? destinationAt(rank: destinationCount(relationship) - 1, relationship)
    }

    private func destinationAt(rank: Int, _ relationship: Model.Relationship) -> ObjectID? {
        let destination = model.entities[relationship.destination]
        let stream = streams[destination.root]
        let slots = stream.slots(of: destination.subtree)
        guard rank >= 0, rank < slots.count else { return nil }
        let slot = slots.lowerBound + rank
        return ObjectID(entity: stream.entities[stream.entityIndex(ofSlot: slot)], key: Int64(stream.position(ofSlot: slot) + 1))
    }

    /// The object with this identity (it must exist).
    public func object(_ id: ObjectID) -> ModelObject { object(root: model.entities[id.entity].root, at: Int(id.key) - 1) }

    /// Every object, hierarchy by hierarchy in entity-number order of the roots, in batches of `size`
    /// (a batch never spans two hierarchies).
    func generatedBatches(of size: Int) -> some Sequence<[ModelObject]> {
        precondition(size > 0)
        let ranges = model.roots.flatMap { root in
            stride(from: 0, to: count(root: root), by: size).map { (root, $0 ..< min($0 + size, count(root: root))) }
        }
        return ranges.lazy.map { self.objects(root: $0.0, $0.1) }
    }
}
