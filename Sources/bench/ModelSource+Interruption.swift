import Foundation
import Strategies

extension ModelSource {
    /// Runs `body`, a read of a store file that may copy the store into a private folder (a store
    /// with a `-wal` beside it): an interruption meanwhile removes this process's private copies
    /// (the `store` folders of `PrivateStoreFolder` in the temporary directory), says so, and ends
    /// the process as every command that makes files does. Afterwards each signal is handled as it
    /// was before (a command's own handler, or the default: Ctrl-C ends the process).
    func readingStore<T>(_ body: () throws -> T) throws -> T {
        let previous = InterruptionHandler.signals.map { ($0, signal($0, SIG_IGN)) }
        let interruption = InterruptionHandler(exclusive: NSRecursiveLock()) {
            let removed = Self.removePrivateCopies()
            return removed > 0 ? "the private copy of the store removed; nothing was written" : "nothing was written"
        }
        defer {
            interruption.cancel()
            for (number, handler) in previous { signal(number, handler) }
        }
        return try body()
    }

    /// Removes this process's private copies of stores; returns how many there were.
    static func removePrivateCopies(in folder: URL = FileManager.default.temporaryDirectory) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let own = names.filter { name in PrivateStoreFolder.owner(ofName: name).map { $0.command == "store" && $0.pid == getpid() } ?? false }
        for name in own { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        return own.count
    }
}
