import Generation
import Models

extension SaveSpec {
    /// The save with its objects, drawn with `seed` (the same save in every layout and every
    /// repetition): each insert a new object of its entity, its key after the hierarchy's highest,
    /// its values made as the generator makes any object's, each to-one an object of the
    /// destination drawn from the data (a one-to-one's left empty: its partner is taken), no
    /// many-to-many link; each update an object of the entity's subtree drawn from the data, given
    /// new values made alike and, for each to-one it sets, an object of the destination drawn from
    /// the data; each delete another such object. No object is changed twice by one
    /// save: where the data has fewer objects than the save changes, the save changes those it has.
    public func request(_ dataset: any Dataset, seed: UInt64) -> SaveRequest {
        let model = dataset.model
        let generator = ObjectGenerator(model, seed: seed)
        var random = SplitMix64(seed: seed ^ FetchSpec.stableHash(text(model)))
        var nextKey: [Int: Int64] = [:]
        func newKey(_ entity: Int) -> Int64 {
            let root = model.entities[entity].root, count = dataset.count(root: root)
            let key = nextKey[root] ?? (count > 0 ? max(dataset.key(root: root, at: count - 1), Int64(count)) + 1 : 1)
            nextKey[root] = key + 1
            return key
        }
        var pools: [Int: [ObjectID]] = [:]
        func pool(_ entity: Int) -> [ObjectID] {
            if let known = pools[entity] { return known }
            let made = Self.objects(of: entity, dataset, atLeast: count)
            pools[entity] = made
            return made
        }
        var used = Set<ObjectID>()
        func existing(_ entity: Int) -> ObjectID? {
            let candidates = pool(entity)
            for _ in 0..<min(candidates.count, 64) {
                let id = candidates[Int(random.next() % UInt64(candidates.count))]
                if used.insert(id).inserted { return id }
            }
            // Drawn ones taken: the first not yet changed, if any.
            guard let id = candidates.first(where: { !used.contains($0) }) else { return nil }
            used.insert(id)
            return id
        }
        var changes: [SaveRequest.Change] = []
        for step in steps {
            for _ in 0..<step.count {
                switch step.change {
                case let .insert(entity):
                    let key = newKey(entity)
                    let toOnes = model.entities[entity].toOneRelationships.map { relationship -> ObjectID? in
                        let destinations = relationship.isOneToOne ? [] : pool(relationship.destination)
                        return destinations.isEmpty ? nil : destinations[Int(random.next() % UInt64(destinations.count))]
                    }
                    changes.append(.insert(ModelObject(id: ObjectID(entity: entity, key: key), values: generator.newValues(entity: entity, key: key), toOne: toOnes)))
                case let .update(entity, attributes, toOnes):
                    guard let id = existing(entity) else { continue }
                    let values = generator.newValues(entity: id.entity, key: newKey(id.entity))
                    let object = model.entities[id.entity]
                    let destinations = toOnes.map { name -> ToOneChange in
                        let pool = object.relationship(name).map { pool($0.destination) } ?? []
                        return ToOneChange(name, pool.isEmpty ? nil : pool[Int(random.next() % UInt64(pool.count))])
                    }
                    changes.append(.update(id, attributes.compactMap { name in object.attributeIndex(name).map { AttributeChange(name, values[$0]) } }, destinations))
                case let .delete(entity):
                    guard let id = existing(entity) else { continue }
                    changes.append(.delete(id))
                }
            }
        }
        return SaveRequest(changes: changes)
    }

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
