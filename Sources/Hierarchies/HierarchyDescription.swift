import Foundation

/// An inheritance hierarchy to benchmark, described as data: a base entity, its sub-entities,
/// their attributes and types, how many rows of each, and optionally a to-one reference from
/// every object to an owner entity outside the hierarchy.
///
/// The generator (`HierarchyGenerator`) and every described strategy (`DescribedStrategy`) are
/// driven by a description alone. `bench run --preset NAME` picks one of `HierarchyPresets`;
/// `bench run --hierarchy FILE` reads one from JSON:
///
/// ```json
/// {
///   "name": "shop",
///   "base": { "name": "Product", "abstract": true,
///             "attributes": [ { "name": "title", "type": "string" }, { "name": "price", "type": "double" } ] },
///   "subEntities": [
///     { "name": "Physical", "rows": 6000, "attributes": [ { "name": "weight", "type": "double" } ] },
///     { "name": "Digital",  "rows": 4000, "attributes": [ { "name": "url", "type": "string" } ] }
///   ],
///   "owner": { "entity": "Shop", "relationship": "shop", "rows": 50 },
///   "leaf": "Digital"
/// }
/// ```
///
/// Every object also carries a `uid` (a UUID, declared on the base, unique): it identifies an
/// object across strategies, orders the pages and serves the lookups by id.
public struct HierarchyDescription: Codable, Equatable, Sendable {
    public enum AttributeType: String, Codable, CaseIterable, Sendable {
        case integer, double, date, string, boolean
    }

    public struct Attribute: Codable, Equatable, Sendable {
        public var name: String
        public var type: AttributeType
        public init(_ name: String, _ type: AttributeType) { self.name = name; self.type = type }
    }

    public struct Base: Codable, Equatable, Sendable {
        public var name: String
        /// An abstract base has no rows of its own.
        public var abstract: Bool
        public var attributes: [Attribute]
        /// Rows of the base entity itself (absent or 0 when abstract).
        public var rows: Int?
        public init(name: String, abstract: Bool, attributes: [Attribute], rows: Int? = nil) {
            self.name = name; self.abstract = abstract; self.attributes = attributes; self.rows = rows
        }
    }

    public struct SubEntity: Codable, Equatable, Sendable {
        public var name: String
        public var attributes: [Attribute]
        public var rows: Int
        public init(name: String, attributes: [Attribute], rows: Int) {
            self.name = name; self.attributes = attributes; self.rows = rows
        }
    }

    /// A to-one relationship from the base to an entity outside the hierarchy (a foreign key).
    public struct Owner: Codable, Equatable, Sendable {
        /// The owner entity's name (it has one attribute, `name`).
        public var entity: String
        /// The relationship's name on the base.
        public var relationship: String
        /// How many owners exist; objects are spread over them uniformly at random.
        public var rows: Int
        public init(entity: String, relationship: String, rows: Int) {
            self.entity = entity; self.relationship = relationship; self.rows = rows
        }
    }

    public var name: String
    /// One line for `bench list`.
    public var summary: String?
    public var base: Base
    public var subEntities: [SubEntity]
    public var owner: Owner?
    /// The entity `fetch-leaf` and `count-leaf` read (default: the first sub-entity).
    public var leaf: String?

    public init(name: String, summary: String? = nil, base: Base, subEntities: [SubEntity], owner: Owner? = nil, leaf: String? = nil) {
        self.name = name; self.summary = summary; self.base = base; self.subEntities = subEntities
        self.owner = owner; self.leaf = leaf
    }

    // MARK: Derived facts

    /// A concrete entity: the base when it is not abstract, then every sub-entity, in that order.
    public struct Concrete: Equatable, Sendable {
        public var name: String
        /// Attributes declared by this entity (none for the base: its attributes are everyone's).
        public var ownAttributes: [Attribute]
        public var rows: Int
        public var isBase: Bool
    }

    public var concreteEntities: [Concrete] {
        (base.abstract ? [] : [Concrete(name: base.name, ownAttributes: [], rows: base.rows ?? 0, isBase: true)])
            + subEntities.map { Concrete(name: $0.name, ownAttributes: $0.attributes, rows: $0.rows, isBase: false) }
    }

    public var totalRows: Int { concreteEntities.reduce(0) { $0 + $1.rows } }

    /// The index in `concreteEntities` of the `fetch-leaf` entity.
    public var leafIndex: Int {
        let entities = concreteEntities
        if let leaf, let index = entities.firstIndex(where: { $0.name == leaf }) { return index }
        return entities.firstIndex { !$0.isBase } ?? 0
    }

    /// The same hierarchy with `total` rows in all, shared out in proportion to the described rows
    /// (largest remainders, so the counts add up exactly; ties go to the earlier entity).
    public func scaled(to total: Int) -> HierarchyDescription {
        let described = concreteEntities.map(\.rows)
        let sum = described.reduce(0, +)
        guard sum > 0, total != sum else { return self }
        let exact = described.map { Double($0) * Double(total) / Double(sum) }
        var counts = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { (exact[$0] - Double(counts[$0]), -$0) > (exact[$1] - Double(counts[$1]), -$1) }
        for index in order.prefix(total - counts.reduce(0, +)) { counts[index] += 1 }
        var copy = self
        var next = counts.makeIterator()
        if !base.abstract { copy.base.rows = next.next()! }
        for index in copy.subEntities.indices { copy.subEntities[index].rows = next.next()! }
        return copy
    }

    // MARK: Validation

    /// A description that cannot be benchmarked, with what to change.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Names the described strategies reserve on the base.
    static let reservedAttributeNames: Set<String> = ["uid", "kind", "details"]
    public static let maximumSubEntities = 250
    public static let maximumAttributes = 64
    public static let maximumRows = 10_000_000
    /// SQLite's default limit is 2,000 columns per table; the single table holds every attribute.
    public static let maximumColumns = 1_900

    /// Throws `Invalid` naming the first problem found.
    public func validate() throws {
        func fail(_ text: String) -> Invalid { Invalid(description: text) }
        func checkName(_ name: String, _ what: String) throws {
            let ascii = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0)) }
            guard let first = name.unicodeScalars.first, ascii, CharacterSet.letters.contains(first), name.count <= 60 else {
                throw fail("\(what) name '\(name)' must be 1 to 60 ASCII letters and digits, starting with a letter")
            }
        }
        try checkName(name.replacingOccurrences(of: "-", with: ""), "hierarchy")
        try checkName(base.name, "entity")
        guard !subEntities.isEmpty else { throw fail("'\(base.name)' has no sub-entities; describe at least one") }
        guard subEntities.count <= Self.maximumSubEntities else {
            throw fail("\(subEntities.count) sub-entities is more than the \(Self.maximumSubEntities) the suite supports")
        }
        var entityNames: Set<String> = [base.name.uppercased()]
        for entity in subEntities {
            try checkName(entity.name, "entity")
            guard entityNames.insert(entity.name.uppercased()).inserted else {
                throw fail("entity name '\(entity.name)' is used twice (names are compared without case, as Core Data's table names are)")
            }
        }
        if let owner {
            try checkName(owner.entity, "owner entity")
            try checkName(owner.relationship, "owner relationship")
            guard entityNames.insert(owner.entity.uppercased()).inserted else {
                throw fail("owner entity name '\(owner.entity)' is also a hierarchy entity; give it a name of its own")
            }
            guard (1 ... Self.maximumRows).contains(owner.rows) else {
                throw fail("owner rows must be between 1 and \(Self.maximumRows); got \(owner.rows)")
            }
        }
        func checkAttributes(_ attributes: [Attribute], of entity: String, inherited: Set<String>) throws {
            guard attributes.count <= Self.maximumAttributes else {
                throw fail("'\(entity)' declares \(attributes.count) attributes, more than the \(Self.maximumAttributes) the suite supports")
            }
            var seen = inherited
            for attribute in attributes {
                try checkName(attribute.name, "attribute")
                guard !Self.reservedAttributeNames.contains(attribute.name.lowercased()), !attribute.name.lowercased().hasPrefix("slot") else {
                    throw fail("attribute name '\(attribute.name)' of '\(entity)' is reserved (uid, kind, details and names starting with 'slot'); rename it")
                }
                guard seen.insert(attribute.name.uppercased()).inserted else {
                    throw fail("'\(entity)' declares attribute '\(attribute.name)' twice, or again after its base")
                }
            }
        }
        var baseNames: Set<String> = owner.map { [$0.relationship.uppercased()] } ?? []
        try checkAttributes(base.attributes, of: base.name, inherited: baseNames)
        baseNames.formUnion(base.attributes.map { $0.name.uppercased() })
        for entity in subEntities { try checkAttributes(entity.attributes, of: entity.name, inherited: baseNames) }
        if base.abstract, let rows = base.rows, rows != 0 {
            throw fail("'\(base.name)' is abstract but has \(rows) rows; drop \"rows\" or make it concrete")
        }
        for entity in concreteEntities where !(0 ... Self.maximumRows).contains(entity.rows) {
            throw fail("'\(entity.name)' rows must be between 0 and \(Self.maximumRows); got \(entity.rows)")
        }
        guard totalRows > 0 else { throw fail("the hierarchy has no rows; give at least one entity some") }
        guard totalRows <= Self.maximumRows else {
            throw fail("the hierarchy has \(totalRows) rows in all, more than the \(Self.maximumRows) the suite supports; describe fewer")
        }
        let columns = 4 + base.attributes.count + subEntities.reduce(0) { $0 + $1.attributes.count }
        guard columns <= Self.maximumColumns else {
            throw fail("the single table would have \(columns) columns, more than the \(Self.maximumColumns) SQLite allows here; describe fewer attributes")
        }
        if let leaf, !concreteEntities.contains(where: { $0.name == leaf }) {
            throw fail("leaf '\(leaf)' is not a concrete entity of the hierarchy")
        }
    }

    // MARK: JSON

    /// Reads and validates a description; every problem is one line naming the file.
    public static func load(path: String) throws -> HierarchyDescription {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) }
        catch { throw Invalid(description: "cannot read the hierarchy file \(path): \((error as NSError).localizedDescription)") }
        let description: HierarchyDescription
        do { description = try JSONDecoder().decode(HierarchyDescription.self, from: data) }
        catch let error as DecodingError { throw Invalid(description: "\(path) is not a hierarchy description: \(Self.explain(error))") }
        catch { throw Invalid(description: "\(path) is not a hierarchy description: \(error)") }
        do { try description.validate() }
        catch let error as Invalid { throw Invalid(description: "\(path): \(error.description)") }
        return description
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case let .keyNotFound(key, context): return "\(path(context)) lacks \"\(key.stringValue)\""
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "\(path(context)): \(context.debugDescription)"
        case let .dataCorrupted(context):
            if let enumKey = context.codingPath.last, enumKey.stringValue == "type" {
                return "\(path(context)) must be one of \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
