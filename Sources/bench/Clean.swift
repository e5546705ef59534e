import ArgumentParser
import Foundation
import Reporting

/// `bench clean`: removes what bench processes that were killed (SIGKILL, the out-of-memory
/// killer) could not: their folders of temporary stores. `run`, `sweep`, `storage` and `explain`
/// do the same when they start.
struct Clean: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Removes the store folders of bench processes that no longer run (killed with SIGKILL, or out of memory).",
        discussion: "Looks in --store-folder, the temporary folder (TMPDIR or /tmp) and /dev/shm. A folder is removed only when its process has ended and no process holds its lock; run, sweep, storage and explain do this too when they start.")

    @OptionGroup var storeFolder: StoreFolderOptions

    func run() throws {
        if storeFolder.storeFolder != nil {
            do { try StoreFolder.untimed(option: storeFolder.storeFolder).check() } catch { throw reportFailure(error) }
        }
        let folders = storeFolder.candidates
        let removed = LeftoverStores.remove(in: folders)
        guard !removed.isEmpty else {
            print("nothing to remove: no store folder of a bench process that no longer runs in \(folders.map(\.path).joined(separator: ", "))")
            return
        }
        for leftover in removed {
            print("removed \(leftover.url.path) (\(LeftoverStores.megabytes(leftover.bytes)), process \(leftover.pid))")
        }
        print("freed \(LeftoverStores.megabytes(removed.reduce(0) { $0 + $1.bytes }))")
    }
}
