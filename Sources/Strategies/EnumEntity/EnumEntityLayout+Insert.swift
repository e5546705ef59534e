extension EnumEntityLayout {
    /// A concrete entity's INSERT, whether each to-one (in `toOneRelationships` order) also stores
    /// its destination's entity number, and the INSERT of each generating many-to-many
    /// relationship's links.
    struct Insert: Sendable {
        let sql: String
        let storesEntityNumber: [Bool]
        let links: [String]
    }
}
