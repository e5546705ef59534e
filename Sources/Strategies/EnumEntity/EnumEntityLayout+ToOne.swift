extension EnumEntityLayout {
    /// A to-one relationship's columns; `kinds` is the entity-number range of its declaring subtree
    /// when the key is a slot (other kinds use the slot for something else).
    struct ToOne: Sendable {
        let key: String
        let entity: String?
        let kinds: ClosedRange<Int>?
    }
}
