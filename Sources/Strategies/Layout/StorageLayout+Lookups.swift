import CoreDataLayout
import FetchRequests
import Models

/// A layout's lookups of a model's properties by the names a `FetchRequest` or a relationship
/// gives, resolved to positions once per statement: each is a `LayoutError` naming the strategy
/// when a name is unknown (a model could make it fail), never a trap.
extension StorageLayout {
    /// The position of attribute `name` in `entity`'s `attributes` (the same in every descendant).
    func attributePosition(_ entity: Int, _ name: String) throws -> Int {
        try Self.need(model.entities[entity].attributeIndex(name), "attribute '\(name)' of \(model.entities[entity].name)")
    }

    /// The position of to-one `name` in `entity`'s `toOneRelationships` (the same in every descendant).
    func toOnePosition(_ entity: Int, _ name: String) throws -> Int {
        try Self.need(model.entities[entity].toOneRelationships.firstIndex { $0.name == name }, "to-one '\(name)' of \(model.entities[entity].name)")
    }

    /// Relationship `name` of `entity` (declared by it or an ancestor).
    func relationship(_ entity: Int, _ name: String) throws -> Model.Relationship {
        try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
    }

    /// The inverse to-one of a to-many or one-to-one relationship, and its position in its owner's
    /// `toOneRelationships` (the same in every entity holding it).
    func inverseToOne(_ relationship: Model.Relationship) throws -> (Model.Relationship, Int) {
        let inverse = try Self.need(model.inverse(of: relationship), "inverse to-one of \(model.entities[relationship.owner].name).\(relationship.name)")
        return (inverse, try toOnePosition(inverse.owner, inverse.name))
    }
}
