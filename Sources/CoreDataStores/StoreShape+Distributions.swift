import CoreDataLayout
import Foundation
import Models
import SQLite

/// The rest of the data's shape, read in one bounded pass of aggregates (no value of a row leaves
/// SQLite, only counts and lengths): the fan-out of every to-many and many-to-many (how many
/// destinations each source object holds, zeros included), the length of every text and binary
/// attribute, and the share of distinct values of every attribute a fetch index names. A hierarchy
/// with more than `sampleLimit` objects is read in `windows` ranges of keys spread over its key
/// range, each read through the primary key or an index (a sample, bounded in time and memory).
extension StoreShape {
    /// What the pass measured.
    public struct Distributions: Sendable, Equatable {
        public var fanOuts = 0
        public var lengths = 0
        public var distinctShares = 0
        /// The hierarchies read as a sample (their tables' names).
        public var sampled: [String] = []
    }

    /// Objects of a hierarchy above which it is sampled (by default; `CoreDataStoreFile.read` takes another).
    public static let sampleLimit = 200_000
    static let windows = 16

    /// Sets `fanOut` on every to-many, `lengths` on every text and binary attribute and
    /// `distinctShare` on every attribute a fetch index names (not unique alone), as the store holds
    /// them; `progress` hears each step.
    static func measureDistributions(_ database: Database, _ description: inout ModelDescription, schema: [CoreDataStoreFile.SchemaEntry],
                                     sampleLimit: Int = sampleLimit, progress: (String) -> Void) throws -> Distributions {
        guard description.entities.contains(where: { ($0.rows ?? 0) > 0 }), let model = try? Model(description) else { return Distributions() }
        let layout = CoreDataSchema(model)
        let tables = Dictionary(schema.filter { $0.type == "table" }.map { ($0.name, $0.sql ?? "") }, uniquingKeysWith: { first, _ in first })
        func present(_ table: String) -> Set<String> {
            guard let sql = tables[table] else { return [] }
            let found = LayoutProof.columns(ofTable: sql)
            return Set((found.base + found.appended).compactMap { $0.split(separator: " ").first.map(String.init) })
        }
        var result = Distributions()
        var samples: [Int: Sample] = [:]
        for root in model.roots where tables[layout.table(of: root).name] != nil {
            let sample = try Sample(database, table: layout.table(of: root).name, objects: model.objectCount(root), limit: sampleLimit)
            samples[root] = sample
            if !sample.ranges.isEmpty { result.sampled.append(layout.table(of: root).name) }
        }
        let steps = model.roots.count + model.entities.count
        var step = 0
        for root in model.roots {
            step += 1
            let table = layout.table(of: root)
            guard let sample = samples[root] else { continue }
            progress("reading the store's shape: lengths in \(table.name) (\(step) of \(steps))")
            let columns = present(table.name)
            let measured = table.fetchOrder.filter { column in
                guard columns.contains(column.name), case let .attribute(position) = column.role else { return false }
                return [.string, .uri, .binary, .transformable].contains(model.entities[column.entity].attributes[position].type)
            }
            guard !measured.isEmpty else { continue }
            let histograms = try lengthHistograms(database, table: table.name, columns: measured.map(\.name), sample: sample)
            for (column, histogram) in zip(measured, histograms) {
                guard case let .attribute(position) = column.role,
                      let lengths = Quantiles(histogram: histogram.mapKeys { min($0, Model.maximumLength) }) else { continue }
                let name = model.entities[column.entity].attributes[position].name
                if update(&description, entity: model.entities[column.entity].name, attribute: name, { $0.lengths = lengths }) { result.lengths += 1 }
            }
        }
        for entity in model.entities {
            step += 1
            guard let sample = samples[entity.root] else { continue }
            progress("reading the store's shape: \(entity.name) (\(step) of \(steps))")
            for relationship in entity.ownRelationships where relationship.toMany {
                guard let histogram = try fanOutHistogram(database, relationship, in: model, layout: layout, present: present, sample: sample),
                      let fanOut = Quantiles(histogram: histogram) else { continue }
                if update(&description, entity: entity.name, relationship: relationship.name, { $0.fanOut = fanOut }) { result.fanOuts += 1 }
            }
            let unique = Set(([entity.index] + ancestors(of: entity, in: model)).flatMap { model.entities[$0].uniquenessConstraints.filter { $0.count == 1 }.map { $0[0] } })
            let indexed = Set(entity.fetchIndexes.flatMap { $0.elements.compactMap(\.property) }).filter { entity.attribute($0) != nil && !unique.contains($0) }
            for name in indexed.sorted() {
                guard let position = entity.attributeIndex(name), present(layout.table(of: entity.index).name).contains(layout.column(entity.index, attributeAt: position)),
                      let share = try distinctShare(database, table: layout.table(of: entity.index).name, column: layout.column(entity.index, attributeAt: position),
                                                    sample: sample) else { continue }
                let owner = model.entities[entity.attributeOwners[position]].name
                if update(&description, entity: owner, attribute: name, { $0.distinctShare = share }) { result.distinctShares += 1 }
            }
        }
        return result
    }

    /// The keys a hierarchy is read by: all (`ranges` empty), or `windows` ranges of keys spread
    /// over `1 ... MAX(Z_PK)` that hold about `limit` objects together.
    struct Sample {
        let ranges: [ClosedRange<Int64>]

        init(_ database: Database, table: String, objects: Int, limit: Int) throws {
            guard objects > limit, let highest = try database.scalarInt("SELECT MAX(Z_PK) FROM \"\(table)\""), highest > 0 else {
                ranges = []
                return
            }
            // In floating point: a store's keys may be large enough that highest × limit overflows.
            let width = Int64(max(1, (Double(highest) * Double(limit) / Double(objects) / Double(StoreShape.windows)).rounded(.down)))
            let spacing = highest / Int64(StoreShape.windows)
            ranges = (0 ..< Int64(StoreShape.windows)).map { window in
                let low = 1 + window * spacing
                return low ... min(highest, low + width - 1)
            }
        }

        /// `column` within the ranges, as SQL (`""` when the whole table is read) and its values.
        func filter(_ column: String, joiner: String) -> (sql: String, values: [(any SQLiteBindable)?]) {
            guard !ranges.isEmpty else { return ("", []) }
            let terms = ranges.map { _ in "\"\(column)\" BETWEEN ? AND ?" }.joined(separator: " OR ")
            return (" \(joiner) (\(terms))", ranges.flatMap { [$0.lowerBound, $0.upperBound] as [(any SQLiteBindable)?] })
        }
    }

    /// Per column: how many rows have each length (characters of a text, bytes of a blob).
    private static func lengthHistograms(_ database: Database, table: String, columns: [String], sample: Sample) throws -> [[Int: Int]] {
        let filter = sample.filter("Z_PK", joiner: "WHERE")
        let statement = try database.prepare("SELECT \(columns.map { "length(\"\($0)\")" }.joined(separator: ", ")) FROM \"\(table)\"\(filter.sql)")
        try statement.bind(filter.values)
        var histograms = Array(repeating: [Int: Int](), count: columns.count)
        while try statement.step() {
            for index in columns.indices where !statement.isNull(at: Int32(index)) {
                histograms[index][statement.int(at: Int32(index)), default: 0] += 1
            }
        }
        return histograms
    }

    /// How many of `relationship`'s destinations each of its source objects holds (zeros included),
    /// from the foreign keys of its inverse (or hidden) to-one, or from its join table.
    private static func fanOutHistogram(_ database: Database, _ relationship: Model.Relationship, in model: Model, layout: CoreDataSchema,
                                        present: (String) -> Set<String>, sample: Sample) throws -> [Int: Int]? {
        guard let inverse = model.inverse(of: relationship) else { return nil }
        let table: String, column: String
        if relationship.isManyToMany {
            guard let join = layout.joinTable(relationship) else { return nil }
            (table, column) = (join.name, join.columns(from: relationship.owner, relationship.name).this)
        } else {
            guard let key = layout.columns(relationship.destination, toOne: inverse.name)?.key else { return nil }
            (table, column) = (layout.table(of: relationship.destination).name, key)
        }
        guard present(table).contains(column) else { return nil }
        let filter = sample.filter(column, joiner: "AND")
        let statement = try database.prepare("SELECT n, COUNT(*) FROM (SELECT COUNT(*) AS n FROM \"\(table)\" WHERE \"\(column)\" IS NOT NULL\(filter.sql) GROUP BY \"\(column)\") GROUP BY n")
        try statement.bind(filter.values)
        var histogram: [Int: Int] = [:]
        while try statement.step() { histogram[statement.int(at: 0)] = statement.int(at: 1) }
        let owner = model.entities[relationship.owner]
        let sources = layout.table(of: owner.index).name
        let range = sample.filter("Z_PK", joiner: "AND")
        let objects = try database.scalarInt("SELECT COUNT(*) FROM \"\(sources)\" WHERE Z_ENT BETWEEN ? AND ?\(range.sql)",
                                             [owner.number, owner.subtreeEnd + 1] + range.values) ?? 0
        histogram[0, default: 0] += max(0, Int(objects) - histogram.values.reduce(0, +))
        return histogram
    }

    /// Distinct values among the non-NULL ones of `column` (`nil` when all are NULL).
    private static func distinctShare(_ database: Database, table: String, column: String, sample: Sample) throws -> Double? {
        let filter = sample.filter("Z_PK", joiner: "WHERE")
        let statement = try database.prepare("SELECT COUNT(DISTINCT \"\(column)\"), COUNT(\"\(column)\") FROM \"\(table)\"\(filter.sql)")
        try statement.bind(filter.values)
        guard try statement.step(), statement.int(at: 1) > 0 else { return nil }
        return (Double(statement.int(at: 0)) / Double(statement.int(at: 1)) * 10_000).rounded() / 10_000
    }

    private static func update(_ description: inout ModelDescription, entity: String, attribute: String, _ change: (inout Attribute) -> Void) -> Bool {
        guard let at = description.entities.firstIndex(where: { $0.name == entity }),
              let position = description.entities[at].attributes.firstIndex(where: { $0.name == attribute }) else { return false }
        change(&description.entities[at].attributes[position])
        return true
    }

    private static func update(_ description: inout ModelDescription, entity: String, relationship: String,
                               _ change: (inout RelationshipDescription) -> Void) -> Bool {
        guard let at = description.entities.firstIndex(where: { $0.name == entity }),
              let position = description.entities[at].relationships.firstIndex(where: { $0.name == relationship }) else { return false }
        change(&description.entities[at].relationships[position])
        return true
    }
}

private extension Dictionary where Key == Int, Value == Int {
    func mapKeys(_ transform: (Int) -> Int) -> [Int: Int] {
        reduce(into: [:]) { result, entry in result[transform(entry.key), default: 0] += entry.value }
    }
}
