import CoreDataLayout
import FetchRequests
import Models

/// The predicate forms a multi-table layout reads from where it keeps each property
/// (`MultiTableLayout`), written once for joined and table-per-entity: a key path's steps through
/// to-one and to-many relationships, `ANY` of an attribute reached through a to-many, and a
/// to-many relationship's count.
extension MultiTableLayout {
    /// The WHERE builder of a read of `entity`'s objects from the row `t0`, given how the read spells
    /// an attribute, a to-one's key and the entity number: its `ANY` joins take the aliases
    /// `<anyAlias>1`, `<anyAlias>2`, …; a key path's step through a to-many goes from the row's
    /// entity, then from where the objects reached keep their identities.
    func sqlWhere(_ entity: Int, sort: [SortKey], anyAlias: String, attribute: @escaping (String) throws -> String,
                  toOne: @escaping (String) throws -> String, entityNumber: @escaping () -> String) -> SQLWhere {
        var taken = 0
        return SQLWhere(
            attribute: attribute, toOne: toOne, key: "t0.Z_PK",
            related: { name, attribute, _ in
                taken += 2
                return try self.relatedJoin(entity, name, attribute, aliases: ("\(anyAlias)\(taken - 1)", "\(anyAlias)\(taken)"))
            },
            sortKeys: sort,
            keyPaths: KeyPathJoins(model: model, entity: entity, alias: { "k\($0)" }, column: { try self.keyedColumn($0, $1) },
                                   many: { reached, relationship, first in try self.manyStep(relationship, from: first ? [entity] : self.holders(reached)) }),
            countRelated: { name, alias in try self.relatedCount(entity, name, alias: alias) },
            entityNumber: entityNumber)
    }

    /// Where a property of `entity` is read by key for a key path's join: the one table holding it
    /// for the whole subtree, else a `UNION ALL` of the key and the property's column of each
    /// table that does (keys are unique in a hierarchy).
    func keyedColumn(_ entity: Int, _ name: String) throws -> KeyedColumn {
        let places = try holders(entity).map { try place($0, name) }
        guard places.count == 1 else {
            let arms = places.map { "SELECT Z_PK, \($0.column) AS Z_VALUE FROM \($0.table)" }
            return KeyedColumn(source: "(\(arms.isEmpty ? "SELECT NULL AS Z_PK, NULL AS Z_VALUE WHERE 0" : arms.joined(separator: " UNION ALL ")))") { "\($0).Z_VALUE" }
        }
        return KeyedColumn(source: places[0].table) { [column = places[0].column] in "\($0).\(column)" }
    }

    /// The table and column of a property of `entity` by name: an attribute's, or a to-one's key.
    func place(_ entity: Int, _ name: String) throws -> (table: String, column: String) {
        if let position = model.entities[entity].attributeIndex(name) { return attributePlace(entity, position) }
        let place = toOnePlace(entity, try toOnePosition(entity, name))
        return (place.table, place.key)
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

    /// The joins for `ANY name.attribute == ?` from the row `t0` (taking `aliases`) and the
    /// attribute's expression: through each join table the relationship reaches (many-to-many) or
    /// each table keeping its inverse's key (one-to-many), then by key to the table keeping the
    /// attribute when it is another; one `UNION ALL` of the partners when several hold it.
    func relatedJoin(_ entity: Int, _ name: String, _ attribute: String, aliases: (String, String)) throws -> (joins: String, expression: String) {
        let relationship = try self.relationship(entity, name)
        let position = try attributePosition(relationship.destination, attribute)
        let declarer = model.entities[relationship.destination].attributeOwners[position]
        /// Per partner: the table and column keeping the source's key, where it keeps the attribute, and the join table.
        var partners: [(table: String, source: String, value: (table: String, column: String), through: (join: String, other: String)?)] = []
        if relationship.isManyToMany {
            for link in try joinLinks(entity, relationship) where model.entities[declarer].subtree.contains(link.partner) {
                let value = attributePlace(link.partner, position)
                partners.append((value.table, link.this, value, (link.join, link.other)))
            }
        } else {
            // The objects keeping both the inverse's key and the attribute: the deeper declarer's subtree.
            let (inverse, key) = try inverseToOne(relationship)
            for holder in holders(model.entities[inverse.owner].depth < model.entities[declarer].depth ? declarer : inverse.owner) {
                let place = toOnePlace(holder, key)
                partners.append((place.table, place.key, attributePlace(holder, position), nil))
            }
        }
        let (first, second) = aliases
        guard partners.count == 1 else {
            guard !partners.isEmpty else { return ("", "NULL") }
            // Several partners are several concrete entities' tables, each keeping its key and the attribute.
            let arms = partners.map { partner in
                let from = partner.through.map { "\($0.join) j JOIN \(partner.table) d ON d.Z_PK = j.\($0.other)" } ?? "\(partner.table) d"
                return "SELECT \(partner.through == nil ? "d" : "j").\(partner.source) AS Z_SOURCE, d.\(partner.value.column) AS Z_VALUE FROM \(from)"
            }
            return ("JOIN (\(arms.joined(separator: " UNION ALL "))) \(first) ON \(first).Z_SOURCE = t0.Z_PK", "\(first).Z_VALUE")
        }
        let partner = partners[0]
        if let through = partner.through {
            return ("JOIN \(through.join) \(first) ON t0.Z_PK = \(first).\(partner.source) JOIN \(partner.table) \(second) ON \(second).Z_PK = \(first).\(through.other)",
                    "\(second).\(partner.value.column)")
        }
        let join = "JOIN \(partner.table) \(first) ON \(first).\(partner.source) = t0.Z_PK"
        guard partner.value.table != partner.table else { return (join, "\(first).\(partner.value.column)") }
        return (join + " JOIN \(partner.value.table) \(second) ON \(second).Z_PK = \(first).Z_PK", "\(second).\(partner.value.column)")
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
