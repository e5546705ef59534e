import Dataset
import Foundation
import SQLite
import Strategies
import TestSupport
import XCTest

/// Text that would break SQL built by string splicing (quotes, semicolons, comments, an injected
/// `DROP TABLE`), text that C strings would cut short (NUL), and text outside the Basic
/// Multilingual Plane must go into every strategy's store and come back byte for byte, through
/// every read that takes or returns text. The round trip is the proof that values are bound,
/// never spliced into SQL: a spliced quote would fail to prepare or change the statement, and a
/// value bound as a C string would lose everything after its first NUL.
final class HostileInputTests: XCTestCase {
    /// Every string is distinct byte for byte; each is a title, an isbn, a doi, a url, a blog
    /// name and a tag name below. No string is a prefix-up-to-NUL of another (see `truncatedAtNUL`).
    static let hostile: [String] = [
        "O'Reilly's \"Definitive\" Guide",
        "'",
        "\"",
        "''''\"\"\"\"",
        "'); DROP TABLE ZPUBLICATION; --",
        "\"); DROP TABLE ZTAG; --",
        "x' OR '1'='1",
        "a;b;;c; SELECT 1; VACUUM;",
        "-- a line comment",
        "/* a block comment */ */ /* never closed",
        "?1 ?2 :name @param $var ?",
        "%_ LIKE wildcards and a \\ backslash",
        "nul\u{0}in the middle",
        "\u{0}leading NUL",
        "trailing NUL\u{0}",
        "two\u{0}\u{0}NULs",
        "line\nbreak",
        "CRLF\r\nand a lone CR\r",
        "\ttab, \u{2028} line separator, \u{FEFF} byte-order mark",
        "emoji 👩🏽‍💻🧪🇫🇷",
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝒮𝒸𝓇𝒾𝓅𝓉 𝟘𝟙𝟚",
        // Canonically equivalent, different bytes: Swift's == calls them equal, SQLite (BINARY) does not.
        "caf\u{E9}",
        "cafe\u{301}",
        "  padded with spaces  ",
        String(repeating: "';\"--/*\u{0}😀", count: 500),
    ]

    /// What a string would become if it were passed to SQLite as a C string.
    static func truncatedAtNUL(_ text: String) -> String? {
        guard let nul = text.unicodeScalars.firstIndex(of: "\u{0}") else { return nil }
        return String(text.unicodeScalars[..<nul])
    }

    static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", n))!
    }

    /// One publication of each kind per hostile string `i`; every text field holds a hostile string,
    /// and each publication carries zero or two hostile tags.
    static let publications: [GeneratedPublication] = {
        let count = hostile.count
        var result: [GeneratedPublication] = []
        for (i, text) in hostile.enumerated() {
            for kind in EntityKind.allCases {
                let n = i * EntityKind.allCases.count + kind.rawValue
                let content: PublicationContent = switch kind {
                case .publication: .publication
                case .book: .book(isbn: text, pageCount: Int32(100 + n))
                case .academicPaper: .academicPaper(paperType: Int16(n % 12), doi: text)
                case .webArticle: .webArticle(url: text, wordCount: Int32(1_000 + n))
                case .blogPost: .blogPost(url: text, blogName: hostile[(i + 1) % count])
                }
                // Distinct publish dates, at millisecond resolution, so the newest-first order is fixed.
                let published = 500_000_000 + Double(n) * 86_400.125
                let item = PublicationItem(
                    uid: uuid(n), title: hostile[(i + kind.rawValue) % count],
                    publishDate: Date(timeIntervalSinceReferenceDate: published),
                    createdate: Date(timeIntervalSinceReferenceDate: published + 60.5),
                    updatedate: Date(timeIntervalSinceReferenceDate: published + 3_600.25),
                    content: content)
                let tags = n % 3 == 0 ? [] : [i, (i + 2 + kind.rawValue) % count]
                result.append(GeneratedPublication(item: item, tagIndexes: tags))
            }
        }
        return result
    }()

    /// A publication with every string as its UTF-8 bytes, so that comparisons are byte for byte.
    struct Bytes: Equatable, CustomStringConvertible {
        var uid: [UInt8]
        var kind: EntityKind
        var title: [UInt8]
        var dates: [Double]
        var texts: [[UInt8]]
        var numbers: [Int64]
        /// The strings as Swift sees them, for failure messages only.
        var debugTexts: [String]

        init(_ item: PublicationItem) {
            uid = uidBytes(item.uid)
            kind = item.kind
            title = Array(item.title.utf8)
            dates = [item.publishDate, item.createdate, item.updatedate].map(\.timeIntervalSinceReferenceDate)
            let strings: [String]
            switch item.content {
            case .publication: (strings, numbers) = ([], [])
            case let .book(isbn, pageCount): (strings, numbers) = ([isbn], [Int64(pageCount)])
            case let .academicPaper(paperType, doi): (strings, numbers) = ([doi], [Int64(paperType)])
            case let .webArticle(url, wordCount): (strings, numbers) = ([url], [Int64(wordCount)])
            case let .blogPost(url, blogName): (strings, numbers) = ([url, blogName], [])
            }
            texts = strings.map { Array($0.utf8) }
            debugTexts = [item.title] + strings
        }

        static func == (a: Bytes, b: Bytes) -> Bool {
            (a.uid, a.kind, a.title, a.dates, a.texts, a.numbers) == (b.uid, b.kind, b.title, b.dates, b.texts, b.numbers)
        }

        var description: String {
            "\(kind) #\(uid.last!) " + debugTexts.map { String($0.debugDescription.prefix(60)) }.joined(separator: ", ")
        }
    }

    func bytes(_ objects: [some Any]) -> [Bytes] { objects.map { Bytes(itemOf($0)) } }

    /// Sorted by uid bytes, for answers whose order is not promised.
    func byUID(_ list: [Bytes]) -> [Bytes] { list.sorted { $0.uid.lexicographicallyPrecedes($1.uid) } }

    func testHostileStringsRoundTripByteForByteInEveryStrategy() throws {
        XCTAssertEqual(Set(Self.hostile.map { Array($0.utf8) }).count, Self.hostile.count, "the hostile strings must differ byte for byte")
        for text in Self.hostile {
            if let cut = Self.truncatedAtNUL(text) {
                XCTAssertFalse(Self.hostile.contains { Array($0.utf8) == Array(cut.utf8) }, "\(cut.debugDescription) is also a hostile string")
            }
        }
        for type in Strategies.all { try roundTrip(type) }
    }

    private func roundTrip<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let name = S.name
        let strategy = S(database: try StoreFile.open(folder.appendingPathComponent("\(name).sqlite").path))
        try strategy.createSchema(tags: Self.hostile.map { TagRecord(name: $0) })
        let schema = try strategy.database.strings("SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_master ORDER BY name")
        // Two saves, the second of a single object, so both the batched and one-object paths run.
        try strategy.insert(Array(Self.publications.dropLast()))
        try strategy.insert([Self.publications.last!])

        XCTAssertEqual(try strategy.database.strings("SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_master ORDER BY name"),
                       schema, "\(name): the schema changed while inserting text")
        XCTAssertEqual(try strategy.database.strings("PRAGMA integrity_check"), ["ok"], name)
        XCTAssertEqual(try strategy.countAll(), Self.publications.count, name)
        XCTAssertEqual(try strategy.countTagLinks(), Self.publications.reduce(0) { $0 + $1.tagIndexes.count }, name)

        // Tag names, read back with SQL of our own.
        let storedTags = try strategy.database.strings("SELECT ZNAME FROM ZTAG ORDER BY Z_PK")
        XCTAssertEqual(storedTags.count, Self.hostile.count, name)
        for (stored, text) in zip(storedTags, Self.hostile) where Array(stored.utf8) != Array(text.utf8) {
            XCTFail("\(name): tag \(text.debugDescription.prefix(80)) was stored as \(stored.debugDescription.prefix(80))")
        }

        // fetchAll: every field of every publication, newest first.
        let newestFirst = Self.publications.map(\.item).sorted { $0.publishDate > $1.publishDate }.map(Bytes.init)
        let all = bytes(try strategy.fetchAll())
        XCTAssertEqual(all.count, newestFirst.count, name)
        for (got, want) in zip(all, newestFirst) where got != want {
            XCTFail("\(name) fetchAll: got \(got), want \(want)")
        }

        // fetchPublications(taggedWith:), by each hostile tag name.
        for (tag, text) in Self.hostile.enumerated() {
            let want = byUID(Self.publications.filter { $0.tagIndexes.contains(tag) }.map { Bytes($0.item) })
            XCTAssertFalse(want.isEmpty, "tag \(tag) should be used")
            let got = byUID(bytes(try strategy.fetchPublications(taggedWith: text)))
            XCTAssertEqual(got, want, "\(name): publications tagged \(text.debugDescription.prefix(80))")
            if let cut = Self.truncatedAtNUL(text) {
                XCTAssertEqual(try strategy.fetchPublications(taggedWith: cut).count, 0, "\(name): \(cut.debugDescription) is not a tag")
            }
        }

        // book(isbn:), by each hostile isbn; a string cut at its NUL, or another kind's equal text, finds nothing.
        let books = Self.publications.map(\.item).filter { $0.kind == .book }
        for book in books {
            guard case let .book(isbn, _) = book.content else { continue }
            let found = try strategy.book(isbn: isbn).map { Bytes(itemOf($0)) }
            XCTAssertEqual(found, Bytes(book), "\(name): book(isbn: \(isbn.debugDescription.prefix(80)))")
            if let cut = Self.truncatedAtNUL(isbn) {
                XCTAssertNil(try strategy.book(isbn: cut), "\(name): \(cut.debugDescription) is not an isbn")
            }
        }
        XCTAssertNil(try strategy.book(isbn: "caf"), name)
    }
}
