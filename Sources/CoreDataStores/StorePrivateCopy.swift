import Foundation
import StoreFiles

/// The private copy a store in use is read from (its file and its `-wal`, in a `PrivateStoreFolder`
/// of the temporary folder), shared with an interruption handler: `cancel()` removes the copy,
/// even one being made or written at that moment, and stops any later one from being made.
public final class StorePrivateCopy: @unchecked Sendable {
    private let lock = NSLock()
    private var folder: PrivateStoreFolder?
    private var cancelled = false

    public init() {}

    /// Makes `made` the copy's folder; `false` when an interruption came first (nothing is made).
    func make(_ made: PrivateStoreFolder) throws -> Bool {
        try lock.withLock {
            guard !cancelled else { return false }
            try made.make()
            folder = made
            return true
        }
    }

    /// Removes the copy (a copy being written goes with its folder) and refuses any later one.
    public func cancel() {
        lock.withLock {
            cancelled = true
            folder?.remove()
            folder = nil
        }
    }

    /// Removes the copy once the store is read.
    public func remove() {
        lock.withLock {
            folder?.remove()
            folder = nil
        }
    }
}
