import Generation

/// A value Core Data bound to a statement, as a level-2 log prints it
/// (`CoreData: details: SQLite bind[0] = "Maui"`). It is the app's data: it is used to replay the
/// statement and never printed (its description says only what kind of value it is).
public enum BoundValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// `(timestamp)712345678.123`: seconds since 2001, as Core Data stores a date.
    case timestamp(Double)
    /// A value the log prints in a form of its own (`<62706c69 …>`, an object's description):
    /// kept as printed, replayed as text.
    case printed(String)

    /// Reads the text after `bind[n] = `.
    init(logged text: Substring) {
        let value = text.trimmingSpaces
        if value == "nil" || value == "NULL" || value == "(null)" {
            self = .null
        } else if value.count >= 2, value.first == "\"", value.last == "\"" {
            self = .text(String(value.dropFirst().dropLast()))
        } else if value.hasPrefix("(int64)") || value.hasPrefix("(int32)") || value.hasPrefix("(int16)"), let number = Int64(value.dropFirst(7).trimmingSpaces) {
            self = .integer(number)
        } else if value.hasPrefix("(timestamp)"), let seconds = Double(value.dropFirst(11).trimmingSpaces) {
            self = .timestamp(seconds)
        } else if value.hasPrefix("(double)") || value.hasPrefix("(float)") , let number = Double(value.drop { $0 != ")" }.dropFirst().trimmingSpaces) {
            self = .real(number)
        } else if let number = Int64(value) {
            self = .integer(number)
        } else if let number = Double(value), value.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            self = .real(number)
        } else {
            self = .printed(String(value))
        }
    }

    /// The value as a store binds it (a date as its seconds since 2001); `nil` for one the log
    /// printed in a form of its own.
    public var value: Value? {
        switch self {
        case .null: .null
        case let .integer(number): .integer(number)
        case let .real(number), let .timestamp(number): .real(number)
        case let .text(text): .text(text)
        case .printed: nil
        }
    }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case let .text(text): "a text of \(text.utf8.count) bytes"
        case .timestamp: "a date"
        case let .printed(text): "a printed value of \(text.utf8.count) bytes"
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
