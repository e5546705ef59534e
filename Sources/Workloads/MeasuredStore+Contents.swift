import FetchRequests
import Generation
import Models
import Strategies

extension MeasuredStore {
    /// Objects compared in one step.
    static let proofBatch = 1_000

    /// With a dataset that knows what it holds (an app's own objects), proves this store holds
    /// exactly that, untimed, with memory bounded by a batch: batch by batch of the dataset's
    /// objects, the layout's objects of those keys (read by key list, as Core Data's batches are)
    /// are the dataset's, value for value and to-one for to-one, and the links it holds from them
    /// (a prefetch of each many-to-many relationship) are theirs. With `check`'s counts (no object
    /// or link more), the store holds the dataset exactly; and what was compared digests to what
    /// the dataset read when it was opened. A difference fails with the first object or
    /// relationship that differs, named by entity, key and property (never a value).
    func proveHolds(_ dataset: any Dataset) throws {
        guard let digest = dataset.digest else { return }
        let layoutStore = try opened
        let model = layoutStore.model
        let relationships = Census.relationships(model)
        var compared = AnswerDigest(.unordered)
        for root in model.roots {
            let count = dataset.count(root: root)
            for start in stride(from: 0, to: count, by: Self.proofBatch) {
                let expected = dataset.objects(root: root, start ..< min(start + Self.proofBatch, count))
                try dataset.checkReads()
                let keys = expected.map(\.id.key)
                try KeyList.bind(keys, in: layoutStore.database)
                let held = try layoutStore.fetch(FetchRequest(entity: root, predicate: .keyInList)).sorted { $0.id.key < $1.id.key }
                if let difference = Self.difference(expected, held, model) { throw StoreCheckFailure(description: "\(name): the copy of the store's objects differs from the store: \(difference)") }
                for object in expected { compared.add(object) }
                for relationship in relationships where model.entities[relationship.owner].root == root {
                    try KeyList.bind(keys, in: layoutStore.database)
                    let links = try layoutStore.fetch(FetchRequest(entity: relationship.owner, predicate: .keyInList, mode: .prefetching([relationship.name])))
                        .compactMap { row in row.source.map { "\($0) \(row.id)" } }.sorted()
                    if links != Self.links(of: relationship, in: expected, model) {
                        let named = "\(model.entities[relationship.owner].name).\(relationship.name)"
                        throw StoreCheckFailure(description: "\(name): the copy of the store's objects does not hold the store's \(named) links of the objects from key \(keys.first ?? 0) to \(keys.last ?? 0)")
                    }
                }
            }
        }
        guard compared == digest else {
            throw StoreCheckFailure(description: "\(name): the store's objects read for the copy are not those read when it was opened; was the store changed meanwhile?")
        }
    }

    /// The links `objects` hold through `relationship`, as "owner-key destination" sorted.
    private static func links(of relationship: Model.Relationship, in objects: [ModelObject], _ model: Model) -> [String] {
        objects.flatMap { object -> [String] in
            let linked = model.entities[object.id.entity].linkedRelationships
            guard let index = linked.firstIndex(of: relationship), index < object.links.count else { return [] }
            return object.links[index].map { "\(object.id.key) \($0)" }
        }.sorted()
    }

    /// The first of `expected` (in key order) that `held` lacks or holds otherwise: missing, extra,
    /// or a property of it.
    private static func difference(_ expected: [ModelObject], _ held: [ModelObject], _ model: Model) -> String? {
        for (index, object) in expected.enumerated() {
            let entity = model.entities[object.id.entity]
            guard index < held.count, held[index].id == object.id else { return "\(entity.name) \(object.id.key) is missing" }
            let copy = held[index]
            if let position = object.values.indices.first(where: { object.values[$0] != copy.values[$0] }) {
                return "\(entity.name).\(entity.attributes[position].name) of \(entity.name) \(object.id.key) differs"
            }
            if let position = object.toOne.indices.first(where: { object.toOne[$0] != copy.toOne[$0] }) {
                return "\(entity.name).\(entity.toOneRelationships[position].name) of \(entity.name) \(object.id.key) differs"
            }
        }
        return held.count > expected.count ? "\(model.entities[held[expected.count].id.entity].name) \(held[expected.count].id.key) is not in the store" : nil
    }
}
