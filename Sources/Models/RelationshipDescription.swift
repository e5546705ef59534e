/// A relationship as a model declares it: to-one or to-many, with its inverse and delete rule,
/// and how the generator links objects.
///
/// Links are generated from one side: a to-one relationship picks its destination for each object
/// (uniformly, or by a Zipf law of exponent `popularity` over the destination's objects); of a
/// many-to-many pair, the side that gives `count` (else the one declared by the lower-numbered
/// entity) gives each object `count.min ... count.max` distinct destinations, drawn the same way.
public struct RelationshipDescription: Codable, Equatable, Sendable {
    public var name: String
    public var destination: String
    public var inverse: String?
    public var toMany: Bool
    public var ordered: Bool
    public var deleteRule: DeleteRule
    /// To-one: NULL in `nullShare` of the objects (0 unless optional; default 0.1 when optional).
    public var optional: Bool
    public var nullShare: Double?
    /// Many-to-many, generating side: how many destinations each object links to.
    public var count: FanOut?
    /// Zipf exponent of the destinations' popularity (0: uniform).
    public var popularity: Double?
    /// A to-one Core Data adds on the destination of a to-many relationship without an inverse (see
    /// `Model.hiddenInverse`); never written in a model file.
    public var hidden: Bool = false
    /// To-many: how many destinations each object links to, as a store measured it (`StoreShape`);
    /// the generator follows it in place of `count` and `popularity`.
    public var fanOut: Quantiles?

    public init(_ name: String, destination: String, inverse: String? = nil, toMany: Bool = false, ordered: Bool = false,
                deleteRule: DeleteRule = .nullify, optional: Bool = false, nullShare: Double? = nil,
                count: FanOut? = nil, popularity: Double? = nil, hidden: Bool = false, fanOut: Quantiles? = nil) {
        self.name = name; self.destination = destination; self.inverse = inverse; self.toMany = toMany; self.ordered = ordered
        self.deleteRule = deleteRule; self.optional = optional; self.nullShare = nullShare; self.count = count
        self.popularity = popularity; self.hidden = hidden; self.fanOut = fanOut
    }

    enum CodingKeys: String, CodingKey {
        case name, destination, inverse, toMany, ordered, deleteRule, optional, nullShare, count, popularity, fanOut
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        destination = try c.decode(String.self, forKey: .destination)
        inverse = try c.decodeIfPresent(String.self, forKey: .inverse)
        toMany = try c.decodeIfPresent(Bool.self, forKey: .toMany) ?? false
        ordered = try c.decodeIfPresent(Bool.self, forKey: .ordered) ?? false
        deleteRule = try c.decodeIfPresent(DeleteRule.self, forKey: .deleteRule) ?? .nullify
        optional = try c.decodeIfPresent(Bool.self, forKey: .optional) ?? false
        nullShare = try c.decodeIfPresent(Double.self, forKey: .nullShare)
        count = try c.decodeIfPresent(FanOut.self, forKey: .count)
        popularity = try c.decodeIfPresent(Double.self, forKey: .popularity)
        fanOut = try c.decodeIfPresent(Quantiles.self, forKey: .fanOut)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(destination, forKey: .destination)
        try c.encodeIfPresent(inverse, forKey: .inverse)
        if toMany { try c.encode(toMany, forKey: .toMany) }
        if ordered { try c.encode(ordered, forKey: .ordered) }
        if deleteRule != .nullify { try c.encode(deleteRule, forKey: .deleteRule) }
        if optional { try c.encode(optional, forKey: .optional) }
        try c.encodeIfPresent(nullShare, forKey: .nullShare)
        try c.encodeIfPresent(count, forKey: .count)
        try c.encodeIfPresent(popularity, forKey: .popularity)
        try c.encodeIfPresent(fanOut, forKey: .fanOut)
    }

    public var effectiveNullShare: Double { optional ? nullShare ?? 0.1 : 0 }
}
