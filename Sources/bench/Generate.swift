import ArgumentParser
import Foundation
import Generation
import Models
import Reporting
import SQLite
import StoreFiles
import Strategies
import Workloads

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Writes one populated store, to open in sqlite3.",
        discussion: "Example: bench generate --strategy \(Strategies.baseline.name) --scale 1000 --output store.sqlite && sqlite3 store.sqlite .schema"
    )

    @Option(help: "The strategy whose layout the store uses. See `bench list`.")
    var strategy: String

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var model: ModelOptions

    @Option(help: "Path of the store to write; its folder must exist.")
    var output: String

    @Flag(help: "Replace the --output store if it exists.")
    var force = false

    /// The model `validate()` read, for the run.
    var validated = ValidatedModel()

    mutating func validate() throws {
        try dataset.check(model)
        validated.value = try model.load(scale: dataset.scale)
        do { _ = try Strategies.layout(named: strategy) } catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let exclusive = NSRecursiveLock()
        do {
            let (url, claim) = try OutputFile.destination(output, defaultName: "", force: force, inputs: model.source().inputs) { url in
                // Replacing the store removes its companions; it is built under a partial name beside it.
                StoreFile.companions(of: url.path).map { (URL(fileURLWithPath: $0), "the store's companion") }
                    + [(URL(fileURLWithPath: StoreGeneration.partialPath(for: url.path)), "the partial store")]
            }
            defer { claim.release() }
            // StoreGeneration builds the store under this name beside the output, then renames it.
            let partial = StoreGeneration.partialPath(for: url.path)
            try OutputPath.checkCreatable(partial, for: url)
            let interruption = InterruptionHandler(exclusive: exclusive) {
                StoreFile.remove(partial)
                claim.release()
                return "the partial store \(partial) removed; \(url.path) was not written"
            }
            defer { interruption.cancel() }
            let model = try self.model.model(validated, scale: dataset.scale).announced()
            let opened = try dataset.open(model, source: try self.model.source())
            defer { opened.close() }
            let census = try StoreGeneration.generate(try Strategies.layout(named: strategy), dataset: opened.dataset, batchSize: dataset.batch, path: url.path)
            exclusive.lock() // the store is in place: an interruption from here on waits for the end
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
            let objects = opened.dataset.isPrivate ? "the objects of \((self.model.model ?? "the store").escapingControlCharacters)" : "seed \(dataset.seed)"
            print("wrote \(url.path): \(strategy) layout, \(census.objects.reduce(0, +)) objects, \(census.links.reduce(0, +)) links, model \(model.name), \(size) bytes (\(objects))")
        } catch let error as SQLiteError where error.isFull {
            // The partial store is already removed (StoreGeneration.generate); say which volume needs space.
            let url = URL(fileURLWithPath: output)
            exclusive.lock() // an interruption under way ends the process; its cleanup's errors are not reported
            let folder = url.deletingLastPathComponent().path
            throw reportFailure(CommandFailure(description: storeFullMessage(error, store: url.path, folder: folder,
                                                                                   fix: "free disk space in \(folder) or lower --scale")))
        } catch {
            // An interruption under way holds the lock and ends the process: this error is then a
            // consequence of its cleanup (the stores vanished) and is not reported.
            exclusive.lock()
            throw reportFailure(error)
        }
    }
}
