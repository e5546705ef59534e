import Foundation

/// The rows of a store that break its own model, counted by kind, each kind with the first row
/// found (named by entity, key and property, never by a value).
public struct StoreRowProblems: Sendable, Equatable {
    public enum Kind: Int, Sendable, CaseIterable, Comparable {
        case unknownEntity, wrongType, missingRequired, danglingToOne, danglingLink

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        func phrase(_ count: Int) -> String {
            let rows = count == 1 ? "row" : "rows"
            switch self {
            case .unknownEntity: return "\(count) \(rows) of an entity number no concrete entity of the table has"
            case .wrongType: return "\(count) \(count == 1 ? "value" : "values") of the wrong type for the attribute's column (or text that is not UTF-8)"
            case .missingRequired: return "\(count) NULL\(count == 1 ? "" : "s") in a required attribute"
            case .danglingToOne: return "\(count) to-one\(count == 1 ? "" : "s") to an object the store does not have"
            case .danglingLink: return "\(count) join-table \(rows) linking an object the store does not have"
            }
        }
    }

    public private(set) var counts: [Kind: Int] = [:]
    public private(set) var first: [Kind: String] = [:]
    /// The keys of the objects whose own values break the model (of one hierarchy, as read).
    var unfit: [Int64] = []

    public var isEmpty: Bool { counts.isEmpty }
    public var total: Int { counts.values.reduce(0, +) }

    mutating func add(_ kind: Kind, _ place: @autoclosure () -> String) {
        counts[kind, default: 0] += 1
        if first[kind] == nil { first[kind] = place() }
    }

    mutating func merge(_ other: StoreRowProblems) {
        unfit += other.unfit
        for (kind, count) in other.counts { counts[kind, default: 0] += count }
        for (kind, place) in other.first where first[kind] == nil { first[kind] = place }
    }

    /// One line: each kind's count and its first row.
    public var summary: String {
        counts.keys.sorted().map { kind in "\(kind.phrase(counts[kind] ?? 0)) (first: \(first[kind] ?? "?"))" }.joined(separator: "; ")
    }
}
