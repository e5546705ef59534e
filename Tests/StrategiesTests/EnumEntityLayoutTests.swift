@testable import Dataset
import SQLite
@testable import Strategies
import XCTest

/// Pins the enum-entity store to Core Data's layout, statement by statement, and checks that
/// every read decodes rows back into the same enum-typed values.
final class EnumEntityLayoutTests: XCTestCase {
    func testSchemaIsCoreDataLayout() throws {
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZNUMBER1 INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTEXT1 VARCHAR, ZTEXT2 VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_2TAGS) )",
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_UID ON ZPUBLICATION (ZUID)",
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_KIND_TEXT1 ON ZPUBLICATION (ZKIND, ZTEXT1)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byKindAndPublishDate ON ZPUBLICATION (ZKIND COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (ZNAME)",
            "CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1PUBLICATIONS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        XCTAssertEqual(EnumEntityStrategy.model.schemaSQL, expected)
        XCTAssertEqual(EnumEntityStrategy.model.orderedNames, ["Publication", "Tag"])
        // The SQL literals use the join table the model derives.
        let join = EnumEntityStrategy.model.joinColumns("Publication", "tags")
        XCTAssertEqual([join.table, join.this, join.other], ["Z_1TAGS", "Z_1PUBLICATIONS", "Z_2TAGS"])
    }

    // MARK: Round trip

    static let tags = ["swift", "sqlite", "coredata"].map(TagRecord.init)

    static func uid(_ last: UInt8) -> UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, last)) }

    static func publication(_ last: UInt8, published: Double, _ content: PublicationContent, tags: [Int]) -> GeneratedPublication {
        GeneratedPublication(item: PublicationItem(
            uid: uid(last), title: "Title \(last)",
            publishDate: Date(timeIntervalSinceReferenceDate: published),
            createdate: Date(timeIntervalSinceReferenceDate: published + 10.5),
            updatedate: Date(timeIntervalSinceReferenceDate: published + 20.25),
            content: content
        ), tagIndexes: tags)
    }

    // Inserted in this order: a blog post (both texts set) before a book, so a slot left over
    // from the previous row would show up. `book` and `article` share a publish date.
    let plain = EnumEntityLayoutTests.publication(0x01, published: 1_000, .publication, tags: [0])
    let post = EnumEntityLayoutTests.publication(0x06, published: 4_000, .blogPost(url: "https://notes.example.net/posts/x", blogName: "Notes"), tags: [0, 2])
    let book = EnumEntityLayoutTests.publication(0x0B, published: 3_000, .book(isbn: "9780000000001", pageCount: 321), tags: [0, 1])
    let paper = EnumEntityLayoutTests.publication(0x04, published: 2_000, .academicPaper(paperType: 7, doi: "10.1000/xyz.3"), tags: [1, 2])
    let article = EnumEntityLayoutTests.publication(0x0C, published: 3_000, .webArticle(url: "https://news.example.com/a", wordCount: 1_500), tags: [2])
    let oldBook = EnumEntityLayoutTests.publication(0x02, published: 500, .book(isbn: "9780000000002", pageCount: 100), tags: [])

    func makeStore() throws -> EnumEntityStrategy {
        let strategy = EnumEntityStrategy(database: try Database(path: ":memory:"))
        try strategy.createSchema(tags: Self.tags)
        try strategy.insert([plain, post, book, paper, article, oldBook])
        return strategy
    }

    func testRoundTrip() throws {
        let strategy = try makeStore()
        let database = strategy.database

        // Newest first; the tie on publishDate is broken by uid descending (article 0x0C before book 0x0B).
        let newestFirst = [post, article, book, paper, plain, oldBook].map(\.item)
        XCTAssertEqual(try strategy.fetchAll(), newestFirst)
        XCTAssertEqual(try strategy.fetchNewest(limit: 2), Array(newestFirst.prefix(2)))
        XCTAssertEqual(try strategy.countAll(), 6)
        XCTAssertEqual(try strategy.countBooks(), 2)
        XCTAssertEqual(try strategy.countByType(), [1, 2, 1, 1, 1])
        XCTAssertEqual(Set(try strategy.fetchBooks().map(\.uid)), [book.item.uid, oldBook.item.uid])

        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "swift").map(\.uid)), Set([plain, post, book].map(\.item.uid)))
        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "coredata").map(\.uid)), Set([post, paper, article].map(\.item.uid)))
        XCTAssertEqual(try strategy.fetchPublications(taggedWith: "nothing"), [])

        XCTAssertEqual(try strategy.book(isbn: "9780000000001"), book.item)
        XCTAssertNil(try strategy.book(isbn: "10.1000/xyz.3")) // a doi lives in text1 too, but not with kind = Book
        XCTAssertNil(try strategy.book(isbn: "9789999999999"))

        let date: (Double) -> Date = { Date(timeIntervalSinceReferenceDate: $0) }
        XCTAssertEqual(try strategy.books(publishedIn: date(400) ..< date(3_000)), [oldBook.item]) // upper bound excluded
        XCTAssertEqual(Set(try strategy.books(publishedIn: date(500) ..< date(3_000.5)).map(\.uid)), Set([oldBook, book].map(\.item.uid)))
        XCTAssertEqual(try strategy.books(publishedIn: date(3_001) ..< date(5_000)), [])

        // Bookkeeping and slots as the doc comment's table says.
        XCTAssertEqual(try database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", ["Publication"]), 6)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT = ? AND Z_OPT = ?", [1, 1]), 6)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM Z_1TAGS"), 8)
        XCTAssertEqual(try database.strings("""
            SELECT ZKIND || ':' || quote(ZTEXT1) || ':' || quote(ZTEXT2) || ':' || quote(ZNUMBER1) FROM ZPUBLICATION ORDER BY Z_PK
            """), [
            "0:NULL:NULL:NULL",
            "4:'https://notes.example.net/posts/x':'Notes':NULL",
            "1:'9780000000001':NULL:321",
            "2:'10.1000/xyz.3':NULL:7",
            "3:'https://news.example.com/a':NULL:1500",
            "1:'9780000000002':NULL:100",
        ])
    }

    func testCorruptRowsMakeFetchesThrow() throws {
        let strategy = try makeStore()
        let update = try strategy.database.prepare("UPDATE ZPUBLICATION SET ZKIND = ? WHERE Z_PK = ?")

        try update.bind([99, 1]); try update.run()
        XCTAssertThrowsError(try strategy.fetchAll()) { error in
            let corrupt = error as? CorruptRow
            XCTAssertEqual(corrupt?.pk, 1)
            XCTAssertEqual(corrupt?.kind, 99)
            XCTAssertEqual("\(error)", "corrupt ZPUBLICATION row Z_PK = 1, ZKIND = 99: unknown kind")
        }
        // The statement was reset: the same fetch runs again, and rows other than the corrupt one still decode.
        XCTAssertThrowsError(try strategy.fetchAll())
        XCTAssertEqual(try strategy.fetchNewest(limit: 1), [post.item])

        try update.bind([nil, 1]); try update.run()
        XCTAssertThrowsError(try strategy.fetchAll()) { XCTAssertEqual(($0 as? CorruptRow)?.kind, nil) }
        try update.bind([0, 1]); try update.run()
        XCTAssertEqual(try strategy.fetchAll().count, 6)

        // A Book without its isbn slot.
        try strategy.database.execute("UPDATE ZPUBLICATION SET ZTEXT1 = NULL WHERE Z_PK = 3")
        XCTAssertThrowsError(try strategy.fetchBooks()) {
            XCTAssertEqual("\($0)", "corrupt ZPUBLICATION row Z_PK = 3, ZKIND = 1: missing or invalid ZTEXT1")
        }
    }

    // MARK: Query plans

    /// Every lookup is served by an index: no plan line scans ZPUBLICATION without one.
    func testLookupsUseIndexes() throws {
        let generator = DatasetGenerator(DatasetConfiguration(seed: 7, scale: 2_000))
        let strategy = EnumEntityStrategy(database: try Database(path: ":memory:"))
        try strategy.createSchema(tags: generator.tags)
        for batch in generator.batches(of: 500) { try strategy.insert(batch) }
        XCTAssertEqual(try strategy.countByType(), generator.census().countsByKind)
        // Every generated value comes back intact, newest first (uid bytes order like the uuidString).
        XCTAssertEqual(try strategy.fetchAll(), generator.publications(0 ..< 2_000).map(\.item)
            .sorted { ($0.publishDate, $0.uid.uuidString) > ($1.publishDate, $1.uid.uuidString) })

        let isbn = DatasetGenerator.isbn(generator.publications(0 ..< 50).firstIndex { $0.item.kind == .book }!)
        XCTAssertEqual(try strategy.book(isbn: isbn)?.content.kind, .book)
        let window = Date(timeIntervalSinceReferenceDate: 300_000_000) ..< Date(timeIntervalSinceReferenceDate: 330_000_000)
        let sample = QuerySample(isbn: isbn, tagName: generator.popularTagName, window: window)
        // The index each workload's statements use (the plan's wording varies a little across SQLite versions).
        let expected: [String: [String]] = [
            "fetch-page": ["Z_Publication_byPublishDate"],
            "page-keyset": ["Z_Publication_byPublishDate ((ZPUBLISHDATE,ZUID)<(?,?))"],
            "fetch-leaf": ["Z_Publication_byKindAndPublishDate (ZKIND=?)"],
            "fetch-by-tag": ["Z_1TAGS_Z_2TAGS_INDEX (Z_2TAGS=?)"],
            "count-leaf": ["COVERING INDEX Z_Publication_byKindAndPublishDate (ZKIND=?)"],
            "lookup-composite": ["Z_Publication_byKindAndPublishDate (ZKIND=? AND ZPUBLISHDATE>? AND ZPUBLISHDATE<?)"],
            "lookup-attribute": ["Z_PUBLICATION_UNIQUE_KIND_TEXT1 (ZKIND=? AND ZTEXT1=?)"],
            "fetch-polymorphic": ["SCAN t0 USING INDEX Z_Publication_byPublishDate"],
            "page-offset": ["SCAN t0 USING INDEX Z_Publication_byPublishDate"],
            "count-all": ["USING COVERING INDEX"], // whichever index SQLite deems narrowest
            "count-by-type": ["SEARCH t0 USING COVERING INDEX Z_Publication_byKindAndPublishDate (ZKIND=?)"],
            "search-title": ["SEARCH t0 USING INDEX Z_Publication_byTitle (ZTITLE>? AND ZTITLE<?)"],
            // The row by its uid, then its links by the join table's primary key.
            "delete-cascade": ["SEARCH ZPUBLICATION USING INDEX Z_PUBLICATION_UNIQUE_UID (ZUID=?)", "SEARCH Z_1TAGS USING INDEX sqlite_autoindex_Z_1TAGS_1 (Z_1PUBLICATIONS=?)"],
            "update": ["SEARCH ZPUBLICATION USING INDEX Z_PUBLICATION_UNIQUE_UID (ZUID=?)"],
        ]
        let queries = strategy.workloadQueries(sample)
        let reference = SingleTableStrategy(database: try Database(path: ":memory:")).workloadQueries(sample)
        XCTAssertEqual(queries.map(\.workload), reference.map(\.workload))
        XCTAssertEqual(Set(queries.map(\.workload)), Set(expected.keys))
        for query in queries {
            let plan = try strategy.database.queryPlan(query.sql, query.values)
            XCTAssertTrue(plan.contains { line in expected[query.workload]!.contains { line.contains($0) } }, "\(query.workload): \(plan)")
            XCTAssertFalse(plan.contains { $0.hasPrefix("SCAN") && !$0.contains("INDEX") }, "\(query.workload): \(plan)")
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") }, "\(query.workload): \(plan)")
        }
    }
}
