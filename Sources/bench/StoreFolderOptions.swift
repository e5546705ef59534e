import ArgumentParser
import Foundation
import Reporting
import StoreFiles

/// `--store-folder`, shared by every command that builds stores.
struct StoreFolderOptions: ParsableArguments {
    @Option(name: .customLong("store-folder"), help: ArgumentHelp(
        "Folder for the temporary stores (default: TMPDIR when set; else, for timings, the memory-backed /dev/shm when the stores fit in half its room; else /tmp).",
        valueName: "folder"))
    var storeFolder: String?

    /// The folder for stores that are timed (checked when the command starts writing): one store
    /// of about `storeBytes` per strategy for the reads, and one more per strategy at a time for
    /// an insert or a delete's copy.
    func forTiming(storeBytes: Int64, strategies: Int) -> StoreFolder {
        StoreFolder.forTiming(option: storeFolder, estimatedBytes: storeBytes * Int64(strategies) * 2)
    }

    /// The checked folder for stores that are not timed.
    func untimed() throws -> StoreFolder {
        removeLeftovers(quiet: false)
        let folder = StoreFolder.untimed(option: storeFolder)
        try folder.check()
        return folder
    }

    /// Every folder a command may put its stores in: `--store-folder`, the temporary folder
    /// (TMPDIR or /tmp) and the memory-backed one.
    var candidates: [URL] {
        [storeFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }, FileManager.default.temporaryDirectory,
         URL(fileURLWithPath: StoreFolder.memoryPath, isDirectory: true)].compactMap { $0 }
    }

    /// Removes the store folders of bench processes that were killed (`LeftoverStores`) from every
    /// candidate folder, before a command measures how much room the memory-backed folder has; says
    /// what it freed unless `quiet`.
    func removeLeftovers(quiet: Bool) {
        let outcome = LeftoverStores.remove(in: candidates)
        guard !quiet else { return }
        if !outcome.removed.isEmpty { printError("note: \(LeftoverStores.note(outcome.removed))") }
        for failure in outcome.failed { printError("warning: \(LeftoverStores.note(failure))") }
    }
}
