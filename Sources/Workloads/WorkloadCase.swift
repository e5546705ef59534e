import Dataset
import Foundation
import Strategies

/// One (strategy, workload, variant) case, ready to be repeated by an external benchmark harness
/// (the package-benchmark suite in `Benchmarks/`). It runs the same code as `Runner`: the same
/// stores, the same setup, and the same strategy calls in the timed region.
///
/// - `init` makes a temporary folder and, for a read workload, one store populated with the whole
///   dataset (untimed, like the runner's read stores).
/// - `prepareRepetition()` is the untimed setup of one repetition. For an insert workload it
///   checks the previous repetition's store (per-type counts against the generator), removes it,
///   creates a fresh store with its schema and tags, and generates the objects to insert. For a
///   read workload it does nothing. (`update` writes the case's store, a new `updatedate` each
///   repetition; `delete-cascade` copies the store, untimed, inside `run`, before `startMeasurement`.)
/// - `run(startMeasurement:stopMeasurement:)` runs one repetition. If an insert repetition has not
///   been prepared, it prepares one first, before `startMeasurement`. `startMeasurement` is called
///   right before and `stopMeasurement` right after exactly the strategy calls the runner times:
///   the read (`StrategyStore.read`), or the insert transactions one after another. Everything
///   else (setup, releasing a read's answer) falls outside them.
/// - `deinit` (or `close()`) removes the folder and its stores.
///
/// Unlike the runner, a case does not digest answers or compare strategies; the runner and the
/// tests do that for the same code.
public final class WorkloadCase {
    public let strategy: String
    public let workload: Workload
    /// "" or the workload's case (`popular`, `rare` for `fetch-by-tag`).
    public let variant: String
    public let dataset: DatasetConfiguration
    public let batchSize: Int
    /// The folder holding this case's stores; removed by `close()` or `deinit`.
    public let temporaryFolder: URL

    private let contender: Contender
    private let generator: DatasetGenerator
    /// The populated store a read workload reads; the current repetition's store for an insert workload.
    private var store: (any HarnessStore)?
    /// An insert workload's plan and what its stores must hold after a repetition.
    private let inserts: (plan: InsertPlan, expected: DatasetGenerator.Census)?
    /// The prepared, not yet run, transactions of the next insert repetition.
    private var pending: [[GeneratedPublication]]?
    private var repetitions = 0
    private var closed = false

    /// Creates the temporary folder and, for a read workload, populates its store (untimed).
    /// Throws for an unknown strategy or a variant the workload does not have.
    public init(
        strategy: String, workload: Workload, variant: String = "", dataset: DatasetConfiguration,
        batchSize: Int = RunPlan.defaultBatchSize, temporaryParent: URL = FileManager.default.temporaryDirectory
    ) throws {
        guard let type = Strategies.named(strategy) else {
            throw NameList.unknown(strategy, valid: Strategies.names, what: "strategy")
        }
        guard workload.variants.contains(variant) else {
            let valid = workload.variants.map { $0.isEmpty ? "\"\"" : $0 }
            throw NameList.unknown(variant, valid: valid, what: "variant of \(workload.rawValue)")
        }
        guard batchSize > 0 else { throw NameList.Error(description: "the batch size must be at least 1, not \(batchSize)") }
        self.strategy = strategy
        self.workload = workload
        self.variant = variant
        self.dataset = dataset
        self.batchSize = batchSize
        generator = DatasetGenerator(dataset)
        let parameters = WorkloadParameters(generator: generator)
        contender = Contender(type, parameters: parameters)
        temporaryFolder = temporaryParent.appendingPathComponent("inheritance-bench-case-\(getpid())-\(UUID().uuidString.prefix(8))")
        if workload.isInsert {
            let plan = InsertPlan(workload, scale: dataset.scale, batchSize: batchSize)
            inserts = (plan, generator.census(plan.range))
        } else {
            inserts = nil
        }
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        do {
            if !workload.isInsert {
                let store = try contender.openForHarness!(storePath("read"))
                try store.populate(generator, batchSize, parameters.census)
                self.store = store
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// "fetch-by-tag/popular", or just the workload name.
    public var caseName: String { variant.isEmpty ? workload.rawValue : "\(workload.rawValue)/\(variant)" }

    /// Untimed setup of the next repetition (see the type's documentation). Nothing for a read workload.
    public func prepareRepetition() throws {
        try checkOpen()
        guard let inserts else { return }
        try finishInsertRepetition()
        let store = try contender.openForHarness!(storePath("\(workload.rawValue)-\(repetitions)"))
        self.store = store
        try store.prepareInsert(generator)
        pending = Array(inserts.plan.transactions(generator))
    }

    /// Runs one repetition and returns the answer's row count (objects inserted, for an insert
    /// workload). `startMeasurement` and `stopMeasurement` bracket exactly the strategy calls the
    /// runner times; pass a harness's (package-benchmark: `benchmark.startMeasurement` and
    /// `benchmark.stopMeasurement`) to measure only them.
    @discardableResult
    public func run(startMeasurement: @escaping () -> Void = {}, stopMeasurement: @escaping () -> Void = {}) throws -> Int {
        try checkOpen()
        let timing = HarnessTiming(start: startMeasurement, stop: stopMeasurement)
        guard let inserts else {
            // `update` writes a new updatedate each repetition; `delete-cascade` deletes from a fresh copy.
            defer { repetitions += 1 }
            return try store!.read(workload, variant, repetition: repetitions, timing)
        }
        if pending == nil { try prepareRepetition() }
        let transactions = pending!
        pending = nil
        repetitions += 1
        timing.start()
        try store!.insert(transactions) { save in try save() }
        timing.stop()
        return inserts.plan.range.count
    }

    /// Checks the current insert store if a repetition ran in it, then removes it (untimed).
    private func finishInsertRepetition() throws {
        guard let inserts, let store else { return }
        let ran = pending == nil
        self.store = nil
        pending = nil
        defer { store.remove() }
        if ran { try store.verify(inserts.expected) }
    }

    private func checkOpen() throws {
        if closed { throw NameList.Error(description: "the \(strategy) \(caseName) case is closed") }
    }

    /// Removes the stores and the temporary folder; the case cannot run afterwards (`run` and
    /// `prepareRepetition` throw). Called by `deinit`.
    public func close() {
        closed = true
        store?.remove()
        store = nil
        pending = nil
        try? FileManager.default.removeItem(at: temporaryFolder)
    }

    private func storePath(_ purpose: String) -> String {
        temporaryFolder.appendingPathComponent("\(strategy)-\(purpose).sqlite").path
    }
}
