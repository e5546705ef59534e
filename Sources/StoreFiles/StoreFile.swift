import Foundation
import SQLite

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

    /// The files SQLite keeps beside a store at `path`: the write-ahead log, its index, and a
    /// rollback journal (before WAL mode is set).
    public static func companions(of path: String) -> [String] { ["-wal", "-shm", "-journal"].map { path + $0 } }

    /// Removes the store at `path` and its companion files, whichever exist.
    public static func remove(_ path: String) {
        for file in [path] + companions(of: path) { unlink(file) }
    }

    /// Moves everything from the WAL into the main file, so that the file size is the store's size.
    public static func checkpoint(_ database: Database) throws {
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
