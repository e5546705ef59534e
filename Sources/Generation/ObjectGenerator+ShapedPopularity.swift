import Models

/// The busiest and the quietest destination of a many-to-many whose links follow measured fan-outs
/// (`shapedLinks`): the destinations' side is ranked by its fan-out's quantile function, so the
/// last rank holds the most links and rank 0 the fewest. Where the links do not follow a fan-out
/// on the destinations' side, `nil` (popularity decides, `popularDestination`).
extension ObjectGenerator {
    func shapedDestination(of relationship: Model.Relationship, busiest: Bool) -> ObjectID? {
        guard relationship.isManyToMany, let inverse = model.inverse(of: relationship) else { return nil }
        let salt = Self.stableHash(inverse.name) ^ 0xFA40
        if relationship.generatesLinks, relationship.fanOut != nil, inverse.fanOut != nil {
            // `relationship`'s links go to the destination whose rank holds them by the inverse's fan-out.
            let destination = model.entities[relationship.destination]
            let stream = streams[destination.root]
            let targets = stream.slots(of: destination.subtree)
            guard !targets.isEmpty else { return nil }
            let rank = busiest ? targets.count - 1 : 0
            return object(stream, slot: targets.lowerBound + Self.permuted(rank, of: targets.count, salt: salt))
        }
        if inverse.generatesLinks, inverse.fanOut != nil {
            // Each destination generates its own run of links, as long as its rank's fan-out.
            let owner = model.entities[inverse.owner]
            let stream = streams[owner.root]
            let members = stream.slots(of: owner.subtree)
            guard !members.isEmpty else { return nil }
            let rank = busiest ? members.count - 1 : 0
            guard let offset = (0 ..< members.count).first(where: { Self.permuted($0, of: members.count, salt: salt) == rank }) else { return nil }
            return object(stream, slot: members.lowerBound + offset)
        }
        return nil
    }
}
