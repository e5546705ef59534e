import CSQLite
import Foundation

/// A raw prepared-statement handle (`sqlite3_stmt *`).
public typealias SQLiteStatementHandle = OpaquePointer

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the bind call returns.
@usableFromInline
var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

/// A prepared statement. It owns its handle and finalizes it in `deinit`.
///
///     let statement = try db.prepare("SELECT ZTITLE FROM ZPUBLICATION WHERE Z_PK = ?")
///     try statement.bind(42, at: 1)
///     while try statement.step() { print(statement.string(at: 0)) }
///
/// Parameters are 1-based (as in `sqlite3_bind_*`), result columns 0-based (as in `sqlite3_column_*`).
/// See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
    public let handle: SQLiteStatementHandle
    /// The SQL text this statement was prepared from.
    public let sql: String
    unowned let database: Database
    /// The connection's work ledger: a statement finalized while work is counted adds its counters.
    private let ledger: WorkLedger
    /// The connection's record of bound values, kept only while a trace asks for them.
    private let bindings: BindingRecord

    init(database: Database, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw SQLiteError(connection: database.handle, code: code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.database = database
        ledger = database.ledger
        bindings = database.bindings
    }

    deinit {
        if ledger.counting { ledger.work.take(from: handle) }
        if bindings.on { bindings.values[handle] = nil }
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    /// Binds an integer. See <https://www.sqlite.org/c3ref/bind_blob.html>.
    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
        if bindings.on { bindings.note(handle, index, .integer(value)) }
    }

    public func bind(_ value: Int, at index: Int32) throws { try bind(Int64(value), at: index) }

    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
        if bindings.on { bindings.note(handle, index, .real(value)) }
    }

    /// Binds text as its exact UTF-8 bytes, embedded NULs included.
    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { bytes -> Int32 in
            guard !bytes.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
            return bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient)
            }
        }
        try check(code)
        if bindings.on { bindings.note(handle, index, .text(value)) }
    }

    /// Binds a blob (an empty buffer binds a zero-length blob, not NULL).
    public func bind(bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        if let base = bytes.baseAddress, !bytes.isEmpty {
            try check(sqlite3_bind_blob(handle, index, base, Int32(bytes.count), sqliteTransient))
        } else {
            try check(sqlite3_bind_zeroblob(handle, index, 0))
        }
        if bindings.on { bindings.note(handle, index, .blob(Array(bytes))) }
    }

    /// Binds a UUID as its 16 bytes (Core Data's storage for UUID attributes).
    public func bind(_ value: UUID, at index: Int32) throws {
        try withUnsafeBytes(of: value.uuid) { try bind(bytes: $0, at: index) }
    }

    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
        if bindings.on { bindings.note(handle, index, .null) }
    }

    /// Binds any `SQLiteBindable` value, or NULL for `nil`.
    public func bind(_ value: (any SQLiteBindable)?, at index: Int32) throws {
        if let value { try value.bind(to: self, at: index) } else { try bindNull(at: index) }
    }

    /// Binds values to parameters 1, 2, 3, …
    public func bind(_ values: [(any SQLiteBindable)?]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    // MARK: Running

    /// Advances one step: `true` when a row is available, `false` when the statement is done.
    /// See <https://www.sqlite.org/c3ref/step.html>.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: database.handle, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets the statement so it can run again; bindings are kept. See <https://www.sqlite.org/c3ref/reset.html>.
    public func reset() {
        // sqlite3_reset repeats the last step's error, which `step` has already thrown.
        sqlite3_reset(handle)
    }

    /// Runs the statement to completion (for statements that return no rows), then resets it.
    public func run() throws {
        defer { reset() }
        while try step() {}
    }

    /// Runs a single-value query and returns column 0 of its first row as an integer.
    public func scalarInt() throws -> Int64? {
        defer { reset() }
        guard try step(), !isNull(at: 0) else { return nil }
        return int64(at: 0)
    }

    // MARK: Reading columns

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(at index: Int32) -> String { String(cString: sqlite3_column_name(handle, index)) }

    public func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// SQLite's storage class of a value: what a column of the current row holds, whatever its declared type.
    public enum StorageClass: Sendable, Equatable { case integer, real, text, blob, null }

    public func storageClass(at index: Int32) -> StorageClass {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// Whether the column's text is valid UTF-8 byte for byte (`string(at:)` repairs what is not).
    public func holdsValidText(at index: Int32) -> Bool {
        guard let text = sqlite3_column_text(handle, index) else { return true }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(validating: UnsafeBufferPointer(start: text, count: count), as: UTF8.self) != nil
    }

    public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    public func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The column as text, byte for byte (NULL reads as "").
    public func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    public func optionalString(at index: Int32) -> String? {
        isNull(at: index) ? nil : string(at: index)
    }

    public func bytes(at index: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// Reads a 16-byte blob as a UUID; `nil` for NULL or any other size.
    public func uuid(at index: Int32) -> UUID? {
        guard let blob = sqlite3_column_blob(handle, index), sqlite3_column_bytes(handle, index) == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16)) }
        return UUID(uuid: value)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw SQLiteError(connection: database.handle, code: code, sql: sql) }
    }
}

/// A value that can be bound to a statement parameter.
public protocol SQLiteBindable {
    func bind(to statement: Statement, at index: Int32) throws
}

extension Int: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(Int64(self), at: index) }
}
extension Int64: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}
extension Int32: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(Int64(self), at: index) }
}
extension Int16: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(Int64(self), at: index) }
}
extension Double: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}
extension String: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}
extension UUID: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
}
extension Array: SQLiteBindable where Element == UInt8 {
    public func bind(to statement: Statement, at index: Int32) throws {
        try withUnsafeBytes { try statement.bind(bytes: $0, at: index) }
    }
}
