import Foundation
import SwiftData

@Model
final class Review {
    var stars: Int8
    var text: String?
    var item: Item?

    init(stars: Int8) { self.stars = stars }
}

@Model
final class Shelf {
    var name: String
    var items: [Item] = []

    init(name: String) { self.name = name }
}

@Model
final class Tag {
    @Attribute(.unique) var name: String
    var items: [Item] = []

    init(name: String) { self.name = name }
}
