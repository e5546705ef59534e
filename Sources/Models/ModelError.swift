/// A model that cannot be benchmarked: one sentence saying what is wrong and what to change.
/// A name in it that holds a line break or another control character shows it escaped (`\n`),
/// so that the sentence stays one line and whole.
public struct ModelError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description.escapingControlCharacters }
}
