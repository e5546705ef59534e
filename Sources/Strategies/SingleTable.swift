import Dataset
import Foundation
import SQLite

/// `single-table`: Core Data's own layout for an entity hierarchy.
///
/// `Publication` is the parent entity of `AcademicPaper`, `BlogPost`, `Book` and `WebArticle`, so
/// all five live in one wide, sparse `ZPUBLICATION` table told apart by `Z_ENT`. Queries are the
/// ones Core Data issues: no entity filter for the root, `Z_ENT = ?` for a leaf, and the select
/// list of the whole hierarchy, each row materialised as its concrete class.
///
/// Entity numbers: Publication 1, AcademicPaper 2, BlogPost 3, Book 4, WebArticle 5, Tag 6.
public final class SingleTableStrategy: StorageStrategy {
    public static let name = "single-table"
    public static let summary = "Core Data's layout: one ZPUBLICATION table for the whole hierarchy, rows told apart by Z_ENT"

    public static let model = CoreDataModel([
        .init("Publication",
              attributes: [.init("uid", .uuid), .init("title", .string), .init("publishDate", .date),
                           .init("createdate", .date), .init("updatedate", .date)],
              manyToMany: [.init("tags", destination: "Tag", inverse: "publications")],
              // Objects are identified by uid (update, delete-cascade find them through this index).
              uniquenessConstraints: [["uid"]],
              fetchIndexes: [
                  // Sort descriptors [publishDate desc, uid desc] (fetch-polymorphic, fetch-page).
                  .init("byPublishDate", ["publishDate", "uid"]),
                  // title BEGINSWITH, as a range on the title (search-title).
                  .init("byTitle", ["title"]),
              ]),
        .init("Book", parent: "Publication",
              attributes: [.init("isbn", .string), .init("pageCount", .integer32)],
              uniquenessConstraints: [["isbn"]],
              // Books in a date window (lookup-composite): the (type, publishDate) index.
              fetchIndexes: [.init("byEntityAndPublishDate", ["entity", "publishDate"])]),
        .init("AcademicPaper", parent: "Publication",
              attributes: [.init("paperType", .integer16), .init("doi", .string)]),
        .init("WebArticle", parent: "Publication",
              attributes: [.init("url", .string), .init("wordCount", .integer32)]),
        .init("BlogPost", parent: "Publication",
              attributes: [.init("url", .string), .init("blogName", .string)]),
        .init("Tag",
              attributes: [.init("name", .string)],
              manyToMany: [.init("publications", destination: "Publication", inverse: "tags")],
              uniquenessConstraints: [["name"]]),
    ])

    public static let entityNumbers: [EntityKind: Int64] = Dictionary(uniqueKeysWithValues: EntityKind.allCases.map {
        ($0, Int64(model.number($0.entityName)))
    })

    // MARK: SQL (column order is the table's, see CoreDataModel)

    /// The select list Core Data uses for any entity of the hierarchy.
    static let selectList = """
        t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZPAPERTYPE, t0.ZPAGECOUNT, t0.ZWORDCOUNT, t0.ZCREATEDATE, \
        t0.ZPUBLISHDATE, t0.ZUPDATEDATE, t0.ZTITLE, t0.ZDOI, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZURL1, t0.ZUID
        """
    public static let fetchAllSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC"
    static let fetchNewestSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?"
    static let pageOffsetSQL = fetchAllSQL + " LIMIT ? OFFSET ?"
    /// Keyset pagination: the rows after `(?1, ?2)` in the same order, read from the same index.
    static let pageKeysetSQL = """
        SELECT \(selectList) FROM ZPUBLICATION t0 WHERE (t0.ZPUBLISHDATE, t0.ZUID) < (?1, ?2) \
        ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?3
        """
    static let fetchBooksSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?"
    /// `ANY tags.name == %@`: Core Data joins through the relationship and adds DISTINCT.
    static let fetchByTagSQL = """
        SELECT DISTINCT \(selectList) FROM ZPUBLICATION t0 \
        JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1PUBLICATIONS JOIN ZTAG t2 ON t2.Z_PK = t1.Z_6TAGS WHERE t2.ZNAME = ?
        """
    static let countAllSQL = "SELECT COUNT(*) FROM ZPUBLICATION"
    static let countEntitySQL = "SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?"
    static let countTagLinksSQL = "SELECT COUNT(*) FROM Z_1TAGS"
    static let booksInWindowSQL = """
        SELECT \(selectList) FROM ZPUBLICATION t0 \
        WHERE (t0.ZPUBLISHDATE >= ? AND t0.ZPUBLISHDATE < ?) AND t0.Z_ENT = ?
        """
    static let bookByISBNSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 WHERE t0.ZISBN = ? AND t0.Z_ENT = ? LIMIT 1"
    public static let insertTagLinkSQL = "INSERT INTO Z_1TAGS (Z_1PUBLICATIONS, Z_6TAGS) VALUES (?, ?)"
    /// `title BEGINSWITH %@` as the range `TitlePrefix` describes, served by `Z_Publication_byTitle`.
    static let titlePrefixSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 WHERE t0.ZTITLE >= ?1 AND t0.ZTITLE < ?2"
    /// A save that changed `updatedate`: the new value, and `Z_OPT` one higher (found by the uid index).
    static let touchSQL = "UPDATE ZPUBLICATION SET ZUPDATEDATE = ?1, Z_OPT = Z_OPT + 1 WHERE ZUID = ?2"
    /// A deleted publication's row, handing back its key for its tag links.
    static let deleteSQL = "DELETE FROM ZPUBLICATION WHERE ZUID = ? RETURNING Z_PK"
    /// Nullify: the deleted publication's rows in the join table (its primary key's leading column).
    static let deleteTagLinksSQL = "DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ?"
    static let versionsSQL = "SELECT t0.ZUID, t0.Z_OPT FROM ZPUBLICATION t0 WHERE t0.ZUPDATEDATE = ?"

    /// One INSERT per entity: Z_PK, Z_ENT, Z_OPT, the five shared columns, then the entity's own.
    public static let insertSQL: [EntityKind: String] = {
        let shared = "Z_PK, Z_ENT, Z_OPT, ZUID, ZTITLE, ZPUBLISHDATE, ZCREATEDATE, ZUPDATEDATE"
        let own: [EntityKind: [String]] = [
            .publication: [], .book: ["ZISBN", "ZPAGECOUNT"], .academicPaper: ["ZPAPERTYPE", "ZDOI"],
            .webArticle: ["ZURL1", "ZWORDCOUNT"], .blogPost: ["ZURL", "ZBLOGNAME"],
        ]
        return own.mapValues { columns in
            let list = ([shared] + columns).joined(separator: ", ")
            let marks = Array(repeating: "?", count: 8 + columns.count).joined(separator: ", ")
            return "INSERT INTO ZPUBLICATION (\(list)) VALUES (\(marks))"
        }
    }()

    // MARK: Store

    public let database: Database
    let store: CoreDataStore

    public init(database: Database) {
        self.database = database
        store = CoreDataStore(database: database, model: Self.model)
    }

    public func createSchema(tags: [TagRecord]) throws {
        try store.createSchema(strategyName: Self.name)
        try store.insertTags(tags)
    }

    public func insert(_ publications: [GeneratedPublication]) throws {
        try database.transaction {
            var pk = try store.reservePrimaryKeys("Publication", count: publications.count)
            let link = try database.cachedStatement(Self.insertTagLinkSQL)
            for publication in publications {
                let item = publication.item
                let insert = try database.cachedStatement(Self.insertSQL[item.kind]!)
                try insert.bind(pk, at: 1)
                try insert.bind(Self.entityNumbers[item.kind]!, at: 2)
                try insert.bind(1, at: 3)
                try insert.bindShared(item, from: 4)
                switch item.content {
                case .publication: break
                case let .book(isbn, pageCount):
                    try insert.bind(isbn, at: 9); try insert.bind(Int64(pageCount), at: 10)
                case let .academicPaper(paperType, doi):
                    try insert.bind(Int64(paperType), at: 9); try insert.bind(doi, at: 10)
                case let .webArticle(url, wordCount):
                    try insert.bind(url, at: 9); try insert.bind(Int64(wordCount), at: 10)
                case let .blogPost(url, blogName):
                    try insert.bind(url, at: 9); try insert.bind(blogName, at: 10)
                }
                try insert.run()
                for tag in publication.tagIndexes {
                    try link.bind(pk, at: 1)
                    try link.bind(Int64(tag + 1), at: 2)
                    try link.run()
                }
                pk += 1
            }
        }
    }

    // MARK: Reads

    /// Materialises a row of `selectList` as its concrete class, switching on `Z_ENT`.
    static func object(_ row: Statement) -> Publication {
        let uid = row.uuid(at: 15) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let title = row.string(at: 9)
        let created = Date(timeIntervalSinceReferenceDate: row.double(at: 6))
        let published = Date(timeIntervalSinceReferenceDate: row.double(at: 7))
        let updated = Date(timeIntervalSinceReferenceDate: row.double(at: 8))
        switch row.int64(at: 0) {
        case 4:
            return Book(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                        isbn: row.string(at: 13), pageCount: Int32(truncatingIfNeeded: row.int64(at: 4)))
        case 2:
            return AcademicPaper(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                                 paperType: Int16(truncatingIfNeeded: row.int64(at: 3)), doi: row.string(at: 10))
        case 5:
            return WebArticle(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                              url: row.string(at: 14), wordCount: Int32(truncatingIfNeeded: row.int64(at: 5)))
        case 3:
            return BlogPost(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                            url: row.string(at: 12), blogName: row.string(at: 11))
        default:
            return Publication(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated)
        }
    }

    private func fetch(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> [Publication] {
        try database.fetch(sql, values, row: Self.object)
    }

    public func fetchAll() throws -> [Publication] { try fetch(Self.fetchAllSQL) }

    public func fetchNewest(limit: Int) throws -> [Publication] { try fetch(Self.fetchNewestSQL, [limit]) }

    public func fetchPage(offset: Int, limit: Int) throws -> [Publication] { try fetch(Self.pageOffsetSQL, [limit, offset]) }

    public func fetchPage(after cursor: PageCursor, limit: Int) throws -> [Publication] {
        try fetch(Self.pageKeysetSQL, cursor.values(limit: limit))
    }

    public func fetchBooks() throws -> [Publication] { try fetch(Self.fetchBooksSQL, [Self.entityNumbers[.book]!]) }

    public func fetchPublications(taggedWith name: String) throws -> [Publication] { try fetch(Self.fetchByTagSQL, [name]) }

    public func countAll() throws -> Int { try database.count(Self.countAllSQL) }

    public func countBooks() throws -> Int {
        try database.count(Self.countEntitySQL, [Self.entityNumbers[.book]!])
    }

    /// One count fetch per entity with `includesSubentities = NO`.
    public func countByType() throws -> [Int] {
        try EntityKind.allCases.map { try database.count(Self.countEntitySQL, [Self.entityNumbers[$0]!]) }
    }

    /// The one join table `Z_1TAGS` holds every publication's links, whatever its entity.
    public func countTagLinks() throws -> Int { try database.count(Self.countTagLinksSQL) }

    public func books(publishedIn range: Range<Date>) throws -> [Publication] {
        try fetch(Self.booksInWindowSQL, [
            range.lowerBound.timeIntervalSinceReferenceDate, range.upperBound.timeIntervalSinceReferenceDate,
            Self.entityNumbers[.book]!,
        ])
    }

    public func book(isbn: String) throws -> Publication? {
        try fetch(Self.bookByISBNSQL, [isbn, Self.entityNumbers[.book]!]).first
    }

    public func publications(titlePrefix prefix: TitlePrefix) throws -> [Publication] {
        try fetch(Self.titlePrefixSQL, prefix.values)
    }

    public func touch(uids: [UUID], updatedate: Date) throws -> Int {
        try database.touch([Self.touchSQL], uids: uids, updatedate: updatedate)
    }

    public func delete(uids: [UUID]) throws -> Int {
        try database.delete([(Self.deleteSQL, Self.deleteTagLinksSQL)], uids: uids)
    }

    public func versions(updatedAt updatedate: Date) throws -> [RowVersion] {
        try database.fetch(Self.versionsSQL, [updatedate.timeIntervalSinceReferenceDate], row: RowVersion.read)
    }

    public func workloadQueries(_ sample: QuerySample) -> [WorkloadQuery] {
        let book = Self.entityNumbers[.book]!
        return [
            WorkloadQuery(workload: "fetch-polymorphic", sql: Self.fetchAllSQL, values: []),
            WorkloadQuery(workload: "fetch-page", sql: Self.fetchNewestSQL, values: [50]),
            WorkloadQuery(workload: "page-offset", sql: Self.pageOffsetSQL, values: [50, sample.offset]),
            WorkloadQuery(workload: "page-keyset", sql: Self.pageKeysetSQL, values: sample.cursor.values(limit: 50)),
            WorkloadQuery(workload: "fetch-leaf", sql: Self.fetchBooksSQL, values: [book]),
            WorkloadQuery(workload: "fetch-by-tag", sql: Self.fetchByTagSQL, values: [sample.tagName]),
            WorkloadQuery(workload: "count-all", sql: Self.countAllSQL, values: []),
            WorkloadQuery(workload: "count-leaf", sql: Self.countEntitySQL, values: [book]),
            // One statement for every entity's count, with that entity's number bound.
            WorkloadQuery(workload: "count-by-type", sql: Self.countEntitySQL, values: [Self.entityNumbers[.publication]!]),
            WorkloadQuery(workload: "lookup-composite", sql: Self.booksInWindowSQL, values: [
                sample.window.lowerBound.timeIntervalSinceReferenceDate, sample.window.upperBound.timeIntervalSinceReferenceDate, book,
            ]),
            WorkloadQuery(workload: "lookup-attribute", sql: Self.bookByISBNSQL, values: [sample.isbn, book]),
            WorkloadQuery(workload: "search-title", sql: Self.titlePrefixSQL, values: sample.titlePrefix.values),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteSQL, values: [sample.uid]),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteTagLinksSQL, values: [1]),
            WorkloadQuery(workload: "update", sql: Self.touchSQL, values: [sample.updatedate, sample.uid]),
        ]
    }
}
