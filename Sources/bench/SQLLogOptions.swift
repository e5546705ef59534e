import ArgumentParser
import CoreDataLogs
import Foundation
import Models
import Reporting
import Strategies
import Workloads

/// `--log-sql FILE`: the statements the baseline strategy sends for each read case, in Core
/// Data's SQL debug log format, written once the run has ended well.
struct SQLLogOptions: ParsableArguments {
    @Option(name: .customLong("log-sql"), help: ArgumentHelp(
        "Also write the statements \(Strategies.baseline.name) (Core Data's layout) sends for each read case, run once before the case is timed, as Core Data's SQL debug log prints them (bench replay reads it). Writes are not logged yet.",
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
    func start(_ model: Model, inputs: [InputFile], results: String?, force: Bool) throws -> SQLLog? {
        guard let path else { return nil }
        let writes = results.map { csv -> [InputFile] in
            let url = URL(fileURLWithPath: csv)
            return [InputFile(csv, "the results CSV --output writes"), InputFile(SamplesCSV.url(besides: url).path, "the samples file the run writes"),
                    InputFile(ResultsJSON.url(besides: url).path, "the JSON export the run writes"), InputFile(SummaryMarkdown.url(besides: url).path, "the Markdown summary the run writes")]
        } ?? []
        let (url, claim) = try OutputFile.destination(path, defaultName: "", force: force, inputs: inputs + writes, option: "--log-sql")
        return SQLLog(url: url, claim: claim, writer: LogWriter(model: model, level: level ?? 1, storeID: UUID().uuidString))
    }
}

/// A log being filled case by case, written whole (through a temporary file) when the run ends
/// well; never half-written. An interruption removes its claim's lock file and its temporary file.
final class SQLLog {
    let url: URL
    private let claim: OutputClaim
    private let writer: LogWriter
    private var text = ""
    private(set) var statements = 0
    private let removal: UUID

    init(url: URL, claim: OutputClaim, writer: LogWriter) {
        self.url = url; self.claim = claim; self.writer = writer
        let files = [claim.lockPath, AtomicFile.temporaryURL(for: url).path]
        removal = InterruptionHandler.removeOnInterruption { for file in files { unlink(file) } }
    }

    deinit {
        InterruptionHandler.endRemoval(removal)
        claim.release()
    }

    var logsValues: Bool { writer.level >= 2 }

    /// Adds a case: a plain line naming it (a reader of Core Data's logs passes over it, as over
    /// an app's own output), then its statements.
    func add(_ logged: LoggedCase) {
        if let notLogged = logged.notLogged {
            text += "bench: \(logged.name): not logged: \(notLogged)\n"
            return
        }
        text += "bench: \(logged.name)\n"
        for request in logged.requests {
            text += writer.lines(request.request, request.statements)
            statements += request.statements.count(where: LogWriter.isLogged)
        }
    }

    func write() throws { try AtomicFile.write(text, to: url) }
}
