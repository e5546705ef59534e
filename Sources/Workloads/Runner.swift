import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// What one run measures.
public struct RunPlan: Sendable {
    public var strategies: [String]
    /// The workloads run, each where it applies to the model. The library's default is every
    /// workload (`Workloads.all`, `fetch-sectioned` and `prefetch` included), so that a plan made
    /// in code times everything; `bench run`'s default is the default run instead
    /// (`Workloads.defaultRun(on:)`, the workloads with `Workload.inDefaultRun`).
    public var workloads: [Workload]
    /// The run's seed (`--seed`): the dataset and every workload input are functions of it.
    public var seed: UInt64
    /// Objects per transaction in `insert-bulk` and when populating the read stores.
    public var batchSize: Int
    /// Timed repetitions for every workload (`--repetitions`): a fixed count instead of the
    /// default precision rule.
    public var repetitions: Int?
    /// With a budget, timed repetitions go on until each strategy has spent about this many seconds
    /// on a case (at least `minRepetitions`, at most `maxRepetitions`); `repetitions` is then ignored.
    public var timeBudget: Double?
    public var minRepetitions: Int
    public var maxRepetitions: Int
    /// Under the default rule, the half-width of every ratio's 95 % interval a case aims for (every
    /// median's without the baseline strategy), as a fraction of it (`--precision` in percent; 0.025 for 2.5 %).
    public var precision: Double
    /// Under the default rule, the most seconds per strategy any case may take (`--case-time`),
    /// instead of each workload's own budget.
    public var caseTime: Double?
    /// Under the default rule without `caseTime`, the wall-clock seconds the whole run aims at
    /// (`--run-time`): each case's budget is then its share of the time left (`TimeShare`),
    /// weighted by its workload's own budget. Nil: each workload's own budget.
    public var runTime: Double?
    /// Where the run's temporary folder of stores is made.
    public var temporaryParent: URL
    /// Whether `ANALYZE` runs on each populated read store before the reads are timed (`--analyze`).
    public var analyze = false
    /// Under the default rule and `--time-budget`, the blocks each case is measured in (`--blocks`): each warms up
    /// again, sizes its loops again and reopens its stores, and a ratio's interval includes their
    /// spread (`RatioInterval+Blocks`).
    public var blocks = defaultBlocks
    public static let defaultBlocks = 3

    public static let defaultSeed: UInt64 = 42
    public static let defaultBatchSize = 1_000
    public static let defaultMinRepetitions = 5
    public static let defaultMaxRepetitions = 1_000
    public static let defaultPrecision = 0.025
    /// Under the default rule, no case runs more rounds than this. The cheapest cases need
    /// thousands: a count that takes 25 µs varies by ±50 % between repetitions on a shared machine.
    public static let maximumRounds = 10_000
    /// A read whose fastest warm-up takes less than this is timed in loops of executions that
    /// together take about this long (nanoseconds), each sample their mean.
    public static let loopTarget: UInt64 = 1_000_000

    public init(
        strategies: [String] = Strategies.names, workloads: [Workload] = Workloads.all, seed: UInt64 = defaultSeed,
        batchSize: Int = defaultBatchSize, repetitions: Int? = nil, timeBudget: Double? = nil,
        minRepetitions: Int = defaultMinRepetitions, maxRepetitions: Int = defaultMaxRepetitions,
        precision: Double = defaultPrecision, caseTime: Double? = nil, runTime: Double? = nil,
        temporaryParent: URL = FileManager.default.temporaryDirectory
    ) {
        self.strategies = strategies
        self.workloads = workloads
        self.seed = seed
        self.batchSize = batchSize
        self.repetitions = repetitions
        self.timeBudget = timeBudget
        self.minRepetitions = minRepetitions
        self.maxRepetitions = maxRepetitions
        self.precision = precision
        self.caseTime = caseTime
        self.runTime = runTime
        self.temporaryParent = temporaryParent
    }

    /// When `workload`'s cases stop: `--time-budget`, else `--repetitions`, else the precision rule
    /// with `--case-time` or the workload's own budget, and the workload's minimum.
    /// - parameter share: the case's share of `runTime`, per strategy, when the run has one.
    public func stoppingRule(for workload: Workload, share: Double? = nil) -> StoppingRule {
        if let timeBudget { return StoppingRule(.timeBudget(seconds: timeBudget, minimum: minRepetitions, maximum: maxRepetitions)) }
        if let repetitions { return StoppingRule(.fixed(rounds: repetitions)) }
        return StoppingRule(.precision(target: precision, budget: caseTime ?? share ?? workload.budget, minimum: workload.minimumRounds,
                                       maximum: Self.maximumRounds))
    }

    /// Whether cases share `runTime` (the default rule, a run time, no --case-time).
    public var sharesRunTime: Bool { runTime != nil && timeBudget == nil && repetitions == nil && caseTime == nil }

    /// The default run's time (`--run-time`): what `bench run` aims at on this 2-core machine, the
    /// publication model's 50,200 objects, building and checking its stores included.
    public static let defaultRunTime = 80.0

    /// The fixed number of timed repetitions of `workload`, or `nil` when a rule decides.
    public func repetitions(for workload: Workload) -> Int? { stoppingRule(for: workload).fixedRounds }
}

/// The result of one (strategy, workload, variant): every timed sample and the checked answer.
public struct WorkloadResult: Sendable {
    public var strategy: String
    /// The workload's name.
    public var workload: String
    /// "" or the workload's case (`popular`, `rare`).
    public var variant: String
    /// Rows in the answer (objects inserted, for insert workloads).
    public var rows: Int
    /// Nanoseconds of each timed repetition, in the order they ran.
    public var samples: [UInt64]
    /// This strategy's place (0-based) in the round of each sample (rounds are shuffled); empty
    /// when unknown.
    public var positions: [Int]
    /// Executions each sample is the mean of: above 1 for a read whose executions take less than
    /// `RunPlan.loopTarget`, timed back to back.
    public var loops: Int
    /// The strategy's warm-ups before the first block's timed rounds (`Rounds.warmups`).
    public var warmups: Int
    public var digest: AnswerDigest
    /// The store's size in bytes (after a WAL checkpoint).
    public var dbBytes: Int64
    /// What was measured: the hierarchy, its size, and the swept parameter's value, if any.
    public var setting: ResultSetting
    /// The work SQLite did for one execution of the case (the first timed repetition's, divided by
    /// its loops): the same on every machine and in every run of the same seed; nil when not counted.
    public var work: WorkCounts?
    /// The most memory SQLite held at once during the first timed repetition, bytes.
    public var sqliteMemoryBytes: Int64?
    /// The index of the first sample of each block the case was measured in (`[0]`: one block).
    public var blockStarts: [Int] = [0]
    /// The process's peak resident size when the case ended (the most it held so far in the run), bytes.
    public var peakResidentBytes: Int64?

    public init(strategy: String, workload: String, variant: String, rows: Int, samples: [UInt64], positions: [Int] = [], loops: Int = 1, warmups: Int,
                digest: AnswerDigest, dbBytes: Int64, setting: ResultSetting, work: WorkCounts? = nil,
                sqliteMemoryBytes: Int64? = nil, peakResidentBytes: Int64? = nil) {
        self.strategy = strategy
        self.work = work
        self.sqliteMemoryBytes = sqliteMemoryBytes
        self.peakResidentBytes = peakResidentBytes
        self.setting = setting
        self.workload = workload
        self.variant = variant
        self.rows = rows
        self.samples = samples
        self.positions = positions
        self.loops = loops
        self.warmups = warmups
        self.digest = digest
        self.dbBytes = dbBytes
    }

    /// "fetch-by-relationship/popular", or just the workload name.
    public var caseName: String { variant.isEmpty ? workload : "\(workload)/\(variant)" }
}

/// The dataset a result was measured on: the model, its
/// number of objects, and, in a sweep, the parameter varied and its value here.
public struct ResultSetting: Sendable, Equatable {
    /// The model's name (a preset's, or the `name` in a `--model` file), with `/Root` when it has
    /// several hierarchies (`Model.hierarchyLabel`).
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
    /// A case starts: every strategy runs `warmups` untimed and then timed repetitions, interleaved,
    /// until `rule` stops them.
    case measuring(caseName: String, strategies: [String], warmups: Int, rule: StoppingRule)
    /// A strategy is about to run round `round` (1-based, warm-ups included) of the current case.
    case repetition(caseName: String, strategy: String, round: Int, rounds: Int?)
    /// A case is measured: every strategy's result, in plan order.
    case measured([WorkloadResult])
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

/// Runs every selected workload against every selected strategy on one model, checks that all
/// strategies agree on every answer, and reports each result as it completes.
///
/// Strategies are measured side by side: repetition *r* of every strategy runs before repetition
/// *r + 1* of any, in an order shuffled each round, so that a slow phase of a shared machine falls
/// on all strategies alike. Setup (creating stores, generating objects,
/// preparing statements, checking stores, digesting answers) stays outside the timed regions.
public final class Runner {
    public let plan: RunPlan
    public let model: Model
    public let generator: ObjectGenerator
    public let inputs: WorkloadInputs
    public let temporaryFolder: URL
    private let setting: ResultSetting
    private let onEvent: (RunEvent) throws -> Void
    /// The strategies `plan.strategies` names are looked up in.
    private let registry: [any StorageLayout.Type]
    /// The run's time shared among its cases, when the plan has a run time.
    private var timeShare: TimeShare?

    public convenience init(plan: RunPlan, model: Model, sweep: (parameter: String, value: String)? = nil,
                            registry: [any StorageLayout.Type] = Strategies.all, onEvent: @escaping (RunEvent) throws -> Void = { _ in }) {
        self.init(plan: plan, inputs: WorkloadInputs(model: model, generator: ObjectGenerator(model, seed: plan.seed)), sweep: sweep,
                  registry: registry, onEvent: onEvent)
    }

    /// A runner on inputs already made (`bench run` counts its cases on them first): of the model
    /// to measure, their generator seeded with `plan.seed`. They take a pass over the main
    /// hierarchy to make, so they are made once.
    public init(plan: RunPlan, inputs: WorkloadInputs, sweep: (parameter: String, value: String)? = nil,
                registry: [any StorageLayout.Type] = Strategies.all, onEvent: @escaping (RunEvent) throws -> Void = { _ in }) {
        self.plan = plan
        self.registry = registry
        model = inputs.model
        generator = inputs.generator
        self.inputs = inputs
        setting = ResultSetting(hierarchy: model.hierarchyLabel, scale: generator.totalCount,
                                sweepParameter: sweep?.parameter ?? "", sweepValue: sweep?.value ?? "")
        temporaryFolder = plan.temporaryParent.appendingPathComponent("inheritance-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.onEvent = onEvent
    }

    /// Runs the plan; returns every result, case by case, strategies in plan order.
    public func run() throws -> [WorkloadResult] {
        let types = try plan.strategies.map { name in
            guard let type = registry.first(where: { $0.name == name }) else {
                throw NameList.unknown(name, valid: registry.map { $0.name }, what: "strategy")
            }
            return type
        }
        // Each layout is derived once and shared by every store of the run.
        let layouts = try types.map { try $0.init(model: model) }
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        var results: [WorkloadResult] = []
        func report(_ group: [WorkloadResult]) throws {
            results += group
            try onEvent(.measured(group))
        }
        let workloads = plan.workloads.filter { $0.applies(to: model) }
        // `update` changes the read store: it runs after every other read, whatever order the plan names.
        let reads = workloads.filter { $0.kind == .read || $0.kind == .delete } + workloads.filter { $0.kind == .update }
        let census = Census(generator)
        if plan.sharesRunTime, let runTime = plan.runTime {
            let weights = workloads.flatMap { workload in Array(repeating: workload.budget, count: workload.variants(on: inputs).count) }
            timeShare = TimeShare(seconds: runTime, weights: weights)
        }
        var readStores: [Store?] = Array(repeating: nil, count: layouts.count)
        defer { readStores.forEach { $0?.remove() } }
        for workload in workloads where workload.isInsert {
            let keep = workload.kind == .insertBulk && !reads.isEmpty
            let (group, kept) = try measureInsert(workload, layouts, census: census, keepLastStores: keep)
            if keep { readStores = kept }
            try report(group)
        }
        guard !reads.isEmpty else { return results }
        try populate(&readStores, layouts, census: census)
        let stores = readStores.compactMap { $0 }
        for workload in reads {
            switch workload.kind {
            case .delete: try report(try measureDelete(workload, layouts, stores))
            case .update: try report(try measureUpdate(workload, layouts, stores))
            default:
                for workloadCase in workload.cases(inputs) { try report(try measureRead(workload, workloadCase, layouts, stores)) }
            }
        }
        return results
    }

    /// Builds the read store of each strategy that has none yet (no `insert-bulk` kept one), then,
    /// with `plan.analyze`, runs `ANALYZE` on every read store.
    private func populate(_ readStores: inout [Store?], _ layouts: [any StorageLayout], census: Census) throws {
        for (index, layout) in layouts.enumerated() where readStores[index] == nil {
            let name = layout.name
            try onEvent(.populating(strategy: name, scale: generator.totalCount))
            let store = try Store(layout, path: storePath(name, "read"))
            readStores[index] = store
            try store.populate(generator, batchSize: plan.batchSize, census: census)
        }
        if plan.analyze { for store in readStores.compactMap({ $0 }) { try QueryPlan.analyze(try store.opened.database) } }
    }

    // MARK: Cases

    private func caseName(_ workload: Workload, _ variant: String) -> String { variant.isEmpty ? workload.name : "\(workload.name)/\(variant)" }

    private func makeResults(_ workload: Workload, _ variant: String, _ layouts: [any StorageLayout],
                         _ samples: Rounds, bytes: [Int64]) -> [WorkloadResult] {
        layouts.indices.map { index in
            var result = WorkloadResult(strategy: layouts[index].name, workload: workload.name, variant: variant, rows: samples.answers[index].rows,
                           samples: samples.timed[index], positions: samples.positions[index], loops: samples.loops[index], warmups: samples.warmups[index],
                           digest: samples.answers[index].digest,
                           dbBytes: bytes[index], setting: setting, work: samples.work[index],
                           sqliteMemoryBytes: samples.sqliteMemory[index], peakResidentBytes: peakResidentBytes())
            result.blockStarts = samples.blockStarts
            return result
        }
    }

    /// Times one case of a read workload on the read stores. A new block reads through
    /// connections opened afresh: SQLite's page cache empty, the statements prepared again (the
    /// queries themselves, SQL and values derived from the layout alone, are built once).
    private func measureRead(_ workload: Workload, _ workloadCase: WorkloadCase, _ layouts: [any StorageLayout],
                             _ stores: [Store]) throws -> [WorkloadResult] {
        let queries = try stores.map { try $0.queries(workloadCase) }
        let name = caseName(workload, workloadCase.variant)
        let reopen = { (_: Int) throws in for store in stores { try store.reopen() } }
        let samples = try interleave(name, workload, layouts, loopTarget: RunPlan.loopTarget, onBlock: reopen) { index, _, loops in
            try stores[index].read(queries[index], counts: workloadCase.counts, ordered: workloadCase.ordered, loops: loops, caseName: name)
        }
        return makeResults(workload, workloadCase.variant, layouts, samples, bytes: stores.map(\.bytes))
    }

    /// Times an insert workload on a fresh store per repetition; with `keepLastStores`, hands back
    /// each strategy's last store (checked and checkpointed) instead of removing it.
    private func measureInsert(_ workload: Workload, _ layouts: [any StorageLayout], census: Census,
                               keepLastStores: Bool) throws -> ([WorkloadResult], [Store?]) {
        // Generated once, untimed; every repetition of every strategy inserts the same arrays.
        let transactions: AnySequence<[ModelObject]>
        let expected: Census
        if workload.kind == .insertBulk {
            // Up to a million objects are made once, and every repetition of every strategy inserts
            // the same arrays; above, each repetition makes them as it goes (between the timed
            // transactions), so that memory does not grow with the scale.
            let batches = generator.batches(of: plan.batchSize)
            transactions = generator.totalCount <= Self.generateOnceLimit ? AnySequence(Array(batches)) : AnySequence(batches)
            expected = census
        } else {
            let objects = inputs.singleInsertObjects
            transactions = AnySequence(objects.map { [$0] })
            expected = Census(model, objects: objects)
        }
        var kept: [Store?] = Array(repeating: nil, count: layouts.count)
        var bytes = Array(repeating: Int64(0), count: layouts.count)
        let samples = try interleave(workload.name, workload, layouts) { index, repetition, _ in
            let store = try Store(layouts[index], path: storePath(layouts[index].name, "\(workload.name)-\(repetition)"))
            do {
                let sample = try store.timedInsert(transactions, census: expected, thorough: repetition == 0)
                bytes[index] = store.bytes
                if keepLastStores { kept[index]?.remove(); kept[index] = store } else { store.remove() }
                return sample
            } catch {
                store.remove()
                throw error
            }
        }
        return (makeResults(workload, "", layouts, samples, bytes: bytes), kept)
    }

    /// Each repetition sets the attribute on the same objects; their versions go up by one per round.
    /// The store is checkpointed (untimed) before each repetition, so that every repetition writes
    /// into an empty WAL: otherwise SQLite's automatic checkpoint (at 1,000 WAL pages) lands in
    /// every other repetition or so, and the median falls between two modes.
    private func measureUpdate(_ workload: Workload, _ layouts: [any StorageLayout], _ stores: [Store]) throws -> [WorkloadResult] {
        guard let attribute = model.updateAttribute else { throw NameList.Error(description: "update does not apply to \(model.name)") }
        let ids = inputs.updateIDs
        let samples = try interleave(workload.name, workload, layouts) { index, round, _ in
            let strategy = (try stores[index].opened)
            let objects = inputs.updateObjects(round: round)
            let value = inputs.updateValue(round: round)
            try StoreFile.checkpoint(strategy.database)
            var changed = 0
            strategy.database.startCountingWork()
            let elapsed = try Sample.nanoseconds { changed = try strategy.update(objects, attribute: attribute, value: value) }
            let work = strategy.database.stopCountingWork()
            // Untimed: every object changed exactly once, and nothing else.
            let versions = try strategy.versions(ids)
            guard changed == ids.count, versions.allSatisfy({ $0 == Int64(round + 2) }) else {
                throw StoreCheckFailure(description: "\(stores[index].name): update changed \(changed) of \(ids.count) objects, or left versions other than \(round + 2)")
            }
            return Sample(nanoseconds: elapsed, rows: changed, digest: AnswerDigest(.ordered, of: [changed] + ids.map { Int($0.key) }), work: work)
        }
        return makeResults(workload, "", layouts, samples, bytes: stores.map(\.bytes))
    }

    /// Each repetition deletes from a fresh copy of the read store (copied untimed). The first then
    /// checks the whole store (objects per entity, link rows, `quick_check`) and its answer is that
    /// digest; later ones, deleting the same objects from the same copy, are checked on the count
    /// deleted, so that a round costs little more than its deletes.
    private func measureDelete(_ workload: Workload, _ layouts: [any StorageLayout], _ stores: [Store]) throws -> [WorkloadResult] {
        let ids = inputs.deleteIDs
        var bytes = stores.map(\.bytes)
        let samples = try interleave(workload.name, workload, layouts) { index, repetition, _ in
            let path = storePath(stores[index].name, "delete-\(repetition)")
            let copy = try stores[index].copy(to: path)
            defer { copy.remove() }
            let strategy = (try copy.opened)
            var deleted = 0
            strategy.database.startCountingWork()
            let elapsed = try Sample.nanoseconds { deleted = try strategy.delete(ids) }
            let work = strategy.database.stopCountingWork()
            guard repetition == 0 else { return Sample(nanoseconds: elapsed, rows: deleted, digest: AnswerDigest(.ordered, of: [deleted]), digestIsFull: false, work: work) }
            let counts = try model.entities.map { entity in
                entity.isConcrete ? try strategy.count(FetchRequest(entity: entity.index, includesSubentities: false)) : 0
            }
            let links = try Census.relationships(model).map { try strategy.countLinks($0) }
            let verdict = try strategy.database.strings("PRAGMA quick_check")
            guard verdict == ["ok"] else { throw StoreCheckFailure(description: "\(stores[index].name): the store failed quick_check after delete-cascade") }
            try StoreFile.checkpoint(strategy.database)
            bytes[index] = fileSize(path)
            return Sample(nanoseconds: elapsed, rows: deleted, digest: AnswerDigest(.ordered, of: [deleted] + counts + links), work: work)
        }
        return makeResults(workload, "", layouts, samples, bytes: bytes)
    }

    private func interleave(_ caseName: String, _ workload: Workload, _ layouts: [any StorageLayout], loopTarget: UInt64? = nil,
                            onBlock: (Int) throws -> Void = { _ in },
                            _ repetition: (_ strategy: Int, _ repetition: Int, _ loops: Int) throws -> Sample) throws -> Rounds {
        let names = layouts.map { $0.name }
        let share = timeShare?.next(weight: workload.budget, strategies: names.count)
        let rule = plan.stoppingRule(for: workload, share: share)
        return try interleaveRounds(caseName, names, warmups: workload.warmups, rule: rule,
                             seed: plan.seed, baseline: names.firstIndex { $0 == Strategies.baseline.name },
                             loopTarget: loopTarget, blocks: rule.blocks(for: workload, plan: plan), onBlock: onBlock, onEvent: onEvent, repetition)
    }

    static let generateOnceLimit = 1_000_000

    /// The process's peak resident set size so far (`getrusage`'s `ru_maxrss`, KiB on Linux and
    /// bytes on macOS), in bytes; nil when the system does not say.
    private func peakResidentBytes() -> Int64? {
        var usage = rusage()
        #if os(Linux)
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0, usage.ru_maxrss > 0 else { return nil }
        return Int64(usage.ru_maxrss) * 1024
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0, usage.ru_maxrss > 0 else { return nil }
        return Int64(usage.ru_maxrss)
        #endif
    }

    private func storePath(_ strategy: String, _ purpose: String) -> String {
        temporaryFolder.appendingPathComponent("\(strategy)-\(purpose).sqlite").path
    }
}
