import CSQLite

/// The one error the wrapper throws: SQLite's result code, its message, and the SQL being run.
///
///     do { try db.execute("INSERT INTO t VALUES (1)") }
///     catch let error as SQLiteError { print(error) }
///     // SQLite error 19 (constraint failed): UNIQUE constraint failed: t.a - while executing `INSERT INTO t VALUES (1)`
///
/// See <https://www.sqlite.org/rescode.html>.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT` is 19, `SQLITE_FULL` is 13, …).
    public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code, e.g. 2067 for `SQLITE_CONSTRAINT_UNIQUE`.
    public let extendedCode: Int32
    /// SQLite's own message, from `sqlite3_errmsg` where a connection was available.
    public let message: String
    /// The SQL whose preparation or execution failed, when there was one.
    public let sql: String?

    public init(code: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedCode = code
        self.message = message ?? String(cString: sqlite3_errstr(code))
        self.sql = sql
    }

    /// Builds the error from a connection's current state (`sqlite3_extended_errcode`, `sqlite3_errmsg`).
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        if let connection {
            let extended = sqlite3_extended_errcode(connection)
            // The connection's code can be stale when the failing call did not set it; trust `code` then.
            let chosen = (extended & 0xFF) == (code & 0xFF) ? extended : code
            self.init(code: chosen, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        } else {
            self.init(code: code, sql: sql)
        }
    }

    /// Whether the write needed a page the disk (or `PRAGMA max_page_count`) could not give:
    /// `SQLITE_FULL`.
    public var isFull: Bool { code == SQLITE_FULL }

    public var description: String {
        let name = String(cString: sqlite3_errstr(code))
        var text = "SQLite error \(code) (\(name)): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
