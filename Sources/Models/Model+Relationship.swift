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
        /// For a many-to-many pair: whether this side's objects get generated links (the other side's follow).
        public let generatesLinks: Bool

        public var isManyToMany: Bool { toMany && inverseIsToMany == true }
        /// A to-many relationship whose inverse is to-one: the links are the other side's foreign keys.
        public var isOneToMany: Bool { toMany && inverseIsToMany != true }
    }
}

