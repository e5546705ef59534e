extension JSONEntityLayout {
    /// A root's table.
    struct Hierarchy: Sendable {
        let root: Int
        /// The entity's index in `storedModel`.
        let stored: Int
        let table: String
        /// `ZKIND` and `ZDETAILS` (nil for a root without sub-entities).
        let kind: String?
        let details: String?
    }
}
