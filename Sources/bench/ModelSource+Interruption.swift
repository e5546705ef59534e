import Foundation
import Strategies

extension ModelSource {
    /// Runs `body`, a read of a store file that may copy the store into a private folder (a store
    /// with a `-wal` beside it): an interruption meanwhile removes this process's private copies
    /// (the `store` folders of `PrivateStoreFolder` in the temporary directory), says so, and ends
    /// the process as every command that makes files does.
    func readingStore<T>(_ body: () throws -> T) throws -> T {
        let interruption = InterruptionHandler(exclusive: NSRecursiveLock()) {
            let removed = Self.removePrivateCopies()
            return removed > 0 ? "the private copy of the store removed; nothing was written" : "nothing was written"
        }
        defer { interruption.cancel() }
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
