import ArgumentParser
import Foundation
import Reporting
import Strategies
import Workloads
import Models

struct Storage: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measures where each strategy's store spends its bytes: per table, per index, and NULL cells.",
        discussion: "Builds the dataset once per strategy (untimed) and reads SQLite's dbstat. Writes results/<timestamp>.storage.csv."
    )

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var model: ModelOptions

    @OptionGroup var strategies: StrategyOptions

    @Option(help: "Path of the storage CSV (default: results/<timestamp>.storage.csv). Its folder must exist.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if force, output == nil { throw ValidationError("--force only applies with --output") }
    }

    func run() throws {
        let started = Date()
        do {
            let names = try strategies.names()
            let url = try OutputFile.destination(output, defaultName: "\(RunContext.fileStamp(started)).storage.csv", force: force)
            let reports = try StorageReport.run(strategies: names, model: try model.load(scale: dataset.scale), seed: dataset.seed, batchSize: dataset.batch) { name in
                if standardErrorIsTerminal { printError("building the \(name) store…") }
            }
            let context = RunContext.current(date: started)
            try AtomicFile.write(StorageCSV.render(reports, seed: dataset.seed, context: context), to: url)
            print(StorageCSV.table(reports), terminator: "")
            print("\nstorage: \(output ?? "results/" + url.lastPathComponent)")
        } catch {
            throw reportFailure(error)
        }
    }
}
