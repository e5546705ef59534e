import Models

extension EnumEntity {
    /// A generic typed column a sub-entity's property takes in its enum entity: `text1`, `number2`,
    /// …: the slot's kind and its number among the slots of that kind (from 1).
    struct Slot: Hashable, Sendable {
        /// The storage kinds of the slots: strings and URIs; integers, booleans and to-one keys;
        /// doubles, floats, decimals and dates; UUIDs and binary data.
        enum Kind: Int, CaseIterable, Sendable {
            case text, number, real, blob
            init(_ storage: AttributeType.Storage) {
                switch storage {
                case .text: self = .text
                case .integer: self = .number
                case .real: self = .real
                case .blob: self = .blob
                }
            }
            var prefix: String { ["text", "number", "real", "blob"][rawValue] }
            var type: AttributeType { [.string, .integer64, .double, .binary][rawValue] }
        }

        let kind: Kind
        let number: Int
    }
}
