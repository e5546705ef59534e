import Foundation

extension RelationshipDescription {
    /// The suite's settings for a relationship as a model file writes them beside it (an Xcode
    /// model's user info, a SwiftData source's `bench.*` comments): `bench.count` (`0-5`),
    /// `bench.popularity`, `bench.nullShare`. `at` starts each message and names the place, `kind`
    /// what the settings are called there ("user info ").
    public mutating func apply(settings: [String: String], at: String, kind: String = "") throws {
        if let text = settings["bench.count"] {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard (1 ... 2).contains(parts.count), let min = parts.first ?? nil, let max = parts.last ?? nil else {
                throw ModelError("\(at): \(kind)bench.count is '\(text)'; give MIN-MAX, such as 0-5")
            }
            count = FanOut(min: min, max: max)
        }
        if let text = settings["bench.popularity"] {
            guard let value = Double(text) else { throw ModelError("\(at): \(kind)bench.popularity is '\(text)', not a number") }
            popularity = value
        }
        if let text = settings["bench.nullShare"] {
            guard let value = Double(text) else { throw ModelError("\(at): \(kind)bench.nullShare is '\(text)', not a number") }
            nullShare = value
        }
    }
}
