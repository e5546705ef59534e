import CSQLite

/// A raw connection handle (`sqlite3 *`).
public typealias SQLiteConnection = OpaquePointer

/// One SQLite connection. It owns its handle, closes it in `deinit`, and keeps a cache of
/// prepared statements keyed by their SQL.
///
///     let db = try Database(path: "/tmp/store.sqlite")
///     try db.execute("CREATE TABLE t (a INTEGER)")
///     let insert = try db.cachedStatement("INSERT INTO t (a) VALUES (?)")
///     try insert.bind(1, at: 1); try insert.run()
///
/// See <https://www.sqlite.org/c3ref/open.html>.
public final class Database {
    public let handle: SQLiteConnection
    /// The file this connection opened (`:memory:` for an in-memory database).
    public let path: String
    private var statementCache: [String: Statement] = [:]
    /// The work being counted (`startCountingWork`), shared with every statement prepared here.
    let ledger = WorkLedger()
    let bindings = BindingRecord()

    /// Opens (and by default creates) the database at `path`; with `uri`, `path` is a `file:` URI
    /// (`file:/a/store.sqlite?mode=ro&immutable=1`, see <https://www.sqlite.org/uri.html>).
    /// - throws: `SQLiteError` when the file cannot be opened; the half-opened handle is closed first.
    public init(path: String, readOnly: Bool = false, uri: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0)
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw SQLiteError(code: error.extendedCode, message: "\(error.message) (opening \(path))")
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
        self.path = path
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The SQLite library version, e.g. "3.40.1". See <https://www.sqlite.org/c3ref/libversion.html>.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// The options SQLite was compiled with. See <https://www.sqlite.org/c3ref/compileoption_get.html>.
    public static var compileOptions: [String] {
        var options: [String] = []
        var index: Int32 = 0
        while let option = sqlite3_compileoption_get(index) {
            options.append(String(cString: option))
            index += 1
        }
        return options
    }

    /// Whether this SQLite has the R-tree module (`CREATE VIRTUAL TABLE … USING RTREE`, which
    /// Core Data's R-tree indexes need): tried once on a database in memory.
    public static let hasRTreeModule: Bool = {
        guard let database = try? Database(path: ":memory:") else { return false }
        return (try? database.execute("CREATE VIRTUAL TABLE probe USING RTREE (id, low, high)")) != nil
    }()

    /// Runs SQL that takes no parameters (one or several statements: DDL, pragmas, BEGIN/COMMIT).
    /// Values never go through here: bind them with `prepare` or `cachedStatement`.
    /// See <https://www.sqlite.org/c3ref/exec.html>.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) }
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Prepares a new statement that the caller owns.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Returns the cached statement for `sql`, preparing it on first use. It comes back reset.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs a query with bound values and returns column 0 of its first row as an integer.
    public func scalarInt(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> Int64? {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        return try statement.scalarInt()
    }

    /// Runs a query with bound values and returns every row's column 0 as text.
    public func strings(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> [String] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var result: [String] = []
        while try statement.step() { result.append(statement.string(at: 0)) }
        return result
    }

    /// Reads a pragma's value as text (`journal_mode`, `page_size`, …).
    public func pragma(_ name: String) throws -> String? {
        precondition(name.allSatisfy { $0.isLetter || $0 == "_" }, "pragma names are identifiers")
        return try strings("PRAGMA \(name)").first
    }

    /// The detail lines of `EXPLAIN QUERY PLAN` for `sql` with `values` bound.
    /// See <https://www.sqlite.org/eqp.html>.
    public func queryPlan(_ sql: String, _ values: [(any SQLiteBindable)?] = []) throws -> [String] {
        let statement = try prepare("EXPLAIN QUERY PLAN " + sql)
        try statement.bind(values)
        var details: [String] = []
        while try statement.step() { details.append(statement.string(at: 3)) }
        return details
    }

    /// The rowid of the last inserted row. See <https://www.sqlite.org/c3ref/last_insert_rowid.html>.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement. See <https://www.sqlite.org/c3ref/changes.html>.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether the connection is outside any explicit transaction.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}
