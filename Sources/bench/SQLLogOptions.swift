import ArgumentParser
import CoreDataLogs
import Foundation
import Models
import Reporting
import Strategies
import Workloads

/// `--log-sql FILE`: the statements the baseline strategy sends for each case, in Core
/// Data's SQL debug log format, written once the run has ended well.
struct SQLLogOptions: ParsableArguments {
    @Option(name: .customLong("log-sql"), help: ArgumentHelp(
        "Also write the statements \(Strategies.baseline.name) (Core Data's layout) sends for each case, run once before the case is timed (a write on a store of its own), as Core Data's SQL debug log prints them (bench replay reads it).",
        valueName: "file"))
    var path: String?

    @Option(name: .customLong("log-sql-level"), help: "With --log-sql: 1 (statements, times, rows) or 2 (each bound value too, as -com.apple.CoreData.SQLDebug 2 prints it).")
    var level: Int?

    func validate() throws {
        if level != nil, path == nil { throw ValidationError("--log-sql-level applies with --log-sql FILE") }
        if let level, !(1 ... 2).contains(level) { throw ValidationError("--log-sql-level \(level) is not a level the log is written at; give 1 (statements) or 2 (with their values)") }
    }

    /// Refuses a log the run could not write as asked, before anything is measured.
    func check(_ dataset: DatasetOptions, layouts: [any StorageLayout.Type]) throws {
        guard path != nil else { return }
        if !layouts.contains(where: { $0.name == Strategies.baseline.name }) {
            throw ValidationError("--log-sql logs \(Strategies.baseline.name)'s statements: add it to --strategies")
        }
        if level == 2, dataset.data == .store {
            throw ValidationError("--log-sql-level 2 writes every bound value, and with --data store those are the store's own data, which no output holds; use level 1")
        }
    }

    /// The log to fill during the run, its file claimed (refused when it is a file the run reads or writes).
    func start(_ model: Model, inputs: [InputFile], results: ResultsOutputOptions) throws -> SQLLog? {
        guard let path else { return nil }
        let writes = (results.output.map { [InputFile($0, "the results CSV --output writes")] } ?? [])
            + results.besides.map { InputFile($0.url.path, "\($0.what.replacingOccurrences(of: "its ", with: "the run's ")), which it writes") }
        let (url, claim) = try OutputFile.destination(path, defaultName: "statements.log", force: results.force, inputs: inputs + writes, option: "--log-sql")
        return try SQLLog(url: url, claim: claim, writer: LogWriter(model: model, level: level ?? 1, storeID: UUID().uuidString))
    }
}

/// A log written case by case into a temporary file beside it, which takes the log's name when
/// the run ends well (`finish`) and is removed otherwise: never half-written. An interruption
/// removes it and the claim's lock file.
final class SQLLog {
    let url: URL
    private let claim: OutputClaim
    private let writer: LogWriter
    private let temporary: URL
    private var file: FileHandle?
    private(set) var statements = 0
    private let removal: UUID

    init(url: URL, claim: OutputClaim, writer: LogWriter) throws {
        self.url = url; self.claim = claim; self.writer = writer
        temporary = AtomicFile.temporaryURL(for: url)
        let files = [claim.lockPath, temporary.path]
        removal = InterruptionHandler.removeOnInterruption { for file in files { unlink(file) } }
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil), let file = FileHandle(forWritingAtPath: temporary.path) else {
            InterruptionHandler.endRemoval(removal)
            throw CommandFailure(description: "could not create \(temporary.path) to write the log --log-sql names; check that \(url.deletingLastPathComponent().path) is writable")
        }
        self.file = file
    }

    deinit {
        if let file {
            try? file.close()
            unlink(temporary.path)
        }
        InterruptionHandler.endRemoval(removal)
        claim.release()
    }

    /// Adds a case: a plain line naming it (a reader of Core Data's logs passes over it, as over
    /// an app's own output), then its statements.
    func add(_ logged: LoggedCase) throws {
        var text = "bench: \(logged.name)"
        // A case not logged at all says so; one logged in part says how much.
        if let notLogged = logged.notLogged { text += logged.requests.isEmpty && logged.saves.isEmpty ? ": not logged: \(notLogged)" : ": \(notLogged)" }
        text += "\n"
        for request in logged.requests {
            text += writer.lines(request.request, request.statements, values: writer.level >= 2 ? request.values : [:])
            statements += request.statements.count(where: LogWriter.isLogged)
        }
        for save in logged.saves {
            text += writer.lines(save: save)
            statements += save.count
        }
        do { try file?.write(contentsOf: Data(text.utf8)) } catch {
            throw CommandFailure(description: "could not write \(temporary.path), the log --log-sql names (\(FileProblem.reason(for: error))); check that its folder has free space")
        }
    }

    /// Gives the log its name.
    func finish() throws {
        guard let file else { return }
        self.file = nil
        do {
            try file.close()
            guard rename(temporary.path, url.path) == 0 else { throw CommandFailure(description: "could not rename \(temporary.path) to \(url.path) (\(String(cString: strerror(errno))))") }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }
}
