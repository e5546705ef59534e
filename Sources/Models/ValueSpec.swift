/// How the generator makes an attribute's values, where the default for its type and name is not
/// enough. In JSON: `"values": { "kind": "words", "min": 3, "max": 8 }`.
public struct ValueSpec: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        /// Title-cased words from a word list (`min` … `max` words).
        case words
        /// A person's or thing's name: one or two words.
        case name
        /// A topic word; unique per object when the attribute is unique (`swift`, `swift-2`, …).
        case topic
        /// A valid ISBN-13, unique per object.
        case isbn
        /// An https URL ending in the object's key, unique per object.
        case url
        /// A DOI, unique per object.
        case doi
        /// An e-mail address, unique per object.
        case email
        /// One of `choices`, uniformly.
        case choice
        /// A number (or a date, in seconds since 2001-01-01) uniformly in `min` ..< `max`.
        case range
        /// The object's key in its hierarchy (1, 2, 3, …): unique.
        case sequence
        /// A random version-4 UUID.
        case uuid
    }

    public var kind: Kind
    public var min: Double?
    public var max: Double?
    public var choices: [String]?

    public init(_ kind: Kind, min: Double? = nil, max: Double? = nil, choices: [String]? = nil) {
        self.kind = kind; self.min = min; self.max = max; self.choices = choices
    }
}
