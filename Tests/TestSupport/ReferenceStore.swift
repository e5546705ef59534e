import Generation
import Models
import Strategies

/// The answers every strategy must give, computed from the generator alone (no SQL): a store
/// that holds a model's objects in memory and answers `FetchRequest`s by the same rules SQLite
/// applies (BINARY collation, NULL matching nothing).
public final class ReferenceStore {
    public let model: Model
    public let generator: ObjectGenerator
    /// Every object of every hierarchy, by id.
    public private(set) var objects: [ObjectID: ModelObject] = [:]
    /// Every object in id order, as `fetch` scans them.
    private var ordered: [ModelObject] = []
    /// Many-to-many links, both directions: (object, relationship name) → destinations.
    private var links: [ObjectID: [String: Set<ObjectID>]] = [:]
    /// To-one references turned round: (destination, to-one relationship name) → the objects pointing at it.
    private var incoming: [ObjectID: [String: [ObjectID]]] = [:]

    public init(_ generator: ObjectGenerator) {
        self.generator = generator
        model = generator.model
        for root in model.roots {
            for position in 0 ..< generator.count(root: root) {
                let object = generator.object(root: root, at: position)
                objects[object.id] = object.fetched
                for (relationship, destination) in zip(model.entities[object.id.entity].toOneRelationships, object.toOne) {
                    if let destination { incoming[destination, default: [:]][relationship.name, default: []].append(object.id) }
                }
                let generating = model.entities[object.id.entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }
                for (relationship, destinations) in zip(generating, object.links) {
                    let inverse = model.inverse(of: relationship)!.name
                    for destination in destinations {
                        links[object.id, default: [:]][relationship.name, default: []].insert(destination)
                        links[destination, default: [:]][inverse, default: []].insert(object.id)
                    }
                }
            }
        }
        ordered = objects.values.sorted { $0.id < $1.id }
    }

    public func value(_ object: ModelObject, _ attribute: String) -> Value {
        object.values[model.entities[object.id.entity].attributeIndex(attribute)!]
    }

    /// Every object the request selects, sorted as it asks (else by id), paged.
    public func fetch(_ request: FetchRequest) -> [ModelObject] {
        let entity = model.entities[request.entity]
        let selected = ordered.filter { object in
            (request.includesSubentities ? entity.subtree.contains(object.id.entity) : object.id.entity == request.entity)
                && matches(object, request.predicate, request.sort)
        }
        // `selected` is in id order, the last sort key; the sort values are read once per object.
        let sorted = request.sort.isEmpty ? selected : selected.map { object in (object, request.sort.map { value(object, $0.attribute) }) }
            .sorted { a, b in
                for (key, (x, y)) in zip(request.sort, zip(a.1, b.1)) where x != y {
                    return key.ascending ? Value.sqliteLess(x, y) : Value.sqliteLess(y, x)
                }
                return a.0.id < b.0.id
            }.map(\.0)
        let start = min(sorted.count, request.offset ?? 0)
        let end = request.limit.map { min(sorted.count, start + $0) } ?? sorted.count
        return Array(sorted[start ..< end])
    }

    public func count(_ request: FetchRequest) -> Int { fetch(request).count }

    public func matches(_ object: ModelObject, _ predicate: FetchPredicate, _ sort: [SortKey]) -> Bool {
        let info = model.entities[object.id.entity]
        switch predicate {
        case .all: return true
        case let .equals(name, wanted):
            let found = value(object, name)
            return !found.isNull && !wanted.isNull && found == wanted
        case let .range(name, lower, upper):
            let found = value(object, name)
            return !found.isNull && !Value.sqliteLess(found, lower) && Value.sqliteLess(found, upper)
        case let .after(cursor):
            for (index, key) in sort.prefix(cursor.count).enumerated() {
                let found = value(object, key.attribute)
                if found != cursor[index] { return key.ascending ? Value.sqliteLess(cursor[index], found) : Value.sqliteLess(found, cursor[index]) }
            }
            return false
        case let .key(key): return object.id.key == key
        case let .toOne(name, destination):
            let position = info.toOneRelationships.firstIndex { $0.name == name }!
            return object.toOne[position]?.key == destination.key
        case let .anyRelated(name, attribute, wanted):
            let relationship = info.relationship(name)!
            let related: [ObjectID]
            if relationship.isManyToMany {
                related = Array(links[object.id]?[name] ?? [])
            } else {
                related = pointing(at: object.id, through: relationship)
            }
            return related.contains { let found = value(objects[$0]!, attribute); return !found.isNull && found == wanted }
        case let .and(predicates): return predicates.allSatisfy { matches(object, $0, sort) }
        }
    }

    /// The objects a one-to-many `relationship` of `id` holds: those of its destination whose
    /// inverse to-one points at `id`.
    private func pointing(at id: ObjectID, through relationship: Model.Relationship) -> [ObjectID] {
        let inverse = model.inverse(of: relationship)!
        let destination = model.entities[relationship.destination].subtree
        return (incoming[id]?[inverse.name] ?? []).filter { destination.contains($0.entity) }
    }

    /// The objects a delete of `ids` removes, following cascade rules (nullify and no-action keep the others).
    public func deletionClosure(_ ids: [ObjectID]) -> Set<ObjectID> {
        var deleted = Set<ObjectID>()
        var pending = ids
        while let id = pending.popLast() {
            guard deleted.insert(id).inserted, let object = objects[id] else { continue }
            let info = model.entities[id.entity]
            for relationship in info.relationships where relationship.deleteRule == .cascade {
                if !relationship.toMany {
                    if let destination = object.toOne[info.toOneRelationships.firstIndex { $0.name == relationship.name }!] { pending.append(destination) }
                } else if relationship.isManyToMany {
                    pending += links[id]?[relationship.name] ?? []
                } else {
                    pending += pointing(at: id, through: relationship)
                }
            }
        }
        return deleted
    }

    /// The objects left when `deleted` are gone, by id, as a store holds them: a to-one that pointed
    /// at a deleted object is cleared where its inverse's delete rule is nullify (Core Data's
    /// propagation); no action, or no inverse, leaves it pointing at the gone object.
    public func remaining(after deleted: Set<ObjectID>) -> [ObjectID: ModelObject] {
        var left = objects.filter { !deleted.contains($0.key) }
        for (id, object) in left {
            let toOnes = model.entities[id.entity].toOneRelationships
            var copy = object
            for (position, relationship) in toOnes.enumerated() {
                guard let destination = object.toOne[position], deleted.contains(destination) else { continue }
                if model.inverse(of: relationship)?.deleteRule == .nullify {
                    copy.toOne[position] = nil
                    if let key = model.orderKey(of: relationship), let index = model.entities[id.entity].attributeIndex(key) { copy.values[index] = .null }
                }
            }
            left[id] = copy
        }
        return left
    }

    /// Link rows of a generating many-to-many relationship left when `deleted` are gone.
    public func links(_ relationship: Model.Relationship, without deleted: Set<ObjectID>) -> Int {
        objects.keys.filter { model.entities[$0.entity].relationships.contains(relationship) && !deleted.contains($0) }
            .reduce(0) { total, id in total + (links[id]?[relationship.name] ?? []).filter { !deleted.contains($0) }.count }
    }
}
