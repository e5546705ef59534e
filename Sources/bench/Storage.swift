import ArgumentParser
import Foundation
import Generation
import Models
import Reporting
import Strategies
import Workloads

struct Storage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract: "Measures where each strategy's store spends its bytes: per table, per index, and NULL cells.",
        discussion: "Builds the dataset once per strategy (untimed) and reads SQLite's dbstat. Writes results/<timestamp>.storage.csv."
    )

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var model: ModelOptions

    @OptionGroup var strategies: StrategyOptions

    @OptionGroup var storeFolder: StoreFolderOptions

    @Option(help: "Path of the storage CSV (default: results/<timestamp>.storage.csv). Its folder must exist.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    /// The model `validate()` read, for the run.
    var validated = ValidatedModel()

    mutating func validate() throws {
        try dataset.check(model)
        validated.value = try model.load(scale: dataset.scale)
        if force, output == nil { throw ValidationError("--force only applies with --output") }
    }

    func run() throws {
        let started = Date()
        let exclusive = NSRecursiveLock()
        do {
            let layouts = try strategies.layouts()
            let folder = try storeFolder.untimed()
            let (url, claim) = try OutputFile.destination(output, defaultName: "\(RunContext.fileStamp(started)).storage.csv", force: force, inputs: model.source().inputs)
            defer { claim.release() }
            let (reports, context) = try withPrivateStores("storage", in: folder, writing: url, claim: claim, exclusive: exclusive) { stores in
                let opened = try dataset.open(try model.model(validated, scale: dataset.scale).announced(), source: try model.source())
                defer { opened.close() }
                return (try StorageReport.run(strategies: layouts, dataset: opened.dataset, batchSize: dataset.batch, temporaryParent: stores) { name in
                    if standardErrorIsTerminal { printError("building the \(name) store…") }
                }, RunContext.current(date: started, storeFolder: folder.url, probeIn: stores))
            }
            exclusive.lock() // an interruption from here on waits for the end (the file is written)
            try AtomicFile.write(StorageCSV.render(reports, seed: dataset.seed, context: context), to: url)
            print(StorageCSV.table(reports), terminator: "")
            print("\nstorage: \(output ?? "results/" + url.lastPathComponent)")
        } catch {
            // An interruption under way holds the lock and ends the process: this error is then a
            // consequence of its cleanup (the stores vanished) and is not reported.
            exclusive.lock()
            throw reportFailure(error)
        }
    }
}
