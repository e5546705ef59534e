/// A model that cannot be benchmarked: one sentence saying what is wrong and what to change.
public struct ModelError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
