extension JSONEntityLayout {
    /// A partial index on a sub-entity's subtree.
    struct PartialIndex: Sendable {
        let root: Int
        let subtree: ClosedRange<Int>
        /// The properties it indexes.
        let properties: Set<String>
    }
}
