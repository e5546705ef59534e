/// A `@Model` class as the source declares it.
struct SwiftModelClass {
    /// An `#Index` or `#Unique` group: the key paths' properties (`address.city` for a nested one).
    struct KeyPathGroup {
        var properties: [String]
        var location: String
    }

    /// The class's name.
    var name: String
    /// The name qualified by the types it is declared in (`SchemaV2.Note`).
    var qualifiedName: String
    /// The qualified name of the type the class is declared in (a versioned schema: `enum
    /// SchemaV2: VersionedSchema`), if any.
    var container: String?
    /// The entity's name: `@Model`'s `schemaName`, else the class's name.
    var entityName: String
    /// The first type the class inherits from, as written, when it names one (a superclass or a protocol).
    var inherits: String?
    var properties: [SwiftProperty] = []
    /// `#Index<T>([\.a], [\.b, \.c])`: one group per array, with `// bench.names:` naming them.
    var indexes: [KeyPathGroup] = []
    var indexNames: [String] = []
    /// `#Unique<T>([\.a, \.b], …)`.
    var uniques: [KeyPathGroup] = []
    /// `// bench.leaf: Book` and the like on the class, by key.
    var notes: [String: String] = [:]
    /// `file:line:column` of the class.
    var location: String
}
