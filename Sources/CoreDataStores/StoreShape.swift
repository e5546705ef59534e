import CoreDataLayout
import Models
import SQLite

/// The data's shape a store holds, read as aggregates only (no value of a row leaves SQLite):
/// each optional attribute's and optional to-one's NULL share, over the rows of the entity that
/// declares it and its sub-entities, from one `SELECT Z_ENT, COUNT(*), COUNT(<column>), … GROUP BY
/// Z_ENT` per root entity's table (of a large hierarchy, over the keys of its sample, as the
/// distributions are read). The generator follows the shares (`nullShare`).
public enum StoreShape {
    /// Sets `nullShare` on every optional attribute and to-one of `description` (whose `rows` are
    /// the store's) that has a column in the store; returns how many it set. An attribute under a
    /// uniqueness constraint of its own is left alone (it may order the ordered reads, which read
    /// no NULL). A model the suite cannot validate is left as it is (its refusal comes later).
    static func measureNullShares(_ database: Database, _ description: inout ModelDescription, schema: [CoreDataStoreFile.SchemaEntry],
                                  sampleLimit: Int = sampleLimit) throws -> Int {
        guard description.entities.contains(where: { ($0.rows ?? 0) > 0 }), let model = try? Model(description) else { return 0 }
        let layout = CoreDataSchema(model)
        let tables = Dictionary(schema.filter { $0.type == "table" }.map { ($0.name, $0.sql ?? "") }, uniquingKeysWith: { first, _ in first })
        var measured = 0
        for root in model.roots {
            let table = layout.table(of: root)
            guard let sql = tables[table.name] else { continue }
            let found = LayoutProof.columns(ofTable: sql)
            let present = Set((found.base + found.appended).compactMap { $0.split(separator: " ").first.map(String.init) })
            let columns = table.fetchOrder.filter { column in
                guard present.contains(column.name) else { return false }
                switch column.role {
                case let .attribute(position): return !model.entities[column.entity].attributes[position].isOrderKey
                case let .foreignKey(name): return model.entities[column.entity].relationships.contains { $0.name == name && !$0.isHidden }
                case .foreignEntity: return false
                }
            }
            guard !columns.isEmpty else { continue }
            let sample = try Sample(database, table: table.name, objects: model.objectCount(root), limit: sampleLimit)
            let counts = try nonNullCounts(database, table: table.name, columns: columns.map(\.name), sample: sample)
            for (position, column) in columns.enumerated() {
                let entity = model.entities[column.entity]
                let rows = entity.subtree.reduce(0) { $0 + (counts[$1 + 1]?.rows ?? 0) }
                guard rows > 0 else { continue }
                let filled = entity.subtree.reduce(0) { $0 + (counts[$1 + 1]?.filled[position] ?? 0) }
                let share = (1 - Double(filled) / Double(rows)).rounded(toPlaces: 4)
                guard set(share, column, of: entity, in: model, &description) else { continue }
                measured += 1
                setByEntity(share, column, of: entity, in: model, counts: counts.mapValues { ($0.rows, $0.filled[position]) }, &description)
            }
        }
        return measured
    }

    /// Per entity number: its rows and each column's non-NULL values.
    private static func nonNullCounts(_ database: Database, table: String, columns: [String], sample: Sample) throws -> [Int: (rows: Int, filled: [Int])] {
        let filter = sample.filter("Z_PK", joiner: "WHERE")
        let statement = try database.prepare("SELECT Z_ENT, COUNT(*), \(columns.map { "COUNT(\"\($0)\")" }.joined(separator: ", ")) FROM \"\(table)\"\(filter.sql) GROUP BY Z_ENT")
        try statement.bind(filter.values)
        var counts: [Int: (rows: Int, filled: [Int])] = [:]
        while try statement.step() {
            counts[statement.int(at: 0)] = (statement.int(at: 1), columns.indices.map { statement.int(at: Int32($0 + 2)) })
        }
        return counts
    }

    /// Sets the share on the attribute or to-one `column` stands for, when it is optional and not unique alone.
    private static func set(_ share: Double, _ column: CoreDataSchema.Column, of entity: Model.Entity, in model: Model, _ description: inout ModelDescription) -> Bool {
        guard let at = description.entities.firstIndex(where: { $0.name == entity.name }) else { return false }
        switch column.role {
        case let .attribute(position):
            let name = entity.attributes[position].name
            let uniqueAlone = ([entity.index] + ancestors(of: entity, in: model)).contains { model.entities[$0].uniquenessConstraints.contains([name]) }
            guard !uniqueAlone, let attribute = description.entities[at].attributes.firstIndex(where: { $0.name == name }),
                  description.entities[at].attributes[attribute].optional else { return false }
            description.entities[at].attributes[attribute].nullShare = share
            return true
        case let .foreignKey(name):
            guard let relationship = description.entities[at].relationships.firstIndex(where: { $0.name == name }),
                  description.entities[at].relationships[relationship].optional else { return false }
            description.entities[at].relationships[relationship].nullShare = share
            return true
        case .foreignEntity:
            return false
        }
    }

    /// Where the entities of the declaring subtree hold different shares (two or more with objects,
    /// one more than `byEntityTolerance` off the subtree's share): each one's share among its own
    /// objects, in its `nullShares`. Not for a one-to-one pair (its pairs are left out over the
    /// whole subtree), nor for a to-one that is never NULL over the subtree.
    private static func setByEntity(_ share: Double, _ column: CoreDataSchema.Column, of entity: Model.Entity, in model: Model,
                                    counts: [Int: (rows: Int, filled: Int)], _ description: inout ModelDescription) {
        let name: String
        switch column.role {
        case let .attribute(position): name = entity.attributes[position].name
        case let .foreignKey(relationship):
            guard share > 0, entity.relationship(relationship)?.isOneToOne == false else { return }
            name = relationship
        case .foreignEntity: return
        }
        let shares = entity.subtree.compactMap { member -> (entity: Int, share: Double)? in
            guard let count = counts[member + 1], count.rows > 0, model.entities[member].isConcrete else { return nil }
            return (member, (1 - Double(count.filled) / Double(count.rows)).rounded(toPlaces: 4))
        }
        guard shares.count > 1, shares.contains(where: { abs($0.share - share) > byEntityTolerance }) else { return }
        for (member, own) in shares {
            guard let at = description.entities.firstIndex(where: { $0.name == model.entities[member].name }) else { continue }
            description.entities[at].nullShares[name] = own
        }
    }

    /// How far an entity's own NULL share may be from its subtree's before it is kept apart: two
    /// percentage points (a smaller difference moves no layout's pages measurably, and keeping it
    /// would give nearly every inherited property of a large store a share per entity).
    static let byEntityTolerance = 0.02

    static func ancestors(of entity: Model.Entity, in model: Model) -> [Int] {
        var chain: [Int] = []
        var current = entity.parent
        while let index = current { chain.append(index); current = model.entities[index].parent }
        return chain
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = (0 ..< places).reduce(1.0) { value, _ in value * 10 }
        return (self * scale).rounded() / scale
    }
}
