import ArgumentParser
import Foundation
import Models
import Reporting
import StoreFiles

/// `bench clean`: removes what bench processes that were killed (SIGKILL, the out-of-memory
/// killer) could not: their folders of temporary stores. `run`, `sweep`, `storage` and `explain`
/// do the same when they start.
struct Clean: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Removes the store folders of bench processes that no longer run (killed with SIGKILL, or out of memory).",
        discussion: "Looks in --store-folder, the temporary folder (TMPDIR or /tmp) and /dev/shm. A folder is removed only when bench provably made it (its exact name, this user's, holding the marker bench writes in it, or "
            + "empty), its process has ended and no process holds its lock; run, sweep, storage and explain do this too when they start. A folder that cannot be removed is named, and the exit status is 1.")

    @OptionGroup var storeFolder: StoreFolderOptions

    func run() throws {
        if storeFolder.storeFolder != nil {
            do { try StoreFolder.untimed(option: storeFolder.storeFolder).check() } catch { throw reportFailure(error) }
        }
        let folders = storeFolder.candidates
        let outcome = LeftoverStores.remove(in: folders)
        for leftover in outcome.removed {
            print("removed \(leftover.url.path.escapingControlCharacters) (\(LeftoverStores.megabytes(leftover.bytes)), process \(leftover.pid))")
        }
        if !outcome.removed.isEmpty {
            print("freed \(LeftoverStores.megabytes(outcome.removed.reduce(0) { $0 + $1.bytes }))")
        } else if outcome.failed.isEmpty {
            print("nothing to remove: no store folder of a bench process that no longer runs in \(folders.map(\.path.escapingControlCharacters).joined(separator: ", "))")
        }
        guard outcome.failed.isEmpty else {
            for failure in outcome.failed { printError("error: \(LeftoverStores.note(failure))") }
            throw ExitCode.failure
        }
    }
}
