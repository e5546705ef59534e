import Generation
import Models
import SQLite

/// The select lists and row decoders of reads: one entity's table alone (Core Data's query), or
/// one arm per concrete entity of a subtree sharing one list (`UNION ALL`).
extension TablePerEntity {
    /// Core Data's select list of one entity's table (and its entity columns), with its decoder.
    func tableList(_ entity: Int) throws -> (sql: String, decoder: RowDecoder) {
        var (sql, positions) = schema.selectList(try TablePerEntity.need(flat[entity], "table for \(model.entities[entity].name)"))
        func position(_ column: String) throws -> Int32 { try TablePerEntity.need(positions[column], "column \(column) in the select list of \(tables[entity])") }
        // The list's items are column names and literals, separated by ", ".
        var count = Int32(sql.split(separator: ",").count)
        let info = model.entities[entity]
        var toOne: [RowShape.ToOne] = []
        for columns in toOneColumns[entity] {
            var entityPosition: Int32?
            if let name = columns.entity { sql += ", t0.\(name)"; entityPosition = count; count += 1 }
            toOne.append(RowShape.ToOne(key: try position(columns.key), entity: entityPosition, destination: columns.destination))
        }
        let shape = RowShape(entity: entity, attributes: info.attributes, positions: try attributeColumns[entity].map(position), toOne: toOne)
        return (sql, RowDecoder(shapes: [shape], fixed: entity, table: tables[entity]))
    }

    /// The list every arm of a read of `entity`'s subtree shares (see `UnionList`).
    func unionList(_ entity: Int) -> UnionList {
        var list = UnionList()
        var names = UniqueNames(taken: ["Z_ENT", "Z_PK", "Z_OPT"])
        func add(_ item: UnionList.Item, _ base: String) {
            list.items.append(item)
            list.aliases.append(names.claim(base))
        }
        func addToOnes(_ relationships: [Model.Relationship]) {
            for relationship in relationships where !relationship.toMany {
                add(.key(PropertyKey(relationship)), "Z" + relationship.name.uppercased())
                if concrete[relationship.destination].count > 1 {
                    add(.entity(PropertyKey(relationship)), "Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                }
            }
        }
        let info = model.entities[entity]
        for (position, attribute) in info.attributes.enumerated() {
            add(.attribute(owner: info.attributeOwners[position], position: position), "Z" + attribute.name.uppercased())
        }
        addToOnes(info.relationships)
        for descendant in info.subtree.dropFirst() {
            let sub = model.entities[descendant]
            for (position, attribute) in sub.attributes.enumerated() where sub.attributeOwners[position] == descendant {
                add(.attribute(owner: descendant, position: position), "Z" + attribute.name.uppercased())
            }
            addToOnes(sub.ownRelationships)
        }
        return list
    }

    /// The select list of one arm (`concrete` read as `t0`), aliased when it is the first.
    func armList(_ list: UnionList, _ entity: Int, first: Bool) throws -> String {
        let subtree = { (owner: Int) in self.model.entities[owner].subtree.contains(entity) }
        var items = ["\(entity + 1)", "t0.Z_PK", "t0.Z_OPT"]
        for item in list.items {
            switch item {
            case let .attribute(owner, position): items.append(subtree(owner) ? "t0." + attributeColumns[entity][position] : "NULL")
            case let .key(property): items.append(subtree(property.owner) ? "t0." + (try toOne(entity, property.name).key) : "NULL")
            case let .entity(property): items.append(subtree(property.owner) ? "t0." + (try toOne(entity, property.name).entity ?? "NULL") : "NULL")
            }
        }
        if first { items = zip(items, list.aliases).map { "\($0) AS \($1)" } }
        return items.joined(separator: ", ")
    }

    /// The decoder of a union's rows: each concrete entity's values and to-ones at their positions in `list`.
    func unionDecoder(_ list: UnionList, _ entities: [Int]) throws -> RowDecoder {
        var keyPositions: [PropertyKey: Int32] = [:]
        var entityPositions: [PropertyKey: Int32] = [:]
        // An attribute is identified by its owner and name; several owners can share a position.
        var ownedPositions: [PropertyKey: Int32] = [:]
        for (offset, item) in list.items.enumerated() {
            let position = Int32(offset + 3)
            switch item {
            case let .attribute(owner, index): ownedPositions[PropertyKey(owner: owner, name: model.entities[owner].attributes[index].name)] = position
            case let .key(property): keyPositions[property] = position
            case let .entity(property): entityPositions[property] = position
            }
        }
        let shapes = try entities.map { entity in
            let info = model.entities[entity]
            return RowShape(
                entity: entity, attributes: info.attributes,
                positions: try info.attributes.enumerated().map { position, attribute in
                    try TablePerEntity.need(ownedPositions[PropertyKey(owner: info.attributeOwners[position], name: attribute.name)], "union column of \(attribute.name)")
                },
                toOne: try zip(info.toOneRelationships, toOneColumns[entity]).map { relationship, columns in
                    let key = PropertyKey(relationship)
                    let what = "\(relationship.owner).\(relationship.name)"
                    let entityPosition = columns.entity == nil ? nil : try TablePerEntity.need(entityPositions[key], "union entity column of \(what)")
                    return RowShape.ToOne(key: try TablePerEntity.need(keyPositions[key], "union key column of \(what)"), entity: entityPosition, destination: columns.destination)
                })
        }
        return RowDecoder(shapes: shapes, table: "the union of \(model.entities[entities[0]].name)'s hierarchy")
    }
}

extension TablePerEntity {
    /// The select list shared by every arm of a read of `entity`'s subtree: entity number, `Z_PK`,
    /// `Z_OPT`, the entity's attributes and to-ones, then each descendant's own; each item named as
    /// Core Data's single table would name its column.
    struct UnionList: Sendable {
        enum Item: Sendable, Equatable { case attribute(owner: Int, position: Int), key(PropertyKey), entity(PropertyKey) }
        var items: [Item] = []
        var aliases: [String] = ["Z_ENT", "Z_PK", "Z_OPT"]
    }
}
