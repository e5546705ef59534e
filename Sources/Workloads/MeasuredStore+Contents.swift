import FetchRequests
import Generation
import Models
import Strategies

extension MeasuredStore {
    /// With a dataset that knows what it holds (an app's own objects), proves this store holds
    /// exactly that, untimed: the digest of every object the layout hands back (values, to-ones)
    /// and of every link it holds (a prefetch of each many-to-many relationship over all its
    /// owners) equal the dataset's. A difference fails with the first object or relationship that
    /// differs, named by entity, key and property (never a value).
    func proveHolds(_ dataset: any Dataset) throws {
        guard let expected = dataset.contents else { return }
        let layoutStore = try opened
        let model = layoutStore.model
        var objects = AnswerDigest(.unordered)
        for root in model.roots { for object in try layoutStore.fetch(FetchRequest(entity: root)) { objects.add(object) } }
        if objects != expected.objects { throw StoreCheckFailure(description: try firstDifference(dataset, layoutStore)) }
        var links = AnswerDigest(.unordered)
        for relationship in Census.relationships(model) {
            let name = "\(model.entities[relationship.owner].name).\(relationship.name)"
            var owners: [Int64: Int] = [:]
            for row in try layoutStore.fetch(FetchRequest(entity: relationship.owner, mode: .prefetching([relationship.name]))) {
                guard let source = row.source else { owners[row.id.key] = row.id.entity; continue }
                links.add(LinkRow(owner: ObjectID(entity: owners[source] ?? -1, key: source), relationship: name, destination: row.id))
            }
        }
        guard links == expected.links else {
            throw StoreCheckFailure(description: "\(name): the copy of the store's objects does not hold the store's many-to-many links (\(links.count) links where the store has \(expected.links.count), or other ones)")
        }
    }

    /// The first object (in key order, hierarchy by hierarchy) this store holds otherwise than the
    /// dataset: missing, extra, or a property of it.
    private func firstDifference(_ dataset: any Dataset, _ layoutStore: LayoutStore) throws -> String {
        let model = layoutStore.model
        let lead = "\(name): the copy of the store's objects differs from the store"
        for root in model.roots {
            let held = try layoutStore.fetch(FetchRequest(entity: root)).sorted { $0.id.key < $1.id.key }
            var index = 0
            let count = dataset.count(root: root)
            for start in stride(from: 0, to: count, by: 1_000) {
                for object in dataset.objects(root: root, start ..< min(start + 1_000, count)) {
                    guard index < held.count, held[index].id == object.id else {
                        return "\(lead): \(model.entities[object.id.entity].name) \(object.id.key) is missing"
                    }
                    let copy = held[index]
                    index += 1
                    let entity = model.entities[object.id.entity]
                    if let position = object.values.indices.first(where: { object.values[$0] != copy.values[$0] }) {
                        return "\(lead): \(entity.name).\(entity.attributes[position].name) of \(entity.name) \(object.id.key) differs"
                    }
                    if let position = object.toOne.indices.first(where: { object.toOne[$0] != copy.toOne[$0] }) {
                        return "\(lead): \(entity.name).\(entity.toOneRelationships[position].name) of \(entity.name) \(object.id.key) differs"
                    }
                }
            }
            if index < held.count { return "\(lead): \(model.entities[held[index].id.entity].name) \(held[index].id.key) is not in the store" }
        }
        return "\(lead) (its digest does; no single object differs)"
    }
}
