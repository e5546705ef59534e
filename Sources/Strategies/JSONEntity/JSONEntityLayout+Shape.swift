import Models

extension JSONEntityLayout {
    /// How one concrete entity's row becomes an object.
    struct Shape {
        let entity: Int
        let valueCount: Int
        /// (value slot, result column, storage) of each attribute in a typed column.
        let columns: [(slot: Int, column: Int32, storage: AttributeType.Storage)]
        let details: Details?
        let toOne: [(key: Int32, entity: Int32?, destination: Int)]
    }
}
