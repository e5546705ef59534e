/// A statement cut into SQL tokens: words (keywords and names, upper-cased), numbers, string
/// literals, parameters and punctuation. Enough to tell what a statement of Core Data's is and
/// which tables it names, not a parser of SQL.
struct SQLTokens {
    /// A quoted name (`"…"`, `` `…` ``, `[…]`) is a kind of its own: SQLite reads `"…"` as a string
    /// literal when no column has that name, so its text may be the app's data.
    enum Kind: Equatable { case word, quoted, number, string, parameter, symbol }
    struct Token: Equatable {
        let kind: Kind
        /// A word upper-cased; a string literal without its quotes; a symbol as written.
        let text: String
        /// Parenthesis depth the token is at (0 outside every parenthesis).
        let depth: Int
    }

    private(set) var tokens: [Token] = []
    /// Whether the text ends inside a quote or an open parenthesis: a statement cut off.
    private(set) var unfinished = false

    init(_ sql: String) {
        let scalars = Array(sql.unicodeScalars)
        var index = 0
        var depth = 0
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0" ... "9").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
            } else if scalar == "'" || scalar == "\"" || scalar == "`" || scalar == "[" {
                let close: Unicode.Scalar = scalar == "[" ? "]" : scalar
                var text = String.UnicodeScalarView()
                var end = index + 1
                var closed = false
                while end < scalars.count {
                    if scalars[end] == close {
                        // A doubled quote is one quote inside the literal.
                        if end + 1 < scalars.count, scalars[end + 1] == close, close != "]" { text.append(close); end += 2; continue }
                        closed = true
                        break
                    }
                    text.append(scalars[end])
                    end += 1
                }
                if !closed { unfinished = true }
                tokens.append(Token(kind: scalar == "'" ? .string : .quoted, text: scalar == "'" ? String(text) : String(text).uppercased(), depth: depth))
                index = end + 1
            } else if ("0" ... "9").contains(scalar) || (scalar == "." && index + 1 < scalars.count && ("0" ... "9").contains(scalars[index + 1])) {
                var end = index
                while end < scalars.count, isWordScalar(scalars[end]) || scalars[end] == "." { end += 1 }
                tokens.append(Token(kind: .number, text: String(String.UnicodeScalarView(scalars[index ..< end])), depth: depth))
                index = end
            } else if isWordScalar(scalar) {
                var end = index
                while end < scalars.count, isWordScalar(scalars[end]) { end += 1 }
                tokens.append(Token(kind: .word, text: String(String.UnicodeScalarView(scalars[index ..< end])).uppercased(), depth: depth))
                index = end
            } else if scalar == "?" || scalar == ":" || scalar == "@" {
                var end = index + 1
                while end < scalars.count, isWordScalar(scalars[end]) { end += 1 }
                tokens.append(Token(kind: .parameter, text: String(String.UnicodeScalarView(scalars[index ..< end])), depth: depth))
                index = end
            } else {
                if scalar == ")" { depth = max(0, depth - 1) }
                // Two-character operators stay one token.
                let pair = index + 1 < scalars.count ? String(String.UnicodeScalarView([scalar, scalars[index + 1]])) : ""
                let text = ["<=", ">=", "!=", "<>", "==", "||"].contains(pair) ? pair : String(scalar)
                tokens.append(Token(kind: .symbol, text: text, depth: depth))
                if scalar == "(" { depth += 1 }
                index += text.unicodeScalars.count
            }
        }
        if depth > 0 { unfinished = true }
        if let last = tokens.last, last.kind == .word || last.kind == .symbol, Self.dangling.contains(last.text) { unfinished = true }
    }

    /// What a statement cannot end on: an operator, a comma, a keyword that needs what follows.
    private static let dangling: Set<String> = [
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "JOIN", "ON", "BY", "SET", "VALUES", "INTO", "IN", "LIKE", "BETWEEN", "LIMIT", "OFFSET", "UNION",
        "=", ",", "<", ">", "<=", ">=", "!=", "<>", "==", "(", ".", "+", "-", "/", "||",
    ]

    /// The first word.
    var verb: String? { tokens.first { $0.kind == .word }?.text }

    /// Words of SQL a message may quote: what a statement of Core Data's is made of.
    static let keywords: Set<String> = [
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "JOIN", "LEFT", "OUTER", "INNER", "CROSS", "ON", "ORDER", "BY", "GROUP", "HAVING", "LIMIT", "OFFSET",
        "ASC", "DESC", "COLLATE", "IN", "IS", "NULL", "BETWEEN", "LIKE", "GLOB", "MATCH", "REGEXP", "ESCAPE", "DISTINCT", "COUNT", "SUM", "MIN", "MAX", "AVG", "TOTAL",
        "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "REPLACE", "FAIL", "IGNORE", "ABORT", "ROLLBACK", "BEGIN", "COMMIT", "END", "EXCLUSIVE", "IMMEDIATE",
        "DEFERRED", "TRANSACTION", "SAVEPOINT", "RELEASE", "PRAGMA", "CREATE", "DROP", "ALTER", "TABLE", "INDEX", "TRIGGER", "VIEW", "EXPLAIN", "QUERY", "PLAN",
        "ANALYZE", "VACUUM", "REINDEX", "ATTACH", "DETACH", "UNION", "ALL", "EXISTS", "CASE", "WHEN", "THEN", "ELSE", "AS", "WITH", "USING", "CAST",
    ]

    /// A token as a message may name it: a symbol, an SQL keyword or a name of Core Data's
    /// layout (`ZTITLE`, `Z_1TAGS`, an alias `t0`) as written; anything else only by its kind,
    /// since it may be the app's data (a quoted name, a literal, the app's words on a line joined
    /// to a statement).
    static func describe(_ token: Token?) -> String {
        guard let token else { return "the end" }
        switch token.kind {
        case .symbol, .parameter: return "'\(token.text)'"
        case .string: return "a string literal"
        case .number: return "a number"
        case .quoted: return "a quoted name"
        case .word: return isNameOfCoreData(token.text) || keywords.contains(token.text) ? "'\(token.text)'" : "a word that is not SQL's"
        }
    }

    /// `word` as a message may name it (`describe`), else `instead`.
    static func shown(_ word: String, else instead: String) -> String {
        isNameOfCoreData(word) || keywords.contains(word) ? word : instead
    }

    /// A name Core Data's layout writes: a table or column (`ZITEM`, `Z_PK`, `Z6_QUOTE`), a
    /// key array (`_Z_INTARRAY0`), an alias (`T0`), one of its functions and collations.
    static func isNameOfCoreData(_ word: String) -> Bool {
        let plain = word.allSatisfy { ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "_" }
        return plain && (word.hasPrefix("Z") || word.hasPrefix("_Z") || (word.hasPrefix("T") && word.dropFirst().allSatisfy(\.isNumber)) || word.hasPrefix("NSCOREDATA") || word.hasPrefix("NSCOLLATE"))
            || ["SQLITE_MASTER", "ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"].contains(word)
    }

    /// Whether the words `sequence` follow one another somewhere, at any depth.
    func contains(words sequence: [String]) -> Bool {
        guard !sequence.isEmpty, tokens.count >= sequence.count else { return false }
        for start in 0 ... tokens.count - sequence.count where zip(tokens[start...], sequence).allSatisfy({ $0.text == $1 }) { return true }
        return false
    }

    /// The names after `FROM`, `JOIN`, `INTO`, `UPDATE` and `TABLE` (a subquery's too), once each,
    /// in order; Core Data's key arrays (`_Z_intarray0`) left out.
    var tables: [String] {
        var names: [String] = []
        for (index, token) in tokens.enumerated() where token.kind == .word && ["FROM", "JOIN", "INTO", "UPDATE", "TABLE"].contains(token.text) {
            var next = index + 1
            // `INSERT OR REPLACE INTO`, `CREATE TABLE IF NOT EXISTS`.
            while next < tokens.count, ["IF", "NOT", "EXISTS", "OR", "REPLACE", "FAIL", "IGNORE", "ONLY"].contains(tokens[next].text), tokens[next].kind == .word { next += 1 }
            guard next < tokens.count, tokens[next].kind == .word else { continue }
            var name = tokens[next].text
            // `main.ZITEM`.
            if next + 2 < tokens.count, tokens[next + 1].text == ".", tokens[next + 2].kind == .word { name = tokens[next + 2].text }
            if !name.hasPrefix("_Z_INTARRAY"), !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The select list's items (the tokens of each, split at top-level commas) of a `SELECT`.
    var selectList: [[Token]] {
        guard let start = tokens.firstIndex(where: { $0.kind == .word && $0.text == "SELECT" }) else { return [] }
        let base = tokens[start].depth
        var items: [[Token]] = [[]]
        for token in tokens[(start + 1)...] {
            if token.depth == base, token.kind == .word, token.text == "FROM" { break }
            if token.depth == base, token.kind == .symbol, token.text == "," { items.append([]); continue }
            if token.depth == base, token.kind == .word, token.text == "DISTINCT", items.count == 1, items[0].isEmpty { continue }
            items[items.count - 1].append(token)
        }
        return items.filter { !$0.isEmpty }
    }
}
