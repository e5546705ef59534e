import Foundation
import SwiftData

// A catalogue of items three levels deep: Item, Book (Hardcover, Ebook) and Album.
// bench.leaf: Hardcover
@Model
class Item {
    #Index<Item>([\.title], [\.addedAt, \.title])
    #Unique<Item>([\.sku])

    var sku: String
    var title: String
    var addedAt: Date
    var rating: Rating
    var availability: Availability?
    var dimensions: Dimensions?
    var keywords: [String] = []
    var price: Decimal?
    @Attribute(.externalStorage) var cover: Data?
    @Transient var isSelected = false
    lazy var importedFrom: String = "manual"
    static let defaultTitle = "Untitled"

    var displayTitle: String { title.uppercased() }

    @Relationship(deleteRule: .cascade, inverse: \Review.item) var reviews: [Review] = []
    var shelf: Shelf?
    @Relationship(inverse: \Tag.items) var tags: [Tag] = []

    init(sku: String, title: String) {
        self.sku = sku
        self.title = title
        addedAt = .now
        rating = .unrated
        importedFrom = "manual"
    }

    func markSelected() { isSelected = true }
}

@Model
class Book: Item {
    var pageCount: Int
    var isbn: String?

    init(sku: String, title: String, pageCount: Int) {
        self.pageCount = pageCount
        super.init(sku: sku, title: title)
    }
}

@Model
final class Hardcover: Book {
    var weight: Float

    init(sku: String, title: String, pageCount: Int, weight: Float) {
        self.weight = weight
        super.init(sku: sku, title: title, pageCount: pageCount)
    }
}

@Model
final class Ebook: Book {
    var fileSize: Int64
    var format: String

    init(sku: String, title: String, pageCount: Int, fileSize: Int64, format: String) {
        self.fileSize = fileSize
        self.format = format
        super.init(sku: sku, title: title, pageCount: pageCount)
    }
}

@Model
final class Album: Item {
    var trackCount: Int16
    var format: String

    init(sku: String, title: String, trackCount: Int16, format: String) {
        self.trackCount = trackCount
        self.format = format
        super.init(sku: sku, title: title)
    }
}
