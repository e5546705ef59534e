import Foundation
import SQLite
import Workloads

/// The results of a run as one JSON document, `X.json` beside the results CSV `X.csv`: the run
/// context, the plan, and every result row with every statistic of the CSV and every timed
/// repetition. Keys are the CSV's column names (snake_case); durations are nanoseconds.
///
///     { "schema": "inheritance-bench.results", "version": 3, "csv": "X.csv",
///       "context": { "run_id": …, "git_dirty": true | false | null, … },
///       "plan": { "seed": 42, "batch": 1000, "repetitions": null, "time_budget_s": 2, … },
///       "results": [ { "strategy": …, "workload": …, "median_ns": 1234.5, …, "ratio": 1.08, "ratio_low": 1.05, …,
///                      "samples_ns": [1200, 1300], "work": { "vm_steps": 5120, …, "vm_steps_ratio": 1.4 } } ] }
///
/// `version` changes whenever a field is removed or redefined; a reader refuses other versions.
public struct ResultsJSON: Codable, Equatable, Sendable {
    public static let schemaName = "inheritance-bench.results"
    public static let schemaVersion = 4

    public var schema: String
    public var version: Int
    /// The name of the results CSV this document accompanies (in the same folder).
    public var csv: String
    public var context: RunContext
    public var plan: Plan
    public var results: [Result]

    /// What the run was asked to do.
    public struct Plan: Codable, Equatable, Sendable {
        public var seed: UInt64
        public var batch: Int
        /// --repetitions, or nil: each workload's own count (see `workloads`), or a time budget.
        public var repetitions: Int?
        /// --time-budget in seconds, or nil when repetitions were fixed.
        public var timeBudgetS: Double?
        /// Under the default rule, the target half-width of every median's 95 % interval, as a
        /// fraction of the median (0.025); nil under --repetitions or --time-budget.
        public var precision: Double?
        /// --run-time: the seconds the run's cases shared, or nil when each had its own time.
        public var runTimeS: Double?
        public var minRepetitions: Int
        public var maxRepetitions: Int
        public var strategies: [String]
        public var workloads: [PlannedWorkload]

        public struct PlannedWorkload: Codable, Equatable, Sendable {
            public var name: String
            public var warmups: Int
            /// The fixed timed repetitions, or nil under a time budget.
            public var repetitions: Int?
            /// Under the default rule, the most seconds per strategy each of its cases may take
            /// (the workload's own, or --case-time); else nil.
            public var caseTimeS: Double?

            enum CodingKeys: String, CodingKey { case name, warmups, repetitions, caseTimeS = "case_time_s" }

            public func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(warmups, forKey: .warmups)
                try container.encode(repetitions, forKey: .repetitions)
                try container.encode(caseTimeS, forKey: .caseTimeS)
            }
        }

        enum CodingKeys: String, CodingKey {
            case seed, batch, repetitions, timeBudgetS = "time_budget_s", precision, runTimeS = "run_time_s", minRepetitions = "min_repetitions"
            case maxRepetitions = "max_repetitions", strategies, workloads
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seed, forKey: .seed)
            try container.encode(batch, forKey: .batch)
            try container.encode(repetitions, forKey: .repetitions)
            try container.encode(timeBudgetS, forKey: .timeBudgetS)
            try container.encode(precision, forKey: .precision)
            try container.encode(runTimeS, forKey: .runTimeS)
            try container.encode(minRepetitions, forKey: .minRepetitions)
            try container.encode(maxRepetitions, forKey: .maxRepetitions)
            try container.encode(strategies, forKey: .strategies)
            try container.encode(workloads, forKey: .workloads)
        }

        public init(_ plan: RunPlan) {
            seed = plan.seed; batch = plan.batchSize; repetitions = plan.timeBudget == nil ? plan.repetitions : nil
            timeBudgetS = plan.timeBudget; minRepetitions = plan.minRepetitions; maxRepetitions = plan.maxRepetitions
            strategies = plan.strategies
            let rules = plan.workloads.map { plan.stoppingRule(for: $0).mode }
            if case let .precision(target, _, _, _)? = rules.first { precision = target }
            runTimeS = plan.sharesRunTime ? plan.runTime : nil
            workloads = zip(plan.workloads, rules).map { workload, rule in
                var caseTime: Double?
                if case let .precision(_, budget, _, _) = rule { caseTime = budget }
                return PlannedWorkload(name: workload.name, warmups: workload.warmups, repetitions: plan.repetitions(for: workload), caseTimeS: caseTime)
            }
        }
    }

    /// One row of the results CSV, with the same statistics, and its repetitions.
    public struct Result: Codable, Equatable, Sendable {
        public var hierarchy: String
        public var scale: Int
        /// Where the objects came from: `generated` or `store` (the CSV's `data`).
        public var data: String
        public var sweepParameter: String
        public var sweepValue: String
        public var strategy: String
        public var workload: String
        public var variant: String
        public var rows: Int
        public var warmups: Int
        public var iterations: Int
        /// Executions each timed repetition is made of (its duration is their mean).
        public var loops: Int
        public var medianNs: Double
        public var ciLowNs: Double
        public var ciHighNs: Double
        public var ciCoverage: Double
        public var minNs: Double
        public var maxNs: Double
        public var meanNs: Double
        public var stddevNs: Double
        public var p90Ns: Double
        public var p99Ns: Double
        public var madNs: Double
        public var outliers: Int
        public var noisy: Bool
        public var rowsPerS: Double
        /// The ratio to the baseline strategy, as the CSV's ratio columns; all nil on the
        /// baseline's own rows (and without one).
        public var ratio: Double?
        public var ratioLow: Double?
        public var ratioHigh: Double?
        public var ratioCoverage: Double?
        public var ratioRounds: Int?
        public var ratioBlocks: Int?
        public var ratioVerdict: String?
        public var ratioUncertain: Bool?
        public var dbBytes: Int64
        public var digest: String
        /// Every timed repetition, nanoseconds (per execution, when looped), in the order they ran.
        public var samplesNs: [UInt64]
        /// SQLite's work for one execution (the CSV's work columns); nil when not counted.
        public var work: Work?
        /// The CSV's `sqlite_memory_bytes` and `peak_rss_bytes`; nil when not measured.
        public var sqliteMemoryBytes: Int64?
        public var peakRssBytes: Int64?
        /// The CSV's `mix_weight` and `mix_fetches`; nil outside an app's fetch mix.
        public var mixWeight: Double?
        public var mixFetches: Int?
        /// The CSV's `request`: an app's fetch or save the case times; nil for the suite's own.
        public var request: String?

        /// The CSV's work columns, under their names.
        public struct Work: Codable, Equatable, Sendable {
            public var vmSteps, fullscanSteps, sorts, autoindexRows, statementRuns, cacheHits, cacheMisses, cacheWrites: Int64
            /// vm_steps over the baseline strategy's in the same case; nil on its own rows.
            public var vmStepsRatio: Double?

            enum CodingKeys: String, CodingKey {
                case vmSteps = "vm_steps", fullscanSteps = "fullscan_steps", sorts, autoindexRows = "autoindex_rows"
                case statementRuns = "statement_runs", cacheHits = "cache_hits", cacheMisses = "cache_misses", cacheWrites = "cache_writes"
                case vmStepsRatio = "vm_steps_ratio"
            }

            public func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                for (key, value) in [(CodingKeys.vmSteps, vmSteps), (.fullscanSteps, fullscanSteps), (.sorts, sorts), (.autoindexRows, autoindexRows),
                                     (.statementRuns, statementRuns), (.cacheHits, cacheHits), (.cacheMisses, cacheMisses), (.cacheWrites, cacheWrites)] {
                    try container.encode(value, forKey: key)
                }
                try container.encode(vmStepsRatio, forKey: .vmStepsRatio)
            }

            init(_ work: WorkCounts, baseline: WorkCounts?) {
                vmSteps = work.vmSteps; fullscanSteps = work.fullScanSteps; sorts = work.sorts; autoindexRows = work.autoIndexRows
                statementRuns = work.runs; cacheHits = work.cacheHits; cacheMisses = work.cacheMisses; cacheWrites = work.cacheWrites
                vmStepsRatio = baseline.flatMap { $0.vmSteps > 0 && work.vmSteps > 0 ? Double(work.vmSteps) / Double($0.vmSteps) : nil }
            }
        }

        enum CodingKeys: String, CodingKey {
            case hierarchy, scale, data, sweepParameter = "sweep_parameter", sweepValue = "sweep_value", strategy, workload, variant, rows
            case warmups, iterations, loops, medianNs = "median_ns", ciLowNs = "ci_low_ns", ciHighNs = "ci_high_ns", ciCoverage = "ci_coverage"
            case minNs = "min_ns", maxNs = "max_ns", meanNs = "mean_ns", stddevNs = "stddev_ns", p90Ns = "p90_ns", p99Ns = "p99_ns"
            case madNs = "mad_ns", outliers, noisy, rowsPerS = "rows_per_s", dbBytes = "db_bytes", digest, samplesNs = "samples_ns"
            case ratio, ratioLow = "ratio_low", ratioHigh = "ratio_high", ratioCoverage = "ratio_coverage", ratioRounds = "ratio_rounds"
            case ratioBlocks = "ratio_blocks", ratioVerdict = "ratio_verdict", ratioUncertain = "ratio_uncertain", work
            case sqliteMemoryBytes = "sqlite_memory_bytes", peakRssBytes = "peak_rss_bytes", mixWeight = "mix_weight", mixFetches = "mix_fetches", request
        }

        /// Encodes a missing ratio as nulls (the synthesized encoder would leave the keys out).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(hierarchy, forKey: .hierarchy); try container.encode(scale, forKey: .scale); try container.encode(data, forKey: .data)
            try container.encode(sweepParameter, forKey: .sweepParameter); try container.encode(sweepValue, forKey: .sweepValue)
            try container.encode(strategy, forKey: .strategy); try container.encode(workload, forKey: .workload)
            try container.encode(variant, forKey: .variant); try container.encode(rows, forKey: .rows)
            try container.encode(warmups, forKey: .warmups); try container.encode(iterations, forKey: .iterations)
            try container.encode(loops, forKey: .loops); try container.encode(medianNs, forKey: .medianNs)
            try container.encode(ciLowNs, forKey: .ciLowNs); try container.encode(ciHighNs, forKey: .ciHighNs)
            try container.encode(ciCoverage, forKey: .ciCoverage); try container.encode(minNs, forKey: .minNs)
            try container.encode(maxNs, forKey: .maxNs); try container.encode(meanNs, forKey: .meanNs)
            try container.encode(stddevNs, forKey: .stddevNs); try container.encode(p90Ns, forKey: .p90Ns)
            try container.encode(p99Ns, forKey: .p99Ns); try container.encode(madNs, forKey: .madNs)
            try container.encode(outliers, forKey: .outliers); try container.encode(noisy, forKey: .noisy)
            try container.encode(rowsPerS, forKey: .rowsPerS); try container.encode(dbBytes, forKey: .dbBytes)
            try container.encode(digest, forKey: .digest); try container.encode(samplesNs, forKey: .samplesNs)
            try container.encode(ratio, forKey: .ratio); try container.encode(ratioLow, forKey: .ratioLow)
            try container.encode(ratioHigh, forKey: .ratioHigh); try container.encode(ratioCoverage, forKey: .ratioCoverage)
            try container.encode(ratioRounds, forKey: .ratioRounds); try container.encode(ratioBlocks, forKey: .ratioBlocks)
            try container.encode(ratioVerdict, forKey: .ratioVerdict)
            try container.encode(ratioUncertain, forKey: .ratioUncertain); try container.encode(work, forKey: .work)
            try container.encode(sqliteMemoryBytes, forKey: .sqliteMemoryBytes); try container.encode(peakRssBytes, forKey: .peakRssBytes)
            try container.encode(mixWeight, forKey: .mixWeight); try container.encode(mixFetches, forKey: .mixFetches)
            try container.encode(request, forKey: .request)
        }

        public init(_ result: WorkloadResult, ratio interval: RatioInterval? = nil, baselineWork: WorkCounts? = nil) {
            let statistics = Statistics(result.samples)
            hierarchy = result.setting.hierarchy; scale = result.setting.scale; data = result.setting.data
            sweepParameter = result.setting.sweepParameter; sweepValue = result.setting.sweepValue
            strategy = result.strategy; workload = result.workload; variant = result.variant; rows = result.rows
            warmups = result.warmups; iterations = statistics.count; loops = result.loops
            medianNs = statistics.median; ciLowNs = statistics.medianInterval.lowerBound; ciHighNs = statistics.medianInterval.upperBound
            ciCoverage = statistics.medianIntervalCoverage; minNs = statistics.min; maxNs = statistics.max; meanNs = statistics.mean
            stddevNs = statistics.standardDeviation; p90Ns = statistics.p90; p99Ns = statistics.p99
            madNs = statistics.medianAbsoluteDeviation; outliers = statistics.outliers; noisy = statistics.isNoisy
            rowsPerS = statistics.median > 0 ? Double(result.rows) / (statistics.median / 1e9) : 0
            dbBytes = result.dbBytes; digest = result.digest.description; samplesNs = result.samples
            ratio = interval?.ratio; ratioLow = interval?.interval.lowerBound; ratioHigh = interval?.interval.upperBound
            ratioCoverage = interval?.coverage; ratioRounds = interval?.rounds; ratioBlocks = interval?.blocks; ratioVerdict = interval?.verdictName
            ratioUncertain = interval?.isUncertain
            work = result.work.map { Work($0, baseline: baselineWork) }
            sqliteMemoryBytes = result.sqliteMemoryBytes; peakRssBytes = result.peakResidentBytes
            mixWeight = result.mix?.weight; mixFetches = result.mix?.fetches
            request = result.request
        }
    }

    public init(results: [WorkloadResult], plan: RunPlan, context: RunContext, csvName: String) {
        schema = Self.schemaName
        version = Self.schemaVersion
        csv = csvName
        self.context = context
        self.plan = Plan(plan)
        self.results = results.map { Result($0, ratio: RatioInterval($0, among: results), baselineWork: RatioInterval.reference(of: $0, among: results)?.work) }
    }

    /// `results/x.csv` → `results/x.json`
    public static func url(besides results: URL) -> URL {
        results.deletingPathExtension().appendingPathExtension("json")
    }

    /// The document as JSON text, ending with a line break: the schema, version and file name
    /// first, then the context and the plan on a line each, then one line per result (keys sorted
    /// within each), so that the file reads well and diffs line by line.
    public func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        var text = "{\n"
        text += "  \"schema\": \(try json(schema)),\n  \"version\": \(version),\n  \"csv\": \(try json(csv)),\n"
        text += "  \"context\": \(try json(context)),\n  \"plan\": \(try json(plan)),\n"
        text += "  \"results\": [" + (results.isEmpty ? "" : "\n    " + (try results.map(json)).joined(separator: ",\n    ") + "\n  ") + "]\n}\n"
        return text
    }

    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Reads a results JSON, refusing with one sentence a file that is not one, or is of another version.
    public static func read(url: URL) throws -> ResultsJSON {
        let name = url.path
        guard let data = FileManager.default.contents(atPath: name) else {
            throw Error(description: FileManager.default.fileExists(atPath: name) ? "\(name) cannot be read" : "\(name) does not exist")
        }
        // The header first, so that another version is named as such rather than as a missing field.
        struct Header: Decodable { var schema: String?; var version: Int? }
        guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw Error(description: "\(name) is not JSON, or not a JSON object; it is not a results JSON written by bench")
        }
        guard header.schema == schemaName else {
            throw Error(description: "\(name) is not a results JSON written by bench (its schema is \(header.schema.map { "'\($0)'" } ?? "missing"), expected '\(schemaName)')")
        }
        // Version 3 is version 4 without `request`, which reads as nil.
        guard let version = header.version, [3, schemaVersion].contains(version) else {
            throw Error(description: "\(name) is results JSON version \(header.version.map(String.init) ?? "(missing)"); this bench reads versions 3 and \(schemaVersion); "
                + "rerun the benchmark with this version, or read it with the bench that wrote it")
        }
        do {
            return try JSONDecoder().decode(ResultsJSON.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw Error(description: "\(name): \(path(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw Error(description: "\(name): \(path(context.codingPath)) has the wrong type")
        } catch let DecodingError.dataCorrupted(context) {
            throw Error(description: "\(name): \(path(context.codingPath)) is not valid (\(context.debugDescription))")
        }
    }

    /// `results[3].median_ns`
    static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}
