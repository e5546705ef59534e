/// The attribute types of a Core Data model, with the SQLite column type Core Data gives each
/// and the column group that orders a table's columns.
public enum AttributeType: String, Codable, CaseIterable, Sendable {
    case integer16, integer32, integer64, decimal, double, float, string, boolean, date, binary, uuid, uri
    /// Xcode's Transformable: values kept as archived data, in a column group of their own.
    case transformable

    /// The declared SQL type of the column Core Data creates for the attribute.
    public var sqlType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .date: "TIMESTAMP"
        case .string, .uri: "VARCHAR"
        case .uuid, .binary, .transformable: "BLOB"
        }
    }

    /// Core Data orders a table's attribute columns by group: INTEGER (each entity's integers and
    /// booleans, then its to-one columns), FLOAT and TIMESTAMP together, DECIMAL, VARCHAR, UUID
    /// and URI together, Transformable, then binary BLOBs. See docs/strategies.md, "Core Data's
    /// layout", for the evidence: real Apple Notes stores put Transformable columns after VARCHAR
    /// and before binary BLOBs, and real Reminders, Notes (macOS 12, iOS 15) and Screen Time stores
    /// put the UUID and URI group before the Transformable one.
    public var columnGroup: Int {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: 0
        case .double, .float, .date: 1
        case .decimal: 2
        case .string: 3
        case .uuid, .uri: 4
        case .transformable: 5
        case .binary: 6
        }
    }

    /// The kind of value stored: what a strategy binds and reads back.
    public var storage: Storage {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: .integer
        case .double, .float, .decimal, .date: .real
        case .string, .uri: .text
        case .uuid, .binary, .transformable: .blob
        }
    }

    public enum Storage: Sendable { case integer, real, text, blob }

    /// Names accepted in JSON besides the raw values (Xcode's spellings).
    static let aliases: [String: AttributeType] = [
        "integer 16": .integer16, "integer 32": .integer32, "integer 64": .integer64, "int16": .integer16,
        "int32": .integer32, "int64": .integer64, "integer": .integer64, "bool": .boolean, "binary data": .binary,
        "data": .binary, "url": .uri, "text": .string, "binary data (transformable)": .transformable,
    ]

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let type = AttributeType(rawValue: text) ?? Self.aliases[text.lowercased()] {
            self = type
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "unknown attribute type '\(text)'; choose from \(Self.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
    }
}
