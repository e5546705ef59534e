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
///   flattened columns' names, `<property>_<field>`.
enum SwiftDataAttributeMapping {
    /// Core Data's attribute type for each Swift type SwiftData stores as a scalar.
    static let scalars: [String: AttributeType] = [
        "String": .string, "Int": .integer64, "Int64": .integer64, "Int32": .integer32, "Int16": .integer16, "Int8": .integer16,
        "UInt": .integer64, "UInt64": .integer64, "UInt32": .integer64, "UInt16": .integer32, "UInt8": .integer16,
        "Double": .double, "CGFloat": .double, "Float": .float, "Float32": .float, "Float64": .double, "Bool": .boolean,
        "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri, "Decimal": .decimal,
    ]

    /// A struct nested in itself through optionals would never end; Codable structs this deep are not models.
    static let maximumDepth = 8

    /// The attributes a property `name` of `type` becomes; `unsupported` names a type SwiftData cannot store.
    static func attributes(_ name: String, _ type: SwiftType, optional: Bool = false, values: [String: SwiftValueType],
                           depth: Int = 0) throws -> [Attribute] {
        let (base, isOptional) = type.unwrapped
        let optional = optional || isOptional
        guard depth <= maximumDepth else { throw Unsupported(type: type.description, reason: "it nests value types more than \(maximumDepth) deep") }
        switch base {
        case let .named(typeName):
            if let scalar = scalars[typeName] { return [Attribute(name, scalar, optional: optional)] }
            guard let value = values[typeName] else { throw Unsupported(type: typeName, reason: nil) }
            return try flattened(name, value, optional: optional, values: values, depth: depth)
        case .array, .set, .dictionary:
            return [Attribute(name, .transformable, optional: optional)]
        case .optional, .other:
            throw Unsupported(type: base.description, reason: nil)
        }
    }

    private static func flattened(_ name: String, _ value: SwiftValueType, optional: Bool, values: [String: SwiftValueType],
                                  depth: Int) throws -> [Attribute] {
        switch value.kind {
        case let .structure(fields):
            guard !fields.isEmpty else { throw Unsupported(type: value.name, reason: "it has no stored property") }
            return try fields.flatMap { field in
                try attributes("\(name)_\(field.name)", field.type, optional: optional, values: values, depth: depth + 1)
            }
        case let .enumeration(rawType, cases):
            if let rawType, let scalar = scalars[rawType] { return [Attribute(name, scalar, optional: optional)] }
            var made = [Attribute(name, .string, optional: optional)]
            for enumCase in cases {
                for (position, associated) in enumCase.values.enumerated() {
                    let label = associated.label ?? "\(position)"
                    made += try attributes("\(name)_\(enumCase.name)_\(label)", associated.type, optional: true, values: values, depth: depth + 1)
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
