import FetchRequests
import Generation
import Models
import Strategies

extension ReferenceStore {
    /// The answer to a request of a `FetchMode` other than `.plain`, from the plain answers: what
    /// Core Data's steps return, whatever statements a store runs for them.
    func answer(_ request: FetchRequest) -> [ModelObject] {
        var plain = request
        plain.mode = .plain
        switch request.mode {
        case .plain:
            return fetch(request)
        case let .batched(_, objects):
            return Array(fetch(plain).prefix(objects))
        case let .partial(names):
            return fetch(plain).map { object in ModelObject(id: object.id, values: names.map { value(object, $0) }, toOne: []) }
        case .sectionedByEntity:
            let entities = request.includesSubentities ? model.concreteEntities(in: model.entities[request.entity].subtree) : [request.entity]
            return entities.flatMap { fetch(FetchRequest(entity: $0, includesSubentities: false, predicate: request.predicate, sort: request.sort)) }
        case let .dictionary(fetch):
            return dictionaries(request, fetch)
        case let .prefetching(names):
            let page = fetch(plain)
            let keys = Set(page.map(\.id.key))
            // The answer is unordered: by id (then source), as an unordered fetch's.
            return (page + names.flatMap { name -> [ModelObject] in
                guard let relationship = model.entities[request.entity].relationship(name), let inverse = model.inverse(of: relationship) else { return [] }
                if relationship.isManyToMany { return linked(page, name) }
                return fetch(FetchRequest(entity: relationship.destination)).filter { object in
                    guard let position = model.entities[object.id.entity].toOneRelationships.firstIndex(where: { $0.name == inverse.name }),
                          let owner = object.toOne[position] else { return false }
                    return keys.contains(owner.key)
                }
            }).sorted(by: ModelObject.answerOrder)
        }
    }

    /// A many-to-many prefetch's rows: each destination linked to an object of `sources` through
    /// relationship `name`, once per source, its `source` that object's key.
    private func linked(_ sources: [ModelObject], _ name: String) -> [ModelObject] {
        sources.flatMap { source in
            (links[source.id]?[name] ?? []).compactMap { destination in
                objects[destination].map { ModelObject(id: $0.id, values: $0.values, toOne: $0.toOne, source: source.id.key) }
            }
        }
    }
}
