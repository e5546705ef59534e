import Models

/// A property (attribute or relationship) by the entity that declares it and its name: the key of
/// a layout's per-property lookups, unique in a model (an entity's properties have distinct names).
struct PropertyKey: Hashable, Sendable {
    /// Index of the declaring entity in `Model.entities`.
    let owner: Int
    let name: String

    init(owner: Int, name: String) { self.owner = owner; self.name = name }

    /// The key of a relationship, by its declaring entity (`relationship.owner`).
    init(_ relationship: Model.Relationship) { self.init(owner: relationship.owner, name: relationship.name) }
}
