import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// What one run measures.
public struct RunPlan: Sendable {
    /// The strategies measured, in order, resolved from their names once (`Strategies.layouts(named:)`).
    public var layouts: [any StorageLayout.Type]
    /// Their names, as the results give them.
    public var strategies: [String] { layouts.map { $0.name } }
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
        strategies: [any StorageLayout.Type] = Strategies.all, workloads: [Workload] = Workloads.all, seed: UInt64 = defaultSeed,
        batchSize: Int = defaultBatchSize, repetitions: Int? = nil, timeBudget: Double? = nil,
        minRepetitions: Int = defaultMinRepetitions, maxRepetitions: Int = defaultMaxRepetitions,
        precision: Double = defaultPrecision, caseTime: Double? = nil, runTime: Double? = nil,
        temporaryParent: URL = FileManager.default.temporaryDirectory
    ) {
        layouts = strategies
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
