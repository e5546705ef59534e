import Foundation

/// The concrete entities of the publication hierarchy: `Publication` and its four sub-entities.
/// The declaration order is the canonical order used for per-type counts and digests.
public enum EntityKind: Int, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    case publication, book, academicPaper, webArticle, blogPost

    /// The entity name as a Core Data model would spell it.
    public var entityName: String {
        switch self {
        case .publication: "Publication"
        case .book: "Book"
        case .academicPaper: "AcademicPaper"
        case .webArticle: "WebArticle"
        case .blogPost: "BlogPost"
        }
    }

    public var description: String { entityName }

    public static func < (lhs: EntityKind, rhs: EntityKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The fields that differ by kind, one case per concrete entity (seed 001's `ItemDataContent`).
public enum PublicationContent: Equatable, Sendable {
    case publication
    case book(isbn: String, pageCount: Int32)
    case academicPaper(paperType: Int16, doi: String)
    case webArticle(url: String, wordCount: Int32)
    case blogPost(url: String, blogName: String)

    public var kind: EntityKind {
        switch self {
        case .publication: .publication
        case .book: .book
        case .academicPaper: .academicPaper
        case .webArticle: .webArticle
        case .blogPost: .blogPost
        }
    }
}

/// One publication as a value: the shared fields plus its kind's fields as an enum.
///
/// This is the generator's output (every strategy inserts from it) and the model the
/// `enum-entity` strategy materialises on fetch, like seed 001's `ItemData`.
public struct PublicationItem: Equatable, Sendable {
    public var uid: UUID
    public var title: String
    /// Dates are `Date`s; stores keep them as Core Data does, seconds since 2001-01-01 UTC.
    public var publishDate: Date
    public var createdate: Date
    public var updatedate: Date
    public var content: PublicationContent

    public init(uid: UUID, title: String, publishDate: Date, createdate: Date, updatedate: Date, content: PublicationContent) {
        self.uid = uid
        self.title = title
        self.publishDate = publishDate
        self.createdate = createdate
        self.updatedate = updatedate
        self.content = content
    }

    public var kind: EntityKind { content.kind }
}

/// A generated publication together with its tag links (indexes into the dataset's tags).
public struct GeneratedPublication: Sendable {
    public var item: PublicationItem
    public var tagIndexes: [Int]

    public init(item: PublicationItem, tagIndexes: [Int]) {
        self.item = item
        self.tagIndexes = tagIndexes
    }
}

/// A tag: `name` is unique.
public struct TagRecord: Equatable, Sendable {
    public var name: String

    public init(name: String) { self.name = name }
}

// MARK: - The class hierarchy

/// The managed-object-like class hierarchy (`Publication ← Book, AcademicPaper, WebArticle, BlogPost`).
///
/// A polymorphic fetch hands back each row as its concrete subclass, the way Core Data hands
/// back sub-entity instances from a parent-entity fetch: a `Book` carries its `isbn`.
public class Publication {
    public let uid: UUID
    public var title: String
    public var publishDate: Date
    public var createdate: Date
    public var updatedate: Date

    public init(uid: UUID, title: String, publishDate: Date, createdate: Date, updatedate: Date) {
        self.uid = uid
        self.title = title
        self.publishDate = publishDate
        self.createdate = createdate
        self.updatedate = updatedate
    }

    /// The entity this object is an instance of.
    public var kind: EntityKind { .publication }

    /// The kind's own fields as the enum form (overridden by every subclass).
    public var content: PublicationContent { .publication }

    /// The object as a value, for comparisons and digests.
    public var item: PublicationItem {
        PublicationItem(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate, content: content)
    }

    /// Instantiates the concrete class for `item`.
    public static func make(_ item: PublicationItem) -> Publication {
        let (uid, title, publishDate, createdate, updatedate) = (item.uid, item.title, item.publishDate, item.createdate, item.updatedate)
        switch item.content {
        case .publication:
            return Publication(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate)
        case let .book(isbn, pageCount):
            return Book(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate, isbn: isbn, pageCount: pageCount)
        case let .academicPaper(paperType, doi):
            return AcademicPaper(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate, paperType: paperType, doi: doi)
        case let .webArticle(url, wordCount):
            return WebArticle(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate, url: url, wordCount: wordCount)
        case let .blogPost(url, blogName):
            return BlogPost(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate, url: url, blogName: blogName)
        }
    }
}

public final class Book: Publication {
    public var isbn: String
    public var pageCount: Int32

    public init(uid: UUID, title: String, publishDate: Date, createdate: Date, updatedate: Date, isbn: String, pageCount: Int32) {
        self.isbn = isbn
        self.pageCount = pageCount
        super.init(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate)
    }

    override public var kind: EntityKind { .book }
    override public var content: PublicationContent { .book(isbn: isbn, pageCount: pageCount) }
}

public final class AcademicPaper: Publication {
    public var paperType: Int16
    public var doi: String

    public init(uid: UUID, title: String, publishDate: Date, createdate: Date, updatedate: Date, paperType: Int16, doi: String) {
        self.paperType = paperType
        self.doi = doi
        super.init(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate)
    }

    override public var kind: EntityKind { .academicPaper }
    override public var content: PublicationContent { .academicPaper(paperType: paperType, doi: doi) }
}

public final class WebArticle: Publication {
    public var url: String
    public var wordCount: Int32

    public init(uid: UUID, title: String, publishDate: Date, createdate: Date, updatedate: Date, url: String, wordCount: Int32) {
        self.url = url
        self.wordCount = wordCount
        super.init(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate)
    }

    override public var kind: EntityKind { .webArticle }
    override public var content: PublicationContent { .webArticle(url: url, wordCount: wordCount) }
}

public final class BlogPost: Publication {
    public var url: String
    public var blogName: String

    public init(uid: UUID, title: String, publishDate: Date, createdate: Date, updatedate: Date, url: String, blogName: String) {
        self.url = url
        self.blogName = blogName
        super.init(uid: uid, title: title, publishDate: publishDate, createdate: createdate, updatedate: updatedate)
    }

    override public var kind: EntityKind { .blogPost }
    override public var content: PublicationContent { .blogPost(url: url, blogName: blogName) }
}
