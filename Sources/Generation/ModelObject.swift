/// One object of a model, as the generator makes it and as every strategy hands it back.
public struct ModelObject: Equatable, Sendable, Digestible {
    public var id: ObjectID
    /// One value per attribute of the entity, in `Model.Entity.attributes` order.
    public var values: [Value]
    /// One destination (or `nil`) per to-one relationship, in `Model.Entity.toOneRelationships` order.
    public var toOne: [ObjectID?]
    /// For inserts: the destinations of each many-to-many relationship whose links this side
    /// generates (`Model.Relationship.generatesLinks`), in `relationships` order. Empty in fetched objects.
    public var links: [[ObjectID]]

    public init(id: ObjectID, values: [Value], toOne: [ObjectID?], links: [[ObjectID]] = []) {
        self.id = id; self.values = values; self.toOne = toOne; self.links = links
    }

    /// Entity, key, every value, every to-one destination (not the links).
    public func digest(into hasher: inout StableHasher) {
        hasher.combine(id.entity)
        hasher.combine(Int(id.key))
        for value in values { value.digest(into: &hasher) }
        for destination in toOne {
            if let destination { hasher.combine(destination.entity); hasher.combine(Int(destination.key)) } else { hasher.combine(-1) }
        }
    }

    /// The same object as a fetch returns it (no links).
    public var fetched: ModelObject { ModelObject(id: id, values: values, toOne: toOne) }
}
