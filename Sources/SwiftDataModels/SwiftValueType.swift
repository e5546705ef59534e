/// A struct or enum the source declares, which a `@Model` property may store as a Codable value.
struct SwiftValueType {
    enum Kind {
        /// A struct's stored properties, in order.
        case structure(fields: [(name: String, type: SwiftType)])
        /// An enum: the raw type it declares first (`String`, `Int`, …), and its cases with their
        /// associated values (label, or `nil`, and type).
        case enumeration(rawType: String?, cases: [(name: String, values: [(label: String?, type: SwiftType)])])
    }

    var name: String
    var kind: Kind
}
