import ArgumentParser
import Foundation
import Reporting
import SQLite
import Strategies
import Workloads

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes one populated store, to open in sqlite3.",
        discussion: "Example: bench generate --strategy single-table --scale 1000 --output store.sqlite && sqlite3 store.sqlite .schema"
    )

    @Option(help: "The strategy whose layout the store uses. See `bench list`.")
    var strategy: String

    @OptionGroup var dataset: DatasetOptions

    @Option(help: "Path of the store to write; its folder must exist.")
    var output: String

    @Flag(help: "Replace the --output store if it exists.")
    var force = false

    func validate() throws {
        guard Strategies.named(strategy) != nil else {
            throw ValidationError(NameList.unknown(strategy, valid: Strategies.names, what: "strategy").description)
        }
    }

    func run() throws {
        do {
            let url = URL(fileURLWithPath: output)
            try checkDestination(url)
            let census = try StoreBuilder.generate(strategyName: strategy, dataset: dataset.configuration, batchSize: dataset.batch, path: url.path)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
            print("wrote \(url.path): \(strategy) layout, \(census.total) publications, \(census.tagLinks) tag links, \(size) bytes (seed \(dataset.seed))")
        } catch let error as SQLiteError where error.code == sqliteFull {
            // The partial store is already removed (StoreBuilder.generate); say which volume needs space.
            let url = URL(fileURLWithPath: output)
            throw reportFailure(CommandFailure(description: storeFullMessage(error, store: url.path, folder: url.deletingLastPathComponent().path)))
        } catch {
            throw reportFailure(error)
        }
    }

    private func checkDestination(_ url: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw CommandFailure(description: "the output path \(url.path) is a folder; give a file name such as \(url.appendingPathComponent("store.sqlite").path)")
            }
            guard force else {
                throw CommandFailure(description: "\(url.path) already exists; choose another --output or pass --force to replace it")
            }
            for suffix in ["", "-wal", "-shm"] { try? manager.removeItem(atPath: url.path + suffix) }
        }
        let folder = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        try OutputFolder.checkWritable(folder)
    }
}
