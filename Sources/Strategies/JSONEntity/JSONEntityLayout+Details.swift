import Models

extension JSONEntityLayout {
    /// The keys of an entity's `details` and the value slot, storage and optionality of each.
    struct Details: Sendable {
        let column: Int32
        let keys: [[UInt8]]
        let slots: [Int]
        let storages: [AttributeType.Storage]
        let optional: [Bool]
        let lookup: [[UInt8]: Int]
    }
}
