import CoreLocation
import Foundation
import SwiftData

/// Codable types of frameworks, which the sources do not declare: stored as one BLOB each; a
/// struct the sources declare, kept in its codable representation by `.codable`: one BLOB too.
@Model
final class Place {
    var name: String = ""
    var coordinate: CLLocationCoordinate2D?
    var openingHours: DateComponents?
    var walk: Measurement<UnitLength>?
    var visits: Int = 0
    @Attribute(.codable) var entrance: Entrance?

    init(name: String) { self.name = name }
}

struct Entrance: Codable {
    var street: String
    var floor: Int
}
