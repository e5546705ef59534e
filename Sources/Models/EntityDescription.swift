/// An entity as a model declares it.
public struct EntityDescription: Codable, Equatable, Sendable {
    public var name: String
    /// The parent entity's name; `nil` for a root entity.
    public var parent: String?
    /// An abstract entity has no objects of its own.
    public var abstract: Bool
    /// Objects of this entity itself (not counting sub-entities); 0 or absent when abstract.
    public var rows: Int?
    public var attributes: [Attribute]
    public var relationships: [RelationshipDescription]
    /// Each constraint: one or more attribute (or to-one relationship) names whose values are unique together.
    public var uniquenessConstraints: [[String]]
    public var fetchIndexes: [FetchIndex]
    /// The NULL share of optional attributes and to-ones (its own or inherited, by name) among this
    /// entity's own objects, where it differs from the property's `nullShare` over the declaring
    /// entity's whole subtree: a store's shape, read per concrete entity (a sub-entity that never
    /// sets an inherited attribute, another that always does).
    public var nullShares: [String: Double]

    public init(_ name: String, parent: String? = nil, abstract: Bool = false, rows: Int? = nil, attributes: [Attribute] = [],
                relationships: [RelationshipDescription] = [], uniquenessConstraints: [[String]] = [], fetchIndexes: [FetchIndex] = [],
                nullShares: [String: Double] = [:]) {
        self.name = name; self.parent = parent; self.abstract = abstract; self.rows = rows; self.attributes = attributes
        self.relationships = relationships; self.uniquenessConstraints = uniquenessConstraints; self.fetchIndexes = fetchIndexes
        self.nullShares = nullShares
    }

    enum CodingKeys: String, CodingKey {
        case name, parent, abstract, rows, attributes, relationships, uniquenessConstraints, fetchIndexes, nullShares
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        parent = try c.decodeIfPresent(String.self, forKey: .parent)
        abstract = try c.decodeIfPresent(Bool.self, forKey: .abstract) ?? false
        rows = try c.decodeWholeNumberIfPresent(forKey: .rows)
        attributes = try c.decodeIfPresent([Attribute].self, forKey: .attributes) ?? []
        relationships = try c.decodeIfPresent([RelationshipDescription].self, forKey: .relationships) ?? []
        uniquenessConstraints = try c.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints) ?? []
        fetchIndexes = try c.decodeIfPresent([FetchIndex].self, forKey: .fetchIndexes) ?? []
        nullShares = try c.decodeIfPresent([String: Double].self, forKey: .nullShares) ?? [:]
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(parent, forKey: .parent)
        if abstract { try c.encode(abstract, forKey: .abstract) }
        try c.encodeIfPresent(rows, forKey: .rows)
        if !attributes.isEmpty { try c.encode(attributes, forKey: .attributes) }
        if !relationships.isEmpty { try c.encode(relationships, forKey: .relationships) }
        if !uniquenessConstraints.isEmpty { try c.encode(uniquenessConstraints, forKey: .uniquenessConstraints) }
        if !fetchIndexes.isEmpty { try c.encode(fetchIndexes, forKey: .fetchIndexes) }
        if !nullShares.isEmpty { try c.encode(nullShares, forKey: .nullShares) }
    }
}
