import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The store folders of bench processes that ended without removing them (killed with SIGKILL or
/// by the out-of-memory killer): in a memory-backed folder such as /dev/shm they hold memory until
/// the machine restarts. A folder is left over when its name is a `PrivateStoreFolder`'s, it
/// belongs to this user, the process its name gives no longer runs, and no process holds its lock
/// (which also keeps the folder of a bench running in another process namespace, such as another
/// container sharing the folder).
public enum LeftoverStores {
    public struct Leftover: Equatable, Sendable {
        public let url: URL
        public let bytes: Int64
        public let pid: Int32
    }

    /// Removes the left-over folders directly in each of `folders` (each listed once); returns them.
    public static func remove(in folders: [URL]) -> [Leftover] {
        var seen: Set<String> = []
        var removed: [Leftover] = []
        for folder in folders where seen.insert(folder.standardizedFileURL.resolvingSymlinksInPath().path).inserted {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                guard let pid = pid(inName: name) else { continue }
                let url = folder.appendingPathComponent(name)
                guard isLeftOver(url, pid: pid) else { continue }
                let bytes = size(of: url)
                if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(Leftover(url: url, bytes: bytes, pid: pid)) }
            }
        }
        return removed
    }

    /// The process id in a private folder's name (`inheritance-bench-run-4711-1A2B3C4D`; older
    /// runs' and the package-benchmark harness's `inheritance-bench-harness-4711-…` alike).
    static func pid(inName name: String) -> Int32? {
        guard name.hasPrefix(PrivateStoreFolder.prefix) else { return nil }
        let parts = name.dropFirst(PrivateStoreFolder.prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 2, let last = parts.last, last.count == 8, last.allSatisfy(\.isHexDigit),
              let pid = Int32(parts[parts.count - 2]), pid > 0 else { return nil }
        return pid
    }

    private static func isLeftOver(_ url: URL, pid: Int32) -> Bool {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { return false }
        // kill(pid, 0) fails with ESRCH only when no such process exists (EPERM: another user's).
        guard kill(pid, 0) == -1, errno == ESRCH else { return false }
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    /// The bytes the folder's files take on their device (blocks of 512 bytes, as `du` counts).
    private static func size(of folder: URL) -> Int64 {
        guard let names = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
        var total: Int64 = 0
        for case let name as String in names {
            var info = stat()
            if lstat(folder.appendingPathComponent(name).path, &info) == 0 { total += Int64(info.st_blocks) * 512 }
        }
        return total
    }

    /// One line for the user: what was removed and how much it freed.
    public static func note(_ removed: [Leftover]) -> String {
        let bytes = removed.reduce(0) { $0 + $1.bytes }
        let folders = removed.count == 1 ? "1 store folder" : "\(removed.count) store folders"
        let paths = removed.map(\.url.path).joined(separator: ", ")
        return "removed \(folders) left by bench processes that no longer run (killed?), freeing \(megabytes(bytes)): \(paths)"
    }

    public static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
