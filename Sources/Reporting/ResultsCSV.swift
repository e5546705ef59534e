import Foundation
import Workloads

/// The results CSV: one row per (strategy, workload, variant). Every column is documented here
/// and in the README; `schemaVersion` changes whenever a column is added, removed or redefined.
public enum ResultsCSV {
    public static let schemaVersion = 1

    /// Column names and their meaning, in file order.
    public static let columns: [(name: String, meaning: String)] = [
        ("schema_version", "version of this CSV layout (\(schemaVersion))"),
        ("run_id", "unique id of the run: start time and a random suffix"),
        ("timestamp", "when the run started, ISO 8601 UTC"),
        ("git_commit", "commit of the suite that produced the row (unknown outside a git checkout)"),
        ("git_dirty", "true when tracked files differed from that commit"),
        ("sqlite_version", "version of the SQLite library linked"),
        ("swift_version", "version of the Swift compiler that built the suite"),
        ("build", "release or debug (debug numbers are not meaningful)"),
        ("host", "host name of the machine"),
        ("seed", "dataset seed (--seed)"),
        ("scale", "publications in the dataset (--scale)"),
        ("batch", "objects per transaction for insert-bulk and store population (--batch)"),
        ("strategy", "storage strategy"),
        ("workload", "workload name"),
        ("variant", "case of the workload (fetch-by-tag: popular or rare), else empty"),
        ("rows", "rows in the answer; objects inserted for insert workloads"),
        ("warmups", "untimed repetitions run before the timed ones"),
        ("iterations", "timed repetitions"),
        ("median_ns", "median duration of one repetition, nanoseconds (the headline figure)"),
        ("min_ns", "fastest repetition, nanoseconds"),
        ("max_ns", "slowest repetition, nanoseconds"),
        ("mean_ns", "mean of the repetitions, nanoseconds"),
        ("rows_per_s", "rows / median duration"),
        ("db_bytes", "size of the store file after a WAL checkpoint, bytes"),
        ("digest", "answer digest: equal across strategies for the same workload, seed and scale"),
    ]

    public static var header: String { CSV.line(columns.map(\.name)) }

    public static func row(_ result: WorkloadResult, plan: RunPlan, context: RunContext) -> String {
        let statistics = Statistics(result.samples)
        let rowsPerSecond = statistics.median > 0 ? Double(result.rows) / (statistics.median / 1e9) : 0
        let run: [String] = [
            String(schemaVersion), context.runID, context.timestamp, context.gitCommit,
            context.gitDirty.map { String($0) } ?? "unknown", context.sqliteVersion, context.swiftVersion, context.build,
            context.host, String(plan.dataset.seed), String(plan.dataset.scale), String(plan.batchSize),
        ]
        let what: [String] = [result.strategy, result.workload.rawValue, result.variant, String(result.rows)]
        let timing: [String] = [
            String(result.warmups), String(statistics.count), format(statistics.median), format(statistics.min),
            format(statistics.max), format(statistics.mean), String(format: "%.1f", rowsPerSecond),
        ]
        let fields = run + what + timing + [String(result.dbBytes), result.digest.description]
        assert(fields.count == columns.count)
        return CSV.line(fields)
    }

    /// Nanosecond figures as integers when whole (medians of even counts may end in .5).
    static func format(_ nanoseconds: Double) -> String {
        nanoseconds == nanoseconds.rounded() ? String(Int64(nanoseconds)) : String(format: "%.1f", nanoseconds)
    }
}

/// Writes the results CSV so that the file on disk is always complete: every update writes a
/// temporary file beside it and renames it into place, so an interrupted run leaves the rows
/// finished so far and never a half-written line.
public final class ResultsWriter {
    public let url: URL
    private var rows: [String] = []

    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks up front that `url` can be written, so that a long run does not fail at its end.
    /// - parameter force: replace an existing file instead of refusing.
    public init(url: URL, force: Bool) throws {
        self.url = url
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw Error(description: "the output path \(url.path) is a folder; give a file name such as \(url.appendingPathComponent("run.csv").path)")
            }
            if !force {
                throw Error(description: "\(url.path) already exists; choose another --output or pass --force to replace it")
            }
        }
        let folder = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Error(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        guard manager.isWritableFile(atPath: folder.path) else {
            throw Error(description: "the output folder \(folder.path) is not writable; choose another --output")
        }
    }

    private var temporaryURL: URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    }

    /// Adds one row and publishes the file with every row so far.
    public func append(_ row: String) throws {
        rows.append(row)
        let text = ResultsCSV.header + rows.joined()
        do {
            try Data(text.utf8).write(to: temporaryURL)
            // rename(2) replaces the old file atomically: readers see the old rows or the new ones.
            guard rename(temporaryURL.path, url.path) == 0 else {
                throw Error(description: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporaryURL)
            throw Error(description: "could not write \(url.path): \(error.localizedDescription)")
        }
    }

    public var rowCount: Int { rows.count }

    /// The default output: `results/<timestamp>.csv`, made unique with a suffix if that name is taken.
    public static func defaultURL(stamp: String, folder: URL) -> URL {
        var candidate = folder.appendingPathComponent("\(stamp).csv")
        var suffix = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(stamp)-\(suffix).csv")
            suffix += 1
        }
        return candidate
    }
}
