/// A compound fetch index. Each element is a property (attribute or to-one relationship),
/// `entity` (the entity column, `Z_ENT`) or `SELF` (the object's key, `Z_PK`), ascending unless it
/// says `desc`.
/// In JSON: `{ "name": "byPublishDate", "elements": ["publishDate desc", "uid desc"] }`.
public struct FetchIndex: Codable, Equatable, Sendable {
    public struct Element: Equatable, Sendable, CustomStringConvertible {
        /// The property's name, or `nil` for the entity element.
        public var property: String?
        public var ascending: Bool
        public init(property: String?, ascending: Bool = true) { self.property = property; self.ascending = ascending }
        public static func entity(ascending: Bool = true) -> Element { Element(property: nil, ascending: ascending) }

        /// `title`, `publishDate desc`, `entity`.
        public init?(text: String) {
            let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard (1 ... 2).contains(parts.count) else { return nil }
            if parts.count == 2 {
                switch parts[1].lowercased() {
                case "asc", "ascending": ascending = true
                case "desc", "descending": ascending = false
                default: return nil
                }
            } else {
                ascending = true
            }
            property = parts[0] == "entity" ? nil : parts[0].caseInsensitiveCompare(FetchIndex.primaryKeyName) == .orderedSame ? FetchIndex.primaryKeyName : parts[0]
        }

        public var description: String { (property ?? "entity") + (ascending ? "" : " desc") }
    }

    public var name: String
    public var elements: [Element]
    /// A partial index's condition (`NSFetchIndexDescription.partialIndexPredicate`), read from a
    /// store's model; `nil` indexes every row. Not part of the JSON form.
    public var condition: Condition?
    /// An R-tree index (`NSFetchIndexElementType.rTree`, or a location attribute's derived
    /// components): Core Data's virtual table `Z_RT_<Entity>_<name>` of each element's minimum and
    /// maximum, kept by triggers on the entity's table. Its elements are numeric attributes.
    public var rtree: Bool
    /// The attribute types an R-tree index may name: numbers and dates.
    public static let rtreeTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float, .date]

    public init(_ name: String, _ elements: [Element], condition: Condition? = nil, rtree: Bool = false) {
        self.name = name; self.elements = elements; self.condition = condition; self.rtree = rtree
    }

    /// `FetchIndex("byTitle", "title")`, `FetchIndex("byDate", "publishDate desc", "uid desc")`.
    public init(_ name: String, _ elements: String...) {
        self.init(name, elements.compactMap(Element.init(text:)))
    }

    enum CodingKeys: String, CodingKey { case name, elements, rtree }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        let texts = try c.decode([String].self, forKey: .elements)
        elements = try texts.map { text in
            guard let element = Element(text: text) else {
                throw DecodingError.dataCorruptedError(forKey: .elements, in: c, debugDescription:
                    "element '\(text)' must be a property name or 'entity', optionally followed by 'asc' or 'desc'")
            }
            return element
        }
        condition = nil
        rtree = try c.decodeIfPresent(Bool.self, forKey: .rtree) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(elements.map(\.description), forKey: .elements)
        if rtree { try c.encode(rtree, forKey: .rtree) }
    }
}
