import Generation
import Models

/// A read of a hierarchy whose objects are kept in several tables (`joined`, `table-per-entity`):
/// the concrete entities whose objects it returns, and its select list after `Z_ENT, Z_PK, Z_OPT`
/// as the properties its columns hold, in the layout's order. From the list alone it knows where
/// each entity's values and to-ones are in a row (no position is looked up by a column's name),
/// decodes a row as its concrete entity, and spells an arm of a `UNION ALL` over the list.
struct MultiTableRead: Sendable {
    /// The property a column holds: an attribute, a to-one's key or its destination's entity
    /// number, by position in `owner`'s `attributes` or `toOneRelationships` (the same position in
    /// every descendant).
    struct Column: Sendable, Equatable {
        enum Property: Sendable, Equatable { case attribute(Int), toOneKey(Int), toOneEntity(Int) }
        let owner: Int
        let property: Property
    }

    /// Where an entity's values (by position in its `attributes`) and to-ones (by position in its
    /// `toOneRelationships`) are in a row.
    struct Positions: Sendable {
        var attributes: [Int32]
        var toOnes: [(key: Int32, entity: Int32?)]
    }

    let model: Model
    let entity: Int
    /// The concrete entities whose objects the read returns, in number order.
    let concrete: [Int]
    let columns: [Column]
    /// Where the read entity's properties are (its predicate's and sort's columns).
    let positions: Positions
    /// Where each concrete entity's properties are, in `concrete` order.
    let concretePositions: [Positions]

    /// The read of `entity` (with its sub-entities when asked and it has any) selecting `columns`:
    /// each column is where the properties of every entity below its owner are.
    init(_ model: Model, entity: Int, includesSubentities: Bool, columns: [Column]) {
        let concrete = Self.concrete(model, entity, includesSubentities: includesSubentities)
        let members = [entity] + concrete
        var positions = members.map { member in
            Positions(attributes: Array(repeating: 0, count: model.entities[member].attributes.count),
                      toOnes: Array(repeating: (0, nil), count: model.entities[member].toOneRelationships.count))
        }
        for (offset, column) in columns.enumerated() {
            let position = Int32(3 + offset), subtree = model.entities[column.owner].subtree
            for (index, member) in members.enumerated() where subtree.contains(member) {
                switch column.property {
                case let .attribute(at): positions[index].attributes[at] = position
                case let .toOneKey(at): positions[index].toOnes[at].key = position
                case let .toOneEntity(at): positions[index].toOnes[at].entity = position
                }
            }
        }
        self.model = model
        self.entity = entity
        self.concrete = concrete
        self.columns = columns
        self.positions = positions[0]
        concretePositions = Array(positions.dropFirst())
    }

    /// The concrete entities a read of `entity` returns: its subtree's when it includes them, else
    /// itself when it is concrete.
    static func concrete(_ model: Model, _ entity: Int, includesSubentities: Bool) -> [Int] {
        let info = model.entities[entity]
        return includesSubentities && info.hasSubentities ? model.concreteEntities(in: info.subtree) : (info.isConcrete ? [entity] : [])
    }

    /// Decodes a row as its concrete entity (`RowDecoder(shapes:fixed:table:)`): `destination`
    /// names the entity of a to-one's key without an entity number (by concrete entity and
    /// to-one position), `markers` the columns that are NULL when a row an object needs is missing.
    func decoder(fixed: Int? = nil, table: String, destination: (Int, Int) -> Int, markers: (Int) -> [Int32] = { _ in [] }) -> RowDecoder {
        let shapes = zip(concrete, concretePositions).map { member, at in
            RowShape(entity: member, attributes: model.entities[member].attributes, positions: at.attributes,
                     toOne: at.toOnes.enumerated().map { RowShape.ToOne(key: $1.key, entity: $1.entity, destination: destination(member, $0)) },
                     markers: markers(member))
        }
        return RowDecoder(shapes: shapes, fixed: fixed, table: table)
    }

    /// The select list of a `UNION ALL` arm reading `member`'s objects: `header` (entity number,
    /// key, version), then each column as `spell` writes it on the arm's tables where `member` has
    /// its property, else `NULL`; with `names` (the first arm), each item named.
    func arm(_ member: Int, _ header: [String], names: [String]?, spell: (Column) -> String) -> String {
        var items = header + columns.map { model.entities[$0.owner].subtree.contains(member) ? spell($0) : "NULL" }
        if let names { items = zip(items, names).map { "\($0) AS \($1)" } }
        return items.joined(separator: ", ")
    }
}
