extension JoinedLayout {
    /// One INSERT of an object: the statement and where each of its parameters comes from.
    struct InsertStep: Sendable {
        /// Where an INSERT's parameter comes from.
        enum Source: Sendable, Equatable {
            case key, entityNumber, version
            case value(Int)
            case toOneKey(Int)
            case toOneEntity(Int)
        }

        let sql: String
        let sources: [Source]
    }
}
