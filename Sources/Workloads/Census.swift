import FetchRequests
import Generation
import Models
import Strategies

/// What a store holding a model's objects must contain: objects per concrete entity and link rows
/// per generating many-to-many relationship, computed from the generator alone.
public struct Census: Equatable, Sendable {
    /// Per entity index (0 for abstract entities).
    public var objects: [Int]
    /// Per generating many-to-many relationship, in `Census.relationships(model)` order.
    public var links: [Int]

    /// The many-to-many relationships whose links are generated, each once (by its declaring entity).
    public static func relationships(_ model: Model) -> [Model.Relationship] {
        model.entities.flatMap { $0.ownRelationships.filter { $0.isManyToMany && $0.generatesLinks } }
    }

    /// The whole dataset's census: its own count of the links, or one pass over the hierarchies
    /// that generate links.
    public init(_ dataset: any Dataset) {
        let model = dataset.model
        objects = model.entities.map(\.rows)
        let relationships = Self.relationships(model)
        if let counted = dataset.linkCounts(relationships) {
            links = counted
            return
        }
        links = Array(repeating: 0, count: relationships.count)
        for root in model.roots where relationships.contains(where: { model.entities[$0.owner].root == root }) {
            for position in 0 ..< dataset.count(root: root) { add(dataset.object(root: root, at: position), model, relationships, countObject: false) }
        }
    }

    /// What `store` holds: each concrete entity's objects (its sub-entities' apart) and each
    /// generating many-to-many's link rows, counted in its layout.
    public init(counting store: LayoutStore) throws {
        let model = store.model
        objects = try model.entities.map { entity in
            entity.isConcrete ? try store.count(FetchRequest(entity: entity.index, includesSubentities: false)) : 0
        }
        links = try Self.relationships(model).map { try store.countLinks($0) }
    }

    /// The census of `objects` alone (an insert of part of the model).
    public init(_ model: Model, objects inserted: [ModelObject]) {
        objects = Array(repeating: 0, count: model.entities.count)
        let relationships = Self.relationships(model)
        links = Array(repeating: 0, count: relationships.count)
        for object in inserted { add(object, model, relationships, countObject: true) }
    }

    private mutating func add(_ object: ModelObject, _ model: Model, _ relationships: [Model.Relationship], countObject: Bool) {
        if countObject { objects[object.id.entity] += 1 }
        let generating = model.entities[object.id.entity].linkedRelationships
        for (relationship, destinations) in zip(generating, object.links) {
            if let index = relationships.firstIndex(of: relationship) { links[index] += destinations.count }
        }
    }

    /// The counts as one digestible list.
    public var numbers: [Int] { objects + links }
}
