import CoreLocation
import Foundation
import SwiftData

/// Codable types of frameworks, which the sources do not declare: stored as one BLOB each.
@Model
final class Place {
    var name: String = ""
    var coordinate: CLLocationCoordinate2D?
    var openingHours: DateComponents?
    var walk: Measurement<UnitLength>?
    var visits: Int = 0

    init(name: String) { self.name = name }
}
