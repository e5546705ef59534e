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
    /// For a row of a many-to-many prefetch: the key of the object whose relationship the row was
    /// read for (the join table's column Core Data selects last), one row per link. `nil` otherwise.
    public var source: Int64?
    /// For inserts of a store's objects: each link's order key as its join table holds it (an
    /// ordered many-to-many's `Z_FOK_` column; `nil` where it has none), parallel to `links`.
    /// `nil` for generated objects, whose order keys follow from the members' keys.
    public var linkOrders: [[Int64?]]?

    public init(id: ObjectID, values: [Value], toOne: [ObjectID?], links: [[ObjectID]] = [], source: Int64? = nil, linkOrders: [[Int64?]]? = nil) {
        self.id = id; self.values = values; self.toOne = toOne; self.links = links; self.source = source; self.linkOrders = linkOrders
    }

    /// Entity, key, every value, every to-one destination, the source when there is one (not the links).
    public func digest(into hasher: inout StableHasher) {
        hasher.combine(id.entity)
        hasher.combine(Int(id.key))
        for value in values { value.digest(into: &hasher) }
        for destination in toOne {
            if let destination { hasher.combine(destination.entity); hasher.combine(Int(destination.key)) } else { hasher.combine(-1) }
        }
        if let source { hasher.combine(-2); hasher.combine(Int(source)) }
    }

    /// An unordered answer's order: by id, then by source (a prefetched destination once per source).
    public static func answerOrder(_ a: ModelObject, _ b: ModelObject) -> Bool {
        a.id != b.id ? a.id < b.id : (a.source ?? -1) < (b.source ?? -1)
    }

    /// The same object as a fetch returns it (no links).
    public var fetched: ModelObject { ModelObject(id: id, values: values, toOne: toOne) }
}

