import Foundation
import Models

/// Links that follow a measured fan-out (`RelationshipDescription.fanOut`, a store's shape), at any
/// scale and without memory that grows with it. Every object of a side gets a rank by a fixed
/// permutation of its slots in the side's subtree (so that the large and the small fan-outs fall on
/// every entity of the subtree alike); the fan-out's quantile function, read at a rank's share,
/// gives how many links that rank holds; the links of a side, numbered `0 ..< L`, are cut in runs by
/// the running sum of those counts (the integral of the quantile function, in closed form). So the
/// destination side of a one-to-many gets exactly the measured distribution scaled to the links
/// there are, and a many-to-many's two sides each get theirs.
extension ObjectGenerator {
    /// The fan-out a to-one follows: its inverse's, when the inverse is a to-many that has one.
    func shapedFanOut(of relationship: Model.Relationship) -> Quantiles? {
        guard !relationship.toMany, let inverse = model.inverse(of: relationship), inverse.toMany else { return nil }
        return inverse.fanOut
    }

    /// The destination of to-one `relationship` for the object in `slot` of `root`'s stream: links
    /// go to the first `L` ranks of the relationship's objects (`L` from its NULL share, or for a
    /// hidden to-one from the fan-out's mean), and link `c` to the destination whose run holds it.
    func shapedDestination(of relationship: Model.Relationship, following fanOut: Quantiles, root: Int, slot: Int) -> ObjectID? {
        let owner = model.entities[relationship.owner]
        let ownSlots = streams[owner.root].slots(of: owner.subtree)
        let destination = model.entities[relationship.destination]
        let targetStream = streams[destination.root]
        let targets = targetStream.slots(of: destination.subtree)
        guard ownSlots.contains(slot), !targets.isEmpty else { return nil }
        let curve = FanOutCurve(fanOut)
        let members = ownSlots.count
        let link = Self.permuted(slot - ownSlots.lowerBound, of: members, salt: Self.stableHash(relationship.name) ^ 0xC41D)
        /// The link's place along the fan-out's curve, from 0 to 1.
        let place: Double
        if let linked = linkedByEntity(relationship, stream: streams[owner.root], slot: slot) {
            // The objects linked are chosen entity by entity; the linked ones' places spread over
            // the whole curve as the subtree's permutation spreads them.
            guard linked, curve.area > 0 else { return nil }
            place = (Double(link) + 0.5) / Double(members)
        } else {
            let linked = relationship.isHidden ? min(members, Int((fanOut.mean * Double(targets.count)).rounded()))
                                               : Int(((1 - relationship.nullShare) * Double(members)).rounded())
            guard link < linked, curve.area > 0 else { return nil }
            place = (Double(link) + 0.5) / Double(linked)
        }
        let share = curve.share(atArea: place * curve.area)
        let rank = min(targets.count - 1, Int(share * Double(targets.count)))
        let parentSalt = model.inverse(of: relationship).map { Self.stableHash($0.name) } ?? 0
        return object(targetStream, slot: targets.lowerBound + Self.permuted(rank, of: targets.count, salt: parentSalt ^ 0xFA40))
    }

    /// Where an entity of to-one `relationship`'s declaring subtree gives its own NULL share of it
    /// (`Model.Entity.nullShares`): whether the object in `slot` has a destination, exactly
    /// `1 - share` of its entity's objects having one (which ones by a fixed permutation of the
    /// entity's slots); `nil` where no entity gives its own share.
    func linkedByEntity(_ relationship: Model.Relationship, stream: Stream, slot: Int) -> Bool? {
        guard !relationship.isHidden, sharedByEntity.contains("\(relationship.owner).\(relationship.name)") else { return nil }
        let entity = stream.entities[stream.entityIndex(ofSlot: slot)]
        let own = stream.slots(of: entity ... entity)
        let linked = Int(((1 - model.entities[entity].nullShare(of: relationship)) * Double(own.count)).rounded())
        return Self.permuted(slot - own.lowerBound, of: own.count, salt: Self.stableHash(relationship.name) ^ 0xC41E) < linked
    }

    /// The links of the generating side of a many-to-many for the object in `slot`: its run of the
    /// side's links (by its own fan-out), each link sent, through a permutation of the links, to
    /// the destination whose run holds it by the other side's fan-out (uniformly when it has none);
    /// a link to a destination already linked is dropped.
    func shapedLinks(of relationship: Model.Relationship, following fanOut: Quantiles, root: Int, slot: Int) -> [ObjectID] {
        let owner = model.entities[relationship.owner]
        let ownSlots = streams[owner.root].slots(of: owner.subtree)
        let destination = model.entities[relationship.destination]
        let targetStream = streams[destination.root]
        let targets = targetStream.slots(of: destination.subtree)
        let curve = FanOutCurve(fanOut)
        guard ownSlots.contains(slot), !targets.isEmpty, curve.area > 0 else { return [] }
        let members = ownSlots.count
        let total = min(members * targets.count, Int((fanOut.mean * Double(members)).rounded()))
        let rank = Self.permuted(slot - ownSlots.lowerBound, of: members, salt: Self.stableHash(relationship.name) ^ 0xFA40)
        func boundary(_ rank: Int) -> Int { Int((curve.area(upTo: Double(rank) / Double(members)) / curve.area * Double(total)).rounded()) }
        let other = model.inverse(of: relationship).flatMap(\.fanOut).map(FanOutCurve.init)
        let otherSalt = model.inverse(of: relationship).map { Self.stableHash($0.name) } ?? 0
        var chosen: [ObjectID] = []
        for link in boundary(rank) ..< max(boundary(rank), boundary(rank + 1)) {
            let spread = Self.permuted(link, of: total, salt: Self.stableHash(relationship.name) ^ 0x11_4C)
            let share: Double = if let other, other.area > 0 {
                other.share(atArea: (Double(spread) + 0.5) / Double(total) * other.area)
            } else {
                (Double(spread) + 0.5) / Double(total)
            }
            let target = min(targets.count - 1, Int(share * Double(targets.count)))
            let id = object(targetStream, slot: targets.lowerBound + Self.permuted(target, of: targets.count, salt: otherSalt ^ 0xFA40))
            if !chosen.contains(id) { chosen.append(id) }
        }
        return chosen
    }

    func object(_ stream: Stream, slot: Int) -> ObjectID {
        ObjectID(entity: stream.entities[stream.entityIndex(ofSlot: slot)], key: Int64(stream.position(ofSlot: slot) + 1))
    }

    /// `value`'s place in a fixed permutation of `0 ..< count` (multiplicative, with an offset), one per salt.
    static func permuted(_ value: Int, of count: Int, salt: UInt64) -> Int {
        guard count > 1 else { return 0 }
        var multiplier = Int(Double(count) * 0.381_966_011_25) + 1 + Int(salt % 7)
        while Stream.gcd(multiplier, count) != 1 { multiplier += 1 }
        let offset = Int(salt % UInt64(count))
        return Int((Int64(multiplier % count) * Int64(value) % Int64(count) + Int64(offset)) % Int64(count))
    }
}

/// A fan-out's quantile function `q(p)` and its integral: linear between the kept quantiles,
/// except in the top segment (95 % to 100 %), where a heavy tail lives: there `q` rises as a power
/// of the distance into the segment, its exponent chosen so that the integral over `0 ... 1` is the
/// measured mean (a straight line there would give the few largest fan-outs far more links than
/// the store's, and take them from every other object).
struct FanOutCurve {
    let quantiles: [Double]
    /// The integral of `q` from 0 to each kept point.
    let areas: [Double]
    /// The power of the top segment (1: a straight line).
    let exponent: Double
    var area: Double { areas[areas.count - 1] }
    private var width: Double { 1 / Double(quantiles.count - 1) }
    private var top: Int { quantiles.count - 2 }

    init(_ fanOut: Quantiles) {
        quantiles = fanOut.quantiles
        let width = 1 / Double(fanOut.quantiles.count - 1)
        var areas = [0.0]
        for (low, high) in zip(fanOut.quantiles, fanOut.quantiles.dropFirst()).dropLast() { areas.append(areas[areas.count - 1] + (low + high) / 2 * width) }
        let (start, end) = (fanOut.quantiles[fanOut.quantiles.count - 2], fanOut.quantiles[fanOut.quantiles.count - 1])
        // The top segment's area is what the mean leaves, within what a rising curve there can hold.
        let wanted = fanOut.mean - areas[areas.count - 1]
        let rise = (end - start) * width
        let above = wanted - start * width
        exponent = rise > 0 && above > 0 ? min(1_000, max(0.01, rise / above - 1)) : 1
        areas.append(areas[areas.count - 1] + start * width + rise / (exponent + 1))
        self.areas = areas
    }

    /// `q`'s integral over the first `u` of segment `segment`.
    private func partial(_ segment: Int, _ u: Double) -> Double {
        let start = quantiles[segment], rise = quantiles[segment + 1] - start
        if segment == top { return start * u + rise * width / (exponent + 1) * pow(u / width, exponent + 1) }
        return start * u + rise / width * u * u / 2
    }

    /// The integral of `q` from 0 to `p`.
    func area(upTo p: Double) -> Double {
        let x = min(1, max(0, p)) / width
        let segment = min(top, Int(x))
        return areas[segment] + partial(segment, (x - Double(segment)) * width)
    }

    /// The share `p` at which the integral of `q` reaches `target` (0 … `area`), by bisection within its segment.
    func share(atArea target: Double) -> Double {
        var segment = 0
        while segment < top, areas[segment + 1] <= target { segment += 1 }
        let rest = max(0, target - areas[segment])
        var (low, high) = (0.0, width)
        for _ in 0 ..< 50 {
            let middle = (low + high) / 2
            if partial(segment, middle) < rest { low = middle } else { high = middle }
        }
        return min(1, Double(segment) * width + high)
    }
}
