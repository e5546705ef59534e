import Dataset
import Foundation
import SQLite

/// One way of storing the publication hierarchy in SQLite.
///
/// A strategy owns its layout (DDL) and its queries, one file each; the workloads call only
/// this protocol. Adding a strategy means one new file plus one line in `Strategies.all`.
public protocol StorageStrategy: AnyObject {
    /// What a fetch hands back: a class hierarchy instance, or an enum-typed value.
    associatedtype Object: Digestible

    /// The name used on the command line and in the CSV (`single-table`, …).
    static var name: String { get }
    /// One line for `bench list`.
    static var summary: String { get }

    /// Wraps a connection to this strategy's store (empty, or populated earlier).
    init(database: Database)

    var database: Database { get }

    /// Creates tables, indexes and bookkeeping rows in an empty store, then inserts the tags.
    func createSchema(tags: [TagRecord]) throws

    /// Inserts publications and their tag links as one save (one transaction).
    func insert(_ publications: [GeneratedPublication]) throws

    /// Every publication, newest first (`publishDate` descending, then `uid` descending), each as its concrete type.
    func fetchAll() throws -> [Object]
    /// The newest `limit` publications of all types, in the same order as `fetchAll`.
    func fetchNewest(limit: Int) throws -> [Object]
    /// Publications `offset ..< offset + limit` in `fetchAll`'s order, skipped with `OFFSET`.
    func fetchPage(offset: Int, limit: Int) throws -> [Object]
    /// The `limit` publications that follow `cursor` in `fetchAll`'s order (keyset pagination).
    func fetchPage(after cursor: PageCursor, limit: Int) throws -> [Object]
    /// Every Book, in no promised order.
    func fetchBooks() throws -> [Object]
    /// Every publication carrying the tag named `name`, in no promised order.
    func fetchPublications(taggedWith name: String) throws -> [Object]
    func countAll() throws -> Int
    func countBooks() throws -> Int
    /// One count per concrete entity, in `EntityKind.allCases` order.
    func countByType() throws -> [Int]
    /// Rows in the publication–tag join table(s), summed over all of them when there are several:
    /// one row per (publication, tag) link. Checked against `DatasetGenerator.Census.tagLinks`.
    func countTagLinks() throws -> Int
    /// Books with `range.lowerBound <= publishDate < range.upperBound`, in no promised order.
    func books(publishedIn range: Range<Date>) throws -> [Object]
    /// The Book with this isbn, if any.
    func book(isbn: String) throws -> Object?
    /// Every publication, of any type, whose title starts with `prefix`, in no promised order:
    /// the rows with `prefix.lower <= title < prefix.upper`, read from an index on the title.
    func publications(titlePrefix prefix: TitlePrefix) throws -> [Object]

    // MARK: Writes to stored publications (one save, one transaction, each)

    /// Sets `updatedate` on the publications with these uids and bumps each one's `Z_OPT` by one
    /// (Core Data's optimistic-locking version). Returns the publications changed; a uid that is
    /// not stored changes nothing.
    func touch(uids: [UUID], updatedate: Date) throws -> Int
    /// Deletes the publications with these uids and their tag links. `Publication.tags` has the
    /// delete rule nullify: the links go, the tags stay. Returns the publications deleted.
    func delete(uids: [UUID]) throws -> Int
    /// Every publication whose `updatedate` is exactly `updatedate`, with its `Z_OPT`, in no
    /// promised order: the untimed read-back after `touch`. It reads the whole table (no index
    /// on updatedate), so that a row changed by mistake is found too.
    func versions(updatedAt updatedate: Date) throws -> [RowVersion]
    /// Rows in the Tag table (`ZTAG`, in every layout).
    func countTags() throws -> Int

    /// Every statement the workloads run, with sample values bound, for `EXPLAIN QUERY PLAN` checks.
    func workloadQueries(_ sample: QuerySample) -> [WorkloadQuery]
}

extension StorageStrategy {
    /// Every layout names the Tag entity's table `ZTAG` (Core Data's rule; `joined` keeps it).
    public func countTags() throws -> Int { try database.count("SELECT COUNT(*) FROM ZTAG") }
}

/// A title prefix as the half-open range of titles that start with it, in SQLite's BINARY order
/// (byte order of UTF-8, which is the order of Unicode scalars): `lower` is the prefix, `upper`
/// the prefix with its last scalar replaced by the next one (trailing U+10FFFF dropped first).
/// `title >= lower AND title < upper` holds exactly for the titles that start with the prefix,
/// and an index on the title serves it as one range.
public struct TitlePrefix: Sendable, Equatable {
    public let prefix: String
    public var lower: String { prefix }
    public let upper: String

    /// `nil` for a prefix with no upper bound: empty, or made only of U+10FFFF.
    public init?(_ prefix: String) {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.last, last.value == 0x10FFFF { scalars.removeLast() }
        guard let last = scalars.popLast() else { return nil }
        // The next scalar after `last`, skipping the surrogate range (not scalars).
        let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
        scalars.append(Unicode.Scalar(next)!)
        self.prefix = prefix
        var upper = String.UnicodeScalarView()
        upper.append(contentsOf: scalars)
        self.upper = String(upper)
    }

    /// Whether `title` starts with the prefix, byte for byte (what the SQL range selects).
    public func matches(_ title: String) -> Bool { title.utf8.starts(with: prefix.utf8) }

    /// The values the range query binds: `?1` lower, `?2` upper.
    var values: [(any SQLiteBindable)?] { [lower, upper] }
}

/// A publication's version after a write: its uid and `Z_OPT`.
public struct RowVersion: Sendable, Equatable {
    public var uid: UUID
    public var opt: Int64
    public init(uid: UUID, opt: Int64) { self.uid = uid; self.opt = opt }

    /// Reads `uid, Z_OPT` (columns 0 and 1).
    static func read(_ row: Statement) -> RowVersion {
        RowVersion(uid: row.uuid(at: 0) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), opt: row.int64(at: 1))
    }
}

/// A position in `fetchAll`'s order (publishDate descending, uid descending): the last row of a page.
public struct PageCursor: Sendable, Equatable {
    public var publishDate: Date
    public var uid: UUID
    public init(publishDate: Date, uid: UUID) { self.publishDate = publishDate; self.uid = uid }

    /// The values a keyset query binds: `?1` the date, `?2` the uid, `?3` the page size.
    func values(limit: Int) -> [(any SQLiteBindable)?] { [publishDate.timeIntervalSinceReferenceDate, uid, limit] }
}

/// Sample values for the workloads' statements, for `EXPLAIN QUERY PLAN`.
public struct QuerySample: Sendable {
    public var isbn: String
    public var tagName: String
    public var window: Range<Date>
    public var cursor: PageCursor
    /// The `OFFSET` of a deep page.
    public var offset: Int
    public var titlePrefix: TitlePrefix
    /// A publication's uid, for the statements that update or delete by uid.
    public var uid: UUID
    public init(isbn: String, tagName: String, window: Range<Date>, cursor: PageCursor? = nil, offset: Int = 50,
                titlePrefix: TitlePrefix = TitlePrefix("A")!, uid: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))) {
        self.isbn = isbn; self.tagName = tagName; self.window = window
        self.cursor = cursor ?? PageCursor(publishDate: window.upperBound, uid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        self.offset = offset; self.titlePrefix = titlePrefix; self.uid = uid
    }

    /// A date to bind where a statement sets `updatedate`.
    public var updatedate: Double { window.upperBound.timeIntervalSinceReferenceDate }
}

/// A statement a workload runs, as SQL plus bound values. A workload that runs several
/// statements (one count per type, a delete and its links) lists each one.
public struct WorkloadQuery {
    public var workload: String
    public var sql: String
    public var values: [(any SQLiteBindable)?]
    public init(workload: String, sql: String, values: [(any SQLiteBindable)?]) {
        self.workload = workload; self.sql = sql; self.values = values
    }
}

/// Opens (creating if needed) a store file with the settings every strategy shares:
/// WAL journal mode (Core Data's default since iOS 7 / OS X 10.9) and `synchronous = NORMAL`.
public enum StoreFile {
    public static let journalMode = "wal"
    public static let synchronous = "NORMAL"

    /// The environment variable read by `maximumPageCount`.
    public static let maximumPageCountVariable = "INHERITANCE_BENCH_MAX_PAGE_COUNT"

    /// **A testing aid**, not a benchmark setting: when the environment variable
    /// `INHERITANCE_BENCH_MAX_PAGE_COUNT` holds a positive integer *N*, every store `open` opens
    /// runs `PRAGMA max_page_count = N`, so a store cannot grow past *N* pages (4 KiB each) and
    /// a write that needs more fails with `SQLITE_FULL` (error 13), exactly as on a full disk.
    /// Tests set it in a child process's environment to check how `bench` handles a full disk;
    /// any other value (unset, empty, zero, negative, not a number) leaves stores unlimited.
    /// See <https://www.sqlite.org/pragma.html#pragma_max_page_count>.
    public static var maximumPageCount: Int? {
        guard let text = ProcessInfo.processInfo.environment[maximumPageCountVariable],
              let count = Int(text.trimmingCharacters(in: .whitespaces)), count > 0 else { return nil }
        return count
    }

    /// Opens the store at `path` with the shared settings (and the `maximumPageCount` test limit, if set).
    public static func open(_ path: String) throws -> Database {
        let database = try Database(path: path)
        try database.execute("PRAGMA journal_mode = \(journalMode); PRAGMA synchronous = \(synchronous)")
        if let limit = maximumPageCount {
            // `limit` is a validated Int, so interpolating it cannot change the statement.
            try database.execute("PRAGMA max_page_count = \(limit)")
        }
        return database
    }

    /// Moves everything from the WAL into the main file, so that the file size is the store's size.
    public static func checkpoint(_ database: Database) throws {
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// Reads the shared publication columns in the order `uid, title, publishDate, createdate, updatedate`
/// starting at column `first`.
extension Statement {
    func sharedFields(from first: Int32) -> (UUID, String, Date, Date, Date) {
        (
            uuid(at: first) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            string(at: first + 1),
            Date(timeIntervalSinceReferenceDate: double(at: first + 2)),
            Date(timeIntervalSinceReferenceDate: double(at: first + 3)),
            Date(timeIntervalSinceReferenceDate: double(at: first + 4))
        )
    }

    /// Binds `uid, title, publishDate, createdate, updatedate` at parameters `first …`.
    func bindShared(_ item: PublicationItem, from first: Int32) throws {
        try bind(item.uid, at: first)
        try bind(item.title, at: first + 1)
        try bind(item.publishDate.timeIntervalSinceReferenceDate, at: first + 2)
        try bind(item.createdate.timeIntervalSinceReferenceDate, at: first + 3)
        try bind(item.updatedate.timeIntervalSinceReferenceDate, at: first + 4)
    }

}

extension Database {
    /// Runs the cached statement for `sql` with `values` bound and decodes every row with `row`.
    /// An error from `row` (a corrupt row) ends the fetch; the statement is reset either way.
    func fetch<T>(_ sql: String, _ values: [(any SQLiteBindable)?] = [], row: (Statement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var result: [T] = []
        while try statement.step() { result.append(try row(statement)) }
        return result
    }

    /// Runs a cached write statement (UPDATE, DELETE) with `values` bound; returns the rows it changed.
    func write(_ sql: String, _ values: [(any SQLiteBindable)?]) throws -> Int {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        try statement.run()
        return changes
    }

    /// One save that sets `updatedate` and bumps `Z_OPT` for every uid: each uid goes through
    /// `statements` in turn (`?1` the date, `?2` the uid) until one changes a row — one statement
    /// for a one-table layout, one per table for table-per-entity. Returns the rows changed.
    func touch(_ statements: [String], uids: [UUID], updatedate: Date) throws -> Int {
        try transaction {
            var changed = 0
            for uid in uids {
                for sql in statements {
                    let rows = try write(sql, [updatedate.timeIntervalSinceReferenceDate, uid])
                    changed += rows
                    if rows > 0 { break }
                }
            }
            return changed
        }
    }

    /// One save that deletes every uid and its tag links: each uid goes through `statements` in turn
    /// (a `DELETE … WHERE ZUID = ? RETURNING Z_PK`, and the links' `DELETE` bound to each key
    /// returned) until one deletes a row. Returns the objects deleted.
    func delete(_ statements: [(object: String, links: String)], uids: [UUID]) throws -> Int {
        try transaction {
            var deleted = 0
            for uid in uids {
                for (object, links) in statements {
                    let keys = try fetch(object, [uid], row: { $0.int64(at: 0) })
                    for pk in keys { _ = try write(links, [pk]) }
                    deleted += keys.count
                    if !keys.isEmpty { break }
                }
            }
            return deleted
        }
    }

    /// Runs a `SELECT COUNT(…)` with `values` bound.
    func count(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> Int {
        Int(try scalarInt(sql, values) ?? 0)
    }
}
