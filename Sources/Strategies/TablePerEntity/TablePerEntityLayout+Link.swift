extension TablePerEntityLayout {
    /// One join table reached from an entity through a many-to-many relationship.
    struct Link: Sendable {
        var join: String
        /// The join table's column for this entity's key, and for the partner's.
        var this: String
        var other: String
        /// The partner's concrete entity (original index).
        var partner: Int
    }
}
