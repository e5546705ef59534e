import CoreDataLogs
import Foundation

/// A log read whole: its lines and statements, what they ask (`LogSummary`) and, through a model,
/// the fetches its reads make (`LogFetches`) and the saves its transactions make (`LogSaves`). A
/// log with nothing to replay, or of another model version, is a `CommandFailure` line.
struct LogRead {
    var reader: LogReader
    var summary: LogSummary
    var fetches: LogFetches?
    var saves: LogSaves?
    /// The replayed fetches and saves in the log's order.
    var session: LogSession? { fetches.flatMap { fetches in saves.map { LogSession(fetches, $0) } } }

    static func read(_ path: String, schema: LogSchema?, model: ModelOptions) throws -> LogRead {
        var reader = LogReader(file: try LogFile(path: path))
        var summary = LogSummary()
        var fetches = schema.map { LogFetches(schema: $0) }
        var saves = schema.map { LogSaves(schema: $0) }
        let size = reader.file.size
        let progress: ((Int64) -> Void)? = size >= 1 << 30 ? { read in showProgress(read, of: size) } : nil
        try reader.read(progress: progress) { statement in
            let told = statement.kind()
            guard let schema, case let .success(kind) = told else {
                if case .failure = told { saves?.notUnderstood(statement) }
                return summary.add(statement, kind: told)
            }
            if let mismatch = schema.mismatch(in: statement) {
                let version = model.model?.hasSuffix(".xcdatamodeld") == true ? ", and its version with --model-version" : ""
                throw CommandFailure(description: "\(path) line \(statement.line): \(mismatch): the log is of another version of the model than "
                    + "\(model.model ?? "the preset " + (model.preset ?? "")) (give the model the app ran with\(version))")
            }
            summary.add(statement, kind: told, entities: schema.entities(of: statement).map { schema.model.entities[$0].name })
            if LogSaves.isSave(kind) { saves?.add(statement, kind: kind) } else { fetches?.add(statement, kind: kind) }
        }
        if progress != nil { showProgress(nil, of: size) }
        for stray in reader.strays { summary.addStray(line: stray.line, why: stray.why) }
        fetches?.finish()
        saves?.finish()
        try check(reader, summary, path: path)
        return LogRead(reader: reader, summary: summary, fetches: fetches, saves: saves)
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
            let first = summary.notUnderstood.min { $0.value.earliest < $1.value.earliest }
            throw CommandFailure(description: "none of the \(reader.statements) statements of \(path) is understood" + (first.map { ": line \($0.value.earliest): \($0.key)" } ?? ""))
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
