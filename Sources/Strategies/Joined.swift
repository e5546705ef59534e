import Dataset
import Foundation
import SQLite

/// `joined`: class-table inheritance (Hibernate's `JOINED`, Django's multi-table inheritance,
/// EF Core's table-per-type).
///
/// `ZPUBLICATION` holds the shared columns of every publication, whatever its kind, plus the
/// discriminator `Z_ENT`; each sub-entity has a table of its own columns only (`ZACADEMICPAPER`,
/// `ZBLOGPOST`, `ZBOOK`, `ZWEBARTICLE`), whose `Z_PK` is the base row's `Z_PK` and is declared
/// `REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE`. A plain Publication is a base row alone; a
/// Book is a base row plus a `ZBOOK` row with the same key. Since each sub-table has its own
/// table, BlogPost's and WebArticle's `url` are both `ZURL`.
///
/// Core Data cannot store a hierarchy this way, so `schemaSQL` is written here by hand, with Core
/// Data's conventions everywhere else so that stores compare fairly with the other strategies:
/// `Z_PK`/`Z_ENT`/`Z_OPT`, columns ordered by type, dates as `TIMESTAMP`, UUIDs as blobs, one join
/// table `Z_1TAGS` with its reversed-pair index, and `Z_PRIMARYKEY`/`Z_METADATA`/`Z_MODELCACHE`
/// kept by `CoreDataStore` for `model`, the same hierarchy as `single-table`'s. Entity numbers are
/// therefore single-table's: Publication 1, AcademicPaper 2, BlogPost 3, Book 4, WebArticle 5,
/// Tag 6; `Z_MAX` lives on Publication's `Z_PRIMARYKEY` row, one key counter for the whole hierarchy.
///
/// Indexes: `(ZPUBLISHDATE, ZUID)` on the base table for newest-first reads; `(Z_ENT,
/// ZPUBLISHDATE)` for Books (in a date window) and the count of plain Publications (it also serves a
/// `Z_ENT` filter alone, so Core Data's `ZPUBLICATION_Z_ENT_INDEX` would be redundant and is left out);
/// `ZBOOK (ZISBN)` unique; `ZTAG (ZNAME)` unique; `Z_1TAGS (Z_6TAGS, Z_1PUBLICATIONS)`.
///
/// Reads: a polymorphic read walks the base table and `LEFT JOIN`s each sub-table on `Z_PK`
/// (four rowid lookups per row, three of which find nothing), then materialises the row as the
/// class `Z_ENT` names. Table aliases follow the join's order: `t0` `ZPUBLICATION`, `t1`
/// `ZACADEMICPAPER`, `t2` `ZBLOGPOST`, `t3` `ZBOOK`, `t4` `ZWEBARTICLE`, `t5` `Z_1TAGS`, `t6` `ZTAG`.
/// A Book read joins only `ZBOOK`. A row whose `Z_ENT` is unknown, or names a sub-entity whose
/// sub-row is missing, makes the fetch throw `InconsistentRow` rather than come back as something else.
///
/// Foreign keys: stores keep SQLite's default `PRAGMA foreign_keys = OFF` (as for every strategy),
/// so the `REFERENCES` clauses cost inserts nothing and `ON DELETE CASCADE` acts only on a
/// connection that turns them on; `PRAGMA foreign_key_check` (run by `StoreBuilder.checkIntegrity`)
/// reports any sub-row whose base row is missing.
public final class JoinedStrategy: StorageStrategy {
    public static let name = "joined"
    public static let summary = "Class-table inheritance: a base ZPUBLICATION table plus one table per sub-entity sharing its Z_PK"

    /// The hierarchy as Core Data would model it: it gives the entity numbers, the `Z_PRIMARYKEY`
    /// rows, and the names of `ZTAG` and the join table. Its `schemaSQL` is single-table's layout
    /// and is not used: this strategy's tables are `schemaSQL` below.
    public static let model = CoreDataModel([
        .init("Publication",
              attributes: [.init("uid", .uuid), .init("title", .string), .init("publishDate", .date),
                           .init("createdate", .date), .init("updatedate", .date)],
              manyToMany: [.init("tags", destination: "Tag", inverse: "publications")]),
        .init("Book", parent: "Publication", attributes: [.init("isbn", .string), .init("pageCount", .integer32)]),
        .init("AcademicPaper", parent: "Publication", attributes: [.init("paperType", .integer16), .init("doi", .string)]),
        .init("WebArticle", parent: "Publication", attributes: [.init("url", .string), .init("wordCount", .integer32)]),
        .init("BlogPost", parent: "Publication", attributes: [.init("url", .string), .init("blogName", .string)]),
        .init("Tag",
              attributes: [.init("name", .string)],
              manyToMany: [.init("publications", destination: "Publication", inverse: "tags")]),
    ])

    public static let entityNumbers: [EntityKind: Int64] = Dictionary(uniqueKeysWithValues: EntityKind.allCases.map {
        ($0, Int64(model.number($0.entityName)))
    })

    // MARK: DDL

    /// Every statement that creates an empty store, in order: tables (entity-number order), the
    /// join table, indexes, the join table's reversed-pair index, then Core Data's bookkeeping tables.
    public static let schemaSQL: [String] = [
        "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZUID BLOB )",
        "CREATE TABLE ZACADEMICPAPER ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZPAPERTYPE INTEGER, ZDOI VARCHAR )",
        "CREATE TABLE ZBLOGPOST ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZBLOGNAME VARCHAR, ZURL VARCHAR )",
        "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZPAGECOUNT INTEGER, ZISBN VARCHAR )",
        "CREATE TABLE ZWEBARTICLE ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZWORDCOUNT INTEGER, ZURL VARCHAR )",
        "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_6TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_6TAGS) )",
        // Objects are identified by uid (update, delete-cascade find them through this index).
        "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_UID ON ZPUBLICATION (ZUID)",
        // Sort descriptors [publishDate desc, uid desc] (fetch-polymorphic, fetch-page).
        "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
        // One entity, optionally in a date window (fetch-leaf, lookup-composite, count of plain Publications).
        "CREATE INDEX Z_Publication_byEntityAndPublishDate ON ZPUBLICATION (Z_ENT COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
        // title BEGINSWITH, as a range on the title (search-title).
        "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
        // Book's uniqueness constraint; serves lookup-attribute.
        "CREATE UNIQUE INDEX Z_BOOK_UNIQUE_ISBN ON ZBOOK (ZISBN)",
        "CREATE UNIQUE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (ZNAME)",
        "CREATE INDEX Z_1TAGS_Z_6TAGS_INDEX ON Z_1TAGS (Z_6TAGS, Z_1PUBLICATIONS)",
    ] + CoreDataModel.bookkeepingSQL

    // MARK: SQL

    /// The base row's columns, in the order `Statement.sharedFields(from: 3)` reads:
    /// `Z_ENT, Z_PK, Z_OPT, ZUID, ZTITLE, ZPUBLISHDATE, ZCREATEDATE, ZUPDATEDATE` (columns 0–7).
    static let baseList = """
        t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZUID, t0.ZTITLE, t0.ZPUBLISHDATE, t0.ZCREATEDATE, t0.ZUPDATEDATE
        """
    /// A polymorphic row: the base columns, then each sub-table's `Z_PK` (NULL when the row is not
    /// of that entity) and own columns in table order: AcademicPaper 8–10, BlogPost 11–13,
    /// Book 14–16, WebArticle 17–19.
    static let polymorphicList = """
        \(baseList), t1.Z_PK, t1.ZPAPERTYPE, t1.ZDOI, t2.Z_PK, t2.ZBLOGNAME, t2.ZURL, \
        t3.Z_PK, t3.ZPAGECOUNT, t3.ZISBN, t4.Z_PK, t4.ZWORDCOUNT, t4.ZURL
        """
    /// Every sub-table, joined to the base row on the shared key.
    static let leftJoins = """
        LEFT JOIN ZACADEMICPAPER t1 ON t1.Z_PK = t0.Z_PK LEFT JOIN ZBLOGPOST t2 ON t2.Z_PK = t0.Z_PK \
        LEFT JOIN ZBOOK t3 ON t3.Z_PK = t0.Z_PK LEFT JOIN ZWEBARTICLE t4 ON t4.Z_PK = t0.Z_PK
        """
    /// A Book row: the base columns, then `ZPAGECOUNT, ZISBN` (8–9).
    static let bookList = "\(baseList), t3.ZPAGECOUNT, t3.ZISBN"

    public static let fetchAllSQL = """
        SELECT \(polymorphicList) FROM ZPUBLICATION t0 \(leftJoins) ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC
        """
    public static let fetchNewestSQL = """
        SELECT \(polymorphicList) FROM ZPUBLICATION t0 \(leftJoins) ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?
        """
    public static let pageOffsetSQL = fetchAllSQL + " LIMIT ? OFFSET ?"
    /// Keyset pagination on the base table's index; the sub-tables are joined to the page's rows only.
    public static let pageKeysetSQL = """
        SELECT \(polymorphicList) FROM ZPUBLICATION t0 \(leftJoins) WHERE (t0.ZPUBLISHDATE, t0.ZUID) < (?1, ?2) \
        ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?3
        """
    public static let fetchBooksSQL = "SELECT \(bookList) FROM ZPUBLICATION t0 JOIN ZBOOK t3 ON t3.Z_PK = t0.Z_PK WHERE t0.Z_ENT = ?"
    /// `ANY tags.name == %@` as the other strategies write it (join plus DISTINCT), then the sub-tables.
    public static let fetchByTagSQL = """
        SELECT DISTINCT \(polymorphicList) FROM ZPUBLICATION t0 \
        JOIN Z_1TAGS t5 ON t0.Z_PK = t5.Z_1PUBLICATIONS JOIN ZTAG t6 ON t6.Z_PK = t5.Z_6TAGS \
        \(leftJoins) WHERE t6.ZNAME = ?
        """
    static let countAllSQL = "SELECT COUNT(*) FROM ZPUBLICATION"
    /// The rows of each sub-table, indexed by `EntityKind.rawValue` (none for Publication).
    static let countSubTableSQL: [String?] = EntityKind.allCases.map {
        switch $0 {
        case .publication: nil
        case .book: "SELECT COUNT(*) FROM ZBOOK"
        case .academicPaper: "SELECT COUNT(*) FROM ZACADEMICPAPER"
        case .webArticle: "SELECT COUNT(*) FROM ZWEBARTICLE"
        case .blogPost: "SELECT COUNT(*) FROM ZBLOGPOST"
        }
    }
    static let countBooksSQL = countSubTableSQL[EntityKind.book.rawValue]!
    /// Base rows of one entity: plain Publications (`Z_ENT = 1`) have no sub-table to count.
    static let countEntitySQL = "SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?"
    static let countTagLinksSQL = "SELECT COUNT(*) FROM Z_1TAGS"
    public static let booksInWindowSQL = """
        SELECT \(bookList) FROM ZPUBLICATION t0 JOIN ZBOOK t3 ON t3.Z_PK = t0.Z_PK \
        WHERE t0.Z_ENT = ? AND t0.ZPUBLISHDATE >= ? AND t0.ZPUBLISHDATE < ?
        """
    public static let bookByISBNSQL = """
        SELECT \(bookList) FROM ZBOOK t3 JOIN ZPUBLICATION t0 ON t0.Z_PK = t3.Z_PK WHERE t3.ZISBN = ? LIMIT 1
        """

    /// The base row of every publication: Z_PK, Z_ENT, Z_OPT, then the five shared columns.
    static let insertBaseSQL = """
        INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZUID, ZTITLE, ZPUBLISHDATE, ZCREATEDATE, ZUPDATEDATE) \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// The sub-row, indexed by `EntityKind.rawValue` (none for Publication): the base row's Z_PK,
    /// then the entity's own columns in `PublicationContent` order.
    static let insertSubSQL: [String?] = EntityKind.allCases.map {
        switch $0 {
        case .publication: nil
        case .book: "INSERT INTO ZBOOK (Z_PK, ZISBN, ZPAGECOUNT) VALUES (?, ?, ?)"
        case .academicPaper: "INSERT INTO ZACADEMICPAPER (Z_PK, ZPAPERTYPE, ZDOI) VALUES (?, ?, ?)"
        case .webArticle: "INSERT INTO ZWEBARTICLE (Z_PK, ZURL, ZWORDCOUNT) VALUES (?, ?, ?)"
        case .blogPost: "INSERT INTO ZBLOGPOST (Z_PK, ZURL, ZBLOGNAME) VALUES (?, ?, ?)"
        }
    }
    static let insertTagLinkSQL = "INSERT INTO Z_1TAGS (Z_1PUBLICATIONS, Z_6TAGS) VALUES (?, ?)"
    /// `title BEGINSWITH %@` as the range `TitlePrefix` describes, on the base table's title index,
    /// then the sub-tables of the rows found.
    public static let titlePrefixSQL = """
        SELECT \(polymorphicList) FROM ZPUBLICATION t0 \(leftJoins) WHERE t0.ZTITLE >= ?1 AND t0.ZTITLE < ?2
        """
    /// `updatedate` and `Z_OPT` live on the base row, found by the uid index.
    static let touchSQL = "UPDATE ZPUBLICATION SET ZUPDATEDATE = ?1, Z_OPT = Z_OPT + 1 WHERE ZUID = ?2"
    /// A deleted publication's base row, handing back its key and entity for its sub-row and tag links.
    static let deleteSQL = "DELETE FROM ZPUBLICATION WHERE ZUID = ? RETURNING Z_PK, Z_ENT"
    /// The sub-row of a deleted base row, indexed by `EntityKind.rawValue` (none for Publication).
    /// Written out because stores keep `foreign_keys = OFF`, so `ON DELETE CASCADE` does not act.
    static let deleteSubSQL: [String?] = EntityKind.allCases.map {
        switch $0 {
        case .publication: nil
        case .book: "DELETE FROM ZBOOK WHERE Z_PK = ?"
        case .academicPaper: "DELETE FROM ZACADEMICPAPER WHERE Z_PK = ?"
        case .webArticle: "DELETE FROM ZWEBARTICLE WHERE Z_PK = ?"
        case .blogPost: "DELETE FROM ZBLOGPOST WHERE Z_PK = ?"
        }
    }
    /// Nullify: the deleted publication's rows in the join table (its primary key's leading column).
    static let deleteTagLinksSQL = "DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ?"
    static let versionsSQL = "SELECT t0.ZUID, t0.Z_OPT FROM ZPUBLICATION t0 WHERE t0.ZUPDATEDATE = ?"
    /// The entity of each `Z_ENT`.
    static let kindsByNumber: [Int64: EntityKind] = Dictionary(uniqueKeysWithValues: entityNumbers.map { ($1, $0) })

    // MARK: Store

    public let database: Database
    let store: CoreDataStore

    public init(database: Database) {
        self.database = database
        store = CoreDataStore(database: database, model: Self.model)
    }

    public func createSchema(tags: [TagRecord]) throws {
        try store.createSchema(Self.schemaSQL, strategyName: Self.name)
        try store.insertTags(tags)
    }

    public func insert(_ publications: [GeneratedPublication]) throws {
        try database.transaction {
            var pk = try store.reservePrimaryKeys("Publication", count: publications.count)
            let base = try database.cachedStatement(Self.insertBaseSQL)
            let subs = try Self.insertSubSQL.map { try $0.map(database.cachedStatement) }
            let link = try database.cachedStatement(Self.insertTagLinkSQL)
            for publication in publications {
                let item = publication.item
                try base.bind(pk, at: 1)
                try base.bind(Self.entityNumbers[item.kind]!, at: 2)
                try base.bind(1, at: 3)
                try base.bindShared(item, from: 4)
                try base.run()
                if let sub = subs[item.kind.rawValue] {
                    try sub.bind(pk, at: 1)
                    switch item.content {
                    case .publication: break
                    case let .book(isbn, pageCount):
                        try sub.bind(isbn, at: 2); try sub.bind(Int64(pageCount), at: 3)
                    case let .academicPaper(paperType, doi):
                        try sub.bind(Int64(paperType), at: 2); try sub.bind(doi, at: 3)
                    case let .webArticle(url, wordCount):
                        try sub.bind(url, at: 2); try sub.bind(Int64(wordCount), at: 3)
                    case let .blogPost(url, blogName):
                        try sub.bind(url, at: 2); try sub.bind(blogName, at: 3)
                    }
                    try sub.run()
                }
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

    /// A base row the layout cannot materialise: its `Z_ENT` is unknown, or names a sub-entity
    /// whose sub-table has no row with its `Z_PK`.
    public struct InconsistentRow: Error, CustomStringConvertible {
        /// The base row's `Z_PK`.
        public let pk: Int64
        /// The base row's `Z_ENT`, or `nil` when it is NULL.
        public let entity: Int64?
        public let problem: String

        public var description: String {
            "inconsistent ZPUBLICATION row Z_PK = \(pk), Z_ENT = \(entity.map(String.init) ?? "NULL"): \(problem)"
        }
    }

    /// Materialises a row of `polymorphicList` as the concrete class its `Z_ENT` names.
    /// - throws: `InconsistentRow` when `Z_ENT` is unknown or the sub-row it names is missing.
    static func object(_ row: Statement) throws -> Publication {
        let (uid, title, published, created, updated) = row.sharedFields(from: 3)
        let entity = row.int64(at: 0)
        /// The sub-row joined at `column` (its `Z_PK`) must exist.
        func subRow(_ column: Int32, _ table: String) throws {
            guard !row.isNull(at: column) else {
                throw InconsistentRow(pk: row.int64(at: 1), entity: entity, problem: "no \(table) row")
            }
        }
        switch entity {
        case 1:
            return Publication(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated)
        case 2:
            try subRow(8, "ZACADEMICPAPER")
            return AcademicPaper(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                                 paperType: Int16(truncatingIfNeeded: row.int64(at: 9)), doi: row.string(at: 10))
        case 3:
            try subRow(11, "ZBLOGPOST")
            return BlogPost(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                            url: row.string(at: 13), blogName: row.string(at: 12))
        case 4:
            try subRow(14, "ZBOOK")
            return Book(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                        isbn: row.string(at: 16), pageCount: Int32(truncatingIfNeeded: row.int64(at: 15)))
        case 5:
            try subRow(17, "ZWEBARTICLE")
            return WebArticle(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                              url: row.string(at: 19), wordCount: Int32(truncatingIfNeeded: row.int64(at: 18)))
        default:
            throw InconsistentRow(pk: row.int64(at: 1), entity: row.isNull(at: 0) ? nil : entity, problem: "unknown entity")
        }
    }

    /// Materialises a row of `bookList` (an inner join with `ZBOOK`, so the sub-row exists).
    static func book(_ row: Statement) -> Publication {
        let (uid, title, published, created, updated) = row.sharedFields(from: 3)
        return Book(uid: uid, title: title, publishDate: published, createdate: created, updatedate: updated,
                    isbn: row.string(at: 9), pageCount: Int32(truncatingIfNeeded: row.int64(at: 8)))
    }

    /// Runs a query of `polymorphicList`; the first inconsistent row ends the fetch with an error.
    private func fetchPolymorphic(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> [Publication] {
        try database.fetch(sql, values, row: Self.object)
    }

    /// Runs a query of `bookList`.
    private func fetchBookRows(_ sql: String, _ values: [(any SQLiteBindable)?]) throws -> [Publication] {
        try database.fetch(sql, values, row: Self.book)
    }

    public func fetchAll() throws -> [Publication] { try fetchPolymorphic(Self.fetchAllSQL) }

    public func fetchNewest(limit: Int) throws -> [Publication] { try fetchPolymorphic(Self.fetchNewestSQL, [limit]) }

    public func fetchPage(offset: Int, limit: Int) throws -> [Publication] { try fetchPolymorphic(Self.pageOffsetSQL, [limit, offset]) }

    public func fetchPage(after cursor: PageCursor, limit: Int) throws -> [Publication] {
        try fetchPolymorphic(Self.pageKeysetSQL, cursor.values(limit: limit))
    }

    public func fetchBooks() throws -> [Publication] { try fetchBookRows(Self.fetchBooksSQL, [Self.entityNumbers[.book]!]) }

    public func fetchPublications(taggedWith name: String) throws -> [Publication] {
        try fetchPolymorphic(Self.fetchByTagSQL, [name])
    }

    public func countAll() throws -> Int { try database.count(Self.countAllSQL) }

    /// Every `ZBOOK` row is a Book.
    public func countBooks() throws -> Int { try database.count(Self.countBooksSQL) }

    /// One count per entity: its sub-table's rows, and for Publication the base rows with `Z_ENT = 1`.
    /// A base row that lost its sub-row is therefore missing from its entity's count (and
    /// `PRAGMA foreign_key_check` finds a sub-row that lost its base row).
    public func countByType() throws -> [Int] {
        try EntityKind.allCases.map { kind in
            if let sql = Self.countSubTableSQL[kind.rawValue] { try database.count(sql) }
            else { try database.count(Self.countEntitySQL, [Self.entityNumbers[kind]!]) }
        }
    }

    /// The one join table `Z_1TAGS` holds every publication's links, whatever its entity.
    public func countTagLinks() throws -> Int { try database.count(Self.countTagLinksSQL) }

    public func books(publishedIn range: Range<Date>) throws -> [Publication] {
        try fetchBookRows(Self.booksInWindowSQL, [
            Self.entityNumbers[.book]!,
            range.lowerBound.timeIntervalSinceReferenceDate, range.upperBound.timeIntervalSinceReferenceDate,
        ])
    }

    public func book(isbn: String) throws -> Publication? {
        try fetchBookRows(Self.bookByISBNSQL, [isbn]).first
    }

    public func publications(titlePrefix prefix: TitlePrefix) throws -> [Publication] {
        try fetchPolymorphic(Self.titlePrefixSQL, prefix.values)
    }

    public func touch(uids: [UUID], updatedate: Date) throws -> Int {
        try database.touch([Self.touchSQL], uids: uids, updatedate: updatedate)
    }

    /// Deletes each base row, then its sub-row and its tag links by the key it had, in one
    /// transaction. A base row whose `Z_ENT` names no entity stops the save (rolled back) with
    /// `InconsistentRow`, rather than leave a sub-row behind.
    public func delete(uids: [UUID]) throws -> Int {
        try database.transaction {
            var deleted = 0
            for uid in uids {
                for (pk, entity) in try database.fetch(Self.deleteSQL, [uid], row: { ($0.int64(at: 0), $0.isNull(at: 1) ? nil : $0.int64(at: 1)) }) {
                    guard let entity, let kind = Self.kindsByNumber[entity] else {
                        throw InconsistentRow(pk: pk, entity: entity, problem: "unknown entity")
                    }
                    if let sub = Self.deleteSubSQL[kind.rawValue] { _ = try database.write(sub, [pk]) }
                    _ = try database.write(Self.deleteTagLinksSQL, [pk])
                    deleted += 1
                }
            }
            return deleted
        }
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
            WorkloadQuery(workload: "count-leaf", sql: Self.countBooksSQL, values: []),
        ] + EntityKind.allCases.map { kind in
            // Each sub-table's rows, and the base rows of plain Publications.
            Self.countSubTableSQL[kind.rawValue].map { WorkloadQuery(workload: "count-by-type", sql: $0, values: []) }
                ?? WorkloadQuery(workload: "count-by-type", sql: Self.countEntitySQL, values: [Self.entityNumbers[kind]!])
        } + [
            WorkloadQuery(workload: "lookup-composite", sql: Self.booksInWindowSQL, values: [
                book, sample.window.lowerBound.timeIntervalSinceReferenceDate, sample.window.upperBound.timeIntervalSinceReferenceDate,
            ]),
            WorkloadQuery(workload: "lookup-attribute", sql: Self.bookByISBNSQL, values: [sample.isbn]),
            WorkloadQuery(workload: "search-title", sql: Self.titlePrefixSQL, values: sample.titlePrefix.values),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteSQL, values: [sample.uid]),
        ] + Self.deleteSubSQL.compactMap { $0.map { WorkloadQuery(workload: "delete-cascade", sql: $0, values: [1]) } } + [
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteTagLinksSQL, values: [1]),
            WorkloadQuery(workload: "update", sql: Self.touchSQL, values: [sample.updatedate, sample.uid]),
        ]
    }
}
