/// A stored or computed property of a `@Model` class as the source declares it, with the
/// SwiftData attributes (`@Attribute`, `@Relationship`, `@Transient`) and `bench.*` comments on it.
struct SwiftProperty {
    /// `@Relationship(deleteRule:inverse:minimumModelCount:maximumModelCount:)`.
    struct RelationshipOptions {
        var deleteRule: String?
        /// `\Tag.publications`: the type as written (when written) and the property.
        var inverse: (type: String?, property: String)?
        var minimumModelCount: Int?
        var maximumModelCount: Int?
    }

    var name: String
    /// As written, or told by the initial value (`var count = 0`); `nil` when neither tells it.
    var type: SwiftType?
    /// The initial value as written, if any.
    var initialValue: String?
    /// `file:line:column` of the declaration.
    var location: String
    var isLet = false
    var isStatic = false
    var isComputed = false
    var isLazy = false
    var transient = false
    var unique = false
    var externalStorage = false
    /// `@Attribute(.transformable(by:))`: kept as archived data.
    var transformable = false
    var relationship: RelationshipOptions?
    /// `// bench.values: words 3 8` and the like, by key (`bench.values`).
    var notes: [String: String] = [:]
}
