import Foundation
import Models
#if canImport(Glibc)
import Glibc
#endif

/// The store folders of bench processes that ended without removing them (killed with SIGKILL or
/// by the out-of-memory killer): in a memory-backed folder such as /dev/shm they hold memory until
/// the machine restarts. A folder is left over only when bench provably made it: its name is
/// exactly a `PrivateStoreFolder`'s, it is a real folder of this user's holding the marker that
/// name calls for (a regular file of this user's with exactly the marker's text) or nothing at
/// all, the process its name gives no longer runs, and no process holds its lock (which also keeps
/// the folder of a bench running in another process namespace, such as another container sharing
/// the folder). Anything else, however alike its name, is never touched.
public enum LeftoverStores {
    public struct Leftover: Equatable, Sendable {
        public let url: URL
        public let bytes: Int64
        public let pid: Int32
    }

    /// A left-over folder that could not be removed, and why.
    public struct Failure: Equatable, Sendable {
        public let url: URL
        public let reason: String
    }

    /// What `remove(in:)` did.
    public struct Outcome: Equatable, Sendable {
        public var removed: [Leftover] = []
        public var failed: [Failure] = []
    }

    /// Removes the left-over folders directly in each of `folders` (each listed once).
    public static func remove(in folders: [URL]) -> Outcome {
        var seen: Set<String> = []
        var outcome = Outcome()
        for folder in folders where seen.insert(folder.standardizedFileURL.resolvingSymlinksInPath().path).inserted {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                guard let owner = PrivateStoreFolder.owner(ofName: name) else { continue }
                let url = folder.appendingPathComponent(name)
                guard isLeftOver(url, command: owner.command, pid: owner.pid) else { continue }
                do {
                    let bytes = try FolderRemoval.remove(url, last: PrivateStoreFolder.markerName)
                    outcome.removed.append(Leftover(url: url, bytes: bytes, pid: owner.pid))
                } catch {
                    outcome.failed.append(Failure(url: url, reason: "\(error)"))
                }
            }
        }
        return outcome
    }

    private static func isLeftOver(_ url: URL, command: String, pid: Int32) -> Bool {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { return false }
        // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: another user's).
        guard kill(pid, 0) == -1, errno == ESRCH else { return false }
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard holdsItsMarker(descriptor, command: command, pid: pid) || isEmpty(descriptor) else { return false }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// Whether the folder open at `folder` holds the marker its maker writes: a regular file of
    /// this user's, not a link, with exactly the marker's text.
    private static func holdsItsMarker(_ folder: Int32, command: String, pid: Int32) -> Bool {
        let expected = Array(PrivateStoreFolder.marker(command: command, pid: pid).utf8)
        let file = openat(folder, PrivateStoreFolder.markerName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(), info.st_size == expected.count else { return false }
        var contents = [UInt8](repeating: 0, count: expected.count + 1)
        let count = contents.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        return count == expected.count && Array(contents.prefix(expected.count)) == expected
    }

    /// Whether the folder open at `folder` is empty (a process killed between making its folder
    /// and writing the marker leaves one; removing an empty folder removes nothing else).
    private static func isEmpty(_ folder: Int32) -> Bool {
        let copy = dup(folder)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return false
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = FolderRemoval.name(of: entry)
            if name != [0x2E, 0] && name != [0x2E, 0x2E, 0] { return false }
        }
        return true
    }

    /// One line for the user: what was removed and how much it freed.
    public static func note(_ removed: [Leftover]) -> String {
        let bytes = removed.reduce(0) { $0 + $1.bytes }
        let folders = removed.count == 1 ? "1 store folder" : "\(removed.count) store folders"
        let paths = removed.map(\.url.path.escapingControlCharacters).joined(separator: ", ")
        return "removed \(folders) left by bench processes that no longer run (killed?), freeing \(megabytes(bytes)): \(paths)"
    }

    /// One line for the user about a folder that could not be removed.
    public static func note(_ failure: Failure) -> String {
        "could not remove \(failure.url.path.escapingControlCharacters), left by a bench process that no longer runs: \(failure.reason); remove it by hand"
    }

    public static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
