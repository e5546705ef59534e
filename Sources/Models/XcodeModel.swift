/// What `XcodeModelReader` read from an Xcode Core Data model: the model as a description
/// (without rows: an Xcode model has none; see `ModelDescription.sharing(_:weights:)`), and one
/// warning line for each construct the suite does not store as Core Data would.
public struct XcodeModel: Equatable, Sendable {
    /// The model, every entity's `rows` `nil`.
    public var description: ModelDescription
    /// One sentence each, without a `warning:` prefix: the command line prints them.
    public var warnings: [String]
    /// The `contents` file that was read.
    public var contents: String
    /// The version read, when the path is an `.xcdatamodeld` bundle (`Shop 2`).
    public var version: String?
    /// Every version the bundle holds, in name order (empty for a single `.xcdatamodel`).
    public var versions: [String]

    public init(description: ModelDescription, warnings: [String], contents: String, version: String? = nil, versions: [String] = []) {
        self.description = description; self.warnings = warnings; self.contents = contents; self.version = version; self.versions = versions
    }
}
