import Foundation
import SwiftData

/// Two to-many relationships naming the same inverse, as one of Apple's samples declares them.
@Model
final class Garden {
    var name: String = ""
    @Relationship(deleteRule: .cascade, inverse: \Bed.garden) var northBeds: [Bed] = []
    @Relationship(deleteRule: .cascade, inverse: \Bed.garden) var southBeds: [Bed] = []

    init(name: String) { self.name = name }
}

@Model
final class Bed {
    var crop: String = ""
    var area: Double = 0
    var garden: Garden?

    init(crop: String) { self.crop = crop }
}
