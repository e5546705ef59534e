import ArgumentParser
import CoreDataLogs
import Foundation

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Reads your app's Core Data SQL log and says what it asks of the store: its statements by kind, the tables they read and write, and each statement it does not understand.",
        discussion: """
            Run the app with the launch argument -com.apple.CoreData.SQLDebug 1 (or 2, which adds the bound \
            values) and save the console's output to a file. The log is read a line at a time (any size); \
            every line Core Data printed is kept, whatever precedes it on the line (NSLog's date and process) \
            and with or without colour codes, and the app's own lines are passed over. Each statement is told \
            by kind (fetch, ID pass, batch, fault, to-many fault, prefetch, count, dictionary fetch, and a \
            save's begin, key reservation, inserts, updates, deletes and commit) from its SQL and the \
            annotations after it, or listed with its line and why it is not understood. Only counts, kinds, \
            table names and line numbers are printed: never a bound value. With --dry-run this is all it does \
            (timing the log's statements in every layout is not built yet). See docs/replay.md.
            """
    )

    @Argument(help: "The log file: Core Data's console output.")
    var log: String

    /// The app's model: with it, each statement is read through the model's Core Data layout.
    @OptionGroup var model: ModelOptions

    @Flag(help: "Read and classify the log's statements without timing them.")
    var dryRun = false

    @Flag(help: "Exit with status 1 when any statement is not understood.")
    var strict = false

    func run() throws {
        guard dryRun else {
            throw reportFailure(CommandFailure(description: "timing a log's statements in every layout is not built yet: run 'bench replay \(log) --dry-run' to see what the log asks"))
        }
        let summary: LogSummary
        var reader: LogReader
        var fetches: LogFetches?
        do {
            reader = LogReader(file: try LogFile(path: log))
            let schema = try self.schema()
            var tally = LogSummary()
            var read = schema.map { LogFetches(schema: $0) }
            let size = reader.file.size
            let progress: ((Int64) -> Void)? = size >= 1 << 30 ? { read in Self.showProgress(read, of: size) } : nil
            try reader.read(progress: progress) { statement in
                guard let schema, case .success = statement.kind() else { return tally.add(statement) }
                if let mismatch = schema.mismatch(in: statement) {
                    throw CommandFailure(description: "\(log) line \(statement.line): \(mismatch): the log is of another version of the model than \(model.model ?? "the preset " + (model.preset ?? "")) "
                        + "(give the model the app ran with\(model.model?.hasSuffix(".xcdatamodeld") == true ? ", and its version with --model-version" : ""))")
                }
                tally.add(statement, entities: schema.entities(of: statement).map { schema.model.entities[$0].name })
                if case let .success(kind) = statement.kind() { read?.add(statement, kind: kind) }
            }
            read?.finish()
            fetches = read
            if progress != nil { Self.showProgress(nil, of: size) }
            for stray in reader.strays { tally.addStray(line: stray.line, why: stray.why) }
            summary = tally
            try Self.check(reader, summary, path: log)
        } catch {
            throw reportFailure(error)
        }
        print(ReplayReport.dryRun(summary, reader: reader, name: URL(fileURLWithPath: log).lastPathComponent, fetches: fetches), terminator: "")
        if strict, summary.notUnderstoodCount > 0 {
            printError("error: \(summary.notUnderstoodCount) of the log's statements are not understood (listed above); --strict allows none")
            throw ExitCode.failure
        }
    }

    /// The model given with --model or --preset, as the log names it; nil without either.
    func schema() throws -> LogSchema? {
        guard model.model != nil || model.preset != nil else { return nil }
        let loaded = try model.load(scale: nil)
        for warning in loaded.warnings { printError("warning: \(warning)") }
        return LogSchema(model: loaded.model)
    }

    /// Refuses a log with nothing to replay: no line of Core Data's, no statement, or none understood.
    static func check(_ reader: LogReader, _ summary: LogSummary, path: String) throws {
        let capture = "run the app with the launch argument -com.apple.CoreData.SQLDebug 1 and save the console's output"
        guard reader.coreDataLines > 0 else {
            throw CommandFailure(description: "\(path) holds no line of Core Data's SQL log ('CoreData: sql: …') in its \(reader.lines) lines: \(capture)")
        }
        guard reader.statements > 0 else {
            throw CommandFailure(description: "\(path) holds \(reader.coreDataLines) lines of Core Data's but no statement ('CoreData: sql: …'): \(capture)")
        }
        guard summary.understood > 0 else {
            let first = summary.notUnderstood.min { $0.value[0] < $1.value[0] }
            throw CommandFailure(description: "none of the \(reader.statements) statements of \(path) is understood" + (first.map { ": line \($0.value[0]): \($0.key)" } ?? ""))
        }
    }

    /// The share of the log read, on standard error: redrawn on a terminal, a line a GiB elsewhere.
    static func showProgress(_ read: Int64?, of size: Int64) {
        guard let read else {
            if standardErrorIsTerminal { writeToStandardError("\r\u{1B}[K") }
            return
        }
        let text = String(format: "reading the log: %.1f of %.1f GiB", Double(read) / Double(1 << 30), Double(size) / Double(1 << 30))
        if standardErrorIsTerminal {
            writeToStandardError("\r\u{1B}[K" + text)
        } else if read % (1 << 30) < (64 << 20) {
            writeToStandardError(text + "\n")
        }
    }
}
