import SQLite
import Synchronization

/// The one read-only connection to a store a `StoreDataset` reads from, shared by whoever reads it
/// (one at a time). A read that fails is kept, not thrown: the dataset's reads cannot throw, so
/// the first failure is thrown by `checkReads()`, which every reader calls after reading.
final class StoreConnection: Sendable {
    private struct State {
        let database: Database
        var failure: (any Error)?
    }

    private let state: Mutex<State>

    init(_ database: consuming sending Database) {
        state = Mutex(State(database: database, failure: nil))
    }

    /// `body`'s answer, or `nil` when it throws (the first failure is kept for `checkReads`).
    func read<T: Sendable>(_ body: (Database) throws -> T) -> T? {
        state.withLock { state in
            do { return try body(state.database) } catch {
                if state.failure == nil { state.failure = error }
                return nil
            }
        }
    }

    /// `body`'s answer; its failure thrown.
    func reading<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
        try state.withLock { state in try body(state.database) }
    }

    /// Keeps `error` as a failed read's (the first failure is kept).
    func fail(_ error: any Error) {
        state.withLock { state in if state.failure == nil { state.failure = error } }
    }

    func checkReads() throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }
}
