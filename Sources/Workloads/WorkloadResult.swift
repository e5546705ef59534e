import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

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
    /// The app's fetch or save the case times (`Workload.request`), nil for the suite's own.
    public var request: String?
    /// The process's peak resident size when the case ended (the most it held so far in the run), bytes.
    public var peakResidentBytes: Int64?
    /// In an app's fetch mix: the fetch's weight and the fetches one execution runs (its draws).
    public var mix: MixShare?

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
    /// Where the objects came from: `generated` (from the model and the seed), or `store` (the
    /// objects of the store the model was read from, every one copied into every layout).
    public var data: String

    public init(hierarchy: String, scale: Int, sweepParameter: String = "", sweepValue: String = "", data: String = "generated") {
        self.hierarchy = hierarchy; self.scale = scale; self.sweepParameter = sweepParameter; self.sweepValue = sweepValue; self.data = data
    }
}

/// A fetch's share of an app's fetch mix (`--fetches`): how often the app issues it (`weight`), and
/// how many fetches one execution of its case runs (`fetches`, one per draw of its `%@`), so that
/// a fetch takes the median over `fetches`.
public struct MixShare: Sendable, Equatable {
    public var weight: Double
    public var fetches: Int
    public init(weight: Double, fetches: Int) { self.weight = weight; self.fetches = fetches }
}
