import BuildInfo
import Foundation
import SQLite
import StoreFiles
import Strategies

/// Where and how a run happened: the context every CSV row carries.
public struct RunContext: Equatable, Sendable {
    public var runID: String
    /// ISO 8601, UTC, when the run started.
    public var timestamp: String
    public var gitCommit: String
    public var gitDirty: Bool?
    public var sqliteVersion: String
    /// SQLite's compile options, space-separated.
    public var sqliteOptions: String
    public var swiftVersion: String
    /// `release` or `debug`.
    public var build: String
    public var host: String
    public var os: String
    public var kernel: String
    public var cpuModel: String
    public var cpuCores: Int
    public var memoryBytes: UInt64
    /// The settings every store of the run uses, read back from SQLite.
    public var journalMode: String
    public var synchronous: String
    public var pageSize: Int
    /// `PRAGMA cache_size`: pages if positive, KiB if negative (SQLite's convention).
    public var cacheSize: Int
    /// The folder the run's temporary stores live in.
    public var temporaryFolder: String

    public init(
        runID: String, timestamp: String, gitCommit: String, gitDirty: Bool?, sqliteVersion: String, sqliteOptions: String = "",
        swiftVersion: String, build: String, host: String, os: String = "", kernel: String = "", cpuModel: String = "",
        cpuCores: Int = 0, memoryBytes: UInt64 = 0, journalMode: String = "", synchronous: String = "", pageSize: Int = 0,
        cacheSize: Int = 0, temporaryFolder: String = ""
    ) {
        self.runID = runID
        self.timestamp = timestamp
        self.gitCommit = gitCommit
        self.gitDirty = gitDirty
        self.sqliteVersion = sqliteVersion
        self.sqliteOptions = sqliteOptions
        self.swiftVersion = swiftVersion
        self.build = build
        self.host = host
        self.os = os
        self.kernel = kernel
        self.cpuModel = cpuModel
        self.cpuCores = cpuCores
        self.memoryBytes = memoryBytes
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.pageSize = pageSize
        self.cacheSize = cacheSize
        self.temporaryFolder = temporaryFolder
    }

    /// Reads the context of this process, started at `date`, whose stores go in `storeFolder`; the
    /// store settings are read from a probe store made (and removed) in `probeIn`.
    /// The commit is the one the binary was built from (`BuildInfo`, read from the checkout when
    /// it was built), wherever the binary runs: `unknown` only for a build outside a git checkout.
    public static func current(
        date: Date = Date(), storeFolder: URL = FileManager.default.temporaryDirectory, probeIn: URL? = nil
    ) -> RunContext {
        let settings = StoreSettings.read(in: probeIn ?? storeFolder)
        return RunContext(
            runID: fileStamp(date) + "-" + String(UUID().uuidString.prefix(6)).lowercased(),
            timestamp: iso8601(date),
            gitCommit: BuildInfo.commit ?? "unknown",
            gitDirty: BuildInfo.dirty,
            sqliteVersion: Database.libraryVersion,
            sqliteOptions: Database.compileOptions.joined(separator: " "),
            swiftVersion: swiftVersion,
            build: isDebugBuild ? "debug" : "release",
            host: ProcessInfo.processInfo.hostName,
            os: operatingSystem,
            kernel: kernelRelease,
            cpuModel: cpuModel,
            cpuCores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            journalMode: settings.journalMode,
            synchronous: settings.synchronous,
            pageSize: settings.pageSize,
            cacheSize: settings.cacheSize,
            temporaryFolder: storeFolder.path
        )
    }

    static var operatingSystem: String {
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return ProcessInfo.processInfo.operatingSystemVersionString
    }

    static var kernelRelease: String {
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(system) \(release)"
    }

    static var cpuModel: String {
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "unknown"
    }

    public static var isDebugBuild: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// The compiler version this binary was built with.
    public static var swiftVersion: String {
        #if compiler(>=6.4)
        ">=6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }

    /// `2026-11-22T06:30:00Z`
    public static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `20261122T063000Z`: a timestamp safe in file names.
    public static func fileStamp(_ date: Date) -> String {
        iso8601(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }
}

/// The pragmas a store of the run actually has, read back from a scratch store.
struct StoreSettings {
    var journalMode = "unknown", synchronous = "unknown"
    var pageSize = 0, cacheSize = 0

    static func read(in folder: URL) -> StoreSettings {
        let path = folder.appendingPathComponent("inheritance-bench-settings-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite").path
        defer { StoreFile.remove(path) }
        var settings = StoreSettings()
        guard let database = try? StoreFile.open(path) else { return settings }
        settings.journalMode = (try? database.pragma("journal_mode")) ?? "unknown"
        // PRAGMA synchronous answers a number: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
        let levels = ["0": "OFF", "1": "NORMAL", "2": "FULL", "3": "EXTRA"]
        settings.synchronous = ((try? database.pragma("synchronous")) ?? nil).flatMap { levels[$0] } ?? "unknown"
        settings.pageSize = Int((try? database.pragma("page_size")) ?? nil ?? "") ?? 0
        settings.cacheSize = Int((try? database.pragma("cache_size")) ?? nil ?? "") ?? 0
        return settings
    }
}

/// A run's context as the JSON export holds it: every field under its CSV column's name, and
/// `git_dirty` null when unknown (the synthesized encoder would leave the key out).
extension RunContext: Codable {
    enum CodingKeys: String, CodingKey {
        case runID = "run_id", timestamp, gitCommit = "git_commit", gitDirty = "git_dirty", sqliteVersion = "sqlite_version"
        case sqliteOptions = "sqlite_options", swiftVersion = "swift_version", build, host, os, kernel, cpuModel = "cpu_model"
        case cpuCores = "cpu_cores", memoryBytes = "memory_bytes", journalMode = "journal_mode", synchronous, pageSize = "page_size"
        case cacheSize = "cache_size", temporaryFolder = "temp_dir"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runID, forKey: .runID)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(gitCommit, forKey: .gitCommit)
        try container.encode(gitDirty, forKey: .gitDirty)
        try container.encode(sqliteVersion, forKey: .sqliteVersion)
        try container.encode(sqliteOptions, forKey: .sqliteOptions)
        try container.encode(swiftVersion, forKey: .swiftVersion)
        try container.encode(build, forKey: .build)
        try container.encode(host, forKey: .host)
        try container.encode(os, forKey: .os)
        try container.encode(kernel, forKey: .kernel)
        try container.encode(cpuModel, forKey: .cpuModel)
        try container.encode(cpuCores, forKey: .cpuCores)
        try container.encode(memoryBytes, forKey: .memoryBytes)
        try container.encode(journalMode, forKey: .journalMode)
        try container.encode(synchronous, forKey: .synchronous)
        try container.encode(pageSize, forKey: .pageSize)
        try container.encode(cacheSize, forKey: .cacheSize)
        try container.encode(temporaryFolder, forKey: .temporaryFolder)
    }
}
