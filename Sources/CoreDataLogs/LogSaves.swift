import FetchRequests
import Generation
import Models

/// A log's saves: each transaction (`BEGIN EXCLUSIVE` … `COMMIT`) read as one save of the request
/// language (`SaveSpec`), each distinct save once with how many times the log makes it. A save
/// any of whose statements is not read is not replayed: each of its statements is kept with its
/// line and why, as a rolled-back transaction's and a change outside any transaction are.
public struct LogSaves: Sendable {
    public struct Save: Sendable {
        public let spec: SaveSpec
        /// The line of its `BEGIN`.
        public let line: Int
        public internal(set) var count = 0
        public internal(set) var statements = 0
        /// The new values its first occurrence with any logged bound (level 2): the app's data,
        /// used to replay it, never printed.
        public internal(set) var values: SaveValues?
    }

    public let schema: LogSchema
    /// Distinct saves in the order the log first makes them.
    public private(set) var saves: [Save] = []
    /// Statements not replayed, by why, each with its line.
    public private(set) var notReplayed: [String: LineList] = [:]
    /// Each time the log makes a save, in the log's order: its `BEGIN`'s line and the save (its
    /// position in `saves`); the first `LogSession.longest`.
    public private(set) var occurrences: [LogSession.Occurrence] = []
    /// The values each of `occurrences` bound, in the same order, where kept (nil for an
    /// occurrence with none, or past what is kept: `keep`).
    public private(set) var occurrenceValues: [SaveValues?] = []
    /// The most changes, and bytes of text, whose logged values are kept, the distinct saves'
    /// and the session's together: memory stays bounded whatever the log's length and its saves'
    /// sizes; a save whose values do not fit is given drawn ones.
    public static let keptValueChanges = 25_000
    public static let keptValueBytes = 8 << 20
    private var keptChanges = 0, keptBytes = 0
    private var index: [SaveSpec: Int] = [:]
    private var readings: [String: Result<SaveSpec.Change?, NotUnderstood>] = [:]
    /// The open transaction: its statements, the save read so far, and the first reason it is not.
    private var open: (line: Int, lines: LineList, spec: SaveSpec, changes: Int, problem: String?, values: [[String: Value]?])?

    /// The most changes a replayed save makes: a larger one (an import) is named, not replayed.
    public static let largestSave = 100_000

    public init(schema: LogSchema) { self.schema = schema }

    public var notReplayedCount: Int { notReplayed.values.reduce(0) { $0 + $1.count } }

    /// Whether a statement of this kind is a save's (and read here rather than as a read).
    public static func isSave(_ kind: StatementKind) -> Bool { [.begin, .keyReservation, .insert, .update, .delete, .commit].contains(kind) }

    /// Reads a save's statement the log understood as `kind`.
    public mutating func add(_ statement: LoggedStatement, kind: StatementKind) {
        if kind == .begin {
            if let waiting = open { skip(waiting.lines, "a transaction with no COMMIT after it") }
            open = (statement.line, LineList([statement.line]), SaveSpec(), 0, nil, [])
            return
        }
        guard open != nil else { return skip(LineList([statement.line]), "a save's statement outside BEGIN … COMMIT (the log starts inside a transaction)") }
        open?.lines.append(statement.line)
        if kind == .commit { return commit(rolledBack: statement.tokens.verb == "ROLLBACK") }
        switch reading(statement, kind: kind) {
        case let .success(change?):
            guard open?.problem == nil else { break }
            if (open?.changes ?? 0) >= Self.largestSave {
                open?.problem = "a save of more than \(Self.largestSave) changes: not replayed"
            } else {
                open?.spec.append(change)
                open?.changes += 1
                let values = LogSave.values(statement, kind: kind, schema: schema)
                open?.values.append(values.isEmpty ? nil : values)
            }
        case .success(nil): break
        case let .failure(reason): if open?.problem == nil { open?.problem = reason.description }
        }
    }

    /// A statement not understood: inside a transaction, the save is not replayed (it would be
    /// replayed without it).
    public mutating func notUnderstood(_ statement: LoggedStatement) {
        guard open != nil else { return }
        open?.lines.append(statement.line)
        if open?.problem == nil { open?.problem = "a save holding a statement not understood (listed with it)" }
    }

    /// A statement's change, read once per distinct statement (an INSERT's with its bound `Z_ENT`):
    /// the 4,096 met last are kept, as the reader keeps their tokens.
    private mutating func reading(_ statement: LoggedStatement, kind: StatementKind) -> Result<SaveSpec.Change?, NotUnderstood> {
        var key = statement.sql
        if kind == .insert, statement.values.count > 1, case let .integer(number)? = statement.values[1] { key += "\u{0}\(number)\u{0}\(statement.values.count)" }
        if let known = readings[key] { return known }
        let read = LogSave.read(statement, kind: kind, schema: schema)
        if readings.count >= 4_096 { readings = [:] }
        readings[key] = read
        return read
    }

    /// Ends the log: a transaction still open is not replayed.
    public mutating func finish() {
        if let waiting = open { skip(waiting.lines, "a transaction with no COMMIT after it (the log ends inside it)") }
        open = nil
        index = [:]
    }

    private mutating func commit(rolledBack: Bool) {
        guard let waiting = open else { return }
        open = nil
        if rolledBack { return skip(waiting.lines, "a transaction rolled back: it changed nothing") }
        if let problem = waiting.problem { return skip(waiting.lines, problem) }
        guard !waiting.spec.steps.isEmpty else { return skip(waiting.lines, "a transaction that changes no object") }
        let position =
            index[waiting.spec]
            ?? {
                saves.append(Save(spec: waiting.spec, line: waiting.line))
                index[waiting.spec] = saves.count - 1
                return saves.count - 1
            }()
        let values = SaveValues(changes: waiting.values)
        let logged = values.isEmpty ? nil : values
        if saves[position].values == nil { saves[position].values = keep(logged) }
        if occurrences.count < LogSession.longest {
            occurrences.append(LogSession.Occurrence(line: waiting.line, index: position))
            occurrenceValues.append(keep(logged))
        }
        saves[position].count += 1
        saves[position].statements += waiting.lines.count
    }

    /// `values` where they fit what is left of the budget (which they then take), else nil.
    private mutating func keep(_ values: SaveValues?) -> SaveValues? {
        guard let values else { return nil }
        let bytes = values.changes.reduce(0) { total, change in
            total + (change?.values.reduce(0) { if case let .text(text) = $1 { $0 + text.utf8.count } else { $0 } } ?? 0)
        }
        guard keptChanges + values.changes.count <= Self.keptValueChanges, keptBytes + bytes <= Self.keptValueBytes else { return nil }
        keptChanges += values.changes.count
        keptBytes += bytes
        return values
    }

    private mutating func skip(_ lines: LineList, _ why: String) {
        notReplayed[why, default: LineList()].append(contentsOf: lines)
    }
}
