@testable import Dataset
import Foundation
import SQLite
@testable import Strategies
import XCTest

/// Pins the json-entity store to Core Data's layout plus its one expression index, statement by
/// statement; checks the JSON it writes, that every read decodes it back into the same enum-typed
/// values, that undecodable rows make fetches throw, and that every lookup uses its index.
final class JSONEntityLayoutTests: XCTestCase {
    func testSchemaIsCoreDataLayoutPlusTheISBNIndex() throws {
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZDETAILS VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_2TAGS) )",
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_UID ON ZPUBLICATION (ZUID)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byKindAndPublishDate ON ZPUBLICATION (ZKIND COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (ZNAME)",
            "CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1PUBLICATIONS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            // Not expressible in the model: added by the strategy after the model's statements.
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_BOOK_ISBN ON ZPUBLICATION (ZDETAILS -> '$.isbn') WHERE ZKIND = 1",
        ]
        XCTAssertEqual(JSONEntityStrategy.schemaSQL, expected)
        XCTAssertEqual(JSONEntityStrategy.model.schemaSQL, Array(expected.dropLast()))
        XCTAssertEqual(JSONEntityStrategy.model.orderedNames, ["Publication", "Tag"])
        XCTAssertEqual(JSONEntityStrategy.bookKind, Int(JSONEntityStrategy.kindValue(.book)))
        // The SQL literals use the join table the model derives.
        let join = JSONEntityStrategy.model.joinColumns("Publication", "tags")
        XCTAssertEqual([join.table, join.this, join.other], ["Z_1TAGS", "Z_1PUBLICATIONS", "Z_2TAGS"])

        // A created store holds exactly these statements (SQLite keeps the text of each CREATE).
        let strategy = JSONEntityStrategy(database: try Database(path: ":memory:"))
        try strategy.createSchema(tags: [])
        XCTAssertEqual(Set(try strategy.database.strings("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")), Set(expected))
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

    // Inserted in this order: a blog post before a book, so a value left bound from the previous
    // row would show up. `book` and `article` share a publish date.
    let plain = JSONEntityLayoutTests.publication(0x01, published: 1_000, .publication, tags: [0])
    let post = JSONEntityLayoutTests.publication(0x06, published: 4_000, .blogPost(url: "https://notes.example.net/posts/x", blogName: "Notes"), tags: [0, 2])
    let book = JSONEntityLayoutTests.publication(0x0B, published: 3_000, .book(isbn: "9780000000001", pageCount: 321), tags: [0, 1])
    let paper = JSONEntityLayoutTests.publication(0x04, published: 2_000, .academicPaper(paperType: 7, doi: "10.1000/xyz.3"), tags: [1, 2])
    let article = JSONEntityLayoutTests.publication(0x0C, published: 3_000, .webArticle(url: "https://news.example.com/a", wordCount: 1_500), tags: [2])
    let oldBook = JSONEntityLayoutTests.publication(0x02, published: 500, .book(isbn: "9780000000002", pageCount: 100), tags: [])

    func makeStore() throws -> JSONEntityStrategy {
        let strategy = JSONEntityStrategy(database: try Database(path: ":memory:"))
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
        XCTAssertEqual(try strategy.countTagLinks(), 8)
        XCTAssertEqual(Set(try strategy.fetchBooks().map(\.uid)), [book.item.uid, oldBook.item.uid])

        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "swift").map(\.uid)), Set([plain, post, book].map(\.item.uid)))
        XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: "coredata").map(\.uid)), Set([post, paper, article].map(\.item.uid)))
        XCTAssertEqual(try strategy.fetchPublications(taggedWith: "nothing"), [])

        XCTAssertEqual(try strategy.book(isbn: "9780000000001"), book.item)
        XCTAssertNil(try strategy.book(isbn: "10.1000/xyz.3"))
        XCTAssertNil(try strategy.book(isbn: "9789999999999"))
        XCTAssertNil(try strategy.book(isbn: "\"9780000000001\""), "the isbn is compared as a JSON string, not as JSON text")

        let date: (Double) -> Date = { Date(timeIntervalSinceReferenceDate: $0) }
        XCTAssertEqual(try strategy.books(publishedIn: date(400) ..< date(3_000)), [oldBook.item]) // upper bound excluded
        XCTAssertEqual(Set(try strategy.books(publishedIn: date(500) ..< date(3_000.5)).map(\.uid)), Set([oldBook, book].map(\.item.uid)))
        XCTAssertEqual(try strategy.books(publishedIn: date(3_001) ..< date(5_000)), [])

        // Bookkeeping, and details as the doc comment's table says: keys in the enum's order.
        XCTAssertEqual(try database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", ["Publication"]), 6)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT = ? AND Z_OPT = ?", [1, 1]), 6)
        XCTAssertEqual(try database.strings("SELECT ZKIND || ' ' || ZDETAILS FROM ZPUBLICATION ORDER BY Z_PK"), [
            "0 {}",
            #"4 {"url":"https://notes.example.net/posts/x","blogName":"Notes"}"#,
            #"1 {"isbn":"9780000000001","pageCount":321}"#,
            #"2 {"paperType":7,"doi":"10.1000/xyz.3"}"#,
            #"3 {"url":"https://news.example.com/a","wordCount":1500}"#,
            #"1 {"isbn":"9780000000002","pageCount":100}"#,
        ])
        // The decoder's keys are the ones the INSERTs write.
        for (kind, keys) in zip(EntityKind.allCases, JSONEntityStrategy.detailKeys) {
            for key in keys { XCTAssertTrue(JSONEntityStrategy.insertSQL[kind]!.contains("'\(key)', ?"), "\(kind): \(key)") }
            XCTAssertEqual(JSONEntityStrategy.insertSQL[kind]!.components(separatedBy: "?").count - 1, 9 + keys.count, "\(kind)")
        }
    }

    /// The isbn index holds each Book's isbn as JSON text, so isbns that differ only after a NUL
    /// are different keys (SQLite 3.40's `json_extract` would cut both at the NUL), and isbns stay
    /// unique among Books only.
    func testISBNIndexKeepsNULsAndIsUniqueAmongBooks() throws {
        let strategy = try makeStore()
        let database = strategy.database
        let nulBooks = [
            Self.publication(0x20, published: 6_000, .book(isbn: "a\u{0}b", pageCount: 1), tags: []),
            Self.publication(0x21, published: 6_001, .book(isbn: "a\u{0}c", pageCount: 2), tags: []),
            Self.publication(0x22, published: 6_002, .book(isbn: "a", pageCount: 3), tags: []),
        ]
        try strategy.insert(nulBooks)
        for publication in nulBooks {
            guard case let .book(isbn, _) = publication.item.content else { continue }
            XCTAssertEqual(try strategy.book(isbn: isbn), publication.item, isbn.debugDescription)
        }
        XCTAssertNil(try strategy.book(isbn: "a\u{0}"))
        XCTAssertEqual(try database.strings("SELECT ZDETAILS FROM ZPUBLICATION WHERE ZUID = ?", [Self.uid(0x20)]),
                       [#"{"isbn":"a\u0000b","pageCount":1}"#])

        // A second Book with an existing isbn fails, and its whole save is rolled back.
        let duplicate = Self.publication(0x23, published: 7_000, .book(isbn: "a\u{0}c", pageCount: 4), tags: [0])
        let other = Self.publication(0x24, published: 7_001, .webArticle(url: "https://x.example", wordCount: 5), tags: [1])
        XCTAssertThrowsError(try strategy.insert([other, duplicate])) {
            XCTAssertTrue("\($0)".contains("UNIQUE constraint failed: index 'Z_PUBLICATION_UNIQUE_BOOK_ISBN'"), "\($0)")
        }
        XCTAssertEqual(try strategy.countAll(), 9)
        XCTAssertEqual(try strategy.countTagLinks(), 8)
        // Only Books are in the index: another kind may carry the same text in its own fields.
        try strategy.insert([Self.publication(0x25, published: 7_002, .academicPaper(paperType: 1, doi: "9780000000001"), tags: [])])
        XCTAssertEqual(try strategy.book(isbn: "9780000000001"), book.item)
    }

    func testCorruptRowsMakeFetchesThrow() throws {
        let strategy = try makeStore()
        let database = strategy.database
        let setKind = try database.prepare("UPDATE ZPUBLICATION SET ZKIND = ? WHERE Z_PK = ?")
        let setDetails = try database.prepare("UPDATE ZPUBLICATION SET ZDETAILS = ? WHERE Z_PK = ?")
        func set(_ statement: Statement, _ value: (any SQLiteBindable)?, pk: Int) throws {
            try statement.bind([value, pk]); try statement.run()
        }
        func assertCorrupt(_ fetch: @autoclosure () throws -> [PublicationItem], _ message: String, line: UInt = #line) {
            XCTAssertThrowsError(try fetch(), line: line) { error in
                XCTAssertTrue(error is CorruptRow, "\(error)", line: line)
                XCTAssertEqual("\(error)", message, line: line)
            }
        }

        // An unknown kind, and no kind.
        try set(setKind, 99, pk: 1)
        assertCorrupt(try strategy.fetchAll(), "corrupt ZPUBLICATION row Z_PK = 1, ZKIND = 99: unknown kind")
        // The statement was reset: the same fetch runs again, and rows other than the corrupt one still decode.
        XCTAssertThrowsError(try strategy.fetchAll())
        XCTAssertEqual(try strategy.fetchNewest(limit: 1), [post.item])
        try set(setKind, nil, pk: 1)
        XCTAssertThrowsError(try strategy.fetchAll()) { XCTAssertEqual(($0 as? CorruptRow)?.kind, nil) }
        try set(setKind, 0, pk: 1)
        XCTAssertEqual(try strategy.fetchAll().count, 6)

        // details that are not JSON, not an object of strings and integers, or lack a field (the blog post, Z_PK 2).
        let post: [(String?, String)] = [
            (#"{"url":"https://x","blogName":"Notes""#, "ZDETAILS is not a JSON object of strings and integers: expected '}' at byte 37"),
            (#"{"url":"https://x","blogName":"Notes"} {}"#, "ZDETAILS is not a JSON object of strings and integers: expected the end of the text at byte 39"),
            (#"{"url":"https://x","blogName":["Notes"]}"#, "ZDETAILS is not a JSON object of strings and integers: expected a string or an integer at byte 30"),
            (#"{"url":"https://x","blogName":"Notes","url":"y"}"#, "ZDETAILS is not a JSON object of strings and integers: expected a key not given before at byte 38"),
            ("{\"url\":\"https://x\",\"blogName\":\"No\u{0}tes\"}", "ZDETAILS is not a JSON object of strings and integers: expected an escaped control character at byte 33"),
            (#"["https://x","Notes"]"#, "ZDETAILS is not a JSON object of strings and integers: expected '{' at byte 0"),
            ("", "ZDETAILS is not a JSON object of strings and integers: expected '{' at byte 0"),
            (#"{"url":"https://x"}"#, "missing or invalid details.blogName"),
            (#"{"url":"https://x","blogname":"Notes"}"#, "missing or invalid details.blogName"),
            (#"{"url":1,"blogName":"Notes"}"#, "missing or invalid details.url"),
            (nil, "ZDETAILS is NULL"),
        ]
        for (details, problem) in post {
            try set(setDetails, details, pk: 2)
            assertCorrupt(try strategy.fetchAll(), "corrupt ZPUBLICATION row Z_PK = 2, ZKIND = 4: \(problem)")
            assertCorrupt(try strategy.fetchPublications(taggedWith: "swift"), "corrupt ZPUBLICATION row Z_PK = 2, ZKIND = 4: \(problem)")
        }
        // Any spelling of the same object decodes: whitespace, key order, escapes, extra keys.
        try set(setDetails, #" { "blogName" : "N\u006ftes", "extra": -1, "url":"https:\/\/notes.example.net\/posts\/x" } "#, pk: 2)
        XCTAssertEqual(try strategy.fetchAll().count, 6)
        XCTAssertEqual(try strategy.fetchNewest(limit: 1), [self.post.item])

        // Numbers out of a field's range, or not integers (the paper, Z_PK 4).
        for (details, problem) in [
            (#"{"paperType":40000,"doi":"10.1000/xyz.3"}"#, "missing or invalid details.paperType"),
            (#"{"paperType":"7","doi":"10.1000/xyz.3"}"#, "missing or invalid details.paperType"),
            (#"{"paperType":7.0,"doi":"10.1000/xyz.3"}"#, "ZDETAILS is not a JSON object of strings and integers: expected an integer (no fraction or exponent) at byte 14"),
            (#"{"paperType":true,"doi":"10.1000/xyz.3"}"#, "ZDETAILS is not a JSON object of strings and integers: expected a string or an integer at byte 13"),
        ] {
            try set(setDetails, details, pk: 4)
            assertCorrupt(try strategy.fetchAll(), "corrupt ZPUBLICATION row Z_PK = 4, ZKIND = 2: \(problem)")
        }
        try set(setDetails, #"{"paperType":7,"doi":"10.1000/xyz.3"}"#, pk: 4)
        XCTAssertEqual(try strategy.fetchAll(), [self.post, article, book, paper, plain, oldBook].map(\.item))

        // A Book without its pageCount; a paper relabelled as a Book has no isbn.
        try set(setDetails, #"{"isbn":"9780000000001"}"#, pk: 3)
        assertCorrupt(try strategy.fetchBooks(), "corrupt ZPUBLICATION row Z_PK = 3, ZKIND = 1: missing or invalid details.pageCount")
        try set(setDetails, #"{"isbn":"9780000000001","pageCount":321}"#, pk: 3)
        try set(setKind, 1, pk: 4)
        assertCorrupt(try strategy.fetchBooks(), "corrupt ZPUBLICATION row Z_PK = 4, ZKIND = 1: missing or invalid details.isbn")
        try set(setKind, 2, pk: 4)

        // The isbn index evaluates every Book's details: a Book cannot be given malformed JSON at all.
        XCTAssertThrowsError(try set(setDetails, #"{"isbn":"#, pk: 3)) { XCTAssertTrue("\($0)".contains("malformed JSON"), "\($0)") }
        try set(setDetails, "not json", pk: 5)
        XCTAssertThrowsError(try set(setKind, 1, pk: 5)) { XCTAssertTrue("\($0)".contains("malformed JSON"), "\($0)") }
        assertCorrupt(try strategy.fetchAll(), "corrupt ZPUBLICATION row Z_PK = 5, ZKIND = 3: ZDETAILS is not a JSON object of strings and integers: expected '{' at byte 0")
    }

    // MARK: Query plans

    /// Every lookup is served by an index: no plan line scans ZPUBLICATION without one.
    func testLookupsUseIndexes() throws {
        let generator = DatasetGenerator(DatasetConfiguration(seed: 7, scale: 2_000))
        let strategy = JSONEntityStrategy(database: try Database(path: ":memory:"))
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
        // The plan line each workload's statements have (the wording varies a little across SQLite versions).
        let expected: [String: [String]] = [
            "fetch-page": ["SCAN t0 USING INDEX Z_Publication_byPublishDate"],
            "page-keyset": ["SEARCH t0 USING INDEX Z_Publication_byPublishDate ((ZPUBLISHDATE,ZUID)<(?,?))"],
            "fetch-leaf": ["SEARCH t0 USING INDEX Z_Publication_byKindAndPublishDate (ZKIND=?)"],
            "fetch-by-tag": ["SEARCH t1 USING COVERING INDEX Z_1TAGS_Z_2TAGS_INDEX (Z_2TAGS=?)"],
            "count-leaf": ["SEARCH t0 USING COVERING INDEX Z_Publication_byKindAndPublishDate (ZKIND=?)"],
            "lookup-composite": ["SEARCH t0 USING INDEX Z_Publication_byKindAndPublishDate (ZKIND=? AND ZPUBLISHDATE>? AND ZPUBLISHDATE<?)"],
            "lookup-attribute": ["SEARCH t0 USING INDEX Z_PUBLICATION_UNIQUE_BOOK_ISBN (<expr>=?)"],
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
        // The lookup repeats the index's expression and names the Book kind literally (a bound kind
        // would make SQLite re-prepare the statement at every call to match the partial index).
        XCTAssertTrue(JSONEntityStrategy.bookByISBNSQL.hasSuffix(
            "FROM ZPUBLICATION t0 WHERE t0.ZKIND = 1 AND t0.ZDETAILS -> '$.isbn' = json_quote(?) LIMIT 1"), JSONEntityStrategy.bookByISBNSQL)
    }
}

/// The reader of `details`: every spelling of an object of strings and integers, and nothing else.
final class FlatJSONTests: XCTestCase {
    func values(_ text: String, _ keys: [StaticString]) throws -> [FlatJSON.Value?] {
        var text = text
        return try text.withUTF8 { try FlatJSON.values(of: keys, in: $0) }
    }

    func testAcceptsEverySpellingOfAnObjectOfStringsAndIntegers() throws {
        XCTAssertEqual(try values("{}", ["a"]), [nil])
        XCTAssertEqual(try values(" \t\r\n{ \t\r\n} \n", []), [])
        XCTAssertEqual(try values(#"{"a":"x","b":-12,"c":0}"#, ["c", "a", "b", "d"]), [.integer(0), .string("x"), .integer(-12), nil])
        XCTAssertEqual(try values(#"{"n":9223372036854775807,"m":-9223372036854775808}"#, ["n", "m"]),
                       [.integer(.max), .integer(.min)])
        XCTAssertEqual(try values(#"{"s":"\"\\\/\b\f\n\r\t\u0000\u00e9\u00E9\u2028\ud83d\ude00"}"#, ["s"]),
                       [.string("\"\\/\u{8}\u{C}\n\r\t\u{0}éé\u{2028}😀")])
        XCTAssertEqual(try values("{\"s\":\"é😀e\u{301}\u{7F}\"}", ["s"]), [.string("é😀e\u{301}\u{7F}")])
        // An escaped key is the same key; unknown keys are skipped whatever their value.
        XCTAssertEqual(try values(#"{"\u0069sbn":"x","other":"\u0000","z":5}"#, ["isbn"]), [.string("x")])
        XCTAssertEqual(try values(#"{"":""}"#, [""]), [.string("")])
    }

    func testRejectsEverythingElse() {
        let invalid = [
            "", " ", "[]", "\"x\"", "1", "null", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{\"a\":1 \"b\":2}",
            "{a:1}", "{'a':1}", "{\"a\":1}}", "{\"a\":1} x", "{}{}",
            "{\"a\":true}", "{\"a\":null}", "{\"a\":[1]}", "{\"a\":{}}", "{\"a\":1.5}", "{\"a\":1e3}", "{\"a\":1E3}", "{\"a\":-}",
            "{\"a\":+1}", "{\"a\":01}", "{\"a\":-01}", "{\"a\":00}", "{\"a\":9223372036854775808}", "{\"a\":-9223372036854775809}",
            "{\"a\":\"x}", "{\"a\":\"x\\\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12G4\"}", "{\"a\":\"\\ud83d\"}",
            "{\"a\":\"\\ud83dx\"}", "{\"a\":\"\\ud83d\\u0041\"}", "{\"a\":\"\\ude00\"}", "{\"a\":\"tab\there\"}", "{\"a\":\"nul\u{0}\"}",
            "{\"a\":\"\u{1F}\"}", "{\"a\":1,\"a\":2}", "{\"b\":1,\"b\":2}", "{\"\\u0061\":1,\"a\":2}", "\u{FEFF}{}",
        ]
        for text in invalid {
            XCTAssertThrowsError(try values(text, ["a"]), text.debugDescription) { XCTAssertTrue($0 is FlatJSON.SyntaxError) }
        }
    }

    /// Strings from every corner of Unicode, written by SQLite's `json_object` (as the strategy's
    /// INSERTs do), read back byte for byte, and the same as Foundation's `JSONDecoder` reads them.
    func testReadsWhatSQLiteWritesLikeJSONDecoder() throws {
        let database = try Database(path: ":memory:")
        let write = try database.prepare("SELECT json_object('text', ?, 'number', ?)")
        let pool: [Unicode.Scalar] = (0 ..< 0x80).compactMap(Unicode.Scalar.init)
            + ["é", "\u{301}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{D7FF}", "\u{E000}", "😀", "\u{10FFFF}", "𝔘"]
        var rng = SplitMix64(seed: 1_234)
        struct Row: Decodable { var text: String; var number: Int64 }
        for round in 0 ..< 2_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0 ..< Int(rng.next() % 24) { scalars.append(pool[Int(rng.next() % UInt64(pool.count))]) }
            let text = String(scalars)
            let number = Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64)
            try write.bind([text, number])
            XCTAssertTrue(try write.step())
            let json = write.string(at: 0)
            write.reset()
            let read = try values(json, ["text", "number"])
            XCTAssertEqual(read, [.string(text), .integer(number)], "\(round): \(json.debugDescription)")
            guard case let .string(got)? = read[0] else { continue }
            XCTAssertEqual(Array(got.utf8), Array(text.utf8), "\(round): byte for byte")
            let foundation = try JSONDecoder().decode(Row.self, from: Data(json.utf8))
            XCTAssertEqual(Array(foundation.text.utf8), Array(text.utf8), "\(round): JSONDecoder")
            XCTAssertEqual(foundation.number, number)
        }
    }
}
