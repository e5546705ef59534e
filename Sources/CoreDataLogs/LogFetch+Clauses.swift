/// A read statement's ORDER BY, LIMIT and OFFSET, and the token steps the reading is made of.
extension LogFetch {
    // MARK: ORDER BY, LIMIT, OFFSET

    mutating func orderBy() throws -> [String] {
        try expect("BY")
        var keys: [String] = []
        repeat {
            let name = try key(try operand())
            var comparator = ""
            if accept("COLLATE") {
                let collation = try self.name()
                guard let found = Self.collations[collation] else { throw NotUnderstood("a sort by collation \(SQLTokens.shown(collation, else: "named")) is not read") }
                comparator = " " + found
            }
            let descending = accept("DESC")
            if !descending { _ = accept("ASC") }
            keys.append(name + comparator + (descending ? " DESC" : ""))
        } while acceptSymbol(",")
        return keys
    }

    static let collations = ["NSCOLLATENOCASE": "caseInsensitive", "NSCOLLATELOCALESENSITIVE": "localized",
                                     "NSCOLLATELOCALESENSITIVENOCASE": "localizedCaseInsensitive", "NSCOLLATEFINDERLIKE": "localizedStandard"]

    mutating func page() throws -> (limit: Int?, offset: Int?) {
        var limit: Int?, offset: Int?
        if accept("LIMIT") { limit = try count("LIMIT") }
        if accept("OFFSET") { offset = try count("OFFSET") }
        return (limit, offset)
    }

    /// A LIMIT's or OFFSET's number: written, or bound (as the suite's statements bind it) and
    /// logged at level 2; a batch's LIMIT bound at level 1 is the rows the log says it returned.
    mutating func count(_ clause: String) throws -> Int? {
        guard let token = tokens[safe: position] else { throw NotUnderstood("a \(clause) without its number") }
        position += 1
        if token.kind == .number, let number = Int(token.text) { return number }
        // `LIMIT -1 OFFSET ?`: an offset alone.
        if clause == "LIMIT", token.text == "-", tokens[safe: position]?.text == "1" {
            position += 1
            return nil
        }
        guard token.kind == .parameter else { throw NotUnderstood("a \(clause) of a form not read") }
        parameter += 1
        if parameter - 1 < statement.values.count, case let .integer(number)? = statement.values[parameter - 1] {
            guard number >= 0, number <= Int64(Int32.max) else { throw NotUnderstood("a \(clause) out of range") }
            return Int(number)
        }
        // A batch's size at level 1: the rows it returned (a full batch's are its size).
        if clause == "LIMIT", keyInList, let rows = statement.rows { return rows }
        throw NotUnderstood("a bound \(clause) whose value the log leaves out (log with -com.apple.CoreData.SQLDebug 2)")
    }

    // MARK: Tokens

    /// Where the reading stopped, for a reason: a keyword or symbol as written, a literal by its
    /// kind only (a literal may be the app's data).
    var nearby: String { SQLTokens.describe(tokens[safe: position]) }

    static let clauseWords: Set<String> = ["WHERE", "JOIN", "LEFT", "INNER", "CROSS", "ORDER", "GROUP", "LIMIT", "OFFSET", "HAVING", "UNION"]

    func peek(_ word: String) -> Bool { tokens[safe: position].map { $0.kind == .word && $0.text == word } ?? false }

    mutating func accept(_ word: String) -> Bool {
        guard peek(word) else { return false }
        position += 1
        return true
    }

    mutating func expect(_ word: String) throws {
        guard accept(word) else { throw NotUnderstood("expected \(word) near \(nearby)") }
    }

    mutating func acceptSymbol(_ symbol: String) -> Bool {
        guard let token = tokens[safe: position], token.kind == .symbol, token.text == symbol else { return false }
        position += 1
        return true
    }

    mutating func expectSymbol(_ symbol: String) throws {
        guard acceptSymbol(symbol) else { throw NotUnderstood("expected '\(symbol)' near \(nearby)") }
    }

    mutating func name() throws -> String {
        guard let token = tokens[safe: position], token.kind == .word else { throw NotUnderstood("expected a name near \(nearby)") }
        position += 1
        return token.text
    }

    /// Moves to the first of `words` outside parentheses.
    mutating func skipToClause(_ words: Set<String>) throws {
        let depth = tokens[safe: position]?.depth ?? 0
        while let token = tokens[safe: position], !(token.kind == .word && token.depth == depth && words.contains(token.text)) { position += 1 }
        guard position < tokens.count else { throw NotUnderstood("no \(words.sorted().joined(separator: " or ")) in the statement") }
    }

    /// Moves past the parenthesis that closes the one just opened.
    mutating func skipToClose() throws {
        let depth = tokens[position - 1].depth
        while let token = tokens[safe: position], !(token.kind == .symbol && token.text == ")" && token.depth == depth) { position += 1 }
        try expectSymbol(")")
    }
}
