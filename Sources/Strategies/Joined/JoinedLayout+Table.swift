extension JoinedLayout {
    /// One entity's table: its name and its own columns, in fetch order and in table order.
    struct Table: Sendable {
        let name: String
        let entity: Int
        let fetchOrder: [CoreDataSchema.Column]
        let tableOrder: [CoreDataSchema.Column]
        /// Index in `fetchOrder` of each column name.
        let index: [String: Int]
    }
}
