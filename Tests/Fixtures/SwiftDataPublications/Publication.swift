// The publications preset (Sources/Models/Presets/ModelPresets+Publications.swift) as SwiftData
// source. The properties are in the preset's order, because the generator draws values property
// by property: the same order gives the same dataset. The `bench.*` comments give the preset's
// value kinds, fan-out and reads, as an Xcode model's user info does.
import Foundation
import SwiftData

// bench.leaf: Book
// bench.order: publishDate desc, uid desc
@Model
class Publication {
    // bench.names: byPublishDate, byTitle
    #Index<Publication>([\.publishDate, \.uid], [\.title])

    @Attribute(.unique) var uid: UUID
    var title: String // bench.values: words 3 8
    // bench.values: range 126230400 757382400
    var publishDate: Date
    // bench.values: range 126230400 757382400
    var createdate: Date
    // bench.values: range 126230400 757382400
    var updatedate: Date

    // bench.count: 0-5
    // bench.popularity: 1.0
    @Relationship(inverse: \Tag.publications) var tags: [Tag] = []

    /// Not stored: SwiftData keeps stored properties only.
    var age: TimeInterval { Date().timeIntervalSince(publishDate) }

    init(title: String, publishDate: Date) {
        uid = UUID()
        self.title = title
        self.publishDate = publishDate
        createdate = .now
        updatedate = .now
    }
}

// SwiftData's #Index has no entity element; the (entity, publishDate) index is the suite's own setting.
// bench.index: byEntityAndPublishDate = entity, publishDate
@Model
final class Book: Publication {
    #Unique<Book>([\.isbn])

    var isbn: String // bench.values: isbn
    var pageCount: Int32 // bench.values: range 48 1201

    init(title: String, publishDate: Date, isbn: String, pageCount: Int32) {
        self.isbn = isbn
        self.pageCount = pageCount
        super.init(title: title, publishDate: publishDate)
    }
}

@Model
final class AcademicPaper: Publication {
    var paperType: Int16 // bench.values: range 0 12
    var doi: String // bench.values: doi

    init(title: String, publishDate: Date, paperType: Int16, doi: String) {
        self.paperType = paperType
        self.doi = doi
        super.init(title: title, publishDate: publishDate)
    }
}

@Model
final class WebArticle: Publication {
    var url: String // bench.values: url
    var wordCount: Int32 // bench.values: range 200 5001

    init(title: String, publishDate: Date, url: String, wordCount: Int32) {
        self.url = url
        self.wordCount = wordCount
        super.init(title: title, publishDate: publishDate)
    }
}

@Model
final class BlogPost: Publication {
    var url: String // bench.values: url
    var blogName: String // bench.values: name

    init(title: String, publishDate: Date, url: String, blogName: String) {
        self.url = url
        self.blogName = blogName
        super.init(title: title, publishDate: publishDate)
    }
}
