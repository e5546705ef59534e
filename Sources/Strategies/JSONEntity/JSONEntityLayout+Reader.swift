import Generation
import Models
import SQLite

/// A fetch's select list and row decoder: `kind` (or the root's number), `Z_PK`, `Z_OPT`, the
/// typed columns the fetched subtree needs and `details`, each row decoded by its kind.
extension JSONEntityLayout {
    /// The select list and decoder of a fetch of `entity`.
    func reader(_ entity: Int) throws -> (list: String, decoder: RowDecoder) {
        let info = model.entities[entity]
        let hierarchy = hierarchy(info.index)
        let concrete = model.concreteEntities(in: info.subtree)
        let (items, positions) = selectList(hierarchy, concrete)
        func at(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(hierarchy.table)") }
        var shapes = [Shape?](repeating: nil, count: info.subtree.count)
        for index in concrete { shapes[index - info.index] = try shape(index, hierarchy, at) }
        return (items.joined(separator: ", "), Self.decoder(shapes, first: info.index, hasKind: hierarchy.kind != nil, table: hierarchy.table))
    }

    /// `kind` (or `0`), `Z_PK`, `Z_OPT`, then the columns any of `concrete` reads, in the table's
    /// fetch order; and the position of each of those columns.
    private func selectList(_ hierarchy: Hierarchy, _ concrete: [Int]) -> (items: [String], positions: [String: Int32]) {
        var needed = Set<String>()
        for index in concrete {
            for place in places[index] { if case let .column(name) = place { needed.insert(name) } }
            for (_, columns) in toOneColumns[index] { needed.insert(columns.key); if let other = columns.entity { needed.insert(other) } }
            if let details = hierarchy.details, places[index].contains(where: { if case .detail = $0 { true } else { false } }) {
                needed.insert(details)
            }
        }
        var items = [hierarchy.kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK", "t0.Z_OPT"]
        var positions: [String: Int32] = [:]
        for column in schema.table(of: hierarchy.stored).fetchOrder where needed.contains(column.name) {
            positions[column.name] = Int32(items.count)
            items.append("t0.\(column.name)")
        }
        return (items, positions)
    }

    /// Where concrete entity `index`'s values and to-ones are in a row (`at` gives a column's position).
    private func shape(_ index: Int, _ hierarchy: Hierarchy, _ at: (String) throws -> Int32) throws -> Shape {
        let entityInfo = model.entities[index]
        var columns: [(slot: Int, column: Int32, storage: AttributeType.Storage)] = []
        var keys: [[UInt8]] = [], slots: [Int] = [], storages: [AttributeType.Storage] = [], optional: [Bool] = []
        for (position, attribute) in entityInfo.attributes.enumerated() {
            switch places[index][position] {
            case let .column(name): columns.append((position, try at(name), attribute.type.storage))
            case let .detail(key):
                keys.append(Array(key.utf8)); slots.append(position); storages.append(attribute.type.storage); optional.append(attribute.optional)
            }
        }
        let details = keys.isEmpty ? nil : Details(
            column: try at(try Self.need(hierarchy.details, "details column of \(hierarchy.table)")), keys: keys, slots: slots, storages: storages, optional: optional,
            lookup: Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }))
        return Shape(
            entity: index, valueCount: entityInfo.attributes.count, columns: columns, details: details,
            toOne: try entityInfo.toOneRelationships.map { relationship in
                let pair = try Self.need(toOneColumns[index][relationship.name], "to-one '\(relationship.name)' of \(entityInfo.name)")
                return (try at(pair.key), try pair.entity.map(at), relationship.destination)
            })
    }

    /// Materialises a row as the concrete entity its kind names (`shapes` from entity `first` on).
    /// A row whose kind is no concrete entity of the fetched subtree, or whose `details` does not
    /// decode, throws `CorruptRow`.
    private static func decoder(_ shapes: [Shape?], first: Int, hasKind: Bool, table: String) -> RowDecoder {
        RowDecoder { row in
            let kind = hasKind ? row.int64(at: 0) : Int64(first + 1)
            let offset = Int(truncatingIfNeeded: kind) - 1 - first
            guard kind == Int64(offset + 1 + first), offset >= 0, offset < shapes.count, let shape = shapes[offset] else {
                throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1))) has kind \(row.isNull(at: 0) ? "NULL" : String(kind)), which is no concrete entity of the fetched subtree")
            }
            var values = [Value](repeating: .null, count: shape.valueCount)
            for column in shape.columns { values[column.slot] = row.value(at: column.column, as: column.storage) }
            if let details = shape.details {
                guard !row.isNull(at: details.column) else {
                    throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1)), kind \(kind)) has NULL details")
                }
                var text = row.string(at: details.column)
                do {
                    try text.withUTF8 { try FlatJSON.read($0, details, into: &values) }
                } catch let error as FlatJSON.SyntaxError {
                    throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1)), kind \(kind)) has details that do not decode: \(error)")
                }
            }
            return ModelObject(
                id: ObjectID(entity: shape.entity, key: row.int64(at: 1)),
                values: values,
                toOne: shape.toOne.map { row.destination(key: $0.key, entity: $0.entity, otherwise: $0.destination) })
        }
    }
}
