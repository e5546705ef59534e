extension JSONEntityLayout {
    /// Where an attribute of an entity is kept.
    enum Place: Equatable, Sendable {
        case column(String)
        /// A key of `details`.
        case detail(String)
    }
}
