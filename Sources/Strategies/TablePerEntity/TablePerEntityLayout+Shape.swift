import Models

extension TablePerEntityLayout {
    /// How a row becomes an object of one concrete entity: the position of each value and to-one.
    struct Shape {
        var values: [(Int32, AttributeType.Storage)]
        var toOne: [(key: Int32, entity: Int32?, destination: Int)]
    }
}
