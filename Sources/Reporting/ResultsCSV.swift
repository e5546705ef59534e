import Foundation
import Strategies
import Workloads

/// The results CSV: one row per (strategy, workload, variant). Every column is documented here
/// and in docs/files.md; `schemaVersion` changes whenever a column is added, removed or redefined.
public enum ResultsCSV {
    public static let schemaVersion = 5

    /// Column names and their meaning, in file order.
    public static let columns: [(name: String, meaning: String)] = [
        ("schema_version", "version of this CSV layout (\(schemaVersion)); bench compare reads it, version 4 (the same without the ratio columns), version 3 (without ratios and loops) and version 2 (without loops, hierarchy and sweep columns)"),
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
        ("time_budget_s", "--time-budget in seconds; empty without it (fixed repetitions, or the default precision rule)"),
        ("hierarchy", "the model measured: its name (a preset's, or the name in a --model file), then /Root when the model has several hierarchies or --root picked one (the root whose hierarchy the workloads read)"),
        ("sweep_parameter", "in a bench sweep, the parameter varied (scale, sub-entities, attributes, skew); else empty"),
        ("sweep_value", "in a bench sweep, that parameter's value for this row; else empty"),
        ("strategy", "storage strategy (see bench list; the first it lists is the baseline of every ratio)"),
        ("workload", "workload name"),
        ("variant", "case of the workload (fetch-by-relationship: popular or rare), else empty"),
        ("rows", "rows in the answer; objects inserted for insert workloads"),
        ("warmups", "untimed repetitions run before the timed ones"),
        ("iterations", "timed repetitions"),
        ("loops", "executions each timed repetition is made of, back to back: 1, or more for a read whose executions take under 1 ms; a repetition's duration is then their mean"),
        ("median_ns", "median duration of one repetition (of one execution, when looped), nanoseconds (the headline figure)"),
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
        ("ratio", "median of the per-round ratios of this strategy's repetition to \(Strategies.baseline.name)'s in the same round (empty on \(Strategies.baseline.name)'s own rows, or without it)"),
        ("ratio_low", "lower end of the ratio's confidence interval (order statistics of the per-round ratios)"),
        ("ratio_high", "upper end of the ratio's confidence interval"),
        ("ratio_coverage", "coverage of that interval: 0.95 or more from 6 paired rounds up; less with fewer, 0 with one"),
        ("ratio_rounds", "rounds both this strategy and \(Strategies.baseline.name) ran in (the pairs the ratio is the median of)"),
        ("ratio_verdict", "faster or slower (the ratio's interval lies below or above 1), same (it holds 1 and is within 5 % of the ratio), uncertain (it holds 1 and is wider, or has no 95 % coverage)"),
        ("ratio_uncertain", "true when ratio_verdict is uncertain: a ratio too uncertain to call either way"),
        ("rows_per_s", "rows / median duration"),
        ("db_bytes", "size of the store file after a WAL checkpoint, bytes"),
        ("digest", "answer digest: equal across strategies for the same workload, seed and scale"),
        ("samples_file", "the file beside this one holding every timed repetition"),
    ]

    public static var header: String { CSV.line(columns.map(\.name)) }

    /// - parameter ratio: the result's ratio to the baseline strategy of its case (nil: the
    ///   baseline's own row, or none measured).
    public static func row(_ result: WorkloadResult, plan: RunPlan, context: RunContext, samplesFile: String = "", ratio: RatioInterval? = nil) -> String {
        CSV.line(fields(result, plan: plan, context: context, samplesFile: samplesFile, ratio: ratio))
    }

    /// The row's fields, in `columns` order, before CSV quoting.
    public static func fields(_ result: WorkloadResult, plan: RunPlan, context: RunContext, samplesFile: String, ratio: RatioInterval?) -> [String] {
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
            String(result.warmups), String(statistics.count), String(result.loops), format(statistics.median),
            format(statistics.medianInterval.lowerBound), format(statistics.medianInterval.upperBound),
            String(format: "%.4f", statistics.medianIntervalCoverage), format(statistics.min), format(statistics.max),
            format(statistics.mean), format(statistics.standardDeviation), format(statistics.p90), format(statistics.p99),
            format(statistics.medianAbsoluteDeviation), String(statistics.outliers), String(statistics.isNoisy),
        ] + ratioFields(ratio) + [
            String(format: "%.1f", rowsPerSecond),
        ]
        let fields = run + parameters + what + timing + [String(result.dbBytes), result.digest.description, samplesFile]
        assert(fields.count == columns.count)
        return fields
    }

    /// The ratio columns: empty without a ratio.
    static func ratioFields(_ ratio: RatioInterval?) -> [String] {
        guard let ratio else { return Array(repeating: "", count: 7) }
        return [ratioNumber(ratio.ratio), ratioNumber(ratio.interval.lowerBound), ratioNumber(ratio.interval.upperBound),
                String(format: "%.4f", ratio.coverage), String(ratio.rounds), ratio.verdictName, String(ratio.isUncertain)]
    }

    /// A ratio with six significant digits, as "1.23457" (no exponent).
    static func ratioNumber(_ value: Double) -> String {
        let digits = max(0, 5 - Int(log10(max(abs(value), 1e-9)).rounded(.down)))
        return String(format: "%.\(min(digits, 12))f", value)
    }

    /// Whole numbers without a fraction; others with one decimal.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.1f", value)
    }
}

/// The samples file: every timed repetition, one per line (long format). `repetition` is the
/// round (1-based, warm-ups not counted); `position` is the strategy's place in that round's
/// shuffled order (0-based; empty when unknown).
public enum SamplesCSV {
    public static let columns = ["run_id", "hierarchy", "sweep_value", "strategy", "workload", "variant", "repetition", "position", "ns"]
    /// The columns before `position` was added; files with them are still read.
    public static let columnsWithoutPosition = columns.filter { $0 != "position" }

    public static var header: String { CSV.line(columns) }

    public static func rows(_ result: WorkloadResult, runID: String) -> String {
        result.samples.enumerated().map { index, ns in
            CSV.line([runID, result.setting.hierarchy, result.setting.sweepValue, result.strategy, result.workload, result.variant,
                      String(index + 1), index < result.positions.count ? String(result.positions[index]) : "", String(ns)])
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
///
/// The writer claims its output for as long as it lives (`OutputClaim`): a second bench given the
/// same output is refused instead of replacing this one's rows. `finish()` gives the claim up.
public final class ResultsWriter {
    public let url: URL
    public let samplesURL: URL
    private let runID: String
    private var rows: [String] = []
    /// Every result so far: a row's ratio needs its case's baseline result, which may come after it.
    private var results: [WorkloadResult] = []
    private var sampleRows: [String] = []
    private let claim: OutputClaim

    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks up front that both files can be written, so that a long run does not fail at its end,
    /// and claims the output.
    /// - parameter force: replace existing files instead of refusing (never a file another bench
    ///   is writing).
    public init(url: URL, runID: String, force: Bool) throws {
        self.url = url
        self.runID = runID
        samplesURL = SamplesCSV.url(besides: url)
        try OutputPath.checkName(url)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        for file in [url, samplesURL] where manager.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue {
            throw Error(description: "the output path \(file.path) is a folder; give a file name such as \(file.appendingPathComponent("run.csv").path)")
        }
        let folder = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Error(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        try OutputFolder.checkWritable(folder)
        for file in [url, samplesURL] { try AtomicFile.checkTemporaryName(for: file) }
        claim = try OutputClaim(url)
        for file in [url, samplesURL] where !force && manager.fileExists(atPath: file.path) {
            claim.release()
            throw Error(description: "\(file.path) already exists; choose another --output or pass --force to replace it")
        }
    }

    /// Adds the results of one case and publishes both files with everything so far. When a file
    /// cannot be written, neither file gains the case (the samples file is put back as it was).
    /// Rows already written gain their ratio when their case's baseline result arrives later.
    public func append(_ results: [WorkloadResult], plan: RunPlan, context: RunContext) throws {
        let all = self.results + results
        let cases = Set(results.map(ConsoleTable.label))
        var newRows = rows
        for (index, result) in all.enumerated() where index >= rows.count || cases.contains(ConsoleTable.label(result)) {
            let row = ResultsCSV.row(result, plan: plan, context: context, samplesFile: samplesURL.lastPathComponent, ratio: RatioInterval(result, among: all))
            if index < newRows.count { newRows[index] = row } else { newRows.append(row) }
        }
        let newSampleRows = sampleRows + results.map { SamplesCSV.rows($0, runID: runID) }
        try AtomicFile.write(SamplesCSV.header + newSampleRows.joined(), to: samplesURL)
        do {
            try AtomicFile.write(ResultsCSV.header + newRows.joined(), to: url)
        } catch {
            if sampleRows.isEmpty {
                unlink(samplesURL.path)
            } else {
                try? AtomicFile.write(SamplesCSV.header + sampleRows.joined(), to: samplesURL)
            }
            throw error
        }
        rows = newRows
        self.results = all
        sampleRows = newSampleRows
    }

    /// The rows published so far (a failed `append` adds none).
    public var rowCount: Int { rows.count }

    /// The result rows the CSV on disk really holds, or nil when it is missing or unreadable.
    public func rowsOnDisk() -> Int? {
        guard let data = FileManager.default.contents(atPath: url.path),
              let records = try? CSV.parse(String(decoding: data, as: UTF8.self)), !records.isEmpty else { return nil }
        return records.count - 1
    }

    /// The lock file that claims the output, to remove when the process ends on a signal.
    public var claimPath: String { claim.lockPath }

    /// Gives up the claim on the output: the run is over.
    public func finish() { claim.release() }

    /// The default output: `results/<timestamp>.csv`, made unique with a suffix if that name (or
    /// its samples file, or a claim of another bench on it) is taken.
    public static func defaultURL(stamp: String, folder: URL) -> URL {
        var candidate = folder.appendingPathComponent("\(stamp).csv")
        var suffix = 2
        func taken(_ url: URL) -> Bool {
            [url, SamplesCSV.url(besides: url), OutputClaim.lockURL(for: url)].contains { FileManager.default.fileExists(atPath: $0.path) }
        }
        while taken(candidate) {
            candidate = folder.appendingPathComponent("\(stamp)-\(suffix).csv")
            suffix += 1
        }
        return candidate
    }
}

/// Checks on an output path given by the user.
public enum OutputPath {
    /// Refuses a path that names a folder by its form: empty, ending in `/`, or `.`/`..` as its
    /// last component (`URL(fileURLWithPath: "new/")` would otherwise write a file named `new`).
    /// - parameter example: a file name to suggest inside that folder.
    public static func checkName(_ url: URL, example: String = "run.csv") throws {
        if url.hasDirectoryPath || [".", ".."].contains(url.lastPathComponent) {
            // Foundation marks an existing folder's URL as a directory path, slash or not.
            let folder = url.standardizedFileURL
            var isDirectory: ObjCBool = false
            let what = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
                ? "the output path \(folder.path) is a folder" : "the output path \(folder.path)/ names a folder"
            throw ResultsWriter.Error(description: "\(what); give a file name such as \(folder.appendingPathComponent(example).path)")
        }
    }

    /// Creates and removes `temporary`, a file the writing of `destination` will create beside
    /// it, so that a name too long for the folder fails before any work is done.
    public static func checkCreatable(_ temporary: String, for destination: URL) throws {
        let descriptor = open(temporary, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            let advice = errno == ENAMETOOLONG ? "choose a shorter --output" : "choose another --output"
            throw ResultsWriter.Error(description: "cannot write \(destination.path) (its temporary file \(temporary): \(reason)); \(advice)")
        }
        close(descriptor)
        unlink(temporary)
    }
}

/// Checks that files can really be created in a folder: permissions alone do not tell (root passes
/// every permission check, yet cannot create files in /proc or on a read-only file system).
public enum OutputFolder {
    public static func checkWritable(_ folder: URL) throws {
        let probe = folder.appendingPathComponent(".inheritance-bench-probe-\(getpid())").path
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ResultsWriter.Error(description: "the output folder \(folder.path) is not writable (\(reason)); choose another --output")
        }
        close(descriptor)
        unlink(probe)
    }
}

/// Claims an output file for one process: a lock file beside it (`.NAME.lock`, holding the
/// process id), created if need be and locked with `flock(2)`. The lock, not the file, is the
/// claim: the kernel drops it when the process ends, however it ends, so a lock file left by a
/// killed process claims nothing. `release()` (or the end of the process) gives it up.
public final class OutputClaim: @unchecked Sendable {
    public let lockPath: String
    private var descriptor: Int32 = -1
    private let lock = NSLock()

    /// `dir/run.csv` → `dir/.run.csv.lock`
    public static func lockURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
    }

    /// - throws: when another process holds the claim, naming its process id.
    public init(_ url: URL) throws {
        lockPath = Self.lockURL(for: url).path
        while true {
            let fd = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                throw ResultsWriter.Error(description: "could not create the lock file \(lockPath) that claims \(url.path) (\(reason)); choose another --output")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                var buffer = [UInt8](repeating: 0, count: 32)
                let count = read(fd, &buffer, buffer.count)
                close(fd)
                let holder = count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
                let who = Int32(holder).map { "another bench (process \($0))" } ?? "another bench"
                throw ResultsWriter.Error(description: "\(url.path) is being written by \(who); wait for it to finish or choose another --output (--force does not take over a running bench's output)")
            }
            // The previous holder may have removed the lock file between our open and flock: then
            // this lock is on a file nobody else will open. Start again on the file at the path.
            var held = stat(), current = stat()
            if fstat(fd, &held) == 0, stat(lockPath, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                let text = Array("\(getpid())\n".utf8)
                if ftruncate(fd, 0) == 0 { _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
                descriptor = fd
                return
            }
            close(fd)
        }
    }

    /// Removes the lock file and drops the lock; safe to call more than once.
    public func release() {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { return }
        unlink(lockPath)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

/// Writes a whole file at once: a temporary file beside it, then `rename(2)`, so readers see the
/// old file or the new one and never a part.
public enum AtomicFile {
    /// The temporary file beside `destination`: `.NAME.<pid>.tmp`.
    public static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).tmp")
    }

    /// Creates and removes the temporary file `write` will use, so that a name too long for the
    /// folder (the temporary name is longer than the file's) fails before any work is done.
    public static func checkTemporaryName(for destination: URL) throws {
        try OutputPath.checkCreatable(temporaryURL(for: destination).path, for: destination)
    }

    public static func write(_ text: String, to destination: URL) throws {
        let temporary = temporaryURL(for: destination).path
        func fail(_ what: String) -> ResultsWriter.Error {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return ResultsWriter.Error(description: "could not write \(destination.path) (\(what): \(reason)); it keeps its previous content; check that \(destination.deletingLastPathComponent().path) is writable and has free space")
        }
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("creating \(temporary)") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            // Bytes are left to write, so the buffer has an address; without one, nothing is written (an error).
            let count = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { posixWrite(descriptor, $0 + written, buffer.count - written) } ?? 0 }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { close(descriptor); throw fail("writing \(temporary)") }
            written += count
        }
        guard close(descriptor) == 0 else { throw fail("closing \(temporary)") }
        guard rename(temporary, destination.path) == 0 else { throw fail("renaming \(temporary)") }
    }
}

/// write(2), out of reach of `AtomicFile.write`'s name.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
