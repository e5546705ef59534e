import Foundation
import SQLite
import Strategies
import Workloads

/// The results CSV: one row per (strategy, workload, variant). Every column is documented here
/// and in docs/files.md; `schemaVersion` changes whenever a column is added, removed or redefined.
public enum ResultsCSV {
    public static let schemaVersion = 10

    /// Column names and their meaning, in file order.
    public static let columns: [(name: String, meaning: String)] = [
        ("schema_version", "version of this CSV layout (\(schemaVersion)); bench compare reads it, version 9 (the same without request), version 8 (without request and data), version 7 (without data, mix_weight and mix_fetches), "
            + "version 6 (the same without ratio_blocks, its ratio intervals from the rounds alone), version 5 (the same without the work columns), version 4 (without work and ratio columns), version 3 (without work, ratios and loops) and version 2 (without work, loops, hierarchy and sweep columns)"),
        ("run_id", "unique id of the run: start time and a random suffix"),
        ("timestamp", "when the run started, ISO 8601 UTC"),
        ("git_commit", "commit of the suite the binary was built from (unknown for a build outside a git checkout)"),
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
        ("seed", "dataset seed (--seed): the generated objects' and the workloads' drawn inputs'"),
        ("data", "where the objects came from: generated (made from the model and the seed), or store (the objects of the store --model names, every one copied into every layout; insert-bulk times that copy)"),
        ("scale", "objects in the dataset (--scale; in a scale sweep, this point's)"),
        ("batch", "objects per transaction for insert-bulk and store population (--batch)"),
        ("time_budget_s", "--time-budget in seconds; empty without it (fixed repetitions, or the default precision rule)"),
        ("hierarchy", "the model measured: its name (a preset's, or the name in a --model file), then /Root when the model has several hierarchies or --root picked one (the root whose hierarchy the workloads read)"),
        ("sweep_parameter", "in a bench sweep, the parameter varied (scale, sub-entities, attributes, skew); else empty"),
        ("sweep_value", "in a bench sweep, that parameter's value for this row; else empty"),
        ("strategy", "storage strategy (see bench list; the first it lists is the baseline of every ratio)"),
        ("workload", "workload name"),
        ("variant", "case of the workload (fetch-by-relationship: popular or rare; save for a replayed save), else empty"),
        ("rows", "rows in the answer; objects inserted for insert workloads; changes made for a save"),
        ("warmups", "the strategy's untimed repetitions before the (first block's) timed ones: the workload's warm-ups, or fewer once they add up to 50 ms"),
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
        ("ratio_low", "lower end of the ratio's 95 % interval: the per-round ratios' order-statistic interval, widened by the spread between the case's blocks when ratio_blocks is above 1"),
        ("ratio_high", "upper end of the ratio's confidence interval"),
        ("ratio_coverage", "coverage of that interval: 0.95 or more from 6 paired rounds up; less with fewer, 0 with one"),
        ("ratio_rounds", "rounds both this strategy and \(Strategies.baseline.name) ran in (the pairs the ratio is the median of)"),
        ("ratio_blocks", "blocks those rounds were measured in (each with its stores reopened, its loops sized again and its short reads warmed up again); above 1, the interval includes their spread"),
        ("ratio_verdict", "faster or slower (the ratio's interval lies below or above 1), same (it holds 1 and is within 5 % of the ratio), uncertain (it holds 1 and is wider, or has no 95 % coverage)"),
        ("ratio_uncertain", "true when ratio_verdict is uncertain: a ratio too uncertain to call either way"),
        ("rows_per_s", "rows / median duration"),
        ("vm_steps", "SQLite virtual-machine instructions one execution ran (its first timed repetition's, divided by its loops): the same on every machine and in every run of the same seed"),
        ("fullscan_steps", "rows one execution read in full table scans (no index)"),
        ("sorts", "sort operations of one execution"),
        ("autoindex_rows", "rows one execution put into automatic indexes SQLite built"),
        ("statement_runs", "statements one execution ran"),
        ("cache_hits", "pages one execution found in the page cache"),
        ("cache_misses", "pages one execution read from the file"),
        ("cache_writes", "pages one execution wrote"),
        ("vm_steps_ratio", "vm_steps over \(Strategies.baseline.name)'s in the same case (empty on its own rows)"),
        ("sqlite_memory_bytes", "the most memory SQLite held at once during the first timed repetition (its high-water mark, reset before it)"),
        ("peak_rss_bytes", "the process's peak resident size when the case ended: the most memory the run had held so far"),
        ("db_bytes", "size of the store file after a WAL checkpoint, bytes"),
        ("digest", "answer digest: equal across strategies for the same workload, seed and scale"),
        ("mix_weight", "in an app's fetch mix (--fetches): how often the app issues this fetch, as the file weighs it; else empty"),
        ("mix_fetches", "in a fetch mix: fetches one execution runs (one per draw of its %@), so that one fetch takes median_ns / mix_fetches; else empty"),
        ("request", "an app's fetch or save the case times (--fetch, --fetches, bench replay), in the fetch format or as SAVE …, its values as %@ or as written; else empty"),
        ("samples_file", "the file beside this one holding every timed repetition"),
    ]

    public static var header: String { CSV.line(columns.map(\.name)) }

    /// - parameter ratio: the result's ratio to the baseline strategy of its case (nil: the
    ///   baseline's own row, or none measured).
    /// - parameter baselineWork: the baseline strategy's work in the same case.
    public static func row(_ result: WorkloadResult, plan: RunPlan, context: RunContext, samplesFile: String = "", ratio: RatioInterval? = nil,
                           baselineWork: WorkCounts? = nil) -> String {
        CSV.line(fields(result, plan: plan, context: context, samplesFile: samplesFile, ratio: ratio, baselineWork: baselineWork))
    }

    /// The row's fields, in `columns` order, before CSV quoting.
    public static func fields(_ result: WorkloadResult, plan: RunPlan, context: RunContext, samplesFile: String, ratio: RatioInterval?,
                              baselineWork: WorkCounts? = nil) -> [String] {
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
            String(plan.seed), result.setting.data, String(result.setting.scale), String(plan.batchSize), plan.timeBudget.map { format($0) } ?? "",
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
        ] + workFields(result.work, baseline: baselineWork) + [result.sqliteMemoryBytes, result.peakResidentBytes].map { $0.map(String.init) ?? "" }
        // The weight as given (the shortest text that reads back as it): the mix is summed from the file.
        let mix = [result.mix.map { $0.weight == $0.weight.rounded() && $0.weight < 1e15 ? String(Int64($0.weight)) : String($0.weight) } ?? "",
                   result.mix.map { String($0.fetches) } ?? ""]
        let fields = run + parameters + what + timing + [String(result.dbBytes), result.digest.description] + mix + [result.request ?? "", samplesFile]
        assert(fields.count == columns.count)
        return fields
    }

    /// The ratio columns: empty without a ratio.
    static func ratioFields(_ ratio: RatioInterval?) -> [String] {
        guard let ratio else { return Array(repeating: "", count: 8) }
        return [ratioNumber(ratio.ratio), ratioNumber(ratio.interval.lowerBound), ratioNumber(ratio.interval.upperBound),
                String(format: "%.4f", ratio.coverage), String(ratio.rounds), String(ratio.blocks), ratio.verdictName, String(ratio.isUncertain)]
    }

    /// The work columns: empty when the work was not counted.
    static func workFields(_ work: WorkCounts?, baseline: WorkCounts?) -> [String] {
        guard let work else { return Array(repeating: "", count: 9) }
        let ratio = baseline.flatMap { $0.vmSteps > 0 && work.vmSteps > 0 ? ratioNumber(Double(work.vmSteps) / Double($0.vmSteps)) : nil } ?? ""
        return [work.vmSteps, work.fullScanSteps, work.sorts, work.autoIndexRows, work.runs, work.cacheHits, work.cacheMisses, work.cacheWrites]
            .map { String($0) } + [ratio]
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
