import Foundation

/// A partial fetch index's condition, as far as the suite models it: comparisons of one property
/// (or `SELF`) with a constant, joined by AND, OR and NOT: what Core Data's index SQL can hold
/// (`NSSQLIndexIntermediate`: no joins, no bound values, constants written into the statement).
extension FetchIndex {
    /// The element that stands for the object itself: Core Data's `SELF`, the key column `Z_PK`.
    public static let primaryKeyName = "SELF"

    public indirect enum Condition: Equatable, Sendable {
        case compare(property: String, Comparison, Constant)
        case and([Condition]), or([Condition]), not(Condition)
    }

    /// `NSPredicateOperatorType` 0 … 5.
    public enum Comparison: Int, Sendable {
        case less = 0, lessOrEqual, greater, greaterOrEqual, equal, notEqual
    }

    /// A constant as an archived `NSExpression` holds it.
    public enum Constant: Equatable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        /// An `NSDate`: seconds since 2001-01-01 (the reference date), as Core Data stores dates.
        case date(Double)
    }
}

extension FetchIndex.Element {
    /// The `SELF` element (`Z_PK`).
    public static func primaryKey(ascending: Bool = true) -> Self { Self(property: FetchIndex.primaryKeyName, ascending: ascending) }
    public var isPrimaryKey: Bool { property == FetchIndex.primaryKeyName }
}

extension FetchIndex.Condition {
    /// The condition as Core Data writes it after `WHERE` in a partial index: `ZTITLE IS NOT NULL`,
    /// `ZCOUNT > 5`, `ZKIND = 'note'`, `(ZA = 1 AND ZB IS NULL)`, ` NOT (ZA = 1)` (with its leading
    /// space, as `NSSQLCompoundWhereIntermediate` writes it); `column` names each property's
    /// column (`SELF` included), `nil` when the layout has none (then the whole condition is `nil`).
    public func sql(column: (String) -> String?) -> String? {
        switch self {
        case let .compare(property, comparison, constant):
            guard let name = column(property) else { return nil }
            if constant == .null {
                switch comparison {
                case .equal: return name + " IS NULL"
                case .notEqual: return name + " IS NOT NULL"
                default: return nil
                }
            }
            let tokens: [FetchIndex.Comparison: String] = [.less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=", .equal: "=", .notEqual: "<>"]
            return tokens[comparison].map { "\(name) \($0) \(constant.sql)" }
        case let .and(parts), let .or(parts):
            let joiner = if case .and = self { " AND " } else { " OR " }
            let written = parts.map { $0.sql(column: column) }
            guard !parts.isEmpty, written.allSatisfy({ $0 != nil }) else { return nil }
            return "(" + written.compactMap { $0 }.joined(separator: joiner) + ")"
        case let .not(part):
            return part.sql(column: column).map { " NOT (" + $0 + ")" }
        }
    }

    /// The properties the condition reads.
    public var properties: Set<String> {
        switch self {
        case let .compare(property, _, _): [property]
        case let .and(parts), let .or(parts): parts.reduce(into: Set<String>()) { $0.formUnion($1.properties) }
        case let .not(part): part.properties
        }
    }
}

extension FetchIndex.Constant {
    /// A constant written into an index's SQL as `NSSQLConstantValueIntermediate` writes it in an
    /// index: a number as it prints, a string quoted (a quote in it doubled), a date as the seconds
    /// since the reference date with six decimals (`%f`).
    public var sql: String {
        switch self {
        case .null: "NULL"
        case let .integer(value): String(value)
        case let .real(value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case let .text(value): "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case let .date(value): String(format: "%f", value)
        }
    }
}
