import CSQLite
import Dispatch

/// Every statement one connection runs while the trace is on, as SQLite itself reports them
/// (`sqlite3_trace_v2`): its text as prepared, with `?` for each value; the rows it returned, its
/// first row's first column when it returns one column (a count's number), and its time; with
/// `values`, the values bound to it as it started. Nothing is recorded while no trace is on, so
/// timed code never carries its cost.
///
///     let trace = StatementTrace(on: database)
///     _ = try database.scalarInt("SELECT COUNT(*) FROM t")
///     let entries = trace.stop()   // [Entry(sql: "SELECT COUNT(*) FROM t", rows: 1, number: 3, …)]
///
/// See <https://www.sqlite.org/c3ref/trace_v2.html>.
public final class StatementTrace {
    /// A value bound to a statement's parameter, as it was bound.
    public enum Bound: Sendable, Equatable {
        case integer(Int64), real(Double), text(String), blob([UInt8]), null
    }

    public struct Entry: Sendable, Equatable {
        /// The statement as prepared (`sqlite3_sql`).
        public var sql: String
        /// The values bound to parameters 1, 2, … when it started (a trace of `values` only; a
        /// statement run by `Database.execute` has none).
        public var values: [Bound]?
        public var rows = 0
        /// The first row's first column as an integer, for a statement of one column.
        public var number: Int64?
        /// The time from the statement's first step to its end (or reset), by the monotonic
        /// clock (SQLite's own profile time counts whole milliseconds).
        public var nanoseconds: Int64 = 0

        public init(sql: String, rows: Int = 0, number: Int64? = nil, nanoseconds: Int64 = 0, values: [Bound]? = nil) {
            self.sql = sql; self.rows = rows; self.number = number; self.nanoseconds = nanoseconds; self.values = values
        }
    }

    private let database: Database
    private var entries: [Entry] = []
    /// The entry each running statement writes to, and when it started.
    private var running: [OpaquePointer: (index: Int, start: UInt64)] = [:]
    private var on = true

    /// Starts tracing `database` (replacing any trace it had); with `values`, each statement's
    /// bound values too.
    public init(on database: Database, values: Bool = false) {
        self.database = database
        database.bindings.on = values
        database.bindings.values = [:]
        let mask = UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_ROW | SQLITE_TRACE_PROFILE)
        sqlite3_trace_v2(database.handle, mask, { event, context, pointer, detail in
            guard let context, let pointer else { return 0 }
            Unmanaged<StatementTrace>.fromOpaque(context).takeUnretainedValue().note(event, OpaquePointer(pointer), detail)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { if on { end() } }

    private func end() {
        sqlite3_trace_v2(database.handle, 0, nil, nil)
        database.bindings.on = false
        database.bindings.values = [:]
    }

    /// Stops tracing and returns every statement recorded, in the order they started.
    public func stop() -> [Entry] {
        if on { end() }
        on = false
        return take()
    }

    /// The statements recorded since the last call, the trace still on (a statement still
    /// running keeps the time and rows it had).
    public func take() -> [Entry] {
        defer { entries.removeAll(); running.removeAll() }
        return entries
    }

    private func note(_ event: UInt32, _ statement: OpaquePointer, _ detail: UnsafeMutableRawPointer?) {
        switch Int32(event) {
        case SQLITE_TRACE_STMT:
            // A trigger's statements report as comments of the statement that fired them: not statements of their own.
            if let text = detail?.assumingMemoryBound(to: CChar.self), text[0] == 0x2D, text[1] == 0x2D { return }
            var entry = Entry(sql: sqlite3_sql(statement).map { String(cString: $0) } ?? "")
            if database.bindings.on { entry.values = database.bindings.values[statement] ?? [] }
            entries.append(entry)
            running[statement] = (entries.count - 1, DispatchTime.now().uptimeNanoseconds)
        case SQLITE_TRACE_ROW:
            guard let index = running[statement]?.index else { return }
            if entries[index].rows == 0, sqlite3_column_count(statement) == 1, sqlite3_column_type(statement, 0) == SQLITE_INTEGER {
                entries[index].number = sqlite3_column_int64(statement, 0)
            }
            entries[index].rows += 1
        case SQLITE_TRACE_PROFILE:
            guard let (index, start) = running.removeValue(forKey: statement) else { return }
            entries[index].nanoseconds = Int64(DispatchTime.now().uptimeNanoseconds - start)
        default: break
        }
    }
}

/// The values bound to each statement of a connection, kept while a trace asks for them
/// (`StatementTrace(on:values:)`); off, a bind costs one test of `on`.
final class BindingRecord {
    var on = false
    var values: [OpaquePointer: [StatementTrace.Bound]] = [:]

    func note(_ statement: OpaquePointer, _ index: Int32, _ value: StatementTrace.Bound) {
        let position = Int(index) - 1
        guard position >= 0 else { return }
        // Taken out and put back: the statement's array is not copied at each bind.
        var bound = values.removeValue(forKey: statement) ?? []
        if bound.count <= position { bound += Array(repeating: .null, count: position + 1 - bound.count) }
        bound[position] = value
        values[statement] = bound
    }
}
