import Foundation

/// Stored as its raw value.
enum Rating: Int, Codable {
    case unrated, poor, fair, good, excellent
}

/// An enum with associated values: stored flattened into the item's row.
enum Availability: Codable {
    case inStock(count: Int)
    case backordered(until: Date)
    case discontinued
}

/// A Codable struct: one column per stored property.
struct Dimensions: Codable {
    var width: Double
    var height: Double
    var unit: String?

    /// Not stored.
    var area: Double { width * height }
}

/// Not a model: never stored.
final class CoverCache {
    var images: [String: Data] = [:]
}
