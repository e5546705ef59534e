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

    public init(_ name: String, parent: String? = nil, abstract: Bool = false, rows: Int? = nil, attributes: [Attribute] = [],
                relationships: [RelationshipDescription] = [], uniquenessConstraints: [[String]] = [], fetchIndexes: [FetchIndex] = []) {
        self.name = name; self.parent = parent; self.abstract = abstract; self.rows = rows; self.attributes = attributes
        self.relationships = relationships; self.uniquenessConstraints = uniquenessConstraints; self.fetchIndexes = fetchIndexes
    }

    enum CodingKeys: String, CodingKey {
        case name, parent, abstract, rows, attributes, relationships, uniquenessConstraints, fetchIndexes
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
    }
}
