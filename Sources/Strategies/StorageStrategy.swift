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

    /// The SQL that serves each lookup, with sample values bound, for `EXPLAIN QUERY PLAN` checks.
    func lookupQueries(_ sample: LookupSample) -> [LookupQuery]
}

/// A position in `fetchAll`'s order (publishDate descending, uid descending): the last row of a page.
public struct PageCursor: Sendable, Equatable {
    public var publishDate: Date
    public var uid: UUID
    public init(publishDate: Date, uid: UUID) { self.publishDate = publishDate; self.uid = uid }

    /// The values a keyset query binds: `?1` the date, `?2` the uid, `?3` the page size.
    func values(limit: Int) -> [(any SQLiteBindable)?] { [publishDate.timeIntervalSinceReferenceDate, uid, limit] }
}

/// Sample values for the queries whose plans must use an index.
public struct LookupSample: Sendable {
    public var isbn: String
    public var tagName: String
    public var window: Range<Date>
    public var cursor: PageCursor
    public init(isbn: String, tagName: String, window: Range<Date>, cursor: PageCursor? = nil) {
        self.isbn = isbn; self.tagName = tagName; self.window = window
        self.cursor = cursor ?? PageCursor(publishDate: window.upperBound, uid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    }
}

/// A query a lookup workload runs, as SQL plus bound values.
public struct LookupQuery {
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

    /// Runs a `SELECT COUNT(…)` with `values` bound.
    func count(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> Int {
        Int(try scalarInt(sql, values) ?? 0)
    }
}
