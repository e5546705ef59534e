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
        try Self.checkReplaceable(url, option: option)
        try Self.checkLockFile(lockPath, claiming: url, option: option)
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

    /// Refuses an output that exists and is not a regular file (a device such as `/dev/null`, a
    /// FIFO, a socket): writing it would replace it with a file.
    static func checkReplaceable(_ url: URL, option: String) throws {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw ResultsWriter.Error(description: "\(url.path) is \(kind), not a regular file, and bench writes a file in its place; choose another \(option)")
    }

    /// Refuses a file at the lock file's path that is not a lock file bench left (a regular file
    /// holding at most a process id): claiming would overwrite it and releasing would remove it.
    static func checkLockFile(_ path: String, claiming url: URL, option: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        let contents = status.st_mode & S_IFMT == S_IFREG && status.st_size <= 32 ? FileManager.default.contents(atPath: path) : nil
        let text = contents.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let text, text.isEmpty || Int32(text) != nil else {
            throw ResultsWriter.Error(description: "\(path) is in the way: bench claims \(url.path) with a lock file of that name, and that file is not one bench left; move it or choose another \(option)")
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
