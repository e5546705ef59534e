import Dataset
import Foundation
@testable import Hierarchies
import SQLite
import Strategies
import XCTest

/// Every described strategy against a reference computed from the generator alone, for every
/// preset (scaled down) and for hierarchies that exercise the edge cases: a concrete base with an
/// owner, entities without rows, and more sub-entities than SQLite can join in one statement.
final class DescribedEquivalenceTests: XCTestCase {
    static var descriptions: [HierarchyDescription] {
        HierarchyPresets.all.map { $0.scaled(to: 600) } + [
            HierarchyDescription(
                name: "concrete-owned",
                base: .init(name: "Item", abstract: false, attributes: [.init("title", .string), .init("price", .double)], rows: 50),
                subEntities: [
                    .init(name: "Alpha", attributes: [.init("url", .string), .init("size", .integer), .init("flag", .boolean)], rows: 120),
                    .init(name: "Beta", attributes: [.init("url", .string), .init("when", .date)], rows: 0),
                    .init(name: "Gamma", attributes: [], rows: 30),
                ],
                owner: .init(entity: "Shelf", relationship: "shelf", rows: 7),
                leaf: "Gamma"),
            HierarchyPresets.synthetic(subEntities: 70, attributes: 2, skew: 1, rows: 700),
        ]
    }

    func store<S: DescribedStrategy>(_: S.Type, _ generator: HierarchyGenerator) throws -> S {
        let strategy = S(database: try Database(path: ":memory:"), description: generator.description)
        try strategy.createSchema(owners: generator.description.owner?.rows ?? 0)
        for start in stride(from: 0, to: generator.count, by: 97) {
            try strategy.insert(generator.objects(start ..< min(start + 97, generator.count)))
        }
        return strategy
    }

    func testEveryStrategyGivesTheReferenceAnswers() throws {
        for description in Self.descriptions {
            try description.validate()
            let generator = HierarchyGenerator(description, seed: 11)
            let reference = generator.objects(0 ..< generator.count)
            let byUID = reference.sorted { a, b in
                withUnsafeBytes(of: a.uid.uuid) { x in withUnsafeBytes(of: b.uid.uuid) { y in x.lexicographicallyPrecedes(y) } }
            }
            let parameters = DescribedParameters(generator: generator)
            for type in DescribedStrategies.all {
                try check(type, generator, reference, byUID, parameters)
            }
        }
    }

    private func check<S: DescribedStrategy>(_ type: S.Type, _ generator: HierarchyGenerator, _ reference: [DescribedObject],
                                             _ byUID: [DescribedObject], _ parameters: DescribedParameters) throws {
        let name = "\(S.name) on \(generator.description.name)"
        let strategy = try store(type, generator)
        XCTAssertEqual(try strategy.database.strings("PRAGMA integrity_check"), ["ok"], name)
        XCTAssertEqual(Set(try strategy.fetchAll().map(\.uid)).count, reference.count, name)
        XCTAssertEqual(AnswerDigest(.unordered, of: try strategy.fetchAll()), AnswerDigest(.unordered, of: reference), name)
        for entity in generator.entities.indices {
            XCTAssertEqual(try strategy.fetchEntity(entity).sorted { $0.uid.uuidString < $1.uid.uuidString },
                           reference.filter { $0.entity == entity }.sorted { $0.uid.uuidString < $1.uid.uuidString }, "\(name) entity \(entity)")
            XCTAssertEqual(try strategy.count(entity: entity), generator.counts[entity], name)
        }
        XCTAssertEqual(try strategy.countAll(), reference.count, name)
        XCTAssertEqual(try strategy.fetchPage(offset: parameters.deepPageOffset, limit: 50), Array(byUID.dropFirst(parameters.deepPageOffset).prefix(50)), name)
        XCTAssertEqual(try strategy.fetchPage(after: parameters.deepPageCursor, limit: 50), Array(byUID.dropFirst(parameters.deepPageOffset).prefix(50)), name)
        XCTAssertEqual(try strategy.fetchPage(offset: 0, limit: 7), Array(byUID.prefix(7)), name)
        for uid in parameters.lookupUIDs.prefix(20) {
            XCTAssertEqual(try strategy.object(uid: uid), reference.first { $0.uid == uid }, name)
        }
        XCTAssertNil(try strategy.object(uid: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))), name)
        if generator.description.owner != nil {
            let owned = reference.filter { $0.owner == parameters.owner }
            XCTAssertFalse(owned.isEmpty, name)
            XCTAssertEqual(AnswerDigest(.unordered, of: try strategy.objects(owner: parameters.owner)), AnswerDigest(.unordered, of: owned), name)
            XCTAssertEqual(try strategy.database.scalarInt("PRAGMA foreign_key_check"), nil, name)
        }
        // Every lookup is served by an index, never by scanning a table.
        for query in strategy.lookupQueries(parameters) {
            let plan = try strategy.database.queryPlan(query.sql, query.values)
            // "SCAN x" of a co-routine x reads a subquery's rows, not a table.
            let coroutines = Set(plan.filter { $0.hasPrefix("CO-ROUTINE ") }.map { $0.dropFirst("CO-ROUTINE ".count) })
            let scans = plan.filter { $0.hasPrefix("SCAN ") && !$0.contains("INDEX") && !coroutines.contains($0.dropFirst("SCAN ".count)) }
            XCTAssertEqual(scans, [], "\(name) \(query.workload): \(plan.prefix(12))")
        }
    }

    func testAStrategyThatLosesARowIsCaught() throws {
        let generator = HierarchyGenerator(HierarchyPresets.efcoreDocs.scaled(to: 70), seed: 3)
        let strategy = try store(DescribedSingleTable.self, generator)
        try strategy.database.execute("DELETE FROM ZROOT WHERE Z_PK = 5")
        XCTAssertThrowsError(try DescribedStore.check(strategy, expected: generator.counts, thorough: true)) {
            XCTAssertTrue("\($0)".contains("where \(generator.counts) were inserted"), "\($0)")
        }
    }
}
