import Foundation
import Workloads

/// The results CSV: one row per (strategy, workload, variant). Every column is documented here
/// and in the README; `schemaVersion` changes whenever a column is added, removed or redefined.
public enum ResultsCSV {
    public static let schemaVersion = 3

    /// Column names and their meaning, in file order.
    public static let columns: [(name: String, meaning: String)] = [
        ("schema_version", "version of this CSV layout (\(schemaVersion)); bench compare reads it and version 2 (the same without hierarchy and sweep columns)"),
        ("run_id", "unique id of the run: start time and a random suffix"),
        ("timestamp", "when the run started, ISO 8601 UTC"),
        ("git_commit", "commit of the suite that produced the row (unknown outside a git checkout)"),
        ("git_dirty", "true when tracked files differed from that commit"),
        ("sqlite_version", "version of the SQLite library linked"),
        ("sqlite_options", "SQLite's compile options, space-separated"),
        ("swift_version", "version of the Swift compiler that built the suite"),
        ("build", "release or debug (debug numbers are not meaningful)"),
        ("host", "host name of the machine"),
        ("os", "operating system"),
        ("kernel", "kernel name and release"),
        ("cpu_model", "processor model"),
        ("cpu_cores", "processors available to the run"),
        ("memory_bytes", "physical memory"),
        ("journal_mode", "journal mode of every store (wal)"),
        ("synchronous", "PRAGMA synchronous of every store (NORMAL)"),
        ("page_size", "page size of every store, bytes"),
        ("cache_size", "PRAGMA cache_size of every connection (negative: KiB)"),
        ("temp_dir", "folder the temporary stores were made in"),
        ("seed", "dataset seed (--seed)"),
        ("scale", "objects in the dataset (--scale; in a scale sweep, this point's)"),
        ("batch", "objects per transaction for insert-bulk and store population (--batch)"),
        ("time_budget_s", "--time-budget in seconds, empty when repetitions were fixed"),
        ("hierarchy", "the model measured: publications (the seeds' model), a preset (--preset) or a --hierarchy file's name"),
        ("sweep_parameter", "in a bench sweep, the parameter varied (scale, sub-entities, attributes, skew); else empty"),
        ("sweep_value", "in a bench sweep, that parameter's value for this row; else empty"),
        ("strategy", "storage strategy (raw: the single-table work done with direct SQLite C calls)"),
        ("workload", "workload name"),
        ("variant", "case of the workload (fetch-by-tag: popular or rare), else empty"),
        ("rows", "rows in the answer; objects inserted for insert workloads"),
        ("warmups", "untimed repetitions run before the timed ones"),
        ("iterations", "timed repetitions"),
        ("median_ns", "median duration of one repetition, nanoseconds (the headline figure)"),
        ("ci_low_ns", "lower end of the median's confidence interval (order statistics), nanoseconds"),
        ("ci_high_ns", "upper end of the median's confidence interval, nanoseconds"),
        ("ci_coverage", "coverage of that interval: 0.95 or more from 6 repetitions up; less with fewer"),
        ("min_ns", "fastest repetition, nanoseconds"),
        ("max_ns", "slowest repetition, nanoseconds"),
        ("mean_ns", "mean of the repetitions, nanoseconds"),
        ("stddev_ns", "sample standard deviation, nanoseconds"),
        ("p90_ns", "90th percentile, nanoseconds"),
        ("p99_ns", "99th percentile, nanoseconds"),
        ("mad_ns", "median absolute deviation from the median, nanoseconds"),
        ("outliers", "repetitions outside Tukey's fences (1.5 IQR beyond the quartiles)"),
        ("noisy", "true when the median's interval is wider than 5 % of the median"),
        ("rows_per_s", "rows / median duration"),
        ("db_bytes", "size of the store file after a WAL checkpoint, bytes"),
        ("digest", "answer digest: equal across strategies for the same workload, seed and scale"),
        ("samples_file", "the file beside this one holding every timed repetition"),
    ]

    public static var header: String { CSV.line(columns.map(\.name)) }

    public static func row(_ result: WorkloadResult, plan: RunPlan, context: RunContext, samplesFile: String = "") -> String {
        let statistics = Statistics(result.samples)
        let rowsPerSecond = statistics.median > 0 ? Double(result.rows) / (statistics.median / 1e9) : 0
        let run: [String] = [
            String(schemaVersion), context.runID, context.timestamp, context.gitCommit,
            context.gitDirty.map { String($0) } ?? "unknown", context.sqliteVersion, context.sqliteOptions,
            context.swiftVersion, context.build, context.host, context.os, context.kernel, context.cpuModel,
            String(context.cpuCores), String(context.memoryBytes), context.journalMode, context.synchronous,
            String(context.pageSize), String(context.cacheSize), context.temporaryFolder,
        ]
        let parameters: [String] = [
            String(plan.seed), String(result.setting.scale), String(plan.batchSize), plan.timeBudget.map { format($0) } ?? "",
            result.setting.hierarchy, result.setting.sweepParameter, result.setting.sweepValue,
        ]
        let what: [String] = [result.strategy, result.workload, result.variant, String(result.rows)]
        let timing: [String] = [
            String(result.warmups), String(statistics.count), format(statistics.median),
            format(statistics.medianInterval.lowerBound), format(statistics.medianInterval.upperBound),
            String(format: "%.4f", statistics.medianIntervalCoverage), format(statistics.min), format(statistics.max),
            format(statistics.mean), format(statistics.standardDeviation), format(statistics.p90), format(statistics.p99),
            format(statistics.medianAbsoluteDeviation), String(statistics.outliers), String(statistics.isNoisy),
            String(format: "%.1f", rowsPerSecond),
        ]
        let fields = run + parameters + what + timing + [String(result.dbBytes), result.digest.description, samplesFile]
        assert(fields.count == columns.count)
        return CSV.line(fields)
    }

    /// Whole numbers without a fraction; others with one decimal.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.1f", value)
    }
}

/// The samples file: every timed repetition, one per line (long format).
public enum SamplesCSV {
    public static let columns = ["run_id", "hierarchy", "sweep_value", "strategy", "workload", "variant", "repetition", "ns"]

    public static var header: String { CSV.line(columns) }

    public static func rows(_ result: WorkloadResult, runID: String) -> String {
        result.samples.enumerated().map { index, ns in
            CSV.line([runID, result.setting.hierarchy, result.setting.sweepValue, result.strategy, result.workload, result.variant,
                      String(index + 1), String(ns)])
        }.joined()
    }

    /// `results/x.csv` → `results/x.samples.csv`
    public static func url(besides results: URL) -> URL {
        results.deletingPathExtension().appendingPathExtension("samples.csv")
    }
}

/// Writes the results CSV and its samples file so that each file on disk is always complete:
/// every update writes a temporary file beside it and renames it into place, so an interrupted
/// run leaves the rows finished so far and never a half-written line.
public final class ResultsWriter {
    public let url: URL
    public let samplesURL: URL
    private let runID: String
    private var rows: [String] = []
    private var sampleRows: [String] = []

    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks up front that both files can be written, so that a long run does not fail at its end.
    /// - parameter force: replace existing files instead of refusing.
    public init(url: URL, runID: String, force: Bool) throws {
        self.url = url
        self.runID = runID
        samplesURL = SamplesCSV.url(besides: url)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        for file in [url, samplesURL] where manager.fileExists(atPath: file.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw Error(description: "the output path \(file.path) is a folder; give a file name such as \(file.appendingPathComponent("run.csv").path)")
            }
            if !force {
                throw Error(description: "\(file.path) already exists; choose another --output or pass --force to replace it")
            }
        }
        let folder = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Error(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        try OutputFolder.checkWritable(folder)
    }

    /// Adds the results of one case and publishes both files with everything so far.
    public func append(_ results: [WorkloadResult], plan: RunPlan, context: RunContext) throws {
        rows += results.map { ResultsCSV.row($0, plan: plan, context: context, samplesFile: samplesURL.lastPathComponent) }
        sampleRows += results.map { SamplesCSV.rows($0, runID: runID) }
        try publish(SamplesCSV.header + sampleRows.joined(), to: samplesURL)
        try publish(ResultsCSV.header + rows.joined(), to: url)
    }

    public var rowCount: Int { rows.count }

    private func publish(_ text: String, to destination: URL) throws {
        try AtomicFile.write(text, to: destination)
    }

    /// The default output: `results/<timestamp>.csv`, made unique with a suffix if that name (or
    /// its samples file) is taken.
    public static func defaultURL(stamp: String, folder: URL) -> URL {
        var candidate = folder.appendingPathComponent("\(stamp).csv")
        var suffix = 2
        func taken(_ url: URL) -> Bool {
            [url, SamplesCSV.url(besides: url)].contains { FileManager.default.fileExists(atPath: $0.path) }
        }
        while taken(candidate) {
            candidate = folder.appendingPathComponent("\(stamp)-\(suffix).csv")
            suffix += 1
        }
        return candidate
    }
}

/// Checks that files can really be created in a folder: permissions alone do not tell (root passes
/// every permission check, yet cannot create files in /proc or on a read-only file system).
public enum OutputFolder {
    public static func checkWritable(_ folder: URL) throws {
        let probe = folder.appendingPathComponent(".inheritance-bench-probe-\(getpid())").path
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ResultsWriter.Error(description: "the output folder \(folder.path) is not writable (\(reason)); choose another --output")
        }
        close(descriptor)
        unlink(probe)
    }
}

/// Writes a whole file at once: a temporary file beside it, then `rename(2)`, so readers see the
/// old file or the new one and never a part.
public enum AtomicFile {
    public static func write(_ text: String, to destination: URL) throws {
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(text.utf8).write(to: temporary)
            guard rename(temporary.path, destination.path) == 0 else {
                throw ResultsWriter.Error(description: String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ResultsWriter.Error(description: "could not write \(destination.path): \((error as? ResultsWriter.Error)?.description ?? error.localizedDescription)")
        }
    }
}
