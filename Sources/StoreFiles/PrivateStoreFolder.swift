import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command's own folder of temporary stores in a store folder,
/// `inheritance-bench-<command>-<pid>-<8 upper-case hex digits>`, holding a marker file that names
/// the command and the process, and locked (`flock`) from its making until the process ends. A
/// process killed with SIGKILL, or by the out-of-memory killer, cannot remove its folder, but the
/// kernel drops its lock: `LeftoverStores` removes a folder whose name, marker and owner say bench
/// made it, whose lock it can take and whose process no longer runs, and nothing else.
public final class PrivateStoreFolder: @unchecked Sendable {
    public let url: URL
    public let command: String
    private let lock = NSLock()
    private var descriptor: Int32 = -1

    /// The folder's name prefix, before the command's name.
    public static let prefix = "inheritance-bench-"
    /// The commands that make such folders: bench's own (`run`, `sweep`, `storage`, `explain`), the
    /// package-benchmark harness's cases, and the private copy of a store in use read as a model.
    public static let commands: Set<String> = ["run", "sweep", "storage", "explain", "harness", "store"]
    /// The marker file's name inside the folder.
    public static let markerName = ".inheritance-bench-stores"

    /// A folder for `command` (one of `commands`) in `parent`, not yet made.
    public init(command: String, in parent: URL) {
        precondition(Self.commands.contains(command), "a private store folder's command is one of PrivateStoreFolder.commands")
        self.command = command
        url = parent.appendingPathComponent("\(Self.prefix)\(command)-\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// Makes the folder, writes its marker and locks it for the life of the process (or until `remove()`).
    public func make() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data(Self.marker(command: command, pid: getpid()).utf8).write(to: url.appendingPathComponent(Self.markerName))
        let opened = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // Without the lock the folder is still this process's: `LeftoverStores` also asks whether
        // the process runs.
        guard opened >= 0 else { return }
        _ = flock(opened, LOCK_EX | LOCK_NB)
        lock.withLock { descriptor = opened }
    }

    /// Removes the folder and everything in it, and drops the lock. An interruption's cleanup runs
    /// beside the command, which may make a store in the folder after the removal listed it (the
    /// folder then cannot be removed, not being empty): the removal is tried again until the
    /// folder is gone, up to a second.
    public func remove() {
        for _ in 0 ..< 200 {
            try? FileManager.default.removeItem(at: url)
            guard FileManager.default.fileExists(atPath: url.path) else { break }
            usleep(5_000)
        }
        lock.withLock {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// The marker's whole text for a folder of `command` made by process `pid`.
    public static func marker(command: String, pid: Int32) -> String {
        "inheritance-bench: the temporary stores of `bench \(command)`, process \(pid); removed when it ends, or by `bench clean` once it no longer runs.\n"
    }

    /// The command and process a name of exactly this form gives: a known command, a process id in
    /// decimal without a leading zero, and 8 upper-case hexadecimal digits (as `UUID` writes them);
    /// nil for any other name.
    public static func owner(ofName name: String) -> (command: String, pid: Int32)? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, commands.contains(String(parts[0])) else { return nil }
        let digits = parts[1], suffix = parts[2]
        guard suffix.count == 8, suffix.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) || (0x41 ... 0x46).contains($0) }),
              !digits.isEmpty, digits.first != "0", digits.utf8.allSatisfy({ (0x30 ... 0x39).contains($0) }),
              let pid = Int32(digits) else { return nil }
        return (String(parts[0]), pid)
    }
}
