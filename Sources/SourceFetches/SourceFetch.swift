/// A fetch found in an app's Swift sources: where it is, and the fetch in the suite's format
/// (`FetchSpec`), or why it cannot be read from the source alone.
public struct SourceFetch: Sendable, Equatable {
    /// The file, as found under the folder given.
    public var file: String
    /// Its line (from 1).
    public var line: Int
    /// What the source says it is: an `NSPredicate(format:)`, a `#Predicate`, a `@Query`.
    public var form: String
    public var outcome: Outcome
    /// Whether its sort is SwiftData `SortDescriptor`s, which order a `String` key
    /// `.localizedStandard` (`localizedStandardCompare:`) unless they name a comparator.
    public var sortsStringsLocalizedStandard = false

    public enum Outcome: Sendable, Equatable {
        /// The fetch, written as `--fetch` takes one: `Entity WHERE … [SORT BY …]`.
        case fetch(String)
        /// Why it is not read: a predicate built at run time, an entity the source does not name, a
        /// form with no NSPredicate equivalent the suite runs.
        case unreadable(String)
    }

    public init(file: String, line: Int, form: String, outcome: Outcome) {
        self.file = file; self.line = line; self.form = form; self.outcome = outcome
    }

    /// `file:line`.
    public var place: String { "\(file):\(line)" }

    /// A name for the fetch from its place: the file's name and the line, in the letters a fetch's
    /// name takes (`item-list-42`).
    public var name: String {
        let stem = file.split(separator: "/").last.map(String.init) ?? file
        let base = stem.hasSuffix(".swift") ? String(stem.dropLast(6)) : stem
        var letters = ""
        for (index, character) in base.enumerated() {
            if character.isUppercase, index > 0, letters.last != "-" { letters += "-" }
            letters += character.isLetter || character.isNumber ? String(character).lowercased() : "-"
        }
        let trimmed = letters.split(separator: "-").joined(separator: "-").filter(\.isASCII)
        let prefix = trimmed.first?.isLetter == true ? trimmed : "source" + (trimmed.isEmpty ? "" : "-" + trimmed)
        return String(prefix.prefix(32)) + "-\(line)"
    }
}
