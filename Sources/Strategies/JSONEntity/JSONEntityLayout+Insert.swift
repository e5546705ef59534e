extension JSONEntityLayout {
    /// One concrete entity's INSERT and where its values come from.
    struct Insert: Sendable {
        let sql: String
        let storedNumber: Int64
        let hasKind: Bool
        /// Attribute positions bound to typed columns, then those written into `details`.
        let columnAttributes: [Int]
        let detailAttributes: [Int]
        /// Per to-one relationship: whether the destination's entity number is bound too.
        let toOneEntities: [Bool]
    }
}
