/// What a log asks, without a model: its statements by kind (how many, the device's logged time,
/// the rows they returned), the tables each kind reads or writes, and every statement not
/// understood with its line and why. It holds counts, names of tables and line numbers, never a
/// statement's values.
public struct LogSummary: Sendable {
    public struct Tally: Sendable, Equatable {
        public var statements = 0
        /// Statements of this kind with a logged time, and the sum of their times.
        public var timed = 0
        public var seconds = 0.0
        /// Statements with logged rows, and the sum of their rows.
        public var counted = 0
        public var rows = 0
    }

    public private(set) var kinds: [StatementKind: Tally] = [:]
    /// Per table, its statements by kind.
    public private(set) var tables: [String: [StatementKind: Int]] = [:]
    /// Per entity of the model given (by name), its statements by kind.
    public private(set) var entities: [String: [StatementKind: Int]] = [:]
    /// Statements not understood, by why, each with its line.
    public private(set) var notUnderstood: [String: LineList] = [:]

    public init() {}

    public var understood: Int { kinds.values.reduce(0) { $0 + $1.statements } }
    /// Every kind's tally summed.
    public var total: Tally {
        kinds.values.reduce(into: Tally()) { sum, tally in
            sum.statements += tally.statements
            sum.timed += tally.timed
            sum.seconds += tally.seconds
            sum.counted += tally.counted
            sum.rows += tally.rows
        }
    }

    public var notUnderstoodCount: Int { notUnderstood.values.reduce(0) { $0 + $1.count } }

    /// Counts the statement; with a model, each entity it asks about (`LogSchema.entities`).
    public mutating func add(_ statement: LoggedStatement, entities names: [String] = []) {
        add(statement, kind: statement.kind(), entities: names)
    }

    /// Counts the statement whose kind is known.
    public mutating func add(_ statement: LoggedStatement, kind told: Result<StatementKind, NotUnderstood>, entities names: [String] = []) {
        let tokens = statement.tokens
        switch told {
        case let .success(kind):
            add(statement, as: kind, tables: tokens.tables)
            for name in names { entities[name, default: [:]][kind, default: 0] += 1 }
        case let .failure(reason): notUnderstood[reason.description, default: LineList()].append(statement.line)
        }
    }

    public mutating func addStray(line: Int, why: String) {
        notUnderstood[why, default: LineList()].append(line)
    }

    private mutating func add(_ statement: LoggedStatement, as kind: StatementKind, tables names: [String]) {
        var tally = kinds[kind] ?? Tally()
        tally.statements += 1
        if let seconds = statement.loggedSeconds {
            tally.timed += 1
            tally.seconds += seconds
        }
        if let rows = statement.rows {
            tally.counted += 1
            tally.rows = tally.rows.addingSaturated(rows)
        }
        kinds[kind] = tally
        for table in names { tables[table, default: [:]][kind, default: 0] += 1 }
    }
}

extension Int {
    /// The sum, or `Int.max` where it would overflow (a hostile log's counts).
    func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
