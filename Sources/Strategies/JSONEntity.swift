import Dataset
import Foundation
import SQLite

/// `json-entity`: one entity with no inheritance, a `kind` discriminator, and the kind's fields as
/// one JSON object in a text attribute, read back as a Swift enum.
///
/// `Publication` is a single, flat Core Data entity, like `enum-entity`'s, but instead of generic
/// slot columns every kind keeps its own fields, under their own names, in the string attribute
/// `details` (`ZDETAILS VARCHAR`):
///
/// | kind (`ZKIND`)     | `details` (`ZDETAILS`)                               |
/// |--------------------|------------------------------------------------------|
/// | 0 Publication      | `{}`                                                 |
/// | 1 Book             | `{"isbn":"978…","pageCount":321}`                    |
/// | 2 AcademicPaper    | `{"paperType":7,"doi":"10.1000/…"}`                  |
/// | 3 WebArticle       | `{"url":"https://…","wordCount":1500}`               |
/// | 4 BlogPost         | `{"url":"https://…","blogName":"Notes"}`             |
///
/// Keys come in the order of the enum case's associated values.
///
/// **Writing.** SQLite writes the JSON: each kind's INSERT builds `details` with `json_object`,
/// the keys in the statement text and the values bound (faster than binding text made by
/// `JSONEncoder` or `JSONSerialization`; see the README). Strings are escaped by SQLite's JSON
/// writer: `\"`, `\\`, the short escapes for BS, TAB, LF, FF and CR, `\u00XX` for every other
/// control character, NUL included; every other character is written as its own UTF-8 bytes.
///
/// **The isbn index.** Core Data's fetch indexes cannot hold an expression, so the model declares
/// only `(publishDate, uid)` and `(kind, publishDate)` and `additionalSchemaSQL` adds a partial,
/// unique expression index: `ZDETAILS -> '$.isbn'` over Book rows (`WHERE ZKIND = 1`). It makes an
/// isbn unique among Books and serves the isbn lookup, whose `WHERE` repeats the index's
/// expression and its `ZKIND = 1` literally: SQLite uses an expression index only for the same
/// expression, and a partial index only when the query's `WHERE` implies the index's. A bound
/// `ZKIND = ?` implies it only through the bound value, so SQLite would re-prepare the statement
/// every time the kind is bound (three times as slow a lookup, measured).
///
/// The index holds `->`, the isbn's JSON text (`"978…"`, quotes and escapes included), rather
/// than `json_extract`'s SQL value, because SQLite 3.40's `json_extract` (and `->>`) cuts a string
/// at its first `\u0000`: `"a\u0000b"` and `"a\u0000c"` would both come back as `a`, so a unique
/// index on it would reject the second Book and a lookup would find one for the other. `->` returns
/// the string's JSON text as stored, which is one-to-one with the isbn because one writer
/// (SQLite's) escaped it; the lookup compares it with `json_quote(?)`, the bound isbn escaped by
/// that same writer. As the index evaluates `->` on every Book row, writing a Book whose `details`
/// are not valid JSON fails with SQLite's "malformed JSON".
///
/// **Reading.** Fetches decode `details` in Swift with `FlatJSON`, a strict reader for objects of
/// strings and integers (about twice as fast as `JSONDecoder` or `JSONSerialization` here, and
/// faster than selecting one `json_extract` column per field, which would also cut strings at NUL).
/// A row whose `kind` is unknown, or whose `details` is not such an object, lacks a field its kind
/// requires, or holds a number out of the field's range, makes the fetch throw `CorruptRow`.
///
/// Entity numbers: Publication 1, Tag 2.
public final class JSONEntityStrategy: StorageStrategy {
    public static let name = "json-entity"
    public static let summary = "One flat entity with a kind attribute and the kind's fields as a JSON object, decoded into a Swift enum"

    public static let model = CoreDataModel([
        .init("Publication",
              attributes: [.init("uid", .uuid), .init("title", .string), .init("publishDate", .date),
                           .init("createdate", .date), .init("updatedate", .date),
                           .init("kind", .integer16), .init("details", .string)],
              manyToMany: [.init("tags", destination: "Tag", inverse: "publications")],
              // Objects are identified by uid (update, delete-cascade find them through this index).
              uniquenessConstraints: [["uid"]],
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

    /// The JSON keys of each kind's fields (indexed by `EntityKind.rawValue`), in the order of the
    /// enum case's associated values; the INSERTs below write them in this order.
    static let detailKeys: [[StaticString]] = [
        [], ["isbn", "pageCount"], ["paperType", "doi"], ["url", "wordCount"], ["url", "blogName"],
    ]

    // MARK: SQL (column order is the table's, see CoreDataModel)

    /// `ZKIND` of a Book, written into the isbn index's `WHERE` and the lookup that must match it.
    static let bookKind = EntityKind.book.rawValue
    /// The isbn's JSON text (see the type's documentation); the index and the lookup use exactly this expression.
    static let isbnExpression = "ZDETAILS -> '$.isbn'"

    /// DDL the model cannot express, run after the model's by `CoreDataStore.createSchema`.
    static let additionalSchemaSQL = [
        "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_BOOK_ISBN ON ZPUBLICATION (\(isbnExpression)) WHERE ZKIND = \(bookKind)",
    ]
    /// Every statement that creates an empty store, in order.
    public static let schemaSQL = model.schemaSQL + additionalSchemaSQL

    /// The select list Core Data uses for the entity: `Z_ENT, Z_PK, Z_OPT`, then the table's columns.
    static let selectList = """
        t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZKIND, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZUPDATEDATE, \
        t0.ZDETAILS, t0.ZTITLE, t0.ZUID
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
    /// The Book kind and the index's expression are written out (see the type's documentation); the
    /// isbn is bound, and escaped by SQLite's JSON writer as it was when the row was written.
    static let bookByISBNSQL = """
        SELECT \(selectList) FROM ZPUBLICATION t0 \
        WHERE t0.ZKIND = \(bookKind) AND t0.\(isbnExpression) = json_quote(?) LIMIT 1
        """
    /// One INSERT per kind: Z_PK, Z_ENT, Z_OPT, the five shared columns, `kind`, then `details`
    /// built by `json_object` from the kind's fields (parameters 10 and 11), keys as in `detailKeys`.
    static let insertSQL: [EntityKind: String] = {
        let details: [EntityKind: String] = [
            .publication: "json_object()",
            .book: "json_object('isbn', ?, 'pageCount', ?)",
            .academicPaper: "json_object('paperType', ?, 'doi', ?)",
            .webArticle: "json_object('url', ?, 'wordCount', ?)",
            .blogPost: "json_object('url', ?, 'blogName', ?)",
        ]
        return details.mapValues {
            "INSERT INTO ZPUBLICATION (Z_PK, Z_ENT, Z_OPT, ZUID, ZTITLE, ZPUBLISHDATE, ZCREATEDATE, ZUPDATEDATE, ZKIND, ZDETAILS) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, \($0))"
        }
    }()
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
        try store.createSchema(Self.schemaSQL, strategyName: Self.name)
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
                try insert.bind(Self.publicationEntity, at: 2)
                try insert.bind(1, at: 3)
                try insert.bindShared(item, from: 4)
                try insert.bind(Self.kindValue(item.kind), at: 9)
                switch item.content {
                case .publication: break
                case let .book(isbn, pageCount):
                    try insert.bind(isbn, at: 10); try insert.bind(Int64(pageCount), at: 11)
                case let .academicPaper(paperType, doi):
                    try insert.bind(Int64(paperType), at: 10); try insert.bind(doi, at: 11)
                case let .webArticle(url, wordCount):
                    try insert.bind(url, at: 10); try insert.bind(Int64(wordCount), at: 11)
                case let .blogPost(url, blogName):
                    try insert.bind(url, at: 10); try insert.bind(blogName, at: 11)
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

    /// Decodes a row of `selectList` into a `PublicationItem`: `kind` picks the case, `details` fills it.
    /// - throws: `CorruptRow` when `kind` is unknown, the uid is missing, or `details` does not decode
    ///   into the kind's fields.
    static func item(_ row: Statement) throws -> PublicationItem {
        let pk = row.int64(at: 1)
        guard !row.isNull(at: 3), let kind = EntityKind(rawValue: row.int(at: 3)) else {
            throw CorruptRow(pk: pk, kind: row.isNull(at: 3) ? nil : row.int64(at: 3), problem: "unknown kind")
        }
        guard let uid = row.uuid(at: 9) else { throw CorruptRow(pk: pk, kind: row.int64(at: 3), problem: "uid is not a 16-byte blob") }
        func corrupt(_ problem: String) -> CorruptRow { CorruptRow(pk: pk, kind: row.int64(at: 3), problem: problem) }

        guard !row.isNull(at: 7) else { throw corrupt("ZDETAILS is NULL") }
        let keys = detailKeys[kind.rawValue]
        var details = row.string(at: 7)
        let values: [FlatJSON.Value?]
        do {
            values = try details.withUTF8 { try FlatJSON.values(of: keys, in: $0) }
        } catch {
            throw corrupt("ZDETAILS is not a JSON object of strings and integers: \(error)")
        }
        /// The field at `index` of `keys`: missing, of the wrong type, or out of range is a corrupt row.
        func text(_ index: Int) throws -> String {
            guard case let .string(value)? = values[index] else { throw fieldError(index) }
            return value
        }
        func number<T: FixedWidthInteger>(_ index: Int, as _: T.Type) throws -> T {
            guard case let .integer(value)? = values[index], let number = T(exactly: value) else { throw fieldError(index) }
            return number
        }
        func fieldError(_ index: Int) -> CorruptRow { corrupt("missing or invalid details.\(keys[index])") }

        let content: PublicationContent
        switch kind {
        case .publication: content = .publication
        case .book: content = .book(isbn: try text(0), pageCount: try number(1, as: Int32.self))
        case .academicPaper: content = .academicPaper(paperType: try number(0, as: Int16.self), doi: try text(1))
        case .webArticle: content = .webArticle(url: try text(0), wordCount: try number(1, as: Int32.self))
        case .blogPost: content = .blogPost(url: try text(0), blogName: try text(1))
        }
        return PublicationItem(
            uid: uid, title: row.string(at: 8),
            publishDate: Date(timeIntervalSinceReferenceDate: row.double(at: 5)),
            createdate: Date(timeIntervalSinceReferenceDate: row.double(at: 4)),
            updatedate: Date(timeIntervalSinceReferenceDate: row.double(at: 6)),
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
        try fetch(Self.bookByISBNSQL, [isbn]).first
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
            WorkloadQuery(workload: "lookup-attribute", sql: Self.bookByISBNSQL, values: [sample.isbn]),
            WorkloadQuery(workload: "search-title", sql: Self.titlePrefixSQL, values: sample.titlePrefix.values),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteSQL, values: [sample.uid]),
            WorkloadQuery(workload: "delete-cascade", sql: Self.deleteTagLinksSQL, values: [1]),
            WorkloadQuery(workload: "update", sql: Self.touchSQL, values: [sample.updatedate, sample.uid]),
        ]
    }
}

/// A strict reader for the JSON in `details`: one object (RFC 8259) whose values are strings or
/// integers, such as `{"isbn":"978…","pageCount":321}`.
///
/// It accepts every spelling of such an object (whitespace, key order, `\/`, `\u` escapes, surrogate
/// pairs) and rejects anything else: other value types (fractions, exponents, `true`, `null`,
/// arrays, nested objects), a key given twice, raw control characters inside a string, a lone
/// surrogate, an integer outside 64 bits, or text after the object. It reads only as far as it
/// must and builds a Swift string only for the keys asked for, which makes a fetch about twice as
/// fast as `JSONDecoder` or `JSONSerialization` on this suite's rows.
package enum FlatJSON {
    enum Value: Equatable { case string(String), integer(Int64) }

    package struct SyntaxError: Error, CustomStringConvertible {
        package var offset: Int
        package var expected: String
        package var description: String { "expected \(expected) at byte \(offset)" }
    }

    /// The values of `keys` in the object `bytes` holds, in the order of `keys` (`nil` for a key the
    /// object lacks). Other keys are read, checked and ignored.
    /// - throws: `SyntaxError` when `bytes` is not such an object.
    static func values(of keys: [StaticString], in bytes: UnsafeBufferPointer<UInt8>) throws -> [Value?] {
        var reader = Reader(bytes: bytes)
        var values = [Value?](repeating: nil, count: keys.count)
        var otherKeys: [[UInt8]] = []
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        if !reader.consume(UInt8(ascii: "}")) {
            repeat {
                reader.skipWhitespace()
                let start = reader.index
                let key = try reader.stringContent()
                reader.skipWhitespace()
                try reader.expect(UInt8(ascii: ":"))
                reader.skipWhitespace()
                let value: Value = reader.peek == UInt8(ascii: "\"")
                    ? .string(try reader.stringContent().string(at: reader.index))
                    : .integer(try reader.integer())
                let slot = key.withBytes { name in keys.firstIndex { $0.withUTF8Buffer { $0.elementsEqual(name) } } }
                if let slot {
                    guard values[slot] == nil else { throw SyntaxError(offset: start, expected: "a key not given before") }
                    values[slot] = value
                } else {
                    let name = key.withBytes { Array($0) }
                    guard !otherKeys.contains(name) else { throw SyntaxError(offset: start, expected: "a key not given before") }
                    otherKeys.append(name)
                }
                reader.skipWhitespace()
            } while reader.consume(UInt8(ascii: ","))
            try reader.expect(UInt8(ascii: "}"))
        }
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw SyntaxError(offset: reader.index, expected: "the end of the text") }
        return values
    }

    /// A string literal's content: the bytes between the quotes when it has no escape, else the decoded bytes.
    package enum StringContent {
        case raw(UnsafeBufferPointer<UInt8>)
        case decoded([UInt8])

        package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            switch self {
            case let .raw(bytes): try body(bytes)
            case let .decoded(bytes): try bytes.withUnsafeBufferPointer(body)
            }
        }

        /// The content as a string; `end` (the offset after the literal) is only for the error.
        package func string(at end: Int) throws -> String {
            guard let text = withBytes({ String(validating: $0, as: UTF8.self) }) else {
                throw SyntaxError(offset: end, expected: "a string of valid UTF-8 before this")
            }
            return text
        }
    }

    package struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        package var index = 0

        package init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        package var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// JSON's whitespace: space, LF, CR, TAB.
        package mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        package mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        package mutating func expect(_ byte: UInt8) throws {
            guard consume(byte) else { throw SyntaxError(offset: index, expected: "'\(Character(Unicode.Scalar(byte)))'") }
        }

        /// `-? (0 | [1-9][0-9]*)` within Int64; a fraction or an exponent is not an integer here.
        package mutating func integer() throws -> Int64 {
            let start = index
            let negative = consume(UInt8(ascii: "-"))
            var value: Int64 = 0
            var digits = 0
            while let byte = peek, byte >= 0x30, byte <= 0x39 {
                if digits == 1, value == 0 { throw SyntaxError(offset: index, expected: "no digit after a leading 0") }
                let digit = Int64(byte - 0x30)
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
                guard !overflow, !overflow2 else { throw SyntaxError(offset: start, expected: "an integer within 64 bits") }
                value = next
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw SyntaxError(offset: start, expected: "a string or an integer") }
            if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                throw SyntaxError(offset: index, expected: "an integer (no fraction or exponent)")
            }
            return value
        }

        /// A string literal, escapes decoded; a raw control character (below U+0020) is an error.
        package mutating func stringContent() throws -> StringContent {
            try expect(UInt8(ascii: "\""))
            let start = index
            // Most strings have no escape: hand back the bytes in place.
            while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { throw SyntaxError(offset: index, expected: "an escaped control character") }
                index += 1
            }
            guard let stop = peek else { throw SyntaxError(offset: index, expected: "'\"'") }
            if stop == UInt8(ascii: "\"") {
                index += 1
                return .raw(UnsafeBufferPointer(rebasing: bytes[start ..< index - 1]))
            }
            var decoded = Array(bytes[start ..< index])
            while true {
                guard let byte = peek else { throw SyntaxError(offset: index, expected: "'\"'") }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return .decoded(decoded)
                case UInt8(ascii: "\\"):
                    guard let escape = peek else { throw SyntaxError(offset: index, expected: "an escape") }
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800 ..< 0xDC00).contains(scalar) {
                            // A high surrogate must be followed by an escaped low one: together, one scalar.
                            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                                throw SyntaxError(offset: index, expected: "a low surrogate")
                            }
                            let low = try hex4()
                            guard (0xDC00 ..< 0xE000).contains(low) else { throw SyntaxError(offset: index - 4, expected: "a low surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw SyntaxError(offset: index - 4, expected: "a Unicode scalar") }
                        decoded.append(contentsOf: UTF8.encode(unicode)!)
                    default: throw SyntaxError(offset: index - 1, expected: "an escape")
                    }
                default:
                    guard byte >= 0x20 else { throw SyntaxError(offset: index - 1, expected: "an escaped control character") }
                    decoded.append(byte)
                }
            }
        }

        /// A JSON number (integer, fraction, exponent) as a `Double`: how SQLite's `json_object` writes a REAL.
        package mutating func number() throws -> Double {
            let start = index
            while let byte = peek, (0x30 ... 0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { index += 1 }
            guard index > start, let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self)),
                  value.isFinite else { throw SyntaxError(offset: start, expected: "a number") }
            return value
        }

        /// Four hex digits of a `\u` escape.
        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0 ..< 4 {
                guard let byte = peek else { throw SyntaxError(offset: index, expected: "a hex digit") }
                let digit: UInt32
                switch byte {
                case 0x30 ... 0x39: digit = UInt32(byte - 0x30)
                case 0x41 ... 0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61 ... 0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw SyntaxError(offset: index, expected: "a hex digit")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
