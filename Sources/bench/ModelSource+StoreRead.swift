import CoreDataStores
import Foundation
import ModelSources

extension ModelSource {
    /// Reads a store; Ctrl-C, SIGTERM or SIGHUP meanwhile removes its private copy (a store in use
    /// is copied with its `-wal` to be read as committed) and ends with 128 + the signal. A failure
    /// is reported only when no interruption is under way (the handler keeps `exclusive`).
    static func readStore(_ path: String) throws -> CoreDataStoreFile {
        let copy = StorePrivateCopy()
        let exclusive = NSRecursiveLock()
        let interruption = InterruptionHandler(exclusive: exclusive) {
            copy.cancel()
            return "\(path.escapingControlCharacters) was not read; nothing was written (a private copy of it, if one was being made, was removed)"
        }
        defer { interruption.cancel() }
        do {
            return try CoreDataStoreFile.read(path: path, privateCopy: copy, progress: { printError($0) })
        } catch {
            exclusive.lock()
            exclusive.unlock()
            throw error
        }
    }
}
