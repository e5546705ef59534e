/// A struct or enum the source declares, which a `@Model` property may store as a Codable value.
struct SwiftValueType {
    enum Kind {
        /// A struct's stored properties, in order; a type `nil` when neither written nor told by
        /// the initial value (`SwiftInitialValue`), with the initial value as written.
        case structure(fields: [(name: String, type: SwiftType?, written: String)])
        /// An enum: the raw type it declares first (`String`, `Int`, …), and its cases with their
        /// associated values (label, or `nil`, and type).
        case enumeration(rawType: SwiftType?, cases: [(name: String, values: [(label: String?, type: SwiftType)])])
    }

    /// The qualified name (`Album.Kind`): the scope its own members' types are looked up in.
    var name: String
    var kind: Kind
}
