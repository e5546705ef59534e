/// A fetch of dictionaries read back (`resultType = .dictionaryResultType`): `SELECT DISTINCT
/// t0.ZTITLE …` (`PROPERTIES DISTINCT title`), or aggregates over groups, `SELECT t0.ZTITLE,
/// COUNT(t0.ZPAGECOUNT) AS __var0, total(…) … GROUP BY t0.ZTITLE HAVING __var0 > 2`
/// (`PROPERTIES title, count:(pageCount) AS var0, … GROUP BY title HAVING $var0 > 2`).
extension LogFetch {
    /// Core Data's SQL for each aggregate of NSExpression's (`DictionaryFetch.Function`'s SQL).
    static let aggregates = ["COUNT": "count", "TOTAL": "sum", "AVG": "average", "MIN": "min", "MAX": "max"]

    /// The select list as the fetch format's PROPERTIES items (`DISTINCT ` first when the rows are
    /// distinct), or nil when it is not a fetch of dictionaries: attributes with DISTINCT, or
    /// aggregates (with the attributes they are grouped by).
    mutating func dictionaryItems(root: Int, distinct: Bool) throws -> String? {
        var items: [String] = [], aggregated = false
        for item in statement.tokens.selectList {
            let texts = item.map(\.text)
            if texts.count == 3, texts[1] == "." {
                items.append(try attributeName(texts.joined(), root: root))
                continue
            }
            guard texts.count >= 6, let function = Self.aggregates[texts[0]], texts[1] == "(", texts[5] == ")", texts[3] == "." else { return nil }
            guard texts[4] != "Z_PK" else { throw NotUnderstood("an aggregate of the objects' keys (\(texts[0])(t0.Z_PK)) is not replayed yet") }
            var text = "\(function):(\(try attributeName(texts[2 ... 4].joined(), root: root)))"
            switch texts.count {
            case 6: break
            case 8 where texts[6] == "AS" && texts[7].hasPrefix("__VAR"): text += " AS var\(texts[7].dropFirst(5))"
            default: return nil
            }
            items.append(text)
            aggregated = true
        }
        guard !items.isEmpty, distinct != aggregated else { return nil }
        return (distinct ? "DISTINCT " : "") + items.joined(separator: ", ")
    }

    /// `GROUP BY t0.ZA, … [HAVING …]` after `GROUP`: the fetch format's `GROUP BY a, … [HAVING
    /// $var0 > 2 …]`. A HAVING compared with a bound value is not read yet (the fetch format's
    /// HAVING takes numbers).
    mutating func groupBy() throws -> String {
        try expect("BY")
        var keys: [String] = []
        repeat { keys.append(try key(try operand())) } while acceptSymbol(",")
        var text = " GROUP BY " + keys.joined(separator: ", ")
        guard accept("HAVING") else { return text }
        var having: [String] = []
        while let token = tokens[safe: position], !(token.kind == .word && ["ORDER", "LIMIT", "OFFSET"].contains(token.text)) {
            position += 1
            switch token.kind {
            case .word where token.text.hasPrefix("__VAR"): having.append("$var\(token.text.dropFirst(5))")
            case .word where ["AND", "OR", "NOT"].contains(token.text): having.append(token.text)
            case .number, .symbol: having.append(token.text)
            case .parameter: throw NotUnderstood("a HAVING compared with a bound value is not replayed yet")
            default: throw NotUnderstood("a HAVING of \(SQLTokens.describe(token)) is not read")
            }
        }
        text += " HAVING " + having.joined(separator: " ").replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
        return text
    }
}
