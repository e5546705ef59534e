import Models

/// How SwiftData stores a value-typed property, as Core Data attributes.
///
/// - Evidence: the scalar types map to Core Data's attribute types as SwiftData's documentation
///   lists them; a Codable struct is flattened into the entity's own table, one column per stored
///   property, as a composite attribute (SwiftData's storage as observed and reported; see
///   docs/model.md, "Measure your SwiftData model"); a collection of values (`[String]`) is kept
///   as one binary property list, a Transformable-like BLOB.
/// - Inferred: the narrow integers (`Int8`, unsigned ones) as the smallest Core Data integer that
///   holds every value; an enum with a raw value as one column of the raw type; an enum with
///   associated values as its case name plus one optional column per associated value; the
///   flattened columns' names, `<property>_<field>`; a type the sources do not declare (a
///   framework's Codable type) as one BLOB, since its stored properties cannot be seen.
struct SwiftDataAttributeMapping {
    /// Core Data's attribute type for each Swift type SwiftData stores as a scalar.
    static let scalars: [String: AttributeType] = [
        "String": .string, "Int": .integer64, "Int64": .integer64, "Int32": .integer32, "Int16": .integer16, "Int8": .integer16,
        "UInt": .integer64, "UInt64": .integer64, "UInt32": .integer64, "UInt16": .integer32, "UInt8": .integer16,
        "Double": .double, "Float": .float, "Bool": .boolean,
        "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri, "Decimal": .decimal,
    ]

    /// A struct nested in itself through optionals would never end; Codable structs this deep are not models.
    static let maximumDepth = 8

    let resolver: SwiftTypeResolver
    /// Columns the entity has so far; flattening stops with a sentence past `Model.maximumColumns`.
    var columns = 0
    /// The types stored as one opaque BLOB (not declared in the sources read), each with the
    /// first property that stores it, in the order met.
    private(set) var opaque: [(type: String, property: String)] = []

    init(resolver: SwiftTypeResolver) { self.resolver = resolver }

    /// The attributes a property `name` of `type`, written in `scope`, becomes; `Unsupported`
    /// names a type SwiftData cannot store. `owner` names the property in warnings (`Item.cover`).
    mutating func attributes(_ name: String, _ type: SwiftType, in scope: String?, owner: String, optional: Bool = false,
                             depth: Int = 0) throws -> [Attribute] {
        let (base, isOptional) = resolver.resolve(type, in: scope).unwrapped
        let optional = optional || isOptional
        guard depth <= Self.maximumDepth else { throw Unsupported(type: type.description, reason: "it nests value types more than \(Self.maximumDepth) deep") }
        switch base {
        case let .named(typeName):
            if let scalar = Self.scalars[typeName] { return try [column(name, scalar, optional: optional)] }
            if case let .value(value)? = resolver[base] {
                return try flattened(name, value, owner: owner, optional: optional, depth: depth)
            }
            if case .model? = resolver[base] {
                throw Unsupported(type: typeName, reason: "'\(typeName)' is a @Model class inside a value type, which SwiftData does not store")
            }
            if !opaque.contains(where: { $0.type == typeName }) { opaque.append((typeName, owner)) }
            return try [column(name, .transformable, optional: optional)]
        case .array, .set, .dictionary:
            return try [column(name, .transformable, optional: optional)]
        case .optional, .other:
            throw Unsupported(type: base.description, reason: nil)
        }
    }

    private mutating func column(_ name: String, _ type: AttributeType, optional: Bool) throws -> Attribute {
        columns += 1
        guard columns <= Model.maximumColumns else {
            throw Unsupported(type: name, reason: "flattened, its Codable values need more than the \(Model.maximumColumns) columns a table of the suite may have")
        }
        return Attribute(name, type, optional: optional)
    }

    private mutating func flattened(_ name: String, _ value: SwiftValueType, owner: String, optional: Bool, depth: Int) throws -> [Attribute] {
        switch value.kind {
        case let .structure(fields):
            guard !fields.isEmpty else { throw Unsupported(type: value.name, reason: "it has no stored property") }
            var made: [Attribute] = []
            for field in fields {
                guard let type = field.type else {
                    throw Unsupported(type: value.name, reason: "the type of its property '\(field.name)' is neither written nor told by its initial value `\(SwiftDataModelBuilder.shortened(field.written))`; write it")
                }
                made += try attributes("\(name)_\(field.name)", type, in: value.name, owner: owner, optional: optional, depth: depth + 1)
            }
            return made
        case let .enumeration(rawType, cases):
            if let rawType, case let .named(raw) = resolver.resolve(rawType, in: value.name), let scalar = Self.scalars[raw] {
                return try [column(name, scalar, optional: optional)]
            }
            var made = try [column(name, .string, optional: optional)]
            for enumCase in cases {
                for (position, associated) in enumCase.values.enumerated() {
                    let label = associated.label ?? "\(position)"
                    made += try attributes("\(name)_\(enumCase.name)_\(label)", associated.type, in: value.name, owner: owner, optional: true, depth: depth + 1)
                }
            }
            return made
        }
    }

    /// A type SwiftData cannot store as an attribute, with why when it is known.
    struct Unsupported: Error {
        var type: String
        var reason: String?
    }
}
