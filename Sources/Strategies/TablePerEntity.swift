import Dataset
import Foundation
import SQLite

/// `table-per-entity`: flatten the entity hierarchy, keep the class hierarchy.
///
/// The Core Data model has no parent entities: `Publication`, `Book`, `AcademicPaper`,
/// `WebArticle` and `BlogPost` are five independent root entities, each declaring the shared
/// attributes again, so each gets its own narrow, dense table (`ZPUBLICATION`, `ZBOOK`, …) with
/// no NULL columns, its own `byPublishDate` index, its own `Z_MAX` in `Z_PRIMARYKEY` and its own
/// join table to `ZTAG`. The classes still form `Publication ← Book, …`: a polymorphic read is one
/// `UNION ALL` over the five tables in a common row shape, materialised as the concrete class.
///
/// Entity numbers (roots in name order): AcademicPaper 1, BlogPost 2, Book 3, Publication 4,
/// Tag 5, WebArticle 6. Join tables are named after the lower-numbered side, so four are
/// `Z_<n>TAGS` and WebArticle's is Tag's `Z_5WEBARTICLES`.
///
/// Ordered reads rely on SQLite's merge for a compound `ORDER BY`: each arm walks its table's
/// `byPublishDate` index backwards and `MERGE (UNION ALL)` interleaves the five sorted streams,
/// so nothing is sorted as a whole.
public final class TablePerEntityStrategy: StorageStrategy {
    public static let name = "table-per-entity"
    public static let summary = "Five independent entities, one dense table each; polymorphic reads UNION ALL them"

    /// The attributes every flattened entity declares itself (there is no parent to inherit them from).
    static let sharedAttributes: [CoreDataModel.Attribute] = [
        .init("uid", .uuid), .init("title", .string), .init("publishDate", .date),
        .init("createdate", .date), .init("updatedate", .date),
    ]

    /// A flattened publication entity: the shared attributes plus `own`, tags, and the date index.
    private static func publicationEntity(
        _ name: String, own: [CoreDataModel.Attribute], tagsInverse: String, uniquenessConstraints: [[String]] = []
    ) -> CoreDataModel.Entity {
        .init(name,
              attributes: sharedAttributes + own,
              manyToMany: [.init("tags", destination: "Tag", inverse: tagsInverse)],
              // Objects are identified by uid (update, delete-cascade find them through this index);
              // a uid is unique within its entity's table (nothing spans the five tables).
              uniquenessConstraints: [["uid"]] + uniquenessConstraints,
              fetchIndexes: [
                  // Sort descriptors [publishDate desc, uid desc] (fetch-polymorphic, fetch-page) and
                  // books in a date window (lookup-composite).
                  .init("byPublishDate", ["publishDate", "uid"]),
                  // title BEGINSWITH, as a range on the title (search-title).
                  .init("byTitle", ["title"]),
              ])
    }

    public static let model = CoreDataModel([
        publicationEntity("Publication", own: [], tagsInverse: "publications"),
        publicationEntity("Book", own: [.init("isbn", .string), .init("pageCount", .integer32)],
                          tagsInverse: "books", uniquenessConstraints: [["isbn"]]),
        publicationEntity("AcademicPaper", own: [.init("paperType", .integer16), .init("doi", .string)],
                          tagsInverse: "academicPapers"),
        publicationEntity("WebArticle", own: [.init("url", .string), .init("wordCount", .integer32)],
                          tagsInverse: "webArticles"),
        publicationEntity("BlogPost", own: [.init("url", .string), .init("blogName", .string)],
                          tagsInverse: "blogPosts"),
        .init("Tag",
              attributes: [.init("name", .string)],
              manyToMany: [
                  .init("academicPapers", destination: "AcademicPaper", inverse: "tags"),
                  .init("blogPosts", destination: "BlogPost", inverse: "tags"),
                  .init("books", destination: "Book", inverse: "tags"),
                  .init("publications", destination: "Publication", inverse: "tags"),
                  .init("webArticles", destination: "WebArticle", inverse: "tags"),
              ],
              uniquenessConstraints: [["name"]]),
    ])

    /// Where one concrete entity lives, with the names `model` derives (pinned by the layout tests).
    struct EntityTable {
        var kind: EntityKind
        /// `Z_ENT`, also the `kind` literal of the common row shape.
        var number: Int64
        var table: String
        /// The entity's own columns in `PublicationContent` order (slotA, slotB); none for Publication.
        var own: [String]
        /// The tag join table, its column for this entity's `Z_PK`, and its column for `ZTAG.Z_PK`.
        var join: String
        var joinThis: String
        var joinTag: String
    }

    /// One entry per concrete entity, in `EntityKind.allCases` order (index = `kind.rawValue`).
    static let tables: [EntityTable] = [
        .init(kind: .publication, number: 4, table: "ZPUBLICATION", own: [],
              join: "Z_4TAGS", joinThis: "Z_4PUBLICATIONS", joinTag: "Z_5TAGS"),
        .init(kind: .book, number: 3, table: "ZBOOK", own: ["ZISBN", "ZPAGECOUNT"],
              join: "Z_3TAGS", joinThis: "Z_3BOOKS", joinTag: "Z_5TAGS"),
        .init(kind: .academicPaper, number: 1, table: "ZACADEMICPAPER", own: ["ZPAPERTYPE", "ZDOI"],
              join: "Z_1TAGS", joinThis: "Z_1ACADEMICPAPERS", joinTag: "Z_5TAGS"),
        .init(kind: .webArticle, number: 6, table: "ZWEBARTICLE", own: ["ZURL", "ZWORDCOUNT"],
              join: "Z_5WEBARTICLES", joinThis: "Z_6WEBARTICLES", joinTag: "Z_5TAGS"),
        .init(kind: .blogPost, number: 2, table: "ZBLOGPOST", own: ["ZURL", "ZBLOGNAME"],
              join: "Z_2TAGS", joinThis: "Z_2BLOGPOSTS", joinTag: "Z_5TAGS"),
    ]

    static var book: EntityTable { tables[EntityKind.book.rawValue] }

    // MARK: SQL

    /// The common row shape every read selects from a table aliased `t0`:
    /// `kind, pk, opt, uid, title, publishDate, createdate, updatedate, slotA, slotB`
    /// (`kind` is the entity number as a literal; the slots are the entity's own columns, NULL for Publication).
    static func selectList(_ entity: EntityTable) -> String {
        let slots = entity.own.isEmpty ? ["NULL", "NULL"] : entity.own.map { "t0.\($0)" }
        return """
            \(entity.number) AS kind, t0.Z_PK AS pk, t0.Z_OPT AS opt, t0.ZUID AS uid, t0.ZTITLE AS title, \
            t0.ZPUBLISHDATE AS publishDate, t0.ZCREATEDATE AS createdate, t0.ZUPDATEDATE AS updatedate, \
            \(slots[0]) AS slotA, \(slots[1]) AS slotB
            """
    }

    /// Joins one arm per entity with `UNION ALL`.
    static func unionAll(_ arm: (EntityTable) -> String) -> String {
        tables.map(arm).joined(separator: " UNION ALL ")
    }

    /// Newest first. On a compound SELECT SQLite merges arms that each walk `byPublishDate` backwards.
    static let fetchAllSQL = unionAll { "SELECT \(selectList($0)) FROM \($0.table) t0" }
        + " ORDER BY publishDate DESC, uid DESC"
    /// `fetchAllSQL` with a LIMIT. SQLite's merge hands the limit to every arm and reads each
    /// arm lazily off its index, so at most `limit` rows per table are visited and nothing is
    /// sorted. (Wrapping each arm as `SELECT * FROM (… ORDER BY … LIMIT ?)` returns the same rows
    /// but turns every arm into a co-routine plus a temp-b-tree sort: about 7× slower at 200k rows, limit 50.)
    static let fetchNewestSQL = fetchAllSQL + " LIMIT ?"
    static let pageOffsetSQL = fetchAllSQL + " LIMIT ? OFFSET ?"
    /// Keyset pagination: each arm reads past `(?1, ?2)` on its own index, and the merge stops at `?3` rows.
    static let pageKeysetSQL = unionAll {
        "SELECT \(selectList($0)) FROM \($0.table) t0 WHERE (t0.ZPUBLISHDATE, t0.ZUID) < (?1, ?2)"
    } + " ORDER BY publishDate DESC, uid DESC LIMIT ?3"
    static let fetchBooksSQL = "SELECT \(selectList(book)) FROM ZBOOK t0"
    /// `ANY tags.name == %@` on each entity, as Core Data writes it (join plus DISTINCT).
    /// Parameters: the tag name once per arm.
    static let fetchByTagSQL = unionAll {
        """
        SELECT DISTINCT \(selectList($0)) FROM \($0.table) t0 \
        JOIN \($0.join) t1 ON t0.Z_PK = t1.\($0.joinThis) JOIN ZTAG t2 ON t2.Z_PK = t1.\($0.joinTag) WHERE t2.ZNAME = ?
        """
    }
    static let countAllSQL = "SELECT " + tables.map { "(SELECT COUNT(*) FROM \($0.table))" }.joined(separator: " + ")
    /// One count per entity, in `EntityKind.allCases` order.
    static let countSQL: [String] = tables.map { "SELECT COUNT(*) FROM \($0.table)" }
    static let countBooksSQL = countSQL[EntityKind.book.rawValue]
    /// The links of all five join tables, summed in one statement.
    static let countTagLinksSQL = "SELECT " + tables.map { "(SELECT COUNT(*) FROM \($0.join))" }.joined(separator: " + ")
    static let booksInWindowSQL = "SELECT \(selectList(book)) FROM ZBOOK t0 WHERE (t0.ZPUBLISHDATE >= ? AND t0.ZPUBLISHDATE < ?)"
    static let bookByISBNSQL = "SELECT \(selectList(book)) FROM ZBOOK t0 WHERE t0.ZISBN = ? LIMIT 1"

    /// `title BEGINSWITH %@` as the range `TitlePrefix` describes: each arm reads its table's
    /// `byTitle` index; the bounds are bound once (`?1`, `?2`).
    static let titlePrefixSQL = unionAll {
        "SELECT \(selectList($0)) FROM \($0.table) t0 WHERE t0.ZTITLE >= ?1 AND t0.ZTITLE < ?2"
    }
    /// Per table (in `tables` order): a save that changed `updatedate`, `Z_OPT` one higher. A uid
    /// does not say which table holds it, so `touch` tries the tables in turn (one uid-index probe each).
    static let touchSQL: [String] = tables.map {
        "UPDATE \($0.table) SET ZUPDATEDATE = ?1, Z_OPT = Z_OPT + 1 WHERE ZUID = ?2"
    }
    /// Per table: a deleted publication's row, handing back its key for its tag links.
    static let deleteSQL: [String] = tables.map { "DELETE FROM \($0.table) WHERE ZUID = ? RETURNING Z_PK" }
    /// Per table: nullify, the deleted publication's rows in its entity's join table.
    static let deleteTagLinksSQL: [String] = tables.map { "DELETE FROM \($0.join) WHERE \($0.joinThis) = ?" }
    /// Each table's delete paired with its join table's.
    static let deleteStatements: [(object: String, links: String)] = Array(zip(deleteSQL, deleteTagLinksSQL))
    static let versionsSQL = unionAll { "SELECT t0.ZUID, t0.Z_OPT FROM \($0.table) t0 WHERE t0.ZUPDATEDATE = ?1" }

    /// One INSERT per entity table: Z_PK, Z_ENT, Z_OPT, the five shared columns, then the entity's own.
    static let insertSQL: [String] = tables.map { entity in
        let list = (["Z_PK, Z_ENT, Z_OPT, ZUID, ZTITLE, ZPUBLISHDATE, ZCREATEDATE, ZUPDATEDATE"] + entity.own).joined(separator: ", ")
        let marks = Array(repeating: "?", count: 8 + entity.own.count).joined(separator: ", ")
        return "INSERT INTO \(entity.table) (\(list)) VALUES (\(marks))"
    }
    /// One tag-link INSERT per entity's join table: (this entity's Z_PK, the tag's Z_PK).
    static let insertTagLinkSQL: [String] = tables.map {
        "INSERT INTO \($0.join) (\($0.joinThis), \($0.joinTag)) VALUES (?, ?)"
    }

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
            // Each flattened entity is its own root with its own Z_MAX: count the kinds, then reserve.
            var counts = [Int](repeating: 0, count: Self.tables.count)
            for publication in publications { counts[publication.item.kind.rawValue] += 1 }
            var nextPK = [Int64](repeating: 0, count: Self.tables.count)
            for (index, entity) in Self.tables.enumerated() where counts[index] > 0 {
                nextPK[index] = try store.reservePrimaryKeys(entity.kind.entityName, count: counts[index])
            }
            let inserts = try Self.insertSQL.map { try database.cachedStatement($0) }
            let links = try Self.insertTagLinkSQL.map { try database.cachedStatement($0) }
            for publication in publications {
                let item = publication.item
                let index = item.kind.rawValue
                let pk = nextPK[index]
                let insert = inserts[index]
                try insert.bind(pk, at: 1)
                try insert.bind(Self.tables[index].number, at: 2)
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
                let link = links[index]
                for tag in publication.tagIndexes {
                    try link.bind(pk, at: 1)
                    try link.bind(Int64(tag + 1), at: 2)
                    try link.run()
                }
                nextPK[index] = pk + 1
            }
        }
    }

    // MARK: Reads

    /// Materialises a row of the common shape as its concrete class, switching on `kind`.
    static func object(_ row: Statement) -> Publication {
        let (uid, title, published, created, updated) = row.sharedFields(from: 3)
        switch row.int64(at: 0) {
        case 3:
            return Book(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                        isbn: row.string(at: 8), pageCount: Int32(truncatingIfNeeded: row.int64(at: 9)))
        case 1:
            return AcademicPaper(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                                 paperType: Int16(truncatingIfNeeded: row.int64(at: 8)), doi: row.string(at: 9))
        case 6:
            return WebArticle(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                              url: row.string(at: 8), wordCount: Int32(truncatingIfNeeded: row.int64(at: 9)))
        case 2:
            return BlogPost(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                            url: row.string(at: 8), blogName: row.string(at: 9))
        default:
            return Publication(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated)
        }
    }

    private func fetch(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> [Publication] {
        try database.fetch(sql, values, row: Self.object)
    }

    /// The tag name once per arm (`fetchByTagSQL`).
    static func tagValues(_ name: String) -> [(any SQLiteBindable)?] {
        Array(repeating: name, count: tables.count)
    }

    public func fetchAll() throws -> [Publication] { try fetch(Self.fetchAllSQL) }

    public func fetchNewest(limit: Int) throws -> [Publication] { try fetch(Self.fetchNewestSQL, [limit]) }

    public func fetchPage(offset: Int, limit: Int) throws -> [Publication] { try fetch(Self.pageOffsetSQL, [limit, offset]) }

    public func fetchPage(after cursor: PageCursor, limit: Int) throws -> [Publication] {
        try fetch(Self.pageKeysetSQL, cursor.values(limit: limit))
    }

    public func fetchBooks() throws -> [Publication] { try fetch(Self.fetchBooksSQL) }

    public func fetchPublications(taggedWith name: String) throws -> [Publication] {
        try fetch(Self.fetchByTagSQL, Self.tagValues(name))
    }

    public func countAll() throws -> Int { try database.count(Self.countAllSQL) }

    public func countBooks() throws -> Int { try database.count(Self.countBooksSQL) }

    /// One count fetch per entity, each its own table.
    public func countByType() throws -> [Int] {
        try Self.countSQL.map { try database.count($0) }
    }

    /// Every entity has its own join table to `ZTAG`; the count is their sum.
    public func countTagLinks() throws -> Int { try database.count(Self.countTagLinksSQL) }

    public func books(publishedIn range: Range<Date>) throws -> [Publication] {
        try fetch(Self.booksInWindowSQL, [
            range.lowerBound.timeIntervalSinceReferenceDate, range.upperBound.timeIntervalSinceReferenceDate,
        ])
    }

    public func book(isbn: String) throws -> Publication? {
        try fetch(Self.bookByISBNSQL, [isbn]).first
    }

    public func publications(titlePrefix prefix: TitlePrefix) throws -> [Publication] {
        try fetch(Self.titlePrefixSQL, prefix.values)
    }

    /// Each uid is looked for table by table until one holds it.
    public func touch(uids: [UUID], updatedate: Date) throws -> Int {
        try database.touch(Self.touchSQL, uids: uids, updatedate: updatedate)
    }

    /// Each uid is looked for table by table until one holds it; its links go from that entity's join table.
    public func delete(uids: [UUID]) throws -> Int {
        try database.delete(Self.deleteStatements, uids: uids)
    }

    public func versions(updatedAt updatedate: Date) throws -> [RowVersion] {
        try database.fetch(Self.versionsSQL, [updatedate.timeIntervalSinceReferenceDate], row: RowVersion.read)
    }

    public func workloadQueries(_ sample: QuerySample) -> [WorkloadQuery] {
        [
            WorkloadQuery(workload: "fetch-polymorphic", sql: Self.fetchAllSQL, values: []),
            WorkloadQuery(workload: "fetch-page", sql: Self.fetchNewestSQL, values: [50]),
            WorkloadQuery(workload: "page-offset", sql: Self.pageOffsetSQL, values: [50, sample.offset]),
            WorkloadQuery(workload: "page-keyset", sql: Self.pageKeysetSQL, values: sample.cursor.values(limit: 50)),
            WorkloadQuery(workload: "fetch-leaf", sql: Self.fetchBooksSQL, values: []),
            WorkloadQuery(workload: "fetch-by-tag", sql: Self.fetchByTagSQL, values: Self.tagValues(sample.tagName)),
            WorkloadQuery(workload: "count-all", sql: Self.countAllSQL, values: []),
            WorkloadQuery(workload: "count-leaf", sql: Self.countBooksSQL, values: []),
        ] + Self.countSQL.map { WorkloadQuery(workload: "count-by-type", sql: $0, values: []) } + [
            WorkloadQuery(workload: "lookup-composite", sql: Self.booksInWindowSQL, values: [
                sample.window.lowerBound.timeIntervalSinceReferenceDate, sample.window.upperBound.timeIntervalSinceReferenceDate,
            ]),
            WorkloadQuery(workload: "lookup-attribute", sql: Self.bookByISBNSQL, values: [sample.isbn]),
            WorkloadQuery(workload: "search-title", sql: Self.titlePrefixSQL, values: sample.titlePrefix.values),
        ] + Self.tables.indices.flatMap { index in [
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteSQL[index], values: [sample.uid]),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteTagLinksSQL[index], values: [1]),
        ] } + Self.touchSQL.map { WorkloadQuery(workload: "update", sql: $0, values: [sample.updatedate, sample.uid]) }
    }
}
