extension Model {
    /// An entity of a validated model, with what Core Data derives for it: its entity number,
    /// its place in the inheritance tree, and its inherited attributes and relationships.
    public struct Entity: Sendable, Equatable {
        public let name: String
        /// Index in `Model.entities`; the entity number (`Z_ENT`) is `index + 1`.
        public let index: Int
        public let parent: Int?
        /// Direct sub-entities, in entity-number order.
        public let children: [Int]
        /// The last index of this entity's subtree: its descendants are `index + 1 ... subtreeEnd`.
        public let subtreeEnd: Int
        public let root: Int
        /// 0 for a root.
        public let depth: Int
        public let isAbstract: Bool
        /// Objects of this entity itself (0 when abstract).
        public let rows: Int
        /// Every attribute, inherited first (root's, then each ancestor's), then its own.
        public let attributes: [Attribute]
        /// The entity that declares each of `attributes`.
        public let attributeOwners: [Int]
        /// Every relationship, inherited first, then its own.
        public let relationships: [Model.Relationship]
        /// Constraints declared by this entity (attribute or to-one names).
        public let uniquenessConstraints: [[String]]
        /// Fetch indexes declared by this entity.
        public let fetchIndexes: [FetchIndex]
        /// The NULL share of attributes and to-ones (by name) among this entity's own objects where
        /// it is not the property's own (`EntityDescription.nullShares`).
        public let nullShares: [String: Double]

        /// Core Data's entity number, `Z_ENT`.
        public var number: Int { index + 1 }
        /// This entity and its descendants, as indexes (contiguous: entity numbers are depth-first).
        public var subtree: ClosedRange<Int> { index ... subtreeEnd }
        public var hasSubentities: Bool { !children.isEmpty }
        public var isRoot: Bool { parent == nil }
        public var isConcrete: Bool { !isAbstract }

        /// Attributes declared by this entity itself.
        public var ownAttributes: ArraySlice<Attribute> { attributes[(attributeOwners.firstIndex(of: index) ?? attributes.count)...] }
        public var ownRelationships: [Model.Relationship] { relationships.filter { $0.owner == index } }

        public func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }
        public func attributeIndex(_ name: String) -> Int? { attributes.firstIndex { $0.name == name } }
        public func relationship(_ name: String) -> Model.Relationship? { relationships.first { $0.name == name } }

        /// The NULL share of the attribute at `position` among this entity's own objects.
        public func nullShare(ofAttributeAt position: Int) -> Double {
            attributes[position].optional ? nullShares[attributes[position].name] ?? attributes[position].effectiveNullShare : 0
        }

        /// The NULL share of to-one `relationship` among this entity's own objects.
        public func nullShare(of relationship: Model.Relationship) -> Double { nullShares[relationship.name] ?? relationship.nullShare }

        /// The to-one relationships, in `relationships` order.
        public var toOneRelationships: [Model.Relationship] { relationships.filter { !$0.toMany } }
        /// The many-to-many relationships whose links this entity's objects hold (`ModelObject.links` order).
        public var linkedRelationships: [Model.Relationship] { relationships.filter { $0.isManyToMany && $0.generatesLinks } }
    }
}
