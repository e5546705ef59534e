import Dispatch
import Foundation
import Reporting
import StoreFiles
import Strategies

/// On Ctrl-C, SIGTERM or SIGHUP (a closed terminal or ssh session): runs the command's cleanup
/// (temporary stores, a partial store, the claim on the output), prints one `interrupted: …` line
/// with what the cleanup reports, and exits with 128 + the signal number.
///
/// The signals are taken once for the whole process and kept: on Linux, libdispatch keeps its
/// own handler of a signal once a source has taken it, so a signal given back its default would
/// never end the process, and one ignored again would never reach a later handler. Between two
/// handlers (a store's read, then the run that measures it), a signal ends the process with
/// 128 + its number, with nothing to clean. Handlers do not nest: the newest one runs.
final class InterruptionHandler: @unchecked Sendable {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var active: [InterruptionHandler] = []
    /// Removals of files that outlive any one handler (a store's private copy read through a
    /// whole command): run on any interruption, before the newest handler's cleanup.
    nonisolated(unsafe) private static var removals: [UUID: @Sendable () -> Void] = [:]
    /// The process's one source per signal, made on the first handler's creation (a lazy
    /// static, made once under Swift's lock) and never changed after. A source takes its signal
    /// only once libdispatch has registered it, later, on its own thread; until then the signal is
    /// ignored. So the first handler waits for the registrations (at most a second each): a signal
    /// once it is in place, as the command makes its first file, is never lost.
    nonisolated(unsafe) private static let sources: [DispatchSourceSignal] = {
        let registered = DispatchSemaphore(value: 0)
        let sources = signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { interrupted(by: signalNumber) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        for _ in sources { _ = registered.wait(timeout: .now() + 1) }
        return sources
    }()

    private let exclusive: NSRecursiveLock
    private let cleanup: @Sendable () -> String

    /// - parameter exclusive: held by the command while it writes its files or reports a failure;
    ///   the handler waits for it and never releases it.
    /// - parameter cleanup: removes what the command leaves behind; returns what to tell the user.
    init(exclusive: NSRecursiveLock, cleanup: @escaping @Sendable () -> String) {
        self.exclusive = exclusive
        self.cleanup = cleanup
        _ = Self.sources
        Self.lock.withLock { Self.active.append(self) }
    }

    /// Stops handling the signals for this command: a signal from now on ends the process (or
    /// reaches the next handler).
    func cancel() {
        Self.lock.withLock { Self.active.removeAll { $0 === self } }
    }

    /// Runs `removal` on any interruption until the returned token is handed to `endRemoval`.
    static func removeOnInterruption(_ removal: @escaping @Sendable () -> Void) -> UUID {
        _ = sources
        let token = UUID()
        lock.withLock { removals[token] = removal }
        return token
    }

    static func endRemoval(_ token: UUID) { _ = lock.withLock { removals.removeValue(forKey: token) } }

    private static func interrupted(by signalNumber: Int32) {
        for removal in lock.withLock({ Array(removals.values) }) { removal() }
        // With no handler, end as the signal's default would: at once, nothing flushed (a flush
        // could wait forever on an output pipe nobody reads).
        guard let handler = lock.withLock({ active.last }) else { _exit(128 + signalNumber) }
        // Let a write in progress finish (its temporary file renamed into place), and stop the
        // command from writing or reporting anything more.
        handler.exclusive.lock()
        printError("interrupted: \(handler.cleanup())")
        exit(128 + signalNumber)
    }
}

/// Runs `body` with a private folder of temporary stores for `command` (`storage`, `explain`) that
/// will write `url`: an interruption removes the stores and the output's temporary file, releases
/// the claim and says so; the folder is removed afterwards either way.
func withPrivateStores<T>(_ command: String, in parent: StoreFolder, writing url: URL, claim: OutputClaim, exclusive: NSRecursiveLock,
                          _ body: (URL) throws -> T) throws -> T {
    let stores = PrivateStoreFolder(command: command, in: parent.url)
    let interruption = InterruptionHandler(exclusive: exclusive) {
        stores.remove()
        unlink(AtomicFile.temporaryURL(for: url).path)
        claim.release()
        return "temporary stores removed; \(url.path) was not written"
    }
    defer { interruption.cancel() }
    try stores.make()
    defer { stores.remove() }
    return try body(stores.url)
}
