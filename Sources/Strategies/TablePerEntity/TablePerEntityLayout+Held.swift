extension TablePerEntityLayout {
    /// A relationship (by its declaring entity and name) as held by one concrete entity.
    struct Held: Hashable, Sendable {
        var entity: Int
        var relationship: PropertyKey
    }
}
