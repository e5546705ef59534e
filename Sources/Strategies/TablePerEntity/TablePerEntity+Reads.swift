import CoreDataLayout
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

    /// The list every arm of a read of `entity`'s subtree shares: entity number, `Z_PK`, `Z_OPT`,
    /// the entity's attributes and to-ones, then each descendant's own; and each item's name, as
    /// Core Data's single table would name its column.
    func unionList(_ entity: Int) -> (read: MultiTableRead, names: [String]) {
        var columns: [MultiTableRead.Column] = []
        var names = ["Z_ENT", "Z_PK", "Z_OPT"]
        var taken = UniqueNames(taken: names)
        func add(_ owner: Int, _ property: MultiTableRead.Column.Property, _ name: String) {
            columns.append(MultiTableRead.Column(owner: owner, property: property))
            names.append(taken.claim(name))
        }
        func addToOnes(_ entity: Model.Entity, own: Bool) {
            for (position, relationship) in entity.toOneRelationships.enumerated() where !own || relationship.owner == entity.index {
                add(relationship.owner, .toOneKey(position), "Z" + relationship.name.uppercased())
                if concrete[relationship.destination].count > 1 {
                    add(relationship.owner, .toOneEntity(position), "Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                }
            }
        }
        let info = model.entities[entity]
        for (position, attribute) in info.attributes.enumerated() {
            add(info.attributeOwners[position], .attribute(position), "Z" + attribute.name.uppercased())
        }
        addToOnes(info, own: false)
        for descendant in info.subtree.dropFirst() {
            let sub = model.entities[descendant]
            for (position, attribute) in sub.attributes.enumerated() where sub.attributeOwners[position] == descendant {
                add(descendant, .attribute(position), "Z" + attribute.name.uppercased())
            }
            addToOnes(sub, own: true)
        }
        return (MultiTableRead(model, entity: entity, includesSubentities: true, columns: columns), names)
    }

    /// The select list of the arm reading `member`'s table as `t0`, every item named when it is the first.
    func armList(_ read: MultiTableRead, _ member: Int, names: [String]?) -> String {
        read.arm(member, ["\(member + 1)", "t0.Z_PK", "t0.Z_OPT"], names: names) { column in
            switch column.property {
            case let .attribute(position): "t0." + attributeColumns[member][position]
            case let .toOneKey(position): "t0." + toOneColumns[member][position].key
            case let .toOneEntity(position): toOneColumns[member][position].entity.map { "t0." + $0 } ?? "NULL"
            }
        }
    }

    /// The decoder of a union's rows: each concrete entity's values and to-ones at their positions in the list.
    func unionDecoder(_ read: MultiTableRead) -> RowDecoder {
        read.decoder(table: "the union of \(model.entities[read.concrete.first ?? read.entity].name)'s hierarchy") { toOneColumns[$0][$1].destination }
    }
}
