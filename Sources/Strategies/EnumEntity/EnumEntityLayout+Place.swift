extension EnumEntityLayout {
    /// Where an entity's rows live: its table, its stored entity, and the `kind` column (nil for a
    /// root without sub-entities, whose table holds only its own objects).
    struct Place: Sendable {
        let table: String
        let stored: Int
        let kind: String?
    }
}
