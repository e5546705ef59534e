import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folder a command makes its temporary stores in, and why that one.
///
/// In order: `--store-folder`; else `TMPDIR` when it is set (the user's or a test's choice);
/// else, for the timing commands, a memory-backed folder (`/dev/shm`, a tmpfs on Linux) when it
/// has room for the run's stores; else the system's temporary folder (`/tmp`).
///
/// Why memory by default: with WAL and `synchronous=NORMAL` no commit waits for the device, so
/// the device's only part in a timing is the kernel writing dirty pages back, seconds later and
/// in the middle of whichever case runs then. On a virtual disk shared with other tenants that
/// writeback made the default run half again as long and flagged a third of its medians noisy;
/// on tmpfs every case is as fast or faster and steadier, and every strategy still pays for each
/// page it reads and writes through the kernel's page cache. `--store-folder` on a disk puts the
/// device back in.
public struct StoreFolder: Sendable, Equatable {
    public enum Origin: Sendable, Equatable {
        /// `--store-folder`.
        case option
        /// `TMPDIR`.
        case environment
        /// The memory-backed folder, chosen because it had room.
        case memory
        /// The system's temporary folder.
        case system
    }

    public let url: URL
    public let origin: Origin
    /// Why the memory-backed folder was passed over although the machine has one (it lacked room), or nil.
    public let passedOver: String?

    public init(url: URL, origin: Origin, passedOver: String? = nil) {
        self.url = url; self.origin = origin; self.passedOver = passedOver
    }

    /// The memory-backed folder Linux provides.
    public static let memoryPath = "/dev/shm"

    /// The folder for a command that times stores (`run`, `sweep`).
    /// - parameter estimatedBytes: about how much the run's stores take at once.
    public static func forTiming(option: String?, estimatedBytes: Int64,
                                 environment: [String: String] = ProcessInfo.processInfo.environment,
                                 memoryPath: String = memoryPath) -> StoreFolder {
        if let chosen = explicit(option: option, environment: environment) { return chosen }
        let system = FileManager.default.temporaryDirectory.standardizedFileURL
        guard let room = memoryRoom(memoryPath) else { return StoreFolder(url: system, origin: .system) }
        // Half of the room at most: the process itself and the rest of the machine need memory too.
        guard estimatedBytes <= room / 2 else {
            return StoreFolder(url: system, origin: .system, passedOver: "the stores need about \(gibibytes(estimatedBytes)) and the memory-backed "
                + "\(memoryPath) has room for \(gibibytes(room))")
        }
        return StoreFolder(url: URL(fileURLWithPath: memoryPath, isDirectory: true), origin: .memory)
    }

    /// The folder for a command whose stores are not timed (`storage`, `explain`): `--store-folder`,
    /// `TMPDIR` or the system's temporary folder.
    public static func untimed(option: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> StoreFolder {
        explicit(option: option, environment: environment) ?? StoreFolder(url: FileManager.default.temporaryDirectory, origin: .system)
    }

    private static func explicit(option: String?, environment: [String: String]) -> StoreFolder? {
        if let option { return StoreFolder(url: URL(fileURLWithPath: option, isDirectory: true).standardizedFileURL, origin: .option) }
        if environment["TMPDIR"] != nil { return StoreFolder(url: FileManager.default.temporaryDirectory.standardizedFileURL, origin: .environment) }
        return nil
    }

    /// Bytes free in `path` when it is a writable tmpfs, capped by the memory the kernel says is
    /// available; nil anywhere else (no such folder, another file system, another system).
    static func memoryRoom(_ path: String) -> Int64? {
        guard fileSystemType(path) == "tmpfs", access(path, W_OK) == 0,
              let free = (try? FileManager.default.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber else { return nil }
        return min(free.int64Value, availableMemory() ?? free.int64Value)
    }

    /// The type of the file system `path` is on, from the longest mount point above it in
    /// /proc/self/mounts; nil where there is no such file.
    public static func fileSystemType(_ path: String) -> String? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (length: Int, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // Mount points escape spaces as \040.
            let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
            let covers = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
            if covers, point.count > (best?.length ?? -1) { best = (point.count, String(fields[2])) }
        }
        return best?.type
    }

    /// `MemAvailable` from /proc/meminfo, in bytes.
    static func availableMemory() -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
              let kibibytes = Int64(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kibibytes * 1024
    }

    static func gibibytes(_ bytes: Int64) -> String { String(format: "%.1f GiB", Double(bytes) / 1_073_741_824) }

    /// How the folder is named in messages: "the store folder /x (--store-folder)".
    public var label: String {
        switch origin {
        case .option: "the store folder \(url.path) (--store-folder)"
        case .environment: "the temporary folder \(url.path) (TMPDIR)"
        case .memory: "the memory-backed folder \(url.path)"
        case .system: "the temporary folder \(url.path)"
        }
    }

    /// What to do when the folder is unusable.
    public var fix: String {
        switch origin {
        case .option: "give --store-folder a writable folder"
        case .environment: "set TMPDIR to a writable folder, or unset it"
        case .memory: "pass --store-folder with a writable folder"
        case .system: "make it a writable folder, or set TMPDIR to one"
        }
    }

    /// What to do when a store in the folder filled it.
    public var whenFull: String {
        switch origin {
        case .memory: "free memory, lower --scale, or pass --store-folder with a folder on a disk"
        default: "free disk space in \(url.path) or lower --scale"
        }
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks that the folder exists, is a folder and can be written, before a command builds
    /// stores there: a wrong path stops the command with one line instead of Foundation's error
    /// dump at the first store.
    public func check() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw Problem(description: "\(label) does not exist; \(fix)")
        }
        guard isDirectory.boolValue else {
            throw Problem(description: "\(label) is a file, not a folder; \(fix)")
        }
        let probe = url.appendingPathComponent(".inheritance-bench-probe-\(getpid())").path
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw Problem(description: "\(label) is not writable (\(reason)); \(fix)")
        }
        close(descriptor)
        unlink(probe)
    }
}
