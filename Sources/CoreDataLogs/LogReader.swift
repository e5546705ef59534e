/// Core Data's SQL log read statement by statement: each `CoreData: sql:` line starts one (its SQL
/// continued on the lines after it when the log broke it over lines), and the annotation and
/// details lines that follow it until the next say what it bound, returned and cost. Lines that
/// are not Core Data's (the app's own output) are counted and passed over.
public struct LogReader {
    public let file: LogFile
    /// Lines read, and of them Core Data's.
    public private(set) var lines = 0
    public private(set) var coreDataLines = 0
    /// Statements read (understood or not).
    public private(set) var statements = 0
    /// Whether any statement had its values logged (level 2 or more).
    public private(set) var hasValues = false
    /// Lines of Core Data's that belong to no statement: a bound value before the first statement.
    public private(set) var strays: [(line: Int, why: String)] = []

    public init(file: LogFile) { self.file = file }

    /// Calls `body` with each statement, in the order they started, once the lines about it have
    /// been read.
    public mutating func read(progress: ((Int64) -> Void)? = nil, _ body: (LoggedStatement) throws -> Void) throws {
        // Statements started and not yet passed on, the current one last: a fetch waits for its
        // total time while the prefetches it sets off run (their statements and totals come first).
        var queue: [LoggedStatement] = []
        // Whether lines of the app's may still continue the current statement's SQL, and how many have.
        var open = false
        var continued = 0
        try file.forEachLine(progress: progress) { number, text in
            lines = number
            let line = LogLine(text)
            if line.isCoreData { coreDataLines += 1 }
            switch line {
            case let .sql(sql):
                queue.append(LoggedStatement(line: number, sql: Self.collapsed(sql)))
                try flush(&queue, body)
                open = true
                continued = 0
            case let .annotation(text), let .otherCoreData(text):
                open = false
                let annotation = LogAnnotation(annotation: text)
                guard annotation != .other, !queue.isEmpty else { return }
                if annotation.isTotal, queue[queue.count - 1].totalSeconds != nil,
                   let waiting = queue.lastIndex(where: \.awaitsTotal) {
                    queue[waiting].note(annotation)
                    try flush(&queue, body)
                } else {
                    queue[queue.count - 1].note(annotation)
                }
            case let .details(text):
                open = false
                let annotation = LogAnnotation(details: text)
                if case .bind = annotation, queue.isEmpty { strays.append((number, "a bound value with no statement before it")) }
                if !queue.isEmpty { queue[queue.count - 1].note(annotation) }
            case let .other(text):
                // A statement broken over lines takes a few; a cut-off one must not swallow the app's output.
                guard open, continued < Self.longestBreak.lines, let last = queue.last, last.sql.utf8.count < Self.longestBreak.bytes,
                      Self.continues(last.sql, with: text) else { open = false; return }
                continued += 1
                queue[queue.count - 1].sql += " " + Self.collapsed(text)
            }
        }
        for statement in queue { try emit(statement, body) }
    }

    /// A request waits for its total at most this many statements back (a fetch whose total never
    /// comes, such as one the app abandoned, does not hold the rest).
    private static let longestWait = 64

    /// Passes on the statements before the current one that wait for nothing.
    private mutating func flush(_ queue: inout [LoggedStatement], _ body: (LoggedStatement) throws -> Void) throws {
        var passed = 0
        while passed < queue.count - 1, !queue[passed].awaitsTotal || queue.count - passed > Self.longestWait {
            try emit(queue[passed], body)
            passed += 1
        }
        queue.removeFirst(passed)
    }

    /// The tokens of the statements met last, by their SQL.
    private var recent: [String: SQLTokens] = [:]

    private mutating func emit(_ statement: LoggedStatement, _ body: (LoggedStatement) throws -> Void) throws {
        var statement = statement
        if let tokens = recent[statement.sql] {
            statement.cut = tokens
        } else {
            if recent.count >= 4096 { recent.removeAll(keepingCapacity: true) }
            let tokens = SQLTokens(statement.sql)
            recent[statement.sql] = tokens
            statement.cut = tokens
        }
        statements += 1
        if statement.hasValues { hasValues = true }
        try body(statement)
    }

    /// The text with runs of white space as one space, trimmed.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The most lines and bytes a statement broken over lines is joined from.
    static let longestBreak = (lines: 100, bytes: 65_536)

    /// Words that start a clause of a statement broken over lines.
    private static let clauseWords: Set<String> = [
        "FROM", "WHERE", "ORDER", "GROUP", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT", "INNER", "CROSS", "AND", "OR", "ON", "VALUES", "SET", "UNION", "AS", "ASC", "DESC",
        "NOT", "IN", "IS", "BETWEEN", "LIKE", "COLLATE",
    ]

    /// Whether a line that is not Core Data's continues `sql`: the statement so far is cut off (an
    /// open quote or parenthesis, a clause without its end), or the line starts with a clause's
    /// word, an operator or a closing parenthesis.
    static func continues(_ sql: String, with line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.first else { return false }
        if SQLTokens(sql).unfinished { return true }
        if [")", ",", "=", "<", ">"].contains(first) { return true }
        let word = trimmed.prefix { $0.isLetter || $0 == "_" }
        return clauseWords.contains(String(word)) && word.allSatisfy(\.isUppercase)
    }
}
