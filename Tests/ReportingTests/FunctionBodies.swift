/// The bodies of the functions in Swift source, with the lines each spans: every `func`, `init`,
/// `deinit` and `subscript` with a body, and every computed `var` whose body opens on the line of
/// its `var`. A body spans from the line of its opening brace through the line of its closing
/// brace, inclusive, closures and nested functions included. Braces in string literals (one-line,
/// multi-line and raw) and comments (nested block comments too) are not code; a string's
/// interpolations are.
///
/// Names are the enclosing types' and functions' names joined with dots, the type being the one
/// named by its `struct`, `class`, `enum`, `actor`, `protocol` or `extension`, as in
/// `ResultsFile.attachSamples` or `CoreDataSchema.init`.
enum FunctionBodies {
    struct Body: Equatable, CustomStringConvertible {
        /// The line of the declaration's keyword (`func`, `init`, …), from 1.
        var line: Int
        var name: String
        /// The lines from the opening brace's through the closing brace's, inclusive.
        var lines: Int

        var description: String { "\(line) \(name) (\(lines) lines)" }
    }

    static func bodies(in text: String) -> [Body] {
        var reader = BraceReader(tokens: tokens(in: SwiftCode.blanked(text)))
        return reader.read()
    }

    // MARK: Tokens

    struct Token {
        enum Kind: Equatable { case word, symbol, newline }
        var kind: Kind
        var text: String
        var line: Int
    }

    /// Words (identifiers and keywords, backticked identifiers marked by their backtick),
    /// operator runs, single punctuation characters and newlines, of code with strings and
    /// comments blanked.
    static func tokens(in code: [Character]) -> [Token] {
        var tokens: [Token] = []
        var line = 1
        var index = 0
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        func isOperator(_ c: Character) -> Bool { "=-+*/%<>!&|^~?.".contains(c) }
        while index < code.count {
            let c = code[index]
            if c == "\n" {
                tokens.append(Token(kind: .newline, text: "\n", line: line)); line += 1; index += 1
            } else if c.isWhitespace {
                index += 1
            } else if isWord(c) || c == "`" || c == "$" || c == "@" || c == "#" {
                var end = index + 1
                while end < code.count, isWord(code[end]) || (c == "`" && code[end] != "`" && code[end] != "\n") { end += 1 }
                if c == "`", end < code.count, code[end] == "`" { end += 1 }
                tokens.append(Token(kind: .word, text: String(code[index..<end]), line: line)); index = end
            } else if isOperator(c) {
                var end = index + 1
                while end < code.count, isOperator(code[end]) { end += 1 }
                tokens.append(Token(kind: .symbol, text: String(code[index..<end]), line: line)); index = end
            } else {
                tokens.append(Token(kind: .symbol, text: String(c), line: line)); index += 1
            }
        }
        return tokens
    }

    // MARK: Braces

    /// Matches braces over tokens, knowing which open a declaration's body and which a type's.
    struct BraceReader {
        private enum Opened { case type(String), body(name: String, line: Int, openedOn: Int), other }
        private enum Keyword { case function, computedVar }
        private struct Pending { var keyword: Keyword; var name: String; var line: Int; var depth: Int }

        let tokens: [Token]
        private var open: [Opened] = []
        private var pendingDeclaration: Pending?
        private var pendingType: (name: String, depth: Int)?
        /// Parentheses and square brackets open (a default argument's closure is no body).
        private var depth = 0
        private var found: [Body] = []

        init(tokens: [Token]) { self.tokens = tokens }

        private static let typeKeywords: Set = ["struct", "class", "enum", "actor", "protocol", "extension"]
        private static let notTypeNames: Set = ["func", "var", "let", "subscript", "init", "deinit", "static", "final", "override", "private", "fileprivate", "internal", "public", "open", "required", "convenience", "typealias"]

        mutating func read() -> [Body] {
            for (index, token) in tokens.enumerated() {
                let previous = index > 0 ? tokens[index - 1].text : ""
                let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                switch (token.kind, token.text) {
                case (.newline, _):
                    if pendingDeclaration?.keyword == .computedVar, pendingDeclaration?.depth == depth { pendingDeclaration = nil }
                case (.word, "func"):
                    pendingDeclaration = Pending(keyword: .function, name: next?.text ?? "func", line: token.line, depth: depth)
                case (.word, "init"), (.word, "deinit"), (.word, "subscript"):
                    if !previous.hasSuffix(".") { pendingDeclaration = Pending(keyword: .function, name: token.text, line: token.line, depth: depth) }
                case (.word, "var"):
                    pendingDeclaration = Pending(keyword: .computedVar, name: next?.text ?? "var", line: token.line, depth: depth)
                case (.word, let word) where Self.typeKeywords.contains(word):
                    if let next, next.kind == .word, !Self.notTypeNames.contains(next.text) { pendingType = (typeName(from: index + 1), depth) }
                case (.symbol, "="):
                    if pendingDeclaration?.keyword == .computedVar, pendingDeclaration?.depth == depth { pendingDeclaration = nil }
                case (.symbol, "("), (.symbol, "["):
                    depth += 1
                case (.symbol, ")"), (.symbol, "]"):
                    depth -= 1
                case (.symbol, "{"):
                    openBrace(on: token.line)
                case (.symbol, "}"):
                    closeBrace(on: token.line)
                default:
                    break
                }
            }
            return found
        }

        /// A dotted name from `start`: `Outer.Inner`.
        private func typeName(from start: Int) -> String {
            var name = tokens[start].text
            var index = start + 1
            while index + 1 < tokens.count, tokens[index].text == ".", tokens[index + 1].kind == .word {
                name += "." + tokens[index + 1].text; index += 2
            }
            return name
        }

        private mutating func openBrace(on line: Int) {
            if let pendingDepth = pendingDeclaration?.depth ?? pendingType?.depth, pendingDepth < depth {
                open.append(.other) // a closure in a parameter's default value: the body is still to come
                return
            }
            if let pending = pendingDeclaration, pending.depth == depth {
                open.append(.body(name: pending.name, line: pending.line, openedOn: line))
            } else if let pending = pendingType, pending.depth == depth {
                open.append(.type(pending.name))
            } else {
                open.append(.other)
            }
            pendingDeclaration = nil
            pendingType = nil
        }

        private mutating func closeBrace(on line: Int) {
            if let pending = pendingDeclaration, pending.depth >= depth { pendingDeclaration = nil } // a requirement without a body, in a protocol
            guard let last = open.popLast() else { return }
            if case .body(let name, let declared, let openedOn) = last {
                let path = open.compactMap { opened -> String? in
                    switch opened {
                    case .type(let name), .body(let name, _, _): return name
                    case .other: return nil
                    }
                }
                found.append(Body(line: declared, name: (path + [name]).joined(separator: "."), lines: line - openedOn + 1))
            }
        }
    }
}

/// Swift source with string literals' contents and comments replaced by spaces (line breaks
/// kept, so lines keep their numbers); a string's interpolations stay, being code.
enum SwiftCode {
    private enum Frame {
        /// Code: the file's, or an interpolation's with its parentheses open.
        case code(interpolationDepth: Int?)
        case string(multiline: Bool, hashes: Int)
    }

    static func blanked(_ text: String) -> [Character] {
        let characters = Array(text)
        var output: [Character] = []
        output.reserveCapacity(characters.count)
        var stack: [Frame] = [.code(interpolationDepth: nil)]
        var index = 0
        func starts(with prefix: String, at position: Int) -> Bool {
            var position = position
            for c in prefix {
                guard position < characters.count, characters[position] == c else { return false }
                position += 1
            }
            return true
        }
        func blank(_ count: Int) {
            for offset in 0..<count where index + offset < characters.count {
                output.append(characters[index + offset] == "\n" ? "\n" : " ")
            }
            index += count
        }
        func keep(_ count: Int = 1) {
            output.append(contentsOf: characters[index..<min(index + count, characters.count)]); index += count
        }
        while index < characters.count {
            let c = characters[index]
            switch stack[stack.count - 1] {
            case .code(let interpolation):
                var hashes = 0
                while starts(with: "#", at: index + hashes) { hashes += 1 }
                if starts(with: "//", at: index) {
                    while index < characters.count, characters[index] != "\n" { blank(1) }
                } else if starts(with: "/*", at: index) {
                    var nesting = 0
                    repeat {
                        if starts(with: "/*", at: index) { nesting += 1; blank(2) } else if starts(with: "*/", at: index) { nesting -= 1; blank(2) } else { blank(1) }
                    } while nesting > 0 && index < characters.count
                } else if starts(with: "\"", at: index + hashes) {
                    let multiline = starts(with: "\"\"\"", at: index + hashes)
                    stack.append(.string(multiline: multiline, hashes: hashes))
                    blank(hashes + (multiline ? 3 : 1))
                } else if let depth = interpolation, c == "(" || c == ")" {
                    let depth = depth + (c == "(" ? 1 : -1)
                    if depth == 0 { stack.removeLast(); blank(1) } else { stack[stack.count - 1] = .code(interpolationDepth: depth); keep() }
                } else {
                    keep(max(hashes, 1))
                }
            case .string(let multiline, let hashes):
                let delimiter = String(repeating: "#", count: hashes)
                let closing = (multiline ? "\"\"\"" : "\"") + delimiter
                if starts(with: "\\" + delimiter + "(", at: index) {
                    stack.append(.code(interpolationDepth: 1)); blank(hashes + 2)
                } else if starts(with: "\\" + delimiter, at: index) {
                    blank(hashes + 2) // an escape: the backslash, the delimiter, the escaped character
                } else if starts(with: closing, at: index) {
                    stack.removeLast(); blank(closing.count)
                } else if c == "\n", !multiline {
                    stack.removeLast(); keep() // an unterminated one-line string ends with its line
                } else {
                    blank(1)
                }
            }
        }
        return output
    }
}
