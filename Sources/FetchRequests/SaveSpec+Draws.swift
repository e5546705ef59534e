import Generation
import Models

extension SaveSpec {
    /// The save with its objects, drawn with `seed` (`SaveDraws`): the same save in every layout
    /// and every repetition.
    public func request(_ dataset: any Dataset, seed: UInt64) -> SaveRequest {
        var draws = SaveDraws(dataset, seed: seed ^ FetchSpec.stableHash(text(dataset.model)))
        return draws.request(self)
    }
}

/// The objects and values of saves, drawn from a dataset: each insert a new object of its
/// entity, its key after the hierarchy's highest, its values made as the generator makes any
/// object's, each to-one an object of the destination drawn from the data (a one-to-one's left
/// empty: its partner is taken), no many-to-many link; each update an object of the entity's
/// subtree drawn from the data, given new values made alike and, for each to-one it sets, an
/// object of the destination; each delete another such object; a link between an object and a
/// destination it is not linked to, an unlink of a link it has. One save changes no object twice,
/// and no save draws an object an earlier one deleted: where the data has fewer objects than the
/// saves change, they change those it has.
public struct SaveDraws {
    let dataset: any Dataset
    let generator: ObjectGenerator
    var random: SplitMix64
    var nextKey: [Int: Int64] = [:]
    var pools: [Int: [ObjectID]] = [:]
    var deleted = Set<ObjectID>()
    /// Links added and removed by the saves drawn so far (owner, relationship, destination).
    var added = Set<Link>(), removed = Set<Link>()
    /// The objects the save being drawn changes.
    var used = Set<ObjectID>()

    struct Link: Hashable {
        var owner: ObjectID, relationship: String, destination: ObjectID
    }

    public init(_ dataset: any Dataset, seed: UInt64) {
        self.dataset = dataset
        generator = ObjectGenerator(dataset.model, seed: dataset.seed)
        random = SplitMix64(seed: seed)
    }

    var model: Model { dataset.model }

    /// The next save's objects and values.
    public mutating func request(_ spec: SaveSpec) -> SaveRequest {
        used = []
        var changes: [SaveRequest.Change] = []
        for step in spec.steps {
            for _ in 0..<step.count {
                if let change = draw(step.change, atLeast: spec.count) { changes.append(change) }
            }
        }
        return SaveRequest(changes: changes)
    }

    private mutating func draw(_ change: SaveSpec.Change, atLeast: Int) -> SaveRequest.Change? {
        switch change {
        case let .insert(entity):
            let key = newKey(entity)
            let toOnes = model.entities[entity].toOneRelationships.map { $0.isOneToOne ? nil : any($0.destination, atLeast) }
            return .insert(ModelObject(id: ObjectID(entity: entity, key: key), values: generator.newValues(entity: entity, key: key), toOne: toOnes))
        case let .update(entity, attributes, toOnes):
            guard let id = unused(entity, atLeast) else { return nil }
            let values = generator.newValues(entity: id.entity, key: newKey(id.entity))
            let object = model.entities[id.entity]
            let destinations = toOnes.map { name in ToOneChange(name, object.relationship(name).flatMap { any($0.destination, atLeast) }) }
            return .update(id, attributes.compactMap { name in object.attributeIndex(name).map { AttributeChange(name, values[$0]) } }, destinations)
        case let .delete(entity):
            guard let id = unused(entity, atLeast) else { return nil }
            deleted.insert(id)
            return .delete(id)
        case let .link(entity, relationship):
            return link(entity, relationship, atLeast)
        case let .unlink(entity, relationship, all):
            if all { return unused(entity, atLeast).map { .unlinkAll($0, relationship) } }
            return unlink(entity, relationship, atLeast)
        }
    }

    /// A new key of `entity`'s hierarchy, after its highest and every key drawn before.
    private mutating func newKey(_ entity: Int) -> Int64 {
        let root = model.entities[entity].root, count = dataset.count(root: root)
        let key = nextKey[root] ?? (count > 0 ? max(dataset.key(root: root, at: count - 1), Int64(count)) + 1 : 1)
        nextKey[root] = key + 1
        return key
    }

    private mutating func pool(_ entity: Int, _ atLeast: Int) -> [ObjectID] {
        if let known = pools[entity] { return known }
        let made = SaveSpec.objects(of: entity, dataset, atLeast: atLeast)
        pools[entity] = made
        return made
    }

    /// An object of `entity`'s subtree no save deleted, or nil.
    private mutating func any(_ entity: Int, _ atLeast: Int) -> ObjectID? {
        let candidates = pool(entity, atLeast)
        for _ in 0..<min(candidates.count, 64) {
            let id = candidates[Int(random.next() % UInt64(candidates.count))]
            if !deleted.contains(id) { return id }
        }
        return candidates.first { !deleted.contains($0) }
    }

    /// An object of `entity`'s subtree that neither this save changed nor any deleted, or nil.
    private mutating func unused(_ entity: Int, _ atLeast: Int) -> ObjectID? {
        let candidates = pool(entity, atLeast)
        for _ in 0..<min(candidates.count, 64) {
            let id = candidates[Int(random.next() % UInt64(candidates.count))]
            if !deleted.contains(id), used.insert(id).inserted { return id }
        }
        guard let id = candidates.first(where: { !used.contains($0) && !deleted.contains($0) }) else { return nil }
        used.insert(id)
        return id
    }

    /// The side of a many-to-many that generates its links: its owner entity, its name, its
    /// destination entity.
    private func generating(_ entity: Int, _ name: String) -> (owner: Int, name: String, destination: Int)? {
        guard let relationship = model.entities[entity].relationship(name), relationship.isManyToMany else { return nil }
        if relationship.generatesLinks { return (entity, name, relationship.destination) }
        guard let inverse = model.inverse(of: relationship) else { return nil }
        return (relationship.destination, inverse.name, entity)
    }

    /// The destinations `owner` is linked to through `name` now: the data's, with the saves' changes.
    private func links(_ owner: ObjectID, _ name: String) -> [ObjectID] {
        let object = model.entities[owner.entity]
        guard let position = object.linkedRelationships.firstIndex(where: { $0.name == name }) else { return [] }
        let stored = dataset.object(owner).links
        let data = position < stored.count ? stored[position] : []
        return data.filter { !removed.contains(Link(owner: owner, relationship: name, destination: $0)) }
            + added.filter { $0.owner == owner && $0.relationship == name }.map(\.destination).sorted()
    }

    private mutating func link(_ entity: Int, _ name: String, _ atLeast: Int) -> SaveRequest.Change? {
        guard let side = generating(entity, name) else { return nil }
        for _ in 0..<16 {
            guard let owner = any(side.owner, atLeast), let destination = any(side.destination, atLeast) else { return nil }
            guard !links(owner, side.name).contains(destination) else { continue }
            let link = Link(owner: owner, relationship: side.name, destination: destination)
            added.insert(link)
            removed.remove(link)
            return .link(owner, side.name, destination)
        }
        return nil
    }

    private mutating func unlink(_ entity: Int, _ name: String, _ atLeast: Int) -> SaveRequest.Change? {
        guard let side = generating(entity, name) else { return nil }
        for _ in 0..<64 {
            guard let owner = any(side.owner, atLeast), let destination = links(owner, side.name).first(where: { !deleted.contains($0) }) else { continue }
            let link = Link(owner: owner, relationship: side.name, destination: destination)
            removed.insert(link)
            added.remove(link)
            return .unlink(owner, side.name, destination)
        }
        return nil
    }
}

extension SaveSpec {
    /// Objects of `entity`'s subtree, spread over its hierarchy (at least `atLeast` where it has
    /// them, and 500), by identity.
    static func objects(of entity: Int, _ dataset: any Dataset, atLeast: Int) -> [ObjectID] {
        let info = dataset.model.entities[entity], root = info.root, total = dataset.count(root: root)
        let wanted = max(FetchSpec.drawnObjects, atLeast)
        func sample(_ step: Int) -> [ObjectID] {
            Array(
                stride(from: 0, to: total, by: step).lazy.compactMap { position -> ObjectID? in
                    let concrete = dataset.entity(root: root, at: position)
                    return info.subtree.contains(concrete) ? ObjectID(entity: concrete, key: dataset.key(root: root, at: position)) : nil
                }.prefix(wanted))
        }
        let spread = sample(max(1, total / (wanted * 4)))
        return spread.count < wanted && total > wanted * 4 ? sample(1) : spread
    }
}
