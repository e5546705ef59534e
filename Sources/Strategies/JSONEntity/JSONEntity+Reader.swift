import Generation
import Models
import SQLite

/// A fetch's select list and row decoder: `kind` (or the root's number), `Z_PK`, `Z_OPT`, the
/// typed columns the fetched subtree needs and `details`, each row decoded by its kind.
extension JSONEntity {
    /// The select list and decoder of a fetch of `entity`.
    func makeReader(_ entity: Int) throws -> (list: String, decoder: RowDecoder) {
        let info = model.entities[entity]
        let hierarchy = hierarchy(info.index)
        let concrete = model.concreteEntities(in: info.subtree)
        let (items, positions) = selectList(hierarchy, concrete)
        func at(_ column: String) throws -> Int32 { try JSONEntity.need(positions[column], "column \(column) in the select list of \(hierarchy.table)") }
        let shapes = try concrete.map { try shape($0, hierarchy, at) }
        return (items.joined(separator: ", "), RowDecoder(shapes: shapes, fixed: hierarchy.kind == nil ? info.index : nil, table: hierarchy.table))
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

    /// Where concrete entity `index`'s values and to-ones are in a row (`at` gives a column's
    /// position): the typed columns, then the keys of `details`, read from its JSON text.
    private func shape(_ index: Int, _ hierarchy: Hierarchy, _ at: (String) throws -> Int32) throws -> RowShape {
        let entityInfo = model.entities[index]
        var columns: [RowShape.Column] = []
        var keys: [[UInt8]] = [], slots: [Int] = [], storages: [AttributeType.Storage] = [], optional: [Bool] = []
        for (position, attribute) in entityInfo.attributes.enumerated() {
            switch places[index][position] {
            case let .column(name): columns.append(RowShape.Column(slot: position, position: try at(name), storage: attribute.type.storage, required: false))
            case let .detail(key):
                keys.append(Array(key.utf8)); slots.append(position); storages.append(attribute.type.storage); optional.append(attribute.optional)
            }
        }
        let details = keys.isEmpty ? nil : Details(
            column: try at(try JSONEntity.need(hierarchy.details, "details column of \(hierarchy.table)")), keys: keys, slots: slots, storages: storages, optional: optional,
            lookup: Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }))
        return RowShape(
            entity: index, valueCount: entityInfo.attributes.count, columns: columns,
            toOne: try entityInfo.toOneRelationships.map { relationship in
                let pair = try JSONEntity.need(toOneColumns[index][relationship.name], "to-one '\(relationship.name)' of \(entityInfo.name)")
                return RowShape.ToOne(key: try at(pair.key), entity: try pair.entity.map(at), destination: relationship.destination)
            },
            rest: details.map { Self.detailsReader($0, table: hierarchy.table, kind: index + 1) })
    }

    /// Reads the values of `details`' JSON text into their slots; NULL or a text that does not
    /// decode throws `CorruptRow`.
    private static func detailsReader(_ details: Details, table: String, kind: Int) -> @Sendable (Statement, inout [Value]) throws -> Void {
        { row, values in
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
    }
}

extension JSONEntity {
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
