import Dataset
import Foundation
import SQLite
import Strategies

/// What one run measures.
public struct RunPlan: Sendable {
    public var strategies: [String]
    public var workloads: [Workload]
    public var dataset: DatasetConfiguration
    /// Objects per transaction in `insert-bulk` and when populating the read stores.
    public var batchSize: Int
    /// Timed repetitions for every workload; `nil` uses each workload's default.
    public var repetitions: Int?
    /// With a budget, timed repetitions go on until each strategy has spent about this many seconds
    /// on a case (at least `minRepetitions`, at most `maxRepetitions`); `repetitions` is then ignored.
    public var timeBudget: Double?
    public var minRepetitions: Int
    public var maxRepetitions: Int
    /// Whether the `raw` reference (single-table work in direct SQLite calls) joins `insert-bulk`
    /// and `fetch-polymorphic` when `single-table` runs.
    public var includeRaw: Bool
    /// Where the run's temporary folder of stores is made.
    public var temporaryParent: URL

    public static let defaultBatchSize = 1_000
    public static let defaultMinRepetitions = 5
    public static let defaultMaxRepetitions = 1_000

    public init(
        strategies: [String] = Strategies.names, workloads: [Workload] = Workload.allCases,
        dataset: DatasetConfiguration = DatasetConfiguration(), batchSize: Int = defaultBatchSize,
        repetitions: Int? = nil, timeBudget: Double? = nil, minRepetitions: Int = defaultMinRepetitions,
        maxRepetitions: Int = defaultMaxRepetitions, includeRaw: Bool = false,
        temporaryParent: URL = FileManager.default.temporaryDirectory
    ) {
        self.strategies = strategies
        self.workloads = workloads
        self.dataset = dataset
        self.batchSize = batchSize
        self.repetitions = repetitions
        self.timeBudget = timeBudget
        self.minRepetitions = minRepetitions
        self.maxRepetitions = maxRepetitions
        self.includeRaw = includeRaw
        self.temporaryParent = temporaryParent
    }

    /// The fixed number of timed repetitions of `workload`, or `nil` under a time budget.
    public func repetitions(for workload: Workload) -> Int? {
        timeBudget == nil ? repetitions ?? workload.defaultRepetitions : nil
    }

    /// Whether another round of timed repetitions is due, after `rounds` rounds that took `spent`
    /// nanoseconds in all across `strategies` strategies.
    func wantsAnotherRound(fixed: Int?, rounds: Int, spent: UInt64, strategies: Int) -> Bool {
        guard let budget = timeBudget else { return rounds < fixed! }
        if rounds < minRepetitions { return true }
        return rounds < maxRepetitions && Double(spent) < budget * 1e9 * Double(strategies)
    }
}

/// The result of one (strategy, workload, variant): every timed sample and the checked answer.
public struct WorkloadResult: Sendable {
    public var strategy: String
    /// The workload's name (`Workload.rawValue`, or a described hierarchy's workload).
    public var workload: String
    /// "" or the workload's case (`popular`, `rare`).
    public var variant: String
    /// Rows in the answer (objects inserted, for insert workloads).
    public var rows: Int
    /// Nanoseconds of each timed repetition, in the order they ran.
    public var samples: [UInt64]
    public var warmups: Int
    public var digest: AnswerDigest
    /// The store's size in bytes (after a WAL checkpoint).
    public var dbBytes: Int64
    /// What was measured: the hierarchy, its size, and the swept parameter's value, if any.
    public var setting: ResultSetting

    public init(strategy: String, workload: Workload, variant: String, rows: Int, samples: [UInt64], warmups: Int, digest: AnswerDigest,
                dbBytes: Int64, setting: ResultSetting) {
        self.init(strategy: strategy, workload: workload.rawValue, variant: variant, rows: rows, samples: samples, warmups: warmups,
                  digest: digest, dbBytes: dbBytes, setting: setting)
    }

    public init(strategy: String, workload: String, variant: String, rows: Int, samples: [UInt64], warmups: Int, digest: AnswerDigest,
                dbBytes: Int64, setting: ResultSetting) {
        self.strategy = strategy
        self.setting = setting
        self.workload = workload
        self.variant = variant
        self.rows = rows
        self.samples = samples
        self.warmups = warmups
        self.digest = digest
        self.dbBytes = dbBytes
    }

    /// "fetch-by-tag/popular", or just the workload name.
    public var caseName: String { variant.isEmpty ? workload : "\(workload)/\(variant)" }
}

/// The dataset a result was measured on: the publication model or a described hierarchy, its
/// number of objects, and, in a sweep, the parameter varied and its value here.
public struct ResultSetting: Sendable, Equatable {
    /// `publications`, a preset's name, or the name inside a `--hierarchy` file.
    public var hierarchy: String
    public var scale: Int
    /// The swept parameter (`scale`, `sub-entities`, `attributes`, `skew`), or "" outside a sweep.
    public var sweepParameter: String
    public var sweepValue: String

    public init(hierarchy: String, scale: Int, sweepParameter: String = "", sweepValue: String = "") {
        self.hierarchy = hierarchy; self.scale = scale; self.sweepParameter = sweepParameter; self.sweepValue = sweepValue
    }
}

/// What the run is doing now, for progress display.
public enum RunEvent: Sendable {
    case populating(strategy: String, scale: Int)
    /// A case starts: every strategy runs `warmups` untimed and then timed repetitions, interleaved;
    /// `repetitions` is `nil` under a time budget.
    case measuring(caseName: String, strategies: [String], warmups: Int, repetitions: Int?)
    /// A strategy is about to run round `round` (1-based, warm-ups included) of the current case.
    case repetition(caseName: String, strategy: String, round: Int, rounds: Int?)
    case measured(WorkloadResult)
}

/// A run that could not produce honest numbers.
public enum BenchmarkFailure: Error, CustomStringConvertible, Equatable {
    /// Two strategies gave different answers to the same workload.
    case disagreement(caseName: String, first: String, firstDigest: String, firstRows: Int,
                      second: String, secondDigest: String, secondRows: Int)
    /// One strategy's answer changed between repetitions.
    case unstableAnswer(strategy: String, caseName: String)

    public var description: String {
        switch self {
        case let .disagreement(caseName, first, firstDigest, firstRows, second, secondDigest, secondRows):
            "strategies disagree on \(caseName): \(first) answered \(firstRows) rows (digest \(firstDigest)), "
                + "\(second) answered \(secondRows) rows (digest \(secondDigest)); the run stopped because the numbers would not compare like with like"
        case let .unstableAnswer(strategy, caseName):
            "\(strategy) gave different answers to \(caseName) in different repetitions"
        }
    }
}

/// Runs every selected workload against every selected strategy, checks that all strategies
/// agree on every answer, and reports each result as it completes.
///
/// Strategies are measured side by side: repetition *r* of every strategy runs before repetition
/// *r + 1* of any, starting each round with the next strategy in turn, so that a slow phase of a
/// shared machine falls on all strategies alike instead of on whichever ran then.
///
/// Setup (creating stores, generating objects, checkpointing, digesting answers) happens outside
/// the timed regions; a timed region holds only the strategy calls that do the work.
public final class Runner {
    public let plan: RunPlan
    public let generator: DatasetGenerator
    public let parameters: WorkloadParameters
    /// The run's folder of temporary stores; removed when the run ends.
    public let temporaryFolder: URL
    /// Told of every event; an error it throws (say, the results file cannot be written) stops the
    /// run like any other failure, temporary stores removed.
    private let onEvent: (RunEvent) throws -> Void
    /// The strategies `plan.strategies` names are looked up in.
    private let registry: [any StorageStrategy.Type]

    public init(plan: RunPlan, registry: [any StorageStrategy.Type] = Strategies.all, onEvent: @escaping (RunEvent) throws -> Void = { _ in }) {
        self.plan = plan
        self.registry = registry
        generator = DatasetGenerator(plan.dataset)
        parameters = WorkloadParameters(generator: generator)
        temporaryFolder = plan.temporaryParent.appendingPathComponent("inheritance-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.onEvent = onEvent
    }

    /// Runs the plan; returns every result, case by case, strategies in plan order.
    public func run() throws -> [WorkloadResult] {
        let contenders = try plan.strategies.map { name in
            guard let type = registry.first(where: { $0.name == name }) else {
                throw NameList.unknown(name, valid: registry.map { $0.name }, what: "strategy")
            }
            return Contender(type, parameters: parameters)
        }
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        var results: [WorkloadResult] = []
        func report(_ group: [WorkloadResult]) throws {
            for result in group {
                results.append(result)
                try onEvent(.measured(result))
            }
        }

        // A workload that changes the read store (`update`) runs after every other read, so that it
        // cannot change their answers, whatever order the plan lists them in.
        let reads = plan.workloads.filter { !$0.isInsert && !$0.modifiesReadStore } + plan.workloads.filter(\.modifiesReadStore)
        let singleTable = contenders.firstIndex { $0.name == SingleTableStrategy.name }
        let raw = plan.includeRaw && singleTable != nil ? Contender.raw(parameters: parameters) : nil
        // The last timed insert-bulk repetition builds exactly the store the reads need; keep it.
        var readStores: [(any ContenderStore)?] = Array(repeating: nil, count: contenders.count)
        for workload in plan.workloads where workload.isInsert {
            let keep = workload == .insertBulk && !reads.isEmpty
            let withRaw = workload == .insertBulk ? contenders + [raw].compactMap { $0 } : contenders
            let (group, kept) = try measureInsert(workload, withRaw, keepLastStores: keep)
            if keep {
                readStores = Array(kept.prefix(contenders.count))
                kept.dropFirst(contenders.count).forEach { $0?.remove() }
            }
            try report(group)
        }
        guard !reads.isEmpty else { return results }
        for (index, contender) in contenders.enumerated() where readStores[index] == nil {
            try onEvent(.populating(strategy: contender.name, scale: plan.dataset.scale))
            let store = try contender.open(storePath(contender.name, "read"))
            try store.populate(generator, plan.batchSize, wholeDatasetCensus())
            readStores[index] = store
        }
        let stores = readStores.compactMap { $0 }
        for workload in reads {
            for variant in workload.variants {
                if workload == .fetchPolymorphic, let raw, let singleTable {
                    // The raw reference reads the single-table store through a second connection.
                    let rawStore = try raw.open(stores[singleTable].path)
                    try report(try measureRead(workload, variant, contenders + [raw], stores + [rawStore]))
                } else {
                    try report(try measureRead(workload, variant, contenders, stores))
                }
            }
        }
        return results
    }

    // MARK: Cases

    private func measureRead(_ workload: Workload, _ variant: String, _ contenders: [Contender], _ stores: [any ContenderStore]) throws -> [WorkloadResult] {
        let caseName = variant.isEmpty ? workload.rawValue : "\(workload.rawValue)/\(variant)"
        let samples = try interleave(caseName, workload, contenders) { index, round in
            try stores[index].read(workload, variant, repetition: round)
        }
        return contenders.indices.map { index in
            WorkloadResult(strategy: contenders[index].name, workload: workload, variant: variant, rows: samples.answers[index].rows,
                           samples: samples.timed[index], warmups: workload.warmups, digest: samples.answers[index].digest,
                           dbBytes: stores[index].bytes, setting: setting)
        }
    }

    /// Times an insert workload on a fresh store per repetition; with `keepLastStores`, hands back
    /// each strategy's last store (checked and checkpointed) instead of removing it.
    private func measureInsert(_ workload: Workload, _ contenders: [Contender], keepLastStores: Bool) throws -> ([WorkloadResult], [(any ContenderStore)?]) {
        let inserts = InsertPlan(workload, scale: plan.dataset.scale, batchSize: plan.batchSize).generatedOnce(generator)
        let range = inserts.range
        let expected = workload == .insertBulk ? wholeDatasetCensus() : generator.census(range)
        var kept: [(any ContenderStore)?] = Array(repeating: nil, count: contenders.count)
        var bytes = Array(repeating: Int64(0), count: contenders.count)
        let samples = try interleave(workload.rawValue, workload, contenders) { index, repetition in
            let store = try contenders[index].open(storePath(contenders[index].name, "\(workload.rawValue)-\(repetition)"))
            do {
                // The first store of each strategy gets the full integrity_check, the later ones quick_check.
                let sample = try store.timedInsert(generator, inserts, expected, thorough: repetition == 0)
                bytes[index] = store.bytes
                // Keep the newest store for the reads (the number of repetitions may not be known in advance).
                if keepLastStores { kept[index]?.remove(); kept[index] = store } else { store.remove() }
                return sample
            } catch {
                store.remove()
                throw error
            }
        }
        let results = contenders.indices.map { index in
            WorkloadResult(strategy: contenders[index].name, workload: workload, variant: "", rows: range.count,
                           samples: samples.timed[index], warmups: workload.warmups, digest: samples.answers[index].digest,
                           dbBytes: bytes[index], setting: setting)
        }
        return (results, kept)
    }

    /// Runs warm-ups then timed repetitions of one case, round by round across strategies (see `interleaveRounds`).
    private func interleave(
        _ caseName: String, _ workload: Workload, _ contenders: [Contender],
        _ repetition: (_ strategy: Int, _ repetition: Int) throws -> Sample
    ) throws -> (timed: [[UInt64]], answers: [Sample]) {
        try interleaveRounds(caseName, contenders.map(\.name), warmups: workload.warmups, fixed: plan.repetitions(for: workload),
                             plan: plan, onEvent: onEvent, repetition)
    }

    // MARK: Helpers

    private var setting: ResultSetting { ResultSetting(hierarchy: "publications", scale: plan.dataset.scale) }

    /// Computed with the workload parameters, in their one pass over the dataset.
    private func wholeDatasetCensus() -> DatasetGenerator.Census { parameters.census }

    private func storePath(_ strategy: String, _ purpose: String) -> String {
        temporaryFolder.appendingPathComponent("\(strategy)-\(purpose).sqlite").path
    }
}
