extension Model {
    /// A relationship of a validated model, its destination and inverse resolved.
    public struct Relationship: Sendable, Equatable {
        public let name: String
        /// The entity that declares it (sub-entities inherit it).
        public let owner: Int
        public let destination: Int
        public let inverse: String?
        public let toMany: Bool
        /// Whether the inverse is to-many (`nil` without an inverse).
        public let inverseIsToMany: Bool?
        public let ordered: Bool
        public let deleteRule: DeleteRule
        public let nullShare: Double
        public let count: FanOut
        public let popularity: Double
        /// For a many-to-many or one-to-one pair: whether this side's objects get generated links
        /// (the other side's follow).
        public let generatesLinks: Bool
        /// The to-one Core Data keeps for a to-many relationship without an inverse, on its
        /// destination (`Model.hiddenInverse`): not in the model file, but a column of the store.
        public let isHidden: Bool
        /// To-many: the measured fan-out the generator follows (`RelationshipDescription.fanOut`).
        public var fanOut: Quantiles? = nil

        public var isManyToMany: Bool { toMany && inverseIsToMany == true }
        /// A to-one whose inverse is to-one: each side keeps a foreign key, and A.b is B exactly when B.a is A.
        public var isOneToOne: Bool { !toMany && inverseIsToMany == false }
        /// A to-many relationship whose inverse is to-one: the links are the other side's foreign keys.
        public var isOneToMany: Bool { toMany && inverseIsToMany != true }
    }
}


extension Model {
    /// A relationship as a description again (its destination by name), for a model a strategy
    /// derives from this one: as declared, the hidden to-ones included; `count` only on the
    /// generating side of a many-to-many pair, so that the same side generates there; not ordered,
    /// since the order keys are attributes of this model already (`Model.addOrderKeys`).
    public func declaration(of relationship: Relationship) -> RelationshipDescription {
        RelationshipDescription(
            relationship.name, destination: entities[relationship.destination].name, inverse: relationship.inverse,
            toMany: relationship.toMany, ordered: false, deleteRule: relationship.deleteRule,
            optional: relationship.nullShare > 0, nullShare: relationship.nullShare > 0 ? relationship.nullShare : nil,
            count: relationship.isManyToMany && relationship.generatesLinks ? relationship.count : nil,
            popularity: relationship.popularity > 0 ? relationship.popularity : nil, hidden: relationship.isHidden,
            fanOut: relationship.fanOut)
    }
}
