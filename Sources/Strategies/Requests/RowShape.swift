import Generation
import Models
import SQLite

/// Where one concrete entity's object is in a result row: its values' columns, its to-ones' key
/// (and entity number) columns, the columns that must not be NULL for the row to be whole. Every
/// layout's fetch decodes its rows with these (`RowDecoder(shapes:…)`).
struct RowShape: Sendable {
    /// An attribute read from a column: its position among the object's values, the column, its
    /// storage, and whether a NULL there means a corrupt row (a required value in a shared slot).
    struct Column: Sendable {
        let slot: Int, position: Int32, storage: AttributeType.Storage, required: Bool
    }

    /// A to-one's key column and, when its destination has sub-entities, its entity-number column.
    struct ToOne: Sendable {
        let key: Int32, entity: Int32?, destination: Int
    }

    let entity: Int
    let valueCount: Int
    var columns: [Column]
    var toOne: [ToOne]
    /// Columns that are NULL when a row the object needs is missing (a sub-entity's table's `Z_PK`).
    var markers: [Int32] = []
    /// Reads the values not in columns (a JSON document's), given the row and the values so far.
    var rest: (@Sendable (Statement, inout [Value]) throws -> Void)?

    /// The shape of an entity whose attributes are at `positions`, in order.
    init(entity: Int, attributes: [Attribute], positions: [Int32], required: [Bool]? = nil, toOne: [ToOne], markers: [Int32] = []) {
        self.entity = entity
        valueCount = attributes.count
        columns = attributes.indices.map {
            Column(slot: $0, position: positions[$0], storage: attributes[$0].type.storage, required: required?[$0] ?? false)
        }
        self.toOne = toOne
        self.markers = markers
    }

    init(entity: Int, valueCount: Int, columns: [Column], toOne: [ToOne], rest: (@Sendable (Statement, inout [Value]) throws -> Void)?) {
        self.entity = entity; self.valueCount = valueCount; self.columns = columns; self.toOne = toOne; self.rest = rest
    }
}

extension RowDecoder {
    /// Decodes rows of `table` as the concrete entity their entity number names (column 0, or
    /// `fixed` for a read of one entity): `shapes` holds the shape of each entity the read returns.
    /// A row of an unknown entity, with a required value or a sub-entity's row missing, or a to-one
    /// key without its entity number throws `CorruptRow`.
    init(shapes: [RowShape], fixed: Int? = nil, table: String) {
        let first = shapes.map(\.entity).min() ?? 0
        var shapesByEntity = [RowShape?](repeating: nil, count: (shapes.map(\.entity).max() ?? first) - first + 1)
        for shape in shapes { shapesByEntity[shape.entity - first] = shape }
        let byEntity = shapesByEntity
        self.init { row in
            let number = fixed.map { Int64($0 + 1) } ?? row.int64(at: 0)
            let offset = Int(truncatingIfNeeded: number) - 1 - first
            guard !row.isNull(at: 0) || fixed != nil, offset >= 0, offset < byEntity.count, let shape = byEntity[offset] else {
                throw CorruptRow("a row of \(table) has entity number \(row.isNull(at: 0) ? "NULL" : String(number)), which is no concrete entity of the fetched subtree")
            }
            guard !row.isNull(at: 1) else { throw CorruptRow("a row of \(table) has no Z_PK") }
            let key = row.int64(at: 1)
            for marker in shape.markers where row.isNull(at: marker) {
                throw CorruptRow("the object \(key) of \(table) has entity number \(number) but lacks its row in a sub-entity's table")
            }
            var values = [Value](repeating: .null, count: shape.valueCount)
            for column in shape.columns {
                let value = row.value(at: column.position, as: column.storage)
                if column.required, value.isNull {
                    throw CorruptRow("the object \(key) of \(table) has NULL in its required column \(row.columnName(at: column.position))")
                }
                values[column.slot] = value
            }
            try shape.rest?(row, &values)
            return ModelObject(
                id: ObjectID(entity: shape.entity, key: key), values: values,
                toOne: try shape.toOne.map { column in
                    if row.isNull(at: column.key) { return nil }
                    guard let entityColumn = column.entity else { return ObjectID(entity: column.destination, key: row.int64(at: column.key)) }
                    guard !row.isNull(at: entityColumn) else { throw CorruptRow("the object \(key) of \(table) has a to-one key without its entity number") }
                    return ObjectID(entity: Int(row.int64(at: entityColumn)) - 1, key: row.int64(at: column.key))
                })
        }
    }
}
