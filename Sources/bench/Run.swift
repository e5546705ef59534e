import ArgumentParser
import Dispatch
import Foundation
import Generation
import Models
import ModelSources
import Reporting
import SQLite
import StoreFiles
import Strategies
import Workloads

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs workloads against strategies on one model and writes a results CSV.",
        discussion: """
            Each strategy gets fresh stores for the insert workloads and one populated store for the read \
            workloads, in a temporary folder that is removed afterwards. Every answer is digested, and the run \
            stops if two strategies disagree. Workloads that do not apply to the model are skipped (see `bench model`).
            """
    )

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var model: ModelOptions

    @OptionGroup var strategies: StrategyOptions

    @Option(help: "Comma-separated workloads to run (default: every one of the default run that applies to the model; `bench list` marks the others). See `bench list`.")
    var workloads: String?

    /// Your fetches, measured instead of the default run (with --workloads, beside those).
    @OptionGroup var fetch: FetchOptions

    @OptionGroup var timing: TimingOptions

    @OptionGroup var output: ResultsOutputOptions

    @OptionGroup var storeFolder: StoreFolderOptions

    @OptionGroup var sqlLog: SQLLogOptions

    @Flag(help: "Run ANALYZE on each populated store before the reads are timed (Core Data's NSSQLiteAnalyzeOption); the results files are named <timestamp>.analyzed.csv.")
    var analyze = false

    /// The model `validate()` read, for the run.
    var validated = ValidatedModel()

    mutating func validate() throws {
        try output.checkNoneIsRead(model.source().inputs + fetch.inputs)
        try dataset.check(model)
        try output.checkForce(other: ("--log-sql", sqlLog.path))
        try sqlLog.check(dataset, layouts: try strategies.layouts())
        let loaded = try model.load(scale: dataset.scale)
        _ = try selectedWorkloads(loaded.model)
        validated.value = loaded
    }

    private func selectedWorkloads(_ model: Model, reportingSources: Bool = false) throws -> [Workload] {
        let own = try fetch.workloads(model, reportingSources: reportingSources)
        guard let workloads else { return own.isEmpty ? Workloads.defaultRun(on: model) : own }
        do { return try Workloads.parseList(workloads, for: model) + own }
        catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let started = Date()
        let layouts = try strategies.layouts()
        let model = try self.model.model(validated, scale: dataset.scale).announced()
        let workloads = try selectedWorkloads(model, reportingSources: !output.quiet)
        let log = try sqlLog.start(model, inputs: try self.model.source().inputs + fetch.inputs, results: output)
        try Self.measure(workloads, on: model, layouts: layouts, source: try self.model.source(), dataset: dataset, timing: timing, output: output,
                         storeFolder: storeFolder, analyze: analyze, started: started, log: log)
        guard let log else { return }
        try log.finish()
        if !output.quiet { printError("wrote \(log.statements) statements of \(Strategies.baseline.name) to \(log.url.path) (bench replay reads it)") }
    }

    /// Times `workloads` on the dataset of `model` in every layout and writes the results: what
    /// `bench run` and `bench replay` share.
    @discardableResult
    static func measure(_ workloads: [Workload], on model: Model, layouts: [any StorageLayout.Type], source: ModelSource, dataset: DatasetOptions, timing: TimingOptions,
                        output: ResultsOutputOptions, storeFolder: StoreFolderOptions, analyze: Bool, started: Date, log: SQLLog? = nil) throws -> [WorkloadResult] {
        storeFolder.removeLeftovers(quiet: output.quiet)
        let folder = storeFolder.forTiming(storeBytes: model.estimatedStoreBytes, strategies: layouts.count)
        let stores = PrivateStoreFolder(command: "run", in: folder.url)
        var plan = timing.plan(strategies: layouts, workloads: workloads, seed: dataset.seed, batchSize: dataset.batch,
                               temporaryParent: stores.url, defaultRunTime: RunPlan.defaultRunTime)
        plan.analyze = analyze
        let opened = try dataset.open(model, source: source)
        defer { opened.close() }
        // Made once (a pass over the main hierarchy): the cases are counted on them, and the run uses them.
        let inputs = WorkloadInputs(dataset: opened.dataset)
        try opened.dataset.checkReads()
        let cases = Workload.caseCount(workloads, on: inputs)
        return try Execution(plan: plan, started: started, cases: cases, output: output, stores: folder, privateFolder: stores,
                      fileSuffix: analyze ? ".analyzed" : "").run { onEvent in
            let runner = Runner(plan: plan, inputs: inputs, onEvent: onEvent)
            if let log { runner.statementLog = { try log.add($0) } }
            return runner.run
        }
    }
}
