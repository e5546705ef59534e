import Dataset
import Foundation
import SQLite

/// `enum-entity`: one entity with no inheritance, a `kind` discriminator and generic slots, read
/// back as a Swift enum (seed 001's `ItemData` / `ItemDataContent`).
///
/// `Publication` is a single, flat Core Data entity. Its `kind` attribute (Integer 16, the
/// `EntityKind` raw value) says which kind of publication a row is, and every kind keeps its own
/// fields in the same small set of generic slot attributes. A fetch decodes each row into
/// `PublicationItem`, switching on `kind` to build the `PublicationContent` case; the kind's
/// fields become the case's associated values.
///
/// | kind (`ZKIND`)     | `text1` (`ZTEXT1`) | `text2` (`ZTEXT2`) | `number1` (`ZNUMBER1`) |
/// |--------------------|--------------------|--------------------|------------------------|
/// | 0 Publication      | NULL               | NULL               | NULL                   |
/// | 1 Book             | isbn               | NULL               | pageCount              |
/// | 2 AcademicPaper    | doi                | NULL               | paperType              |
/// | 3 WebArticle       | url                | NULL               | wordCount              |
/// | 4 BlogPost         | url                | blogName           | NULL                   |
///
/// Because there is no hierarchy, `Z_ENT` is 1 on every row and Core Data adds no entity filter:
/// a "Book" fetch is the predicate `kind == 1`, so the model declares the indexes that predicate
/// needs itself: `(kind, publishDate)` for Books in a date window and the uniqueness constraint
/// `(kind, text1)`, which makes an isbn unique among Books and serves the isbn lookup as
/// `kind == 1 AND text1 == isbn` (it also makes a doi or url unique within its kind, which the
/// dataset guarantees).
///
/// The schema cannot say which slots a kind must fill, so decoding checks: a row whose `kind` is
/// unknown, or that lacks its uid or a slot its kind requires, makes the fetch throw `CorruptRow`.
///
/// Entity numbers: Publication 1, Tag 2.
public final class EnumEntityStrategy: StorageStrategy {
    public static let name = "enum-entity"
    public static let summary = "One flat entity with a kind attribute and generic slots, decoded into a Swift enum"

    public static let model = CoreDataModel([
        .init("Publication",
              attributes: [.init("uid", .uuid), .init("title", .string), .init("publishDate", .date),
                           .init("createdate", .date), .init("updatedate", .date),
                           .init("kind", .integer16),
                           .init("text1", .string), .init("text2", .string), .init("number1", .integer64)],
              manyToMany: [.init("tags", destination: "Tag", inverse: "publications")],
              // Objects are identified by uid (update, delete-cascade find them through this index).
              // isbn is unique among Books; serves `kind == 1 AND text1 == isbn` (lookup-attribute).
              uniquenessConstraints: [["uid"], ["kind", "text1"]],
              fetchIndexes: [
                  // Sort descriptors [publishDate desc, uid desc] (fetch-polymorphic, fetch-page).
                  .init("byPublishDate", ["publishDate", "uid"]),
                  // One kind, optionally in a date window (fetch-leaf, count-leaf, lookup-composite).
                  .init("byKindAndPublishDate", ["kind", "publishDate"]),
                  // title BEGINSWITH, as a range on the title (search-title).
                  .init("byTitle", ["title"]),
              ]),
        .init("Tag",
              attributes: [.init("name", .string)],
              manyToMany: [.init("publications", destination: "Publication", inverse: "tags")],
              uniquenessConstraints: [["name"]]),
    ])

    /// The `Z_ENT` of every publication row: the only entity of its table.
    static let publicationEntity = Int64(model.number("Publication"))

    /// The value stored in `kind` for `kind`.
    static func kindValue(_ kind: EntityKind) -> Int16 { Int16(kind.rawValue) }

    // MARK: SQL (column order is the table's, see CoreDataModel)

    /// The select list Core Data uses for the entity: `Z_ENT, Z_PK, Z_OPT`, then the table's columns.
    static let selectList = """
        t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZKIND, t0.ZNUMBER1, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZUPDATEDATE, \
        t0.ZTEXT1, t0.ZTEXT2, t0.ZTITLE, t0.ZUID
        """
    static let fetchAllSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC"
    static let fetchNewestSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?"
    static let pageOffsetSQL = fetchAllSQL + " LIMIT ? OFFSET ?"
    /// Keyset pagination: the rows after `(?1, ?2)` in the same order, read from the same index.
    static let pageKeysetSQL = """
        SELECT \(selectList) FROM ZPUBLICATION t0 WHERE (t0.ZPUBLISHDATE, t0.ZUID) < (?1, ?2) \
        ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?3
        """
    static let fetchKindSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 WHERE t0.ZKIND = ?"
    /// `ANY tags.name == %@`: Core Data joins through the relationship and adds DISTINCT.
    static let fetchByTagSQL = """
        SELECT DISTINCT \(selectList) FROM ZPUBLICATION t0 \
        JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1PUBLICATIONS JOIN ZTAG t2 ON t2.Z_PK = t1.Z_2TAGS WHERE t2.ZNAME = ?
        """
    static let countAllSQL = "SELECT COUNT(*) FROM ZPUBLICATION"
    static let countKindSQL = "SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.ZKIND = ?"
    static let countTagLinksSQL = "SELECT COUNT(*) FROM Z_1TAGS"
    static let kindInWindowSQL = """
        SELECT \(selectList) FROM ZPUBLICATION t0 \
        WHERE t0.ZKIND = ? AND t0.ZPUBLISHDATE >= ? AND t0.ZPUBLISHDATE < ?
        """
    static let kindByText1SQL = "SELECT \(selectList) FROM ZPUBLICATION t0 WHERE t0.ZKIND = ? AND t0.ZTEXT1 = ? LIMIT 1"
    /// Every kind shares one INSERT: Z_PK, Z_ENT, Z_OPT, the five shared columns, `kind`, then the slots.
    static let insertSQL = """
        INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZUID, ZTITLE, ZPUBLISHDATE, ZCREATEDATE, ZUPDATEDATE, \
        ZKIND, ZTEXT1, ZTEXT2, ZNUMBER1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertTagLinkSQL = "INSERT INTO Z_1TAGS (Z_1PUBLICATIONS, Z_2TAGS) VALUES (?, ?)"
    /// `title BEGINSWITH %@` as the range `TitlePrefix` describes, served by `Z_Publication_byTitle`.
    static let titlePrefixSQL = "SELECT \(selectList) FROM ZPUBLICATION t0 WHERE t0.ZTITLE >= ?1 AND t0.ZTITLE < ?2"
    /// A save that changed `updatedate`: the new value, and `Z_OPT` one higher (found by the uid index).
    static let touchSQL = "UPDATE ZPUBLICATION SET ZUPDATEDATE = ?1, Z_OPT = Z_OPT + 1 WHERE ZUID = ?2"
    /// A deleted publication's row, handing back its key for its tag links.
    static let deleteSQL = "DELETE FROM ZPUBLICATION WHERE ZUID = ? RETURNING Z_PK"
    /// Nullify: the deleted publication's rows in the join table (its primary key's leading column).
    static let deleteTagLinksSQL = "DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ?"
    static let versionsSQL = "SELECT t0.ZUID, t0.Z_OPT FROM ZPUBLICATION t0 WHERE t0.ZUPDATEDATE = ?"

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
            let insert = try database.cachedStatement(Self.insertSQL)
            let link = try database.cachedStatement(Self.insertTagLinkSQL)
            for publication in publications {
                let item = publication.item
                try insert.bind(pk, at: 1)
                try insert.bind(Self.publicationEntity, at: 2)
                try insert.bind(1, at: 3)
                try insert.bindShared(item, from: 4)
                try insert.bind(Self.kindValue(item.kind), at: 9)
                // Slots a kind does not use are bound NULL: a cached statement keeps the previous row's values.
                let (text1, text2, number1): ((any SQLiteBindable)?, (any SQLiteBindable)?, (any SQLiteBindable)?)
                switch item.content {
                case .publication: (text1, text2, number1) = (nil, nil, nil)
                case let .book(isbn, pageCount): (text1, text2, number1) = (isbn, nil, Int64(pageCount))
                case let .academicPaper(paperType, doi): (text1, text2, number1) = (doi, nil, Int64(paperType))
                case let .webArticle(url, wordCount): (text1, text2, number1) = (url, nil, Int64(wordCount))
                case let .blogPost(url, blogName): (text1, text2, number1) = (url, blogName, nil)
                }
                try insert.bind(text1, at: 10)
                try insert.bind(text2, at: 11)
                try insert.bind(number1, at: 12)
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

    /// Decodes a row of `selectList` into a `PublicationItem`, switching on `kind`.
    /// - throws: `CorruptRow` when `kind` is unknown, or the uid or a slot the kind requires is missing.
    static func item(_ row: Statement) throws -> PublicationItem {
        let pk = row.int64(at: 1)
        guard !row.isNull(at: 3), let kind = EntityKind(rawValue: row.int(at: 3)) else {
            throw CorruptRow(pk: pk, kind: row.isNull(at: 3) ? nil : row.int64(at: 3), problem: "unknown kind")
        }
        guard let uid = row.uuid(at: 11) else { throw CorruptRow(pk: pk, kind: row.int64(at: 3), problem: "uid is not a 16-byte blob") }

        /// A slot the kind requires: NULL, or a number out of the field's range, is a corrupt row.
        func text(_ column: Int32) throws -> String {
            guard let value = row.optionalString(at: column) else { throw slotError(column) }
            return value
        }
        func number<T: FixedWidthInteger>(_ column: Int32, as _: T.Type) throws -> T {
            guard !row.isNull(at: column), let value = T(exactly: row.int64(at: column)) else { throw slotError(column) }
            return value
        }
        func slotError(_ column: Int32) -> CorruptRow {
            CorruptRow(pk: pk, kind: row.int64(at: 3), problem: "missing or invalid \(row.columnName(at: column))")
        }

        let content: PublicationContent
        switch kind {
        case .publication: content = .publication
        case .book: content = .book(isbn: try text(8), pageCount: try number(4, as: Int32.self))
        case .academicPaper: content = .academicPaper(paperType: try number(4, as: Int16.self), doi: try text(8))
        case .webArticle: content = .webArticle(url: try text(8), wordCount: try number(4, as: Int32.self))
        case .blogPost: content = .blogPost(url: try text(8), blogName: try text(9))
        }
        return PublicationItem(
            uid: uid, title: row.string(at: 10),
            publishDate: Date(timeIntervalSinceReferenceDate: row.double(at: 6)),
            createdate: Date(timeIntervalSinceReferenceDate: row.double(at: 5)),
            updatedate: Date(timeIntervalSinceReferenceDate: row.double(at: 7)),
            content: content
        )
    }

    /// Runs a query of `selectList` and decodes every row; the first corrupt row ends the fetch with an error.
    private func fetch(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> [PublicationItem] {
        try database.fetch(sql, values, row: Self.item)
    }

    public func fetchAll() throws -> [PublicationItem] { try fetch(Self.fetchAllSQL) }

    public func fetchNewest(limit: Int) throws -> [PublicationItem] { try fetch(Self.fetchNewestSQL, [limit]) }

    public func fetchPage(offset: Int, limit: Int) throws -> [PublicationItem] { try fetch(Self.pageOffsetSQL, [limit, offset]) }

    public func fetchPage(after cursor: PageCursor, limit: Int) throws -> [PublicationItem] {
        try fetch(Self.pageKeysetSQL, cursor.values(limit: limit))
    }

    public func fetchBooks() throws -> [PublicationItem] { try fetch(Self.fetchKindSQL, [Self.kindValue(.book)]) }

    public func fetchPublications(taggedWith name: String) throws -> [PublicationItem] { try fetch(Self.fetchByTagSQL, [name]) }

    public func countAll() throws -> Int { try database.count(Self.countAllSQL) }

    public func countBooks() throws -> Int {
        try database.count(Self.countKindSQL, [Self.kindValue(.book)])
    }

    /// One count fetch per kind (`kind == %d`).
    public func countByType() throws -> [Int] {
        try EntityKind.allCases.map { try database.count(Self.countKindSQL, [Self.kindValue($0)]) }
    }

    /// The one join table `Z_1TAGS` holds the links of every kind.
    public func countTagLinks() throws -> Int { try database.count(Self.countTagLinksSQL) }

    public func books(publishedIn range: Range<Date>) throws -> [PublicationItem] {
        try fetch(Self.kindInWindowSQL, [
            Self.kindValue(.book),
            range.lowerBound.timeIntervalSinceReferenceDate, range.upperBound.timeIntervalSinceReferenceDate,
        ])
    }

    public func book(isbn: String) throws -> PublicationItem? {
        try fetch(Self.kindByText1SQL, [Self.kindValue(.book), isbn]).first
    }

    public func publications(titlePrefix prefix: TitlePrefix) throws -> [PublicationItem] {
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
        let book = Self.kindValue(.book)
        return [
            WorkloadQuery(workload: "fetch-polymorphic", sql: Self.fetchAllSQL, values: []),
            WorkloadQuery(workload: "fetch-page", sql: Self.fetchNewestSQL, values: [50]),
            WorkloadQuery(workload: "page-offset", sql: Self.pageOffsetSQL, values: [50, sample.offset]),
            WorkloadQuery(workload: "page-keyset", sql: Self.pageKeysetSQL, values: sample.cursor.values(limit: 50)),
            WorkloadQuery(workload: "fetch-leaf", sql: Self.fetchKindSQL, values: [book]),
            WorkloadQuery(workload: "fetch-by-tag", sql: Self.fetchByTagSQL, values: [sample.tagName]),
            WorkloadQuery(workload: "count-all", sql: Self.countAllSQL, values: []),
            WorkloadQuery(workload: "count-leaf", sql: Self.countKindSQL, values: [book]),
            // One statement for every kind's count, with that kind bound.
            WorkloadQuery(workload: "count-by-type", sql: Self.countKindSQL, values: [Self.kindValue(.publication)]),
            WorkloadQuery(workload: "lookup-composite", sql: Self.kindInWindowSQL, values: [
                book, sample.window.lowerBound.timeIntervalSinceReferenceDate, sample.window.upperBound.timeIntervalSinceReferenceDate,
            ]),
            WorkloadQuery(workload: "lookup-attribute", sql: Self.kindByText1SQL, values: [book, sample.isbn]),
            WorkloadQuery(workload: "search-title", sql: Self.titlePrefixSQL, values: sample.titlePrefix.values),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteSQL, values: [sample.uid]),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteTagLinksSQL, values: [1]),
            WorkloadQuery(workload: "update", sql: Self.touchSQL, values: [sample.updatedate, sample.uid]),
        ]
    }
}

/// A `ZPUBLICATION` row the `enum-entity` or `json-entity` strategy cannot decode: an unknown
/// `kind`, a missing uid, a missing slot, or `details` that do not decode. Fetches throw it rather
/// than guess a case.
public struct CorruptRow: Error, CustomStringConvertible {
    /// The row's `Z_PK`.
    public let pk: Int64
    /// The row's `ZKIND`, or `nil` when it is NULL.
    public let kind: Int64?
    public let problem: String

    public init(pk: Int64, kind: Int64?, problem: String) {
        self.pk = pk; self.kind = kind; self.problem = problem
    }

    public var description: String {
        "corrupt ZPUBLICATION row Z_PK = \(pk), ZKIND = \(kind.map(String.init) ?? "NULL"): \(problem)"
    }
}
