/// The shapes of Swift source, outside comments and string literals (string interpolations are
/// code), that make swift-syntax's parser or a walk of its tree hang or exhaust a stack, each
/// with the line and column where it is first at its worst. No model's source comes near these limits, so a
/// source that passes one is refused before it is parsed.
/// - Square brackets: the parser looks ahead through `[` for an inline array type (`[3 of Int]`)
///   in a way whose time doubles with each level: 16 levels parse in a tenth of a second, 24 in
///   twenty seconds, 50 not in a minute.
/// - A run of `>` closing nested generic arguments (`Optional<Optional<…>>>`): the parser splits
///   the run one `>` at a time, re-reading the rest each time, so its time grows with the
///   square of the run.
/// - A run of `?` or `!` (`Int????…`): each is one more level of the tree, which the parser's
///   checks and the reader walk recursively.
struct SourceShape {
    /// The deepest a source may nest `[`.
    static let maximum = 16
    /// The longest run of `>`, and of `?`/`!`, a source may hold.
    static let maximumRun = 256

    /// A line and a column (in UTF-8 bytes, as swift-syntax counts them), both from 1.
    struct Position: CustomStringConvertible {
        var line = 1, column = 1
        var description: String { "\(line):\(column)" }
    }

    /// The deepest nesting of `[`, and where it was first reached (its `[`).
    private(set) var deepest = 0
    private(set) var deepestAt = Position()
    /// The longest run of `>`, and of `?` or `!`, and where each was first reached (the run's start).
    private(set) var longestAngles = 0
    private(set) var anglesAt = Position()
    private(set) var longestMarks = 0
    private(set) var marksAt = Position()
    private var angles = 0
    private var marks = 0
    private var anglesStart = Position()
    private var marksStart = Position()

    private enum Mode {
        /// Code; inside an interpolation, the bracket count at which its `)` closes it.
        case code(closesAt: Int?)
        case string(hashes: Int, multiline: Bool)
    }

    private let bytes: [UInt8]
    private var i = 0
    private var current = 1
    private var lineStart = 0
    private var here: Position { Position(line: current, column: i - lineStart + 1) }
    private var brackets: [UInt8] = []
    private var squares = 0
    private var modes: [Mode] = [.code(closesAt: nil)]

    init(_ source: String) {
        bytes = Array(source.utf8)
        while i < bytes.count, let mode = modes.last {
            if bytes[i] == UInt8(ascii: "\n") { current += 1; lineStart = i + 1 }
            switch mode {
            case let .string(hashes, multiline): stringStep(hashes: hashes, multiline: multiline)
            case let .code(closesAt): codeStep(closesAt: closesAt)
            }
        }
    }

    private func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }

    private func hashes(from k: Int) -> Int {
        var n = 0
        while at(k + n) == UInt8(ascii: "#") { n += 1 }
        return n
    }

    /// One step inside a string literal: an interpolation opens code, the closing delimiter ends it.
    private mutating func stringStep(hashes count: Int, multiline: Bool) {
        let c = bytes[i]
        if c == UInt8(ascii: "\\"), hashes(from: i + 1) == count {
            if at(i + 1 + count) == UInt8(ascii: "(") {
                brackets.append(UInt8(ascii: "("))
                modes.append(.code(closesAt: brackets.count - 1))
            }
            i += 2 + count
            return
        }
        let quotes = multiline ? 3 : 1
        if c == UInt8(ascii: "\""), (0 ..< quotes).allSatisfy({ at(i + $0) == UInt8(ascii: "\"") }), hashes(from: i + quotes) == count {
            modes.removeLast()
            i += quotes + count
            return
        }
        if c == UInt8(ascii: "\n"), !multiline { modes.removeLast() }
        i += 1
    }

    /// One step of code: a comment skipped, a string opened, a bracket counted.
    private mutating func codeStep(closesAt: Int?) {
        let c = bytes[i]
        if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "/") {
            while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            return
        }
        if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") { return skipBlockComment() }
        if c == UInt8(ascii: "#") || c == UInt8(ascii: "\"") {
            let count = hashes(from: i)
            if at(i + count) == UInt8(ascii: "\"") {
                let multiline = at(i + count + 1) == UInt8(ascii: "\"") && at(i + count + 2) == UInt8(ascii: "\"")
                modes.append(.string(hashes: count, multiline: multiline))
                i += count + (multiline ? 3 : 1)
                return
            }
        }
        angles = c == UInt8(ascii: ">") ? angles + 1 : 0
        if angles == 1 { anglesStart = here }
        if angles > longestAngles { longestAngles = angles; anglesAt = anglesStart }
        marks = c == UInt8(ascii: "?") || c == UInt8(ascii: "!") ? marks + 1 : 0
        if marks == 1 { marksStart = here }
        if marks > longestMarks { longestMarks = marks; marksAt = marksStart }
        switch c {
        case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "["):
            brackets.append(c)
            if c == UInt8(ascii: "[") {
                squares += 1
                if squares > deepest { deepest = squares; deepestAt = here }
            }
        case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"):
            if c == UInt8(ascii: ")"), let closesAt, closesAt == brackets.count - 1 { modes.removeLast() }
            if let open = brackets.popLast(), open == UInt8(ascii: "[") { squares -= 1 }
        default: break
        }
        i += 1
    }

    /// Past a block comment, nested ones included.
    private mutating func skipBlockComment() {
        var depth = 0
        repeat {
            if at(i) == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") { depth += 1; i += 2; continue }
            if at(i) == UInt8(ascii: "*"), at(i + 1) == UInt8(ascii: "/") { depth -= 1; i += 2; continue }
            if at(i) == UInt8(ascii: "\n") { current += 1; lineStart = i + 1 }
            i += 1
        } while depth > 0 && i < bytes.count
    }
}
