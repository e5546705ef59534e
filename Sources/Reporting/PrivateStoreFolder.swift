import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command's own folder of temporary stores in a store folder,
/// `inheritance-bench-<command>-<pid>-<8 hex digits>`, locked (`flock`) from its making until the
/// process ends. A process killed with SIGKILL, or by the out-of-memory killer, cannot remove its
/// folder, but the kernel drops its lock: `LeftoverStores` removes a folder whose lock it can take
/// and whose process no longer runs.
public final class PrivateStoreFolder: @unchecked Sendable {
    public let url: URL
    private let lock = NSLock()
    private var descriptor: Int32 = -1

    /// The folder's name prefix, before the command's name.
    public static let prefix = "inheritance-bench-"

    /// A folder for `command` (`run`, `storage`) in `parent`, not yet made.
    public init(command: String, in parent: URL) {
        url = parent.appendingPathComponent("\(Self.prefix)\(command)-\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// Makes the folder and locks it for the life of the process (or until `remove()`).
    public func make() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let opened = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // Without the lock the folder is still this process's: `LeftoverStores` also asks whether
        // the process runs.
        guard opened >= 0 else { return }
        _ = flock(opened, LOCK_EX | LOCK_NB)
        lock.withLock { descriptor = opened }
    }

    /// Removes the folder and everything in it, and drops the lock.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
        lock.withLock {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }
}
