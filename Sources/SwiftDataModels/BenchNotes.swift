import Foundation
import SwiftSyntax

/// The suite's own settings written as comments in a SwiftData model's source, where an Xcode
/// model has user info: `// bench.values: words 3 8` above (or after) a property,
/// `// bench.leaf: Book` above a class, `// bench.names: byDate, byTitle` above an `#Index`.
/// A line of a comment is read when it starts (after `//`, `///`, `*` and spaces) with `bench.`.
enum BenchNotes {
    static func read(_ trivia: Trivia) -> [String: String] {
        var notes: [String: String] = [:]
        for piece in trivia {
            let text: String
            switch piece {
            case let .lineComment(comment), let .docLineComment(comment), let .blockComment(comment), let .docBlockComment(comment): text = comment
            default: continue
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let stripped = line.drop { "/*! \t".contains($0) }
                guard stripped.hasPrefix("bench."), let colon = stripped.firstIndex(of: ":") else { continue }
                let key = stripped[..<colon].trimmingCharacters(in: .whitespaces)
                var value = stripped[stripped.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if value.hasSuffix("*/") { value = String(value.dropLast(2)).trimmingCharacters(in: .whitespaces) }
                if notes[key] == nil { notes[key] = value }
            }
        }
        return notes
    }
}
