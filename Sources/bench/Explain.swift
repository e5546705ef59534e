import ArgumentParser
import Foundation
import Generation
import Models
import Reporting
import Strategies
import Workloads

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Writes the query plan of every workload's SQL for every strategy, and flags full table scans a workload should not need.",
        discussion: """
            Builds each strategy's store for the model (untimed), runs EXPLAIN QUERY PLAN on every distinct \
            statement of every read workload that applies to it, with the run's own parameters, prints the \
            plans and writes them to results/<timestamp>.plans.txt (or --output). Each workload has one rule, \
            listed at the top of the report (see `bench list` and docs/workloads.md): may scan, scan only a table \
            that is the whole answer, no scan, or read the order from an index; and no statement may read a table \
            through Core Data's Z_ENT index when an index of a column its WHERE constrains was there to use. With \
            --analyze, ANALYZE then runs on each store and the plans are taken again: the report shows both plans \
            where they differ and ends with the list of plans ANALYZE changed. Exit status 1 when a plan \
            (either) breaks a rule.
            """
    )

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var model: ModelOptions

    @OptionGroup var strategies: StrategyOptions

    @OptionGroup var storeFolder: StoreFolderOptions

    /// Your fetches: their plans instead of the workloads'.
    @OptionGroup var fetch: FetchOptions

    @Option(help: "Path of the plans file (default: results/<timestamp>.plans.txt, beside the results CSVs).")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Flag(help: "Take the plans again after running ANALYZE on each store (Core Data's NSSQLiteAnalyzeOption), and show every plan it changes.")
    var analyze = false

    /// The model `validate()` read, for the run.
    var validated = ValidatedModel()

    mutating func validate() throws {
        try dataset.check(model)
        let loaded = try model.load(scale: dataset.scale)
        _ = try fetch.workloads(loaded.model)
        validated.value = loaded
        if force, output == nil { throw ValidationError("--force only applies with --output") }
    }

    func run() throws {
        let flagged: [QueryPlan]
        let exclusive = NSRecursiveLock()
        do {
            let layouts = try strategies.layouts()
            let folder = try storeFolder.untimed()
            let (url, claim) = try OutputFile.destination(output, defaultName: "\(RunContext.fileStamp(Date())).plans.txt", force: force, inputs: model.source().inputs + fetch.inputs)
            defer { claim.release() }
            let plans = try withPrivateStores("explain", in: folder, writing: url, claim: claim, exclusive: exclusive) { stores in
                let model = try self.model.model(validated, scale: dataset.scale).announced()
                let own = try fetch.workloads(model, reportingSources: true)
                let opened = try dataset.open(model, source: try self.model.source())
                defer { opened.close() }
                return try QueryPlan.explainAll(strategies: layouts, dataset: opened.dataset, batchSize: dataset.batch, analyze: analyze,
                                                workloads: own.isEmpty ? Workloads.all : own, temporaryParent: stores)
            }
            let report = QueryPlan.report(plans)
            exclusive.lock() // an interruption from here on waits for the end (the file is written)
            try AtomicFile.write(report, to: url)
            print(report, terminator: "")
            flagged = QueryPlan.flagged(plans)
            let statements = plans.filter { !$0.analyzed }.count
            let changed = analyze ? ", \(QueryPlan.changedByAnalyze(plans).count) changed by ANALYZE" : ""
            print("\nplans: \(output ?? "results/" + url.lastPathComponent)  (\(statements) queries, \(flagged.count) flagged\(changed))")
        } catch {
            // An interruption under way holds the lock and ends the process: this error is then a
            // consequence of its cleanup (the stores vanished) and is not reported.
            exclusive.lock()
            throw reportFailure(error)
        }
        if !flagged.isEmpty {
            printError("error: \(flagged.count) statements do work an index should spare them: " + flagged.map { "\($0.strategy) \($0.workload)\($0.analyzed ? " (after ANALYZE)" : "")" }.joined(separator: ", "))
            throw ExitCode.failure
        }
    }
}
