extension TablePerEntityLayout {
    /// A flattened many-to-many relationship: `held` (an original relationship as a concrete
    /// entity holds it) reaching `partner` is `flatName` on the flattened entity.
    struct LinkRecord: Sendable {
        var held: Held
        var partner: Int
        var flatName: String
    }
}
