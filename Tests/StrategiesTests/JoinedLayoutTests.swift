@testable import Dataset
import Foundation
import SQLite
@testable import Strategies
import XCTest

/// Pins the joined store (class-table inheritance) statement by statement, and checks what is
/// particular to it: base and sub-rows share one key, the foreign keys cascade and are checked,
/// a failed save leaves no half-written publication, a base row without its sub-row is reported,
/// and every read's plan.
final class JoinedLayoutTests: XCTestCase {
    func testSchemaIsTheJoinedLayout() throws {
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZACADEMICPAPER ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZPAPERTYPE INTEGER, ZDOI VARCHAR )",
            "CREATE TABLE ZBLOGPOST ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZBLOGNAME VARCHAR, ZURL VARCHAR )",
            "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZPAGECOUNT INTEGER, ZISBN VARCHAR )",
            "CREATE TABLE ZWEBARTICLE ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZWORDCOUNT INTEGER, ZURL VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_6TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_6TAGS) )",
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_UID ON ZPUBLICATION (ZUID)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byEntityAndPublishDate ON ZPUBLICATION (Z_ENT COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_BOOK_UNIQUE_ISBN ON ZBOOK (ZISBN)",
            "CREATE UNIQUE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (ZNAME)",
            "CREATE INDEX Z_1TAGS_Z_6TAGS_INDEX ON Z_1TAGS (Z_6TAGS, Z_1PUBLICATIONS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        XCTAssertEqual(JoinedStrategy.schemaSQL, expected)

        // The store holds exactly these objects, and nothing else (sqlite_master keeps each statement's text).
        let strategy = JoinedStrategy(database: try Database(path: ":memory:"))
        try strategy.createSchema(tags: [])
        let stored = try strategy.database.strings("""
            SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid
            """)
        XCTAssertEqual(stored, expected)
    }

    /// The names and numbers written into the SQL are the ones the model (single-table's hierarchy) derives,
    /// and each sub-table holds exactly its entity's own attributes, in Core Data's column order.
    func testSQLNamesMatchTheModel() throws {
        let model = JoinedStrategy.model
        XCTAssertEqual(model.orderedNames, ["Publication", "AcademicPaper", "BlogPost", "Book", "WebArticle", "Tag"])
        XCTAssertEqual(JoinedStrategy.entityNumbers, SingleTableStrategy.entityNumbers)
        let join = model.joinColumns("Publication", "tags")
        XCTAssertEqual([join.table, join.this, join.other], ["Z_1TAGS", "Z_1PUBLICATIONS", "Z_6TAGS"])

        let database = try Database(path: ":memory:")
        try JoinedStrategy(database: database).createSchema(tags: [])
        /// `name TYPE` of every column of `table` after `Z_PK`.
        func columns(_ table: String) throws -> [String] {
            try database.strings("SELECT name || ' ' || type FROM pragma_table_info(?) WHERE name <> 'Z_PK' ORDER BY cid", [table])
        }
        /// The columns Core Data would give `entity`'s own attributes: ordered by type, then by name.
        func ownColumns(_ entity: String) -> [String] {
            model.entity(entity).attributes
                .sorted { ($0.type.columnRank, $0.name) < ($1.type.columnRank, $1.name) }
                .map { "Z\($0.name.uppercased()) \($0.type.sqlType)" }
        }
        XCTAssertEqual(try columns("ZPUBLICATION"), ["Z_ENT INTEGER", "Z_OPT INTEGER"] + ownColumns("Publication"))
        for entity in ["AcademicPaper", "BlogPost", "Book", "WebArticle"] {
            XCTAssertEqual(try columns("Z" + entity.uppercased()), ownColumns(entity), entity)
            XCTAssertEqual(try database.strings("SELECT \"table\" || '.' || \"to\" || ' ' || on_delete FROM pragma_foreign_key_list(?)",
                                                ["Z" + entity.uppercased()]), ["ZPUBLICATION.Z_PK CASCADE"], entity)
        }
        XCTAssertEqual(try database.strings("SELECT Z_NAME || ':' || Z_ENT || ':' || Z_SUPER || ':' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                       ["Publication:1:0:0", "AcademicPaper:2:1:0", "BlogPost:3:1:0", "Book:4:1:0", "WebArticle:5:1:0", "Tag:6:0:0"])
    }

    // MARK: A small store

    static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

    static func uuid(_ last: UInt8) -> UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last)) }

    static func publication(_ uid: UInt8, _ published: Double, _ content: PublicationContent, tags: [Int]) -> GeneratedPublication {
        GeneratedPublication(
            item: PublicationItem(uid: uuid(uid), title: "Title \(uid)", publishDate: date(published),
                                  createdate: date(published + 0.5), updatedate: date(published + 86_400.25), content: content),
            tagIndexes: tags)
    }

    /// Seven publications, every kind, inserted out of date order; two share a publish date (ties break on uid DESC).
    /// BlogPost and WebArticle each have a `ZURL` of their own.
    static let publications: [GeneratedPublication] = [
        publication(1, 500_000_000.125, .book(isbn: "978-0-00-000001-1", pageCount: 320), tags: [0, 1]),
        publication(2, 600_000_000, .academicPaper(paperType: 7, doi: "10.1234/abc.2"), tags: [1]),
        publication(3, 400_000_000, .publication, tags: [0]),
        publication(4, 700_000_000, .webArticle(url: "https://news.example.com/a-4", wordCount: 1_200), tags: [0, 2]),
        publication(5, 600_000_000, .blogPost(url: "https://blog.example.net/posts/b-5", blogName: "Notes"), tags: []),
        publication(6, 450_000_000, .book(isbn: "978-0-00-000006-6", pageCount: 96), tags: [2]),
        publication(7, 650_000_000, .publication, tags: [1, 2]),
    ]

    func makeStore() throws -> JoinedStrategy {
        let strategy = JoinedStrategy(database: try Database(path: ":memory:"))
        try strategy.createSchema(tags: [TagRecord(name: "swift"), TagRecord(name: "sqlite"), TagRecord(name: "rare")])
        try strategy.insert(Self.publications)
        return strategy
    }

    func testReads() throws {
        let strategy = try makeStore()
        let newestFirst = Self.publications.map(\.item).sorted {
            ($0.publishDate, $0.uid.uuidString) > ($1.publishDate, $1.uid.uuidString)
        }
        XCTAssertEqual(newestFirst.map { $0.uid }, [4, 7, 5, 2, 1, 6, 3].map(Self.uuid))

        let all = try strategy.fetchAll()
        XCTAssertEqual(all.map(\.item), newestFirst)
        XCTAssertEqual(all.map { String(describing: type(of: $0)) },
                       ["WebArticle", "Publication", "BlogPost", "AcademicPaper", "Book", "Book", "Publication"])
        XCTAssertEqual(try strategy.fetchNewest(limit: 2).map(\.item), Array(newestFirst.prefix(2)))
        XCTAssertEqual(try strategy.fetchNewest(limit: 0).count, 0)
        XCTAssertEqual(try strategy.countAll(), 7)
        XCTAssertEqual(try strategy.countBooks(), 2)
        XCTAssertEqual(try strategy.countByType(), [2, 2, 1, 1, 1])
        XCTAssertEqual(try strategy.countTagLinks(), 9)
        let books = try strategy.fetchBooks()
        XCTAssertTrue(books.allSatisfy { $0 is Book })
        XCTAssertEqual(Set(books.map(\.item.uid)), [Self.uuid(1), Self.uuid(6)])

        let swift = try strategy.fetchPublications(taggedWith: "swift")
        XCTAssertEqual(swift.map(\.item).sorted { $0.uid.uuidString < $1.uid.uuidString }, [1, 3, 4].map { Self.publications[$0 - 1].item })
        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "sqlite").map(\.uid)), Set([1, 2, 7].map(Self.uuid)))
        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "rare").map(\.uid)), Set([4, 6, 7].map(Self.uuid)))
        XCTAssertEqual(try strategy.fetchPublications(taggedWith: "missing").count, 0)

        let book = try XCTUnwrap(strategy.book(isbn: "978-0-00-000006-6") as? Book)
        XCTAssertEqual(book.item, Self.publications[5].item)
        XCTAssertNil(try strategy.book(isbn: "10.1234/abc.2"), "a doi is no isbn")
        XCTAssertNil(try strategy.book(isbn: "978-0-00-000000-0"))

        // Half-open window: includes 450_000_000, excludes 500_000_000.125.
        let window = Self.date(450_000_000) ..< Self.date(500_000_000.125)
        XCTAssertEqual(try strategy.books(publishedIn: window).map(\.item), [Self.publications[5].item])
        XCTAssertEqual(Set(try strategy.books(publishedIn: Self.date(0) ..< Self.date(1e9)).map(\.uid)), [Self.uuid(1), Self.uuid(6)])
    }

    /// One key counter for the hierarchy; each publication's base row and sub-row share its Z_PK.
    func testBaseAndSubRowsShareOneKey() throws {
        let strategy = try makeStore()
        let database = strategy.database
        XCTAssertEqual(try database.strings("SELECT Z_NAME || '=' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                       ["Publication=7", "AcademicPaper=0", "BlogPost=0", "Book=0", "WebArticle=0", "Tag=3"])
        XCTAssertEqual(try database.strings("SELECT Z_PK || ':' || Z_ENT || ':' || Z_OPT FROM ZPUBLICATION ORDER BY Z_PK"),
                       ["1:4:1", "2:2:1", "3:1:1", "4:5:1", "5:3:1", "6:4:1", "7:1:1"])
        XCTAssertEqual(try database.strings("SELECT Z_PK || ':' || ZPAGECOUNT || ':' || ZISBN FROM ZBOOK ORDER BY Z_PK"),
                       ["1:320:978-0-00-000001-1", "6:96:978-0-00-000006-6"])
        XCTAssertEqual(try database.strings("SELECT Z_PK || ':' || ZPAPERTYPE || ':' || ZDOI FROM ZACADEMICPAPER"), ["2:7:10.1234/abc.2"])
        XCTAssertEqual(try database.strings("SELECT Z_PK || ':' || ZWORDCOUNT || ':' || ZURL FROM ZWEBARTICLE"), ["4:1200:https://news.example.com/a-4"])
        XCTAssertEqual(try database.strings("SELECT Z_PK || ':' || ZBLOGNAME || ':' || ZURL FROM ZBLOGPOST"), ["5:Notes:https://blog.example.net/posts/b-5"])
        XCTAssertEqual(try database.strings("SELECT Z_1PUBLICATIONS || '-' || Z_6TAGS FROM Z_1TAGS ORDER BY 1"),
                       ["1-1", "1-2", "2-2", "3-1", "4-1", "4-3", "6-3", "7-2", "7-3"])
        // A second save continues the hierarchy's counter.
        try strategy.insert([Self.publication(8, 100, .blogPost(url: "u", blogName: "b"), tags: [0])])
        XCTAssertEqual(try database.scalarInt("SELECT Z_PK FROM ZBLOGPOST WHERE ZURL = ?", ["u"]), 8)
        XCTAssertEqual(try database.scalarInt("SELECT Z_ENT FROM ZPUBLICATION WHERE Z_PK = ?", [8]), 3)
        XCTAssertEqual(try database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", ["Publication"]), 8)
        XCTAssertEqual(try database.strings("PRAGMA foreign_key_check"), [])
    }

    /// The REFERENCES clauses: with foreign keys on, deleting a base row deletes its sub-row; with them
    /// off (every store's setting), the sub-row stays behind and `PRAGMA foreign_key_check` reports it.
    func testForeignKeysCascadeAndAreChecked() throws {
        let strategy = try makeStore()
        let database = strategy.database
        XCTAssertEqual(try database.pragma("foreign_keys"), "0", "stores run with SQLite's default")

        try database.execute("PRAGMA foreign_keys = ON")
        try database.execute("DELETE FROM ZPUBLICATION WHERE Z_PK = 1")
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZBOOK WHERE Z_PK = 1"), 0, "the Book's sub-row cascades")
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZBOOK"), 1)
        // A sub-row needs its base row.
        XCTAssertThrowsError(try database.execute("INSERT INTO ZBOOK (Z_PK, ZPAGECOUNT, ZISBN) VALUES (99, 1, 'x')")) {
            XCTAssertTrue("\($0)".contains("FOREIGN KEY constraint failed"), "\($0)")
        }
        XCTAssertEqual(try database.strings("PRAGMA foreign_key_check"), [])

        try database.execute("PRAGMA foreign_keys = OFF")
        try database.execute("DELETE FROM ZPUBLICATION WHERE Z_PK = 2")
        XCTAssertEqual(try database.strings("SELECT \"table\" || ' ' || rowid || ' -> ' || parent FROM pragma_foreign_key_check"),
                       ["ZACADEMICPAPER 2 -> ZPUBLICATION"])
        // An orphaned sub-row is not reached by polymorphic reads, which start from the base table.
        XCTAssertEqual(try strategy.fetchAll().count, 5)
    }

    /// Each save is one transaction: a sub-row that fails (a duplicate isbn) takes its base row,
    /// and every earlier row of the save, with it.
    func testAFailedSaveLeavesNoHalfWrittenPublication() throws {
        let strategy = try makeStore()
        let database = strategy.database
        let before = try strategy.fetchAll().map(\.item)
        XCTAssertThrowsError(try strategy.insert([
            Self.publication(20, 1, .academicPaper(paperType: 1, doi: "d"), tags: [0]),
            Self.publication(21, 2, .book(isbn: "978-0-00-000001-1", pageCount: 1), tags: [1]),
        ])) { XCTAssertTrue("\($0)".contains("UNIQUE constraint failed: ZBOOK.ZISBN"), "\($0)") }
        XCTAssertTrue(database.isAutocommit)
        XCTAssertEqual(try strategy.fetchAll().map(\.item), before)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZACADEMICPAPER"), 1)
        XCTAssertEqual(try strategy.countTagLinks(), 9)
        XCTAssertEqual(try database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", ["Publication"]), 7)
    }

    /// A base row whose Z_ENT names a sub-entity it has no row in, or no entity at all, makes a
    /// polymorphic fetch throw instead of returning a default-filled object.
    func testInconsistentRowsMakeFetchesThrow() throws {
        let strategy = try makeStore()
        let database = strategy.database
        try database.execute("DELETE FROM ZWEBARTICLE WHERE Z_PK = 4")
        // The store check sees it: the WebArticle is gone from the counts per type, not from the total.
        XCTAssertEqual(try strategy.countByType(), [2, 2, 1, 0, 1])
        XCTAssertEqual(try strategy.countAll(), 7)
        XCTAssertThrowsError(try strategy.fetchAll()) { error in
            XCTAssertEqual((error as? JoinedStrategy.InconsistentRow)?.pk, 4)
            XCTAssertEqual("\(error)", "inconsistent ZPUBLICATION row Z_PK = 4, Z_ENT = 5: no ZWEBARTICLE row")
        }
        XCTAssertThrowsError(try strategy.fetchNewest(limit: 1))
        XCTAssertThrowsError(try strategy.fetchPublications(taggedWith: "swift"))
        // The statement was reset: rows after the broken one still read.
        XCTAssertEqual(try strategy.fetchPublications(taggedWith: "sqlite").count, 3)

        let update = try database.prepare("UPDATE ZPUBLICATION SET Z_ENT = ? WHERE Z_PK = ?")
        try update.bind([1, 4]); try update.run()
        XCTAssertEqual(try strategy.fetchAll().count, 7, "now a plain Publication")
        try update.bind([9, 3]); try update.run()
        XCTAssertThrowsError(try strategy.fetchAll()) {
            XCTAssertEqual("\($0)", "inconsistent ZPUBLICATION row Z_PK = 3, Z_ENT = 9: unknown entity")
        }
        try update.bind([nil, 3]); try update.run()
        XCTAssertThrowsError(try strategy.fetchAll()) {
            XCTAssertEqual("\($0)", "inconsistent ZPUBLICATION row Z_PK = 3, Z_ENT = NULL: unknown entity")
        }
    }

    // MARK: Query plans

    /// Polymorphic reads walk `byPublishDate` and find each sub-row by its rowid: no temp b-tree;
    /// Book reads enter through the (Z_ENT, publishDate) index or the isbn index.
    func testPlans() throws {
        let strategy = try makeStore()
        let database = strategy.database
        let subTables = (1 ... 4).map { "SEARCH t\($0) USING INTEGER PRIMARY KEY (rowid=?) LEFT-JOIN" }
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.fetchAllSQL), ["SCAN t0 USING INDEX Z_Publication_byPublishDate"] + subTables)
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.fetchNewestSQL, [50]), ["SCAN t0 USING INDEX Z_Publication_byPublishDate"] + subTables)
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.fetchBooksSQL, [4]), [
            "SEARCH t0 USING INDEX Z_Publication_byEntityAndPublishDate (Z_ENT=?)",
            "SEARCH t3 USING INTEGER PRIMARY KEY (rowid=?)",
        ])
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.booksInWindowSQL, [4, 0.0, 1e9]), [
            "SEARCH t0 USING INDEX Z_Publication_byEntityAndPublishDate (Z_ENT=? AND ZPUBLISHDATE>? AND ZPUBLISHDATE<?)",
            "SEARCH t3 USING INTEGER PRIMARY KEY (rowid=?)",
        ])
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.bookByISBNSQL, ["x"]), [
            "SEARCH t3 USING INDEX Z_BOOK_UNIQUE_ISBN (ZISBN=?)",
            "SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)",
        ])
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.fetchByTagSQL, ["swift"]), [
            "SEARCH t6 USING COVERING INDEX Z_TAG_UNIQUE_NAME (ZNAME=?)",
            "SEARCH t5 USING COVERING INDEX Z_1TAGS_Z_6TAGS_INDEX (Z_6TAGS=?)",
            "SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)",
        ] + subTables + ["USE TEMP B-TREE FOR DISTINCT"])
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.countEntitySQL, [1]),
                       ["SEARCH t0 USING COVERING INDEX Z_Publication_byEntityAndPublishDate (Z_ENT=?)"])
        XCTAssertEqual(try database.queryPlan(JoinedStrategy.countBooksSQL), ["SCAN ZBOOK USING COVERING INDEX Z_BOOK_UNIQUE_ISBN"])
    }
}
