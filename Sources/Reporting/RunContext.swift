import Foundation
import SQLite

/// Where and how a run happened: the context every CSV row carries.
public struct RunContext: Sendable {
    public var runID: String
    /// ISO 8601, UTC, when the run started.
    public var timestamp: String
    public var gitCommit: String
    public var gitDirty: Bool?
    public var sqliteVersion: String
    public var swiftVersion: String
    /// `release` or `debug`.
    public var build: String
    public var host: String

    /// Reads the context of this process, started at `date`.
    public static func current(date: Date = Date(), directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> RunContext {
        let commit = git(["rev-parse", "--short=12", "HEAD"], in: directory)
        let status = commit == nil ? nil : git(["status", "--porcelain", "--untracked-files=no"], in: directory)
        return RunContext(
            runID: fileStamp(date) + "-" + String(UUID().uuidString.prefix(6)).lowercased(),
            timestamp: iso8601(date),
            gitCommit: commit ?? "unknown",
            gitDirty: status.map { !$0.isEmpty },
            sqliteVersion: Database.libraryVersion,
            swiftVersion: swiftVersion,
            build: isDebugBuild ? "debug" : "release",
            host: ProcessInfo.processInfo.hostName
        )
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

    /// Runs git quietly; `nil` when git is missing or the folder is not a checkout.
    static func git(_ arguments: [String], in directory: URL) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
