import CSQLite

/// The work SQLite did for a piece of code, from its own counters rather than a clock: they do
/// not depend on the machine's speed or noise, so the same statements on the same data count the
/// same on any machine and in any run, and they say why a statement is slow (a full scan, a sort,
/// an automatic index, pages read).
///
/// Statement counters come from `sqlite3_stmt_status` of every statement run, connection counters
/// from `sqlite3_db_status`. See <https://www.sqlite.org/c3ref/c_stmtstatus_counter.html> and
/// <https://www.sqlite.org/c3ref/c_dbstatus_options.html>.
public struct WorkCounts: Equatable, Hashable, Sendable {
    /// Virtual-machine instructions run (`SQLITE_STMTSTATUS_VM_STEP`).
    public var vmSteps: Int64 = 0
    /// Steps forward in a full table scan (`SQLITE_STMTSTATUS_FULLSCAN_STEP`): rows a statement
    /// read without an index.
    public var fullScanSteps: Int64 = 0
    /// Sort operations (`SQLITE_STMTSTATUS_SORT`).
    public var sorts: Int64 = 0
    /// Rows put into automatic indexes SQLite built for a statement (`SQLITE_STMTSTATUS_AUTOINDEX`).
    public var autoIndexRows: Int64 = 0
    /// Statement runs (`SQLITE_STMTSTATUS_RUN`).
    public var runs: Int64 = 0
    /// Pages found in the page cache (`SQLITE_DBSTATUS_CACHE_HIT`).
    public var cacheHits: Int64 = 0
    /// Pages read from the file because the cache lacked them (`SQLITE_DBSTATUS_CACHE_MISS`).
    public var cacheMisses: Int64 = 0
    /// Pages written to the file (`SQLITE_DBSTATUS_CACHE_WRITE`).
    public var cacheWrites: Int64 = 0

    public init() {}

    public init(vmSteps: Int64, fullScanSteps: Int64, sorts: Int64, autoIndexRows: Int64, runs: Int64,
                cacheHits: Int64, cacheMisses: Int64, cacheWrites: Int64) {
        self.vmSteps = vmSteps; self.fullScanSteps = fullScanSteps; self.sorts = sorts; self.autoIndexRows = autoIndexRows
        self.runs = runs; self.cacheHits = cacheHits; self.cacheMisses = cacheMisses; self.cacheWrites = cacheWrites
    }

    public static func + (a: WorkCounts, b: WorkCounts) -> WorkCounts {
        WorkCounts(vmSteps: a.vmSteps + b.vmSteps, fullScanSteps: a.fullScanSteps + b.fullScanSteps, sorts: a.sorts + b.sorts,
                   autoIndexRows: a.autoIndexRows + b.autoIndexRows, runs: a.runs + b.runs, cacheHits: a.cacheHits + b.cacheHits,
                   cacheMisses: a.cacheMisses + b.cacheMisses, cacheWrites: a.cacheWrites + b.cacheWrites)
    }

    /// The counts of one of `executions` identical executions counted together, rounded to the
    /// nearest whole count.
    public func perExecution(of executions: Int) -> WorkCounts {
        guard executions > 1 else { return self }
        let n = Int64(executions)
        func each(_ total: Int64) -> Int64 { (total + n / 2) / n }
        return WorkCounts(vmSteps: each(vmSteps), fullScanSteps: each(fullScanSteps), sorts: each(sorts), autoIndexRows: each(autoIndexRows),
                          runs: each(runs), cacheHits: each(cacheHits), cacheMisses: each(cacheMisses), cacheWrites: each(cacheWrites))
    }

    /// Adds a statement's counters since they were last read, and sets them back to zero.
    mutating func take(from statement: OpaquePointer) {
        func take(_ counter: Int32) -> Int64 { Int64(sqlite3_stmt_status(statement, counter, 1)) }
        vmSteps += take(SQLITE_STMTSTATUS_VM_STEP)
        fullScanSteps += take(SQLITE_STMTSTATUS_FULLSCAN_STEP)
        sorts += take(SQLITE_STMTSTATUS_SORT)
        autoIndexRows += take(SQLITE_STMTSTATUS_AUTOINDEX)
        runs += take(SQLITE_STMTSTATUS_RUN)
    }
}

/// The work counted on one connection between `startCountingWork` and `stopCountingWork`, shared
/// with its statements so that one finalized meanwhile adds its counters before they are lost.
final class WorkLedger {
    var counting = false
    var work = WorkCounts()
}

extension Database {
    /// Starts counting the work SQLite does on this connection: zeroes the counters of every
    /// statement open now and the connection's page-cache counters; from now on a statement that
    /// is finalized adds its counters. SQLite keeps these counters whatever the caller does, so
    /// counting costs nothing between `startCountingWork` and `stopCountingWork`, which may time
    /// what runs between them. Statements run through `execute` (`sqlite3_exec`: DDL, pragmas,
    /// BEGIN and COMMIT) are not counted; every statement prepared here is.
    public func startCountingWork() {
        var discarded = WorkCounts()
        forEachOpenStatement { discarded.take(from: $0) }
        _ = connectionCounters(reset: true)
        ledger.work = WorkCounts()
        ledger.counting = true
    }

    /// The work since `startCountingWork`: every statement's counters (those open now and those
    /// finalized meanwhile) and the connection's page-cache counters. Counting stops.
    public func stopCountingWork() -> WorkCounts {
        forEachOpenStatement { ledger.work.take(from: $0) }
        let pages = connectionCounters(reset: true)
        ledger.work.cacheHits = pages.hits
        ledger.work.cacheMisses = pages.misses
        ledger.work.cacheWrites = pages.writes
        ledger.counting = false
        return ledger.work
    }

    /// Runs `body` between `startCountingWork` and `stopCountingWork`.
    public func countingWork<T>(_ body: () throws -> T) rethrows -> (result: T, work: WorkCounts) {
        startCountingWork()
        do {
            let result = try body()
            return (result, stopCountingWork())
        } catch {
            _ = stopCountingWork()
            throw error
        }
    }

    private func forEachOpenStatement(_ body: (OpaquePointer) -> Void) {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            body(current)
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    private func connectionCounters(reset: Bool) -> (hits: Int64, misses: Int64, writes: Int64) {
        func read(_ counter: Int32) -> Int64 {
            var current: Int32 = 0, highest: Int32 = 0
            sqlite3_db_status(handle, counter, &current, &highest, reset ? 1 : 0)
            return Int64(current)
        }
        return (read(SQLITE_DBSTATUS_CACHE_HIT), read(SQLITE_DBSTATUS_CACHE_MISS), read(SQLITE_DBSTATUS_CACHE_WRITE))
    }

    /// The most memory SQLite held at once in this process since the last reset
    /// (`SQLITE_STATUS_MEMORY_USED`'s high-water mark), in bytes; `reset` starts a new mark.
    /// See <https://www.sqlite.org/c3ref/status.html>.
    public static func memoryHighWater(reset: Bool = false) -> Int64 {
        var current: sqlite3_int64 = 0, highest: sqlite3_int64 = 0
        sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, reset ? 1 : 0)
        return Int64(highest)
    }
}
