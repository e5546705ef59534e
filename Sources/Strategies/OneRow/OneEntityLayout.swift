import CoreDataLayout
import Generation
import Models

/// A one-row layout whose stored model keeps each hierarchy as one entity (`OneEntityModel`):
/// enum-entity and json-entity. Where an entity's rows, attributes and to-ones are, its join
/// tables, its INSERT and the columns of its sub-entities' indexes come from that model; the
/// layout says its entity terms, its select list and how it names and filters those indexes.
protocol OneEntityLayout: OneRowLayout {
    var stored: OneEntityModel { get }
    /// The last column of an INSERT of an object of `entity`, an expression binding the values at
    /// `positions` (the attributes kept as keys of a JSON column); nil when the layout has none.
    func documentInsert(_ entity: Model.Entity, _ positions: [Int]) -> (column: String, value: String, sources: [InsertStep.Source])?
}

extension OneEntityLayout {
    public var storedModel: Model { stored.model }

    func storedEntity(_ entity: Int) -> Int { stored.roots[entity].stored }

    func kindColumn(_ entity: Int) -> String? { stored.roots[entity].kind }

    func place(_ entity: Int, _ position: Int) -> RowPlace { stored.places[entity][position] }

    func toOnes(_ entity: Int) -> [RowToOne] { stored.toOnes[entity] }

    /// The join table of a many-to-many relationship, kept as the stored model's relationship.
    func link(_ relationship: Model.Relationship) throws -> (name: String, this: String, other: String) {
        try Self.need(stored.links[PropertyKey(relationship)], "join table of \(model.entities[relationship.owner].name).\(relationship.name)")
    }

    func documentInsert(_ entity: Model.Entity, _ positions: [Int]) -> (column: String, value: String, sources: [InsertStep.Source])? { nil }

    /// A concrete entity's INSERT: `Z_PK, Z_ENT, Z_OPT` (`Z_ENT` the stored entity's number), the
    /// kind, each attribute's column, each to-one's key (and entity number), then the layout's
    /// document; and the INSERT of each generating many-to-many relationship's links.
    func makeInsertPlan(_ entity: Model.Entity) -> InsertPlan? {
        guard entity.isConcrete else { return nil }
        let root = stored.roots[entity.index]
        let (row, document) = insertRow(entity)
        let header = InsertStep.header(stored: root.stored) + (root.kind.map { [($0, .entityNumber)] } ?? [])
        return InsertPlan(keyEntity: root.stored, steps: [InsertStep(into: root.table, header + row, then: documentInsert(entity, document))],
                          links: linkInserts(entity))
    }

    // MARK: Sub-entities' indexes

    /// Each uniqueness constraint and fetch index a sub-entity declares, as an index on its
    /// hierarchy's table: whether it is unique, its name within the entity (`UNIQUE_<a>_<b>`, or
    /// the fetch index's), the properties it names, and its columns (`COLLATE BINARY ASC|DESC` each).
    func subEntityIndexes(_ entity: Model.Entity, kind: String) throws -> [(unique: Bool, name: String, properties: Set<String>, columns: String)] {
        let constraints = try entity.uniquenessConstraints.map { constraint in
            let columns = try constraint.map { try indexElement(entity.index, $0, kind: kind) + " COLLATE BINARY ASC" }
            return (true, "UNIQUE_" + constraint.joined(separator: "_"), Set(constraint), columns.joined(separator: ", "))
        }
        let fetchIndexes = try entity.fetchIndexes.filter { !$0.rtree }.map { index in
            let columns = try index.elements.map { try indexElement(entity.index, $0.property, kind: kind) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC") }
            return (false, index.name, Set(index.elements.compactMap(\.property)), columns.joined(separator: ", "))
        }
        return constraints + fetchIndexes
    }

    /// Each R-tree index of every entity, on its hierarchy's table over the places of its
    /// elements (a column, or a key of a JSON column), its triggers on that table.
    func rtreeSQL() -> [String] {
        model.entities.flatMap { entity in
            entity.fetchIndexes.filter(\.rtree).flatMap { index in
                let columns = index.elements.compactMap(\.property).compactMap { name -> (stem: String, value: (String) -> String)? in
                    guard let position = entity.attributeIndex(name) else { return nil }
                    let place = place(entity.index, position)
                    return ("Z" + name.uppercased(), { row in Self.expression(place, row: row) })
                }
                return CoreDataSchema.rtreeSQL(entity: entity.name, index: index.name, table: stored.roots[entity.index].table, columns: columns)
            }
        }
    }

    /// The value at `place` in an index or trigger: its column, or the key read from its JSON
    /// column; qualified by `row` (`NEW`) in a trigger.
    private static func expression(_ place: RowPlace, row: String?) -> String {
        let column = row.map { "\($0).\(place.column)" } ?? place.column
        return place.key.map { "(\(column) ->> '$.\($0)')" } ?? column
    }

    /// An index element of a sub-entity: `kind` for `entity` (no property), `Z_PK`, the column of
    /// an attribute or the expression reading its key of a JSON column, a to-one's key.
    private func indexElement(_ entity: Int, _ property: String?, kind: String) throws -> String {
        guard let property else { return kind }
        if property == FetchIndex.primaryKeyName { return "Z_PK" }
        if let position = model.entities[entity].attributeIndex(property) {
            return Self.expression(place(entity, position), row: nil)
        }
        return try toOne(entity, property).key
    }
}
