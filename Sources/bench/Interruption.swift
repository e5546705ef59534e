import Dispatch
import Foundation
import Reporting
import Strategies

/// On Ctrl-C, SIGTERM or SIGHUP (a closed terminal or ssh session): runs the command's cleanup
/// (temporary stores, a partial store, the claim on the output), prints one `interrupted: …` line
/// with what the cleanup reports, and exits with 128 + the signal number.
final class InterruptionHandler: @unchecked Sendable {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private var sources: [DispatchSourceSignal] = []

    /// - parameter exclusive: held by the command while it writes its files or reports a failure;
    ///   the handler waits for it and never releases it.
    /// - parameter cleanup: removes what the command leaves behind; returns what to tell the user.
    init(exclusive: NSRecursiveLock, cleanup: @escaping @Sendable () -> String) {
        for signalNumber in Self.signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                // Let a write in progress finish (its temporary file renamed into place), and stop the
                // command from writing or reporting anything more; the process ends below.
                exclusive.lock()
                printError("interrupted: \(cleanup())")
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops handling the signals (they are still ignored until the process ends, which is soon).
    func cancel() {
        for source in sources { source.cancel() }
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
