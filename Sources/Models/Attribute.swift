/// An attribute as a model declares it.
public struct Attribute: Codable, Equatable, Sendable {
    public var name: String
    public var type: AttributeType
    /// An optional attribute is NULL in `nullShare` of the objects (default 0.1).
    public var optional: Bool
    public var nullShare: Double?
    /// How values are made; `nil` picks a default from the type and the name.
    public var values: ValueSpec?
    /// For the order key Core Data adds for an ordered to-many relationship (`Model.addOrderKeys`):
    /// the name of the to-one (the to-many's inverse) whose position it holds. Never in a model file.
    public var orderKeyOf: String?
    /// A text's or binary's length (characters, bytes) as a store measured it (`StoreShape`); the
    /// generator follows it where `values` says nothing.
    public var lengths: Quantiles?
    /// Distinct values among the non-NULL ones, as a store measured it (an indexed attribute).
    public var distinctShare: Double?
    public var isOrderKey: Bool { orderKeyOf != nil }

    public init(_ name: String, _ type: AttributeType, optional: Bool = false, nullShare: Double? = nil, values: ValueSpec? = nil) {
        self.name = name; self.type = type; self.optional = optional; self.nullShare = nullShare; self.values = values
    }

    enum CodingKeys: String, CodingKey { case name, type, optional, nullShare, values, lengths, distinctShare }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decode(AttributeType.self, forKey: .type)
        optional = try container.decodeIfPresent(Bool.self, forKey: .optional) ?? false
        nullShare = try container.decodeIfPresent(Double.self, forKey: .nullShare)
        values = try container.decodeIfPresent(ValueSpec.self, forKey: .values)
        lengths = try container.decodeIfPresent(Quantiles.self, forKey: .lengths)
        distinctShare = try container.decodeIfPresent(Double.self, forKey: .distinctShare)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        if optional { try container.encode(optional, forKey: .optional) }
        try container.encodeIfPresent(nullShare, forKey: .nullShare)
        try container.encodeIfPresent(values, forKey: .values)
        try container.encodeIfPresent(lengths, forKey: .lengths)
        try container.encodeIfPresent(distinctShare, forKey: .distinctShare)
    }

    /// The share of objects whose value is NULL.
    public var effectiveNullShare: Double { optional ? nullShare ?? 0.1 : 0 }
}
