import ArgumentParser
import Foundation
import Reporting
import Strategies
import Workloads

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes the query plan of every lookup of every strategy, and flags full table scans a lookup should not need.",
        discussion: """
            Builds each strategy's store (untimed), runs EXPLAIN QUERY PLAN on each lookup with the \
            run's own parameters, prints the plans and writes them to results/<timestamp>.plans.txt. \
            Exit status 1 when a lookup scans a whole table or a page (fetch-page, page-keyset) is sorted instead of read from an index.
            """
    )

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var strategies: StrategyOptions

    @Option(help: "Path of the plans file (default: results/<timestamp>.plans.txt, beside the results CSVs).")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if force, output == nil { throw ValidationError("--force only applies with --output") }
    }

    func run() throws {
        let flagged: [QueryPlan]
        do {
            let names = try strategies.names()
            let url = try OutputFile.destination(output, defaultName: "\(RunContext.fileStamp(Date())).plans.txt", force: force)
            let plans = try QueryPlan.explainAll(strategies: names, dataset: dataset.configuration, batchSize: dataset.batch)
            let report = QueryPlan.report(plans)
            try AtomicFile.write(report, to: url)
            print(report, terminator: "")
            flagged = QueryPlan.flagged(plans)
            print("\nplans: \(output ?? "results/" + url.lastPathComponent)  (\(plans.count) queries, \(flagged.count) flagged)")
        } catch {
            throw reportFailure(error)
        }
        if !flagged.isEmpty {
            printError("error: \(flagged.count) lookups do work an index should spare them: " + flagged.map { "\($0.strategy) \($0.workload)" }.joined(separator: ", "))
            throw ExitCode.failure
        }
    }
}
