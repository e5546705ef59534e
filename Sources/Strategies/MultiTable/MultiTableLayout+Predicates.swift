import CoreDataLayout
import Models

/// The predicate forms a multi-table layout reads from where it keeps each property
/// (`MultiTableLayout`), written once for joined and table-per-entity: a key path's steps through
/// to-one and to-many relationships, and a to-many relationship's count.
extension MultiTableLayout {
    /// Where a property of `entity` is read by key for a key path's join: the one table holding it
    /// for the whole subtree, else a `UNION ALL` of the key and the property's column of each
    /// table that does (keys are unique in a hierarchy).
    func keyedColumn(_ entity: Int, _ name: String) throws -> KeyedColumn {
        let info = model.entities[entity]
        let places: [(table: String, column: String)]
        if let position = info.attributeIndex(name) {
            places = holders(entity).map { attributePlace($0, position) }
        } else {
            let position = try toOnePosition(entity, name)
            places = holders(entity).map { let place = toOnePlace($0, position); return (place.table, place.key) }
        }
        guard places.count == 1 else {
            let arms = places.map { "SELECT Z_PK, \($0.column) AS Z_VALUE FROM \($0.table)" }
            return KeyedColumn(source: "(\(arms.isEmpty ? "SELECT NULL AS Z_PK, NULL AS Z_VALUE WHERE 0" : arms.joined(separator: " UNION ALL ")))") { "\($0).Z_VALUE" }
        }
        return KeyedColumn(source: places[0].table) { [column = places[0].column] in "\($0).\(column)" }
    }

    /// How a key path goes through to-many `relationship` from objects of `holders` (entities
    /// whose identities `MultiTableLayout.identity` gives): the join table it reaches (a `UNION
    /// ALL` of each when there are several), or the table keeping its inverse's foreign key (of each).
    func manyStep(_ relationship: Model.Relationship, from holders: [Int]) throws -> ManyStep {
        if relationship.isManyToMany {
            var links: [JoinLink] = []
            for holder in holders {
                for link in try joinLinks(holder, relationship) where !links.contains(where: { $0.join == link.join }) { links.append(link) }
            }
            guard links.count == 1 else {
                let arms = links.map { "SELECT \($0.this) AS Z_FROM, \($0.other) AS Z_TO FROM \($0.join)" }
                return ManyStep(source: "(\(arms.isEmpty ? "SELECT NULL AS Z_FROM, NULL AS Z_TO WHERE 0" : arms.joined(separator: " UNION ALL ")))", from: "Z_FROM", to: "Z_TO")
            }
            return ManyStep(source: links[0].join, from: links[0].this, to: links[0].other)
        }
        let (_, position) = try inverseToOne(relationship)
        let places = self.holders(relationship.destination).map { toOnePlace($0, position) }
        guard places.count == 1 else {
            let arms = places.map { "SELECT Z_PK, \($0.key) AS Z_FROM FROM \($0.table)" }
            return ManyStep(source: "(\(arms.isEmpty ? "SELECT NULL AS Z_PK, NULL AS Z_FROM WHERE 0" : arms.joined(separator: " UNION ALL ")))", from: "Z_FROM", to: "Z_PK")
        }
        return ManyStep(source: places[0].table, from: places[0].key, to: "Z_PK")
    }

    /// How many objects to-many `name` of `entity` holds for the row `t0`: a correlated count of
    /// the rows of the join tables it reaches (many-to-many), or of the tables keeping its inverse's
    /// foreign key (one-to-many), summed when there are several.
    func relatedCount(_ entity: Int, _ name: String, alias: String) throws -> String {
        let relationship = try self.relationship(entity, name)
        guard relationship.toMany else { throw LayoutError(Self.name, "'\(name)' is not a to-many relationship of '\(model.entities[entity].name)'") }
        let counts: [String]
        if relationship.isManyToMany {
            counts = try joinLinks(entity, relationship).map { "(SELECT COUNT(\(alias).\($0.other)) FROM \($0.join) \(alias) WHERE (t0.Z_PK = \(alias).\($0.this)))" }
        } else {
            let (_, position) = try inverseToOne(relationship)
            counts = holders(relationship.destination).map {
                let place = toOnePlace($0, position)
                return "(SELECT COUNT(\(alias).Z_PK) FROM \(place.table) \(alias) WHERE (t0.Z_PK = \(alias).\(place.key)))"
            }
        }
        return counts.count == 1 ? counts[0] : "(" + (counts.isEmpty ? "0" : counts.joined(separator: " + ")) + ")"
    }
}
