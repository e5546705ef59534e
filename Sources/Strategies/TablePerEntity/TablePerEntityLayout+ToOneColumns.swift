extension TablePerEntityLayout {
    /// A to-one relationship's columns in one entity's table.
    struct ToOneColumns: Sendable {
        var key: String
        /// The column holding the destination's original entity number (several concrete destinations).
        var entity: String?
        /// The destination's entity when there is no entity column.
        var destination: Int
    }
}
