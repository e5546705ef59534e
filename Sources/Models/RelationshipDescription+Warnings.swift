extension RelationshipDescription {
    /// The warning a model reader gives for a to-many relationship without an inverse: Core Data
    /// stores it through a hidden to-one on the destination (`Model.hiddenInverse`).
    public static func withoutInverseWarning(entity: String, name: String, destination: String) -> String {
        "\(entity).\(name) is to-many without an inverse; stored as Core Data stores it: a hidden to-one on '\(destination)' (column Z<entity number>\(name.uppercased())), so each '\(destination)' object belongs to at most one '\(entity)'"
    }
}
