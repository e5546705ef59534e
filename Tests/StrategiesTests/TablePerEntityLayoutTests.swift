@testable import Dataset
import Foundation
import SQLite
@testable import Strategies
import XCTest

/// Pins the table-per-entity store to Core Data's layout, statement by statement, and checks its
/// reads on a handful of publications of every kind.
final class TablePerEntityLayoutTests: XCTestCase {
    func testSchemaIsCoreDataLayout() throws {
        let expected = [
            "CREATE TABLE ZACADEMICPAPER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAPERTYPE INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZDOI VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZBLOGPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZBLOGNAME VARCHAR, ZTITLE VARCHAR, ZURL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGECOUNT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZISBN VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZWEBARTICLE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWORDCOUNT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZURL VARCHAR, ZUID BLOB )",
            "CREATE TABLE Z_1TAGS ( Z_1ACADEMICPAPERS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_1ACADEMICPAPERS, Z_5TAGS) )",
            "CREATE TABLE Z_2TAGS ( Z_2BLOGPOSTS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_2BLOGPOSTS, Z_5TAGS) )",
            "CREATE TABLE Z_3TAGS ( Z_3BOOKS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_3BOOKS, Z_5TAGS) )",
            "CREATE TABLE Z_4TAGS ( Z_4PUBLICATIONS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_4PUBLICATIONS, Z_5TAGS) )",
            "CREATE TABLE Z_5WEBARTICLES ( Z_5TAGS INTEGER, Z_6WEBARTICLES INTEGER, PRIMARY KEY (Z_5TAGS, Z_6WEBARTICLES) )",
            "CREATE UNIQUE INDEX Z_ACADEMICPAPER_UNIQUE_UID ON ZACADEMICPAPER (ZUID)",
            "CREATE INDEX Z_AcademicPaper_byPublishDate ON ZACADEMICPAPER (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_AcademicPaper_byTitle ON ZACADEMICPAPER (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_BLOGPOST_UNIQUE_UID ON ZBLOGPOST (ZUID)",
            "CREATE INDEX Z_BlogPost_byPublishDate ON ZBLOGPOST (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_BlogPost_byTitle ON ZBLOGPOST (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_BOOK_UNIQUE_UID ON ZBOOK (ZUID)",
            "CREATE UNIQUE INDEX Z_BOOK_UNIQUE_ISBN ON ZBOOK (ZISBN)",
            "CREATE INDEX Z_Book_byPublishDate ON ZBOOK (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_UID ON ZPUBLICATION (ZUID)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (ZNAME)",
            "CREATE UNIQUE INDEX Z_WEBARTICLE_UNIQUE_UID ON ZWEBARTICLE (ZUID)",
            "CREATE INDEX Z_WebArticle_byPublishDate ON ZWEBARTICLE (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_WebArticle_byTitle ON ZWEBARTICLE (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_5TAGS_INDEX ON Z_1TAGS (Z_5TAGS, Z_1ACADEMICPAPERS)",
            "CREATE INDEX Z_2TAGS_Z_5TAGS_INDEX ON Z_2TAGS (Z_5TAGS, Z_2BLOGPOSTS)",
            "CREATE INDEX Z_3TAGS_Z_5TAGS_INDEX ON Z_3TAGS (Z_5TAGS, Z_3BOOKS)",
            "CREATE INDEX Z_4TAGS_Z_5TAGS_INDEX ON Z_4TAGS (Z_5TAGS, Z_4PUBLICATIONS)",
            "CREATE INDEX Z_5WEBARTICLES_Z_6WEBARTICLES_INDEX ON Z_5WEBARTICLES (Z_6WEBARTICLES, Z_5TAGS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        XCTAssertEqual(TablePerEntityStrategy.model.schemaSQL, expected)
    }

    /// The names written into the strategy's SQL are the ones the model derives.
    func testSQLNamesMatchTheModel() {
        let model = TablePerEntityStrategy.model
        XCTAssertEqual(model.orderedNames, ["AcademicPaper", "BlogPost", "Book", "Publication", "Tag", "WebArticle"])
        XCTAssertEqual(TablePerEntityStrategy.tables.map(\.kind), EntityKind.allCases)
        let ownAttributes: [EntityKind: [String]] = [
            .publication: [], .book: ["isbn", "pageCount"], .academicPaper: ["paperType", "doi"],
            .webArticle: ["url", "wordCount"], .blogPost: ["url", "blogName"],
        ]
        for entity in TablePerEntityStrategy.tables {
            let name = entity.kind.entityName
            XCTAssertEqual(entity.number, Int64(model.number(name)), name)
            XCTAssertEqual(entity.table, model.table(name), name)
            XCTAssertEqual(entity.own, ownAttributes[entity.kind]!.map { model.column(name, $0) }, name)
            let join = model.joinColumns(name, "tags")
            XCTAssertEqual([entity.join, entity.joinThis, entity.joinTag], [join.table, join.this, join.other], name)
        }
    }

    /// Ordered reads merge the five index-ordered arms; nothing goes through a temp b-tree.
    func testOrderedReadsMergeIndexScans() throws {
        let database = try Database(path: ":memory:")
        try TablePerEntityStrategy(database: database).createSchema(tags: [])
        for (sql, values) in [
            (TablePerEntityStrategy.fetchAllSQL, [] as [(any SQLiteBindable)?]), (TablePerEntityStrategy.fetchNewestSQL, [2]),
        ] {
            let plan = try database.queryPlan(sql, values)
            XCTAssertTrue(plan.contains("MERGE (UNION ALL)"), "\(plan)")
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            for entity in ["Publication", "Book", "AcademicPaper", "WebArticle", "BlogPost"] {
                XCTAssertTrue(plan.contains("SCAN t0 USING INDEX Z_\(entity)_byPublishDate"), "\(entity): \(plan)")
            }
        }
    }

    // MARK: Reads on a small store

    static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

    static func uuid(_ last: UInt8) -> UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last)) }

    static func publication(_ uid: UInt8, _ published: Double, _ content: PublicationContent, tags: [Int]) -> GeneratedPublication {
        GeneratedPublication(
            item: PublicationItem(uid: uuid(uid), title: "Title \(uid)", publishDate: date(published),
                                  createdate: date(published + 0.5), updatedate: date(published + 86_400.25), content: content),
            tagIndexes: tags)
    }

    /// Seven publications, every kind, inserted out of date order; two share a publish date (ties break on uid DESC).
    static let publications: [GeneratedPublication] = [
        publication(1, 500_000_000.125, .book(isbn: "978-0-00-000001-1", pageCount: 320), tags: [0, 1]),
        publication(2, 600_000_000, .academicPaper(paperType: 7, doi: "10.1234/abc.2"), tags: [1]),
        publication(3, 400_000_000, .publication, tags: [0]),
        publication(4, 700_000_000, .webArticle(url: "https://news.example.com/a-4", wordCount: 1_200), tags: [0, 2]),
        publication(5, 600_000_000, .blogPost(url: "https://blog.example.net/posts/b-5", blogName: "Notes"), tags: []),
        publication(6, 450_000_000, .book(isbn: "978-0-00-000006-6", pageCount: 96), tags: [2]),
        publication(7, 650_000_000, .publication, tags: [1, 2]),
    ]

    func makeStore() throws -> TablePerEntityStrategy {
        let strategy = TablePerEntityStrategy(database: try Database(path: ":memory:"))
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
        XCTAssertEqual((all[0] as? WebArticle)?.wordCount, 1_200)
        XCTAssertEqual((all[3] as? AcademicPaper)?.paperType, 7)
        XCTAssertEqual((all[4] as? Book)?.isbn, "978-0-00-000001-1")

        XCTAssertEqual(try strategy.fetchNewest(limit: 2).map(\.item), Array(newestFirst.prefix(2)))
        XCTAssertEqual(try strategy.countAll(), 7)
        XCTAssertEqual(try strategy.countBooks(), 2)
        XCTAssertEqual(try strategy.countByType(), [2, 2, 1, 1, 1])
        XCTAssertEqual(Set(try strategy.fetchBooks().map(\.uid)), [Self.uuid(1), Self.uuid(6)])

        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "swift").map(\.uid)), Set([1, 3, 4].map(Self.uuid)))
        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "sqlite").map(\.uid)), Set([1, 2, 7].map(Self.uuid)))
        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "rare").map(\.uid)), Set([4, 6, 7].map(Self.uuid)))
        XCTAssertEqual(try strategy.fetchPublications(taggedWith: "missing").count, 0)

        let book = try XCTUnwrap(strategy.book(isbn: "978-0-00-000006-6") as? Book)
        XCTAssertEqual(book.item, Self.publications[5].item)
        XCTAssertNil(try strategy.book(isbn: "978-0-00-000000-0"))

        // Half-open window: includes 450_000_000, excludes 500_000_000.125.
        let window = Self.date(450_000_000) ..< Self.date(500_000_000.125)
        XCTAssertEqual(try strategy.books(publishedIn: window).map(\.item), [Self.publications[5].item])
        XCTAssertEqual(Set(try strategy.books(publishedIn: Self.date(0) ..< Self.date(1e9)).map(\.uid)), [Self.uuid(1), Self.uuid(6)])
    }

    /// Each flattened entity is a root with its own Z_MAX; rows get Z_PK 1, 2, … per table in insert order.
    func testPrimaryKeysPerEntity() throws {
        let strategy = try makeStore()
        let database = strategy.database
        XCTAssertEqual(try database.strings("SELECT Z_NAME || '=' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                       ["AcademicPaper=1", "BlogPost=1", "Book=2", "Publication=2", "Tag=3", "WebArticle=1"])
        XCTAssertEqual(try database.strings("SELECT Z_PK || ':' || Z_ENT || ':' || Z_OPT || ':' || ZISBN FROM ZBOOK ORDER BY Z_PK"),
                       ["1:3:1:978-0-00-000001-1", "2:3:1:978-0-00-000006-6"])
        XCTAssertEqual(try database.strings("SELECT Z_5TAGS || '-' || Z_6WEBARTICLES FROM Z_5WEBARTICLES ORDER BY 1"), ["1-1", "3-1"])
        try strategy.insert([Self.publication(8, 100, .book(isbn: "978-0-00-000008-8", pageCount: 1), tags: [0])])
        XCTAssertEqual(try database.scalarInt("SELECT Z_PK FROM ZBOOK WHERE ZISBN = ?", ["978-0-00-000008-8"]), 3)
        XCTAssertEqual(try database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", ["Book"]), 3)
    }
}
