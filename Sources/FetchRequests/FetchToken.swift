import Models
/// A token of a fetch written in NSPredicate's format, with the column it starts at (1-based).
struct FetchToken: Equatable {
    enum Kind: Equatable {
        /// A name: an entity, an attribute, a keyword (`WHERE`, `AND`, `BEGINSWITH`, …).
        case word(String)
        case number(String)
        case string(String)
        /// `%@`.
        case placeholder
        /// An operator or punctuation: `==`, `!=`, `<=`, `(`, `{`, `,`, `[`, `.@count` (after a SUBQUERY), …
        case symbol(String)
        case end
    }

    let kind: Kind
    let column: Int

    /// `kind`'s word, upper-cased, when it is one (keywords are read without case, as NSPredicate reads them).
    var keyword: String? { if case let .word(word) = kind { word.uppercased() } else { nil } }
}

/// Splits a fetch into tokens; a character it cannot read is a `FetchFormatError` at its column.
enum FetchTokenizer {
    static let symbols = [".@count", "==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||", "=", "<", ">", "!", "(", ")", "{", "}", ",", "[", "]", "&", ":"]

    static func tokens(_ text: String) throws -> [FetchToken] {
        let characters = Array(text)
        var tokens: [FetchToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index], column = index + 1
            if character.isWhitespace { index += 1; continue }
            // A name, or a SUBQUERY's variable (`$x`, `$x.name`).
            if character.isLetter || character == "_" || (character == "$" && index + 1 < characters.count && characters[index + 1].isLetter) {
                let start = index
                if character == "$" { index += 1 }
                // A key path's names and its `@count` (`tags.@count`).
                while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "."
                    || (characters[index] == "@" && characters[index - 1] == ".") { index += 1 }
                tokens.append(FetchToken(kind: .word(String(characters[start ..< index])), column: column))
            } else if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
                let start = index
                index += 1
                while index < characters.count, characters[index].isNumber || ".eE".contains(characters[index])
                    || ("+-".contains(characters[index]) && "eE".contains(characters[index - 1])) { index += 1 }
                tokens.append(FetchToken(kind: .number(String(characters[start ..< index])), column: column))
            } else if character == "\"" || character == "'" {
                var value = "", closed = false
                index += 1
                while index < characters.count {
                    let next = characters[index]
                    index += 1
                    if next == character { closed = true; break }
                    if next == "\\", index < characters.count { value.append(characters[index]); index += 1 } else { value.append(next) }
                }
                guard closed else { throw FetchFormatError("a string that is not closed (its quote \(character) has no partner)", column: column, in: text) }
                tokens.append(FetchToken(kind: .string(value), column: column))
            } else if character == "%" {
                guard index + 1 < characters.count, characters[index + 1] == "@" else {
                    throw FetchFormatError("'%' that is not '%@' (the one placeholder a fetch takes: a value drawn from the data)", column: column, in: text)
                }
                tokens.append(FetchToken(kind: .placeholder, column: column))
                index += 2
            } else if let symbol = symbols.first(where: { index + $0.count <= characters.count && String(characters[index ..< index + $0.count]) == $0 }) {
                tokens.append(FetchToken(kind: .symbol(symbol), column: column))
                index += symbol.count
            } else if character == "|" {
                throw FetchFormatError("bitwise '\(character)' is not yet a form the suite runs", column: column, in: text)
            } else {
                throw FetchFormatError("'\(character)', which NSPredicate's format has no use for here", column: column, in: text)
            }
        }
        tokens.append(FetchToken(kind: .end, column: characters.count + 1))
        return tokens
    }
}

/// A fetch the suite cannot read, or that does not fit the model: one line naming the problem and
/// quoting the fetch with `^` before the column (at most `quoted` characters either side, `…`
/// where it is cut; a line break a space, other control characters escaped).
public struct FetchFormatError: Error, CustomStringConvertible {
    public let description: String
    /// How many characters of the fetch are quoted either side of the column.
    static let quoted = 100

    init(_ problem: String, column: Int, in text: String) {
        let characters = Array(text)
        let at = min(max(column - 1, 0), characters.count)
        let from = max(0, at - Self.quoted), to = min(characters.count, at + Self.quoted)
        let quoted = (from > 0 ? "…" : "") + String(characters[from ..< at]) + "^" + String(characters[at ..< to]) + (to < characters.count ? "…" : "")
        description = "\(problem), at column \(column): \(quoted.replacingOccurrences(of: "\n", with: " "))".escapingControlCharacters
    }
}
