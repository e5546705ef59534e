import Foundation

/// An attribute value as SQLite stores it: Core Data's integers and booleans as INTEGER; doubles,
/// floats, decimals and dates (seconds since 2001-01-01) as REAL; strings and URIs as TEXT; UUIDs
/// (16 bytes) and binary data as BLOB; or NULL.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public func digest(into hasher: inout StableHasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .integer(value): hasher.combine(1); hasher.combine(Int(value))
        case let .real(value): hasher.combine(2); hasher.combine(value)
        case let .text(value): hasher.combine(3); hasher.combine(value)
        case let .blob(bytes): hasher.combine(4); hasher.combine(bytes.count); bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case let .integer(value): "\(value)"
        case let .real(value): "\(value)"
        case let .text(value): "'\(value)'"
        case let .blob(bytes): "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    public var isNull: Bool { if case .null = self { true } else { false } }

    /// Orders values as SQLite's BINARY collation does within one storage class (NULL first,
    /// numbers, then text by bytes, then blobs by bytes).
    public static func sqliteLess(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case let (.integer(x), .integer(y)): return x < y
        case let (.real(x), .real(y)): return x < y
        case let (.integer(x), .real(y)): return Double(x) < y
        case let (.real(x), .integer(y)): return x < Double(y)
        case (.integer, _), (.real, _): return true
        case (_, .integer), (_, .real): return false
        case let (.text(x), .text(y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        case (.text, .blob): return true
        case (.blob, .text): return false
        case let (.blob(x), .blob(y)): return x.lexicographicallyPrecedes(y)
        }
    }
}
