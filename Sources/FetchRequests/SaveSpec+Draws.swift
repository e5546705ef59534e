import Generation
import Models

extension SaveSpec {
    /// The save with its objects, drawn with `seed` (`SaveDraws`): the same save in every layout
    /// and every repetition; with `values`, the new values a log bound for it.
    public func request(_ dataset: any Dataset, seed: UInt64, values: SaveValues? = nil) -> SaveRequest {
        var draws = SaveDraws(dataset, seed: seed ^ FetchSpec.stableHash(text(dataset.model)), atLeast: count)
        return draws.request(self, values: values)
    }
}

/// The objects and values of saves, drawn from a dataset: each insert a new object of its
/// entity, its key after the hierarchy's highest, its values made as the generator makes any
/// object's, each to-one an object of the destination drawn from the data (left empty where the
/// destination must be its own: a one-to-one, a to-one under a uniqueness constraint), no
/// many-to-many link; each update an object of the entity's subtree drawn from the data, given new
/// values made alike and, for each to-one it sets, an object of the destination (empty as for an
/// insert); each delete another such object, the one whose links the save clears where it clears
/// an object's links (as Core Data's delete clears them); a link between an object and a
/// destination it is not linked to, an unlink of a link it has. One save changes no object twice,
/// and no save draws an object an earlier one deleted, or a link an earlier one removed: where the
/// data has fewer objects than the saves change, they change those it has, and the request says
/// how many it asked for (`SaveRequest.asked`), which a measurement refuses.
public struct SaveDraws {
    let dataset: any Dataset
    let generator: ObjectGenerator
    var random: SplitMix64
    /// Objects a pool of an entity holds at least (where the data has them).
    let atLeast: Int
    var nextKey: [Int: Int64] = [:]
    var pools: [Int: [ObjectID]] = [:]
    var deleted = Set<ObjectID>()
    /// Links added and removed by the saves drawn so far, by owner and relationship (the side
    /// that generates them); owners and destinations whose links a save cleared.
    var added: [Side: [ObjectID]] = [:], removed = Set<Link>(), cleared = Set<Side>(), clearedDestinations = Set<Side>()
    /// The objects the save being drawn changes; those it deletes and those whose links it clears
    /// (and through which relationships).
    var used = Set<ObjectID>(), deletedHere: [ObjectID] = [], clearedHere: [ObjectID] = [], clearedThrough = Set<Side>()

    struct Side: Hashable {
        var object: ObjectID, relationship: String
    }

    struct Link: Hashable {
        var owner: ObjectID, relationship: String, destination: ObjectID
    }

    /// - parameter atLeast: the changes the saves make, which each entity's pool of objects holds
    ///   where the data has them (and 500; at most 100,000).
    public init(_ dataset: any Dataset, seed: UInt64, atLeast: Int = 0) {
        self.dataset = dataset
        generator = ObjectGenerator(dataset.model, seed: dataset.seed)
        random = SplitMix64(seed: seed)
        self.atLeast = min(atLeast, 100_000)
    }

    var model: Model { dataset.model }

    /// The next save's objects and values; with `values`, each insert's and update's new values
    /// the log bound, where they fit the attribute (one under a uniqueness constraint keeps a value
    /// made from its new key: the app's may be one the data holds).
    public mutating func request(_ spec: SaveSpec, values: SaveValues? = nil) -> SaveRequest {
        (used, deletedHere, clearedHere, clearedThrough) = ([], [], [], [])
        var changes: [SaveRequest.Change] = [], position = 0
        for step in spec.steps {
            for _ in 0..<step.count {
                let logged = values.flatMap { position < $0.changes.count ? $0.changes[position] : nil } ?? [:]
                position += 1
                if let change = draw(step.change, logged: logged) { changes.append(change) }
            }
        }
        return SaveRequest(changes: changes, asked: spec.count)
    }

    /// New values of an object of `entity`, made as the generator makes any object's, the logged
    /// ones in place where they fit.
    private func newValues(_ entity: Int, key: Int64, logged: [String: Value]) -> [Value] {
        var values = generator.newValues(entity: entity, key: key)
        guard !logged.isEmpty else { return values }
        let info = model.entities[entity], unique = Set(info.uniquenessConstraints.joined())
        for (name, value) in logged where !unique.contains(name) {
            guard let index = info.attributeIndex(name), let fitting = SaveValues.fitting(value, info.attributes[index]) else { continue }
            values[index] = fitting
        }
        return values
    }

    private mutating func draw(_ change: SaveSpec.Change, logged: [String: Value]) -> SaveRequest.Change? {
        switch change {
        case let .insert(entity):
            let key = newKey(entity)
            let toOnes = model.entities[entity].toOneRelationships.map { destination(of: $0, from: entity) }
            return .insert(ModelObject(id: ObjectID(entity: entity, key: key), values: newValues(entity, key: key, logged: logged), toOne: toOnes))
        case let .update(entity, attributes, toOnes):
            guard let id = unused(entity) else { return nil }
            let values = newValues(id.entity, key: newKey(id.entity), logged: logged)
            let object = model.entities[id.entity]
            let destinations = toOnes.map { name in ToOneChange(name, object.relationship(name).flatMap { destination(of: $0, from: id.entity) }) }
            return .update(id, attributes.compactMap { name in object.attributeIndex(name).map { AttributeChange(name, values[$0]) } }, destinations)
        case let .delete(entity):
            // The object whose links this save cleared, else another.
            let cleared = clearedHere.first { model.entities[entity].subtree.contains($0.entity) && !deleted.contains($0) }
            guard let id = cleared ?? unused(entity) else { return nil }
            deleted.insert(id)
            deletedHere.append(id)
            return .delete(id)
        case let .link(entity, relationship):
            return link(entity, relationship)
        case let .unlink(entity, relationship, all):
            return all ? clear(entity, relationship) : unlink(entity, relationship)
        }
    }

    /// A to-one's new destination: none where it must be the object's own (a one-to-one, a to-one
    /// under a uniqueness constraint), else an object of the destination.
    private mutating func destination(of relationship: Model.Relationship, from entity: Int) -> ObjectID? {
        let constrained = model.entities[entity].uniquenessConstraints.joined().contains(relationship.name)
        return relationship.isOneToOne || constrained ? nil : any(relationship.destination)
    }

    /// A new key of `entity`'s hierarchy, after its highest and every key drawn before.
    private mutating func newKey(_ entity: Int) -> Int64 {
        let root = model.entities[entity].root, count = dataset.count(root: root)
        let key = nextKey[root] ?? (count > 0 ? max(dataset.key(root: root, at: count - 1), Int64(count)) + 1 : 1)
        nextKey[root] = key + 1
        return key
    }

    private mutating func pool(_ entity: Int) -> [ObjectID] {
        if let known = pools[entity] { return known }
        let made = SaveSpec.objects(of: entity, dataset, atLeast: atLeast)
        pools[entity] = made
        return made
    }

    /// An object of `entity`'s subtree no save deleted, or nil.
    private mutating func any(_ entity: Int) -> ObjectID? {
        let candidates = pool(entity)
        for _ in 0..<min(candidates.count, 64) {
            let id = candidates[Int(random.next() % UInt64(candidates.count))]
            if !deleted.contains(id) { return id }
        }
        return candidates.first { !deleted.contains($0) }
    }

    /// An object of `entity`'s subtree that neither this save changed nor any deleted, or nil.
    private mutating func unused(_ entity: Int) -> ObjectID? {
        let candidates = pool(entity)
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

    /// The destinations `owner` is linked to through `name` now: the data's, with the saves'
    /// changes (links cleared from either side, removed, added).
    private func links(_ owner: ObjectID, _ name: String) -> [ObjectID] {
        let side = Side(object: owner, relationship: name), object = model.entities[owner.entity]
        var data: [ObjectID] = []
        if !cleared.contains(side), let position = object.linkedRelationships.firstIndex(where: { $0.name == name }) {
            let stored = dataset.object(owner).links
            data = position < stored.count ? stored[position] : []
        }
        return data.filter { !removed.contains(Link(owner: owner, relationship: name, destination: $0)) && !clearedDestinations.contains(Side(object: $0, relationship: name)) }
            + (added[side] ?? [])
    }

    private mutating func link(_ entity: Int, _ name: String) -> SaveRequest.Change? {
        guard let side = generating(entity, name) else { return nil }
        for _ in 0..<16 {
            guard let owner = any(side.owner), let destination = any(side.destination) else { return nil }
            guard !links(owner, side.name).contains(destination) else { continue }
            added[Side(object: owner, relationship: side.name), default: []].append(destination)
            removed.remove(Link(owner: owner, relationship: side.name, destination: destination))
            return .link(owner, side.name, destination)
        }
        return nil
    }

    private mutating func unlink(_ entity: Int, _ name: String) -> SaveRequest.Change? {
        guard let side = generating(entity, name) else { return nil }
        for _ in 0..<64 {
            guard let owner = any(side.owner), let destination = links(owner, side.name).first(where: { !deleted.contains($0) }) else { continue }
            removed.insert(Link(owner: owner, relationship: side.name, destination: destination))
            added[Side(object: owner, relationship: side.name)]?.removeAll { $0 == destination }
            return .unlink(owner, side.name, destination)
        }
        return nil
    }

    /// Every link of an object cleared, through a many-to-many or a relationship whose inverse is
    /// a to-one (the objects referring to it cleared): the object this save deletes (as a delete
    /// clears them), else another it has not changed.
    private mutating func clear(_ entity: Int, _ name: String) -> SaveRequest.Change? {
        guard let relationship = model.entities[entity].relationship(name), relationship.isManyToMany || model.inverse(of: relationship)?.toMany == false else { return nil }
        // An object a delete clears the links of through each of its relationships in turn: one
        // this save deleted, else one whose links through another relationship it cleared.
        let subtree = model.entities[entity].subtree, through = clearedThrough, gone = deleted
        func open(_ id: ObjectID) -> Bool { subtree.contains(id.entity) && !through.contains(Side(object: id, relationship: name)) }
        let deletedOne = deletedHere.first(where: open) ?? clearedHere.first { open($0) && !gone.contains($0) }
        guard let id = deletedOne ?? unused(entity) else { return nil }
        if !clearedHere.contains(id) { clearedHere.append(id) }
        clearedThrough.insert(Side(object: id, relationship: name))
        if relationship.generatesLinks {
            cleared.insert(Side(object: id, relationship: name))
            added[Side(object: id, relationship: name)] = nil
        } else if let inverse = model.inverse(of: relationship) {
            clearedDestinations.insert(Side(object: id, relationship: inverse.name))
            for key in added.keys where key.relationship == inverse.name { added[key]?.removeAll { $0 == id } }
        }
        return .unlinkAll(id, name)
    }
}

extension SaveSpec {
    /// Objects of `entity`'s subtree, spread over its hierarchy (at least `atLeast` where it has
    /// them, and 500), by identity.
    static func objects(of entity: Int, _ dataset: any Dataset, atLeast: Int) -> [ObjectID] {
        let root = dataset.model.entities[entity].root
        return DrawPool.positions(dataset, of: entity, wanted: max(FetchSpec.drawnObjects, atLeast)).map { position in
            ObjectID(entity: dataset.entity(root: root, at: position), key: dataset.key(root: root, at: position))
        }
    }
}
