import Foundation

extension ValueSpec {
    /// A value spec as the model files' user info and comments write it: `words 3 8`,
    /// `range 48 1201`, `isbn`, `choice red|green|blue`; `nil` when it is none.
    public init?(text: String) {
        let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = parts.first, let kind = ValueSpec.Kind(rawValue: first) else { return nil }
        if kind == .choice {
            let choices = parts.dropFirst().joined(separator: " ").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if choices.isEmpty { return nil }
            self.init(.choice, choices: choices)
            return
        }
        switch parts.count {
        case 1: self.init(kind)
        case 3:
            guard let min = Double(parts[1]), let max = Double(parts[2]) else { return nil }
            self.init(kind, min: min, max: max)
        default: return nil
        }
    }

    /// What `init?(text:)` reads, for a message about a value it could not.
    public static let textForms = "a kind (\(Kind.allCases.map(\.rawValue).joined(separator: ", "))), then min and max (\"words 3 8\", \"range 48 1201\") or choices (\"choice red|green\")"
}
