import Foundation

/// Claims an output file for one process: a lock file beside it (`.NAME.lock`, holding the
/// process id), created if need be and locked with `flock(2)`. The lock, not the file, is the
/// claim: the kernel drops it when the process ends, however it ends, so a lock file left by a
/// killed process claims nothing. `release()` (or the end of the process) gives it up.
public final class OutputClaim: @unchecked Sendable {
    public let lockPath: String
    private var descriptor: Int32 = -1
    private let lock = NSLock()

    /// `dir/run.csv` → `dir/.run.csv.lock`
    public static func lockURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
    }

    /// - throws: when another process holds the claim, naming its process id.
    /// - parameter option: the option naming the file, for the message.
    public init(_ url: URL, option: String = "--output") throws {
        lockPath = Self.lockURL(for: url).path
        while true {
            let fd = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                throw ResultsWriter.Error(description: "could not create the lock file \(lockPath) that claims \(url.path) (\(reason)); choose another \(option)")
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                var buffer = [UInt8](repeating: 0, count: 32)
                let count = read(fd, &buffer, buffer.count)
                close(fd)
                let holder = count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
                let who = Int32(holder).map { "another bench (process \($0))" } ?? "another bench"
                throw ResultsWriter.Error(description: "\(url.path) is being written by \(who); wait for it to finish or choose another \(option) (--force does not take over a running bench's output)")
            }
            // The previous holder may have removed the lock file between our open and flock: then
            // this lock is on a file nobody else will open. Start again on the file at the path.
            var held = stat(), current = stat()
            if fstat(fd, &held) == 0, stat(lockPath, &current) == 0, held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                let text = Array("\(getpid())\n".utf8)
                if ftruncate(fd, 0) == 0 { _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
                descriptor = fd
                return
            }
            close(fd)
        }
    }

    /// Removes the lock file and drops the lock; safe to call more than once.
    public func release() {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { return }
        unlink(lockPath)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
