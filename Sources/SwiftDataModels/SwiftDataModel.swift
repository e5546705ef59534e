import Models

/// What `SwiftDataModelReader` read from SwiftData `@Model` sources: the model as a description
/// (every entity's `rows` `nil`: source code has no object counts; see
/// `ModelDescription.sharing(_:weights:)`), one warning line for each construct stored in a way a
/// user may not expect, and the files read.
public struct SwiftDataModel: Equatable, Sendable {
    public var description: ModelDescription
    /// One sentence each, without a `warning:` prefix: the command line prints them.
    public var warnings: [String]
    public var files: [String]
}
