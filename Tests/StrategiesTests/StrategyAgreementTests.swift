import Generation
import Models
import Strategies
import TestSupport
import XCTest

/// Every strategy gives the reference answers (computed from the generator alone) to the read
/// battery, and single-table's outcomes to the write battery, on every preset, on synthetic models
/// with middle entities, and on the models built for one strategy's corners (each asked of all).
final class StrategyAgreementTests: XCTestCase {
    /// Every preset at 600 objects and synthetic models of depth 3 and 1.
    static var models: [ModelDescription] {
        ModelPresets.all.map { $0.scaled(to: 600) } + [
            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 500, depth: 3),
            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 500, depth: 1),
        ]
    }

    /// The models built for one strategy's layout: each is asked of every strategy.
    static var cornerModels: [ModelDescription] {
        [JoinedTests.clubs, EnumEntityTests.gadgets, TablePerEntityTests.edges, JSONEntityTests.awkward, longNames, places]
    }

    /// R-tree indexes (a location attribute's, as Photos' `boundedByRect`): one on a root over
    /// two optional doubles, one on a sub-entity over its own attribute and an inherited one.
    static var places: ModelDescription {
        ModelDescription(name: "places", entities: [
            EntityDescription("Place", rows: 60, attributes: [Attribute("latitude", .double, optional: true), Attribute("longitude", .double, optional: true),
                                                              Attribute("name", .string)],
                              relationships: [RelationshipDescription("city", destination: "City", inverse: "places", optional: true)],
                              fetchIndexes: [FetchIndex("boundedByRect", [FetchIndex.Element(property: "latitude"), FetchIndex.Element(property: "longitude")], rtree: true)]),
            EntityDescription("Cafe", parent: "Place", rows: 80, attributes: [Attribute("seats", .integer32), Attribute("opened", .date)],
                              fetchIndexes: [FetchIndex("bySeatsAndLatitude", [FetchIndex.Element(property: "seats"), FetchIndex.Element(property: "latitude")], rtree: true)]),
            EntityDescription("Park", parent: "Place", rows: 70, attributes: [Attribute("area", .double)]),
            EntityDescription("City", rows: 12, attributes: [Attribute("name", .string)],
                              relationships: [RelationshipDescription("places", destination: "Place", inverse: "city", toMany: true)]),
        ])
    }

    /// Every layout keeps each R-tree of the model: a store's R-tree tables hold a point for each
    /// row of the table its triggers watch, and follow an update and a delete.
    func testEveryLayoutKeepsTheRTrees() throws {
        let agreement = try StrategyAgreement(Strategies.all, Self.places)
        for store in agreement.subjects {
            let trees = try store.database.strings("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE % USING RTREE%' ORDER BY name")
            XCTAssertEqual(trees.count, store.layout is TablePerEntity ? 4 : 2, "\(store.name): \(trees)")
            for tree in trees {
                let points = try store.database.scalarInt("SELECT COUNT(*) FROM \(tree)") ?? 0
                XCTAssertGreaterThan(points, 0, "\(store.name) \(tree)")
            }
            XCTAssertEqual(try store.database.strings("PRAGMA integrity_check"), ["ok"], store.name)
        }
    }

    /// Names as long as real stores' (a knowledgeC store's 62-character property) and longer: every
    /// table, column, join table and index name derived from them.
    static var longNames: ModelDescription {
        let long = "_DKApplicationActivityMetadataKey__itemRelatedUniqueIdentifier"
        let longer = String(repeating: "relatedObjectsOfAnActivity", count: 9)
        return ModelDescription(name: "long-names", entities: [
            EntityDescription("DKEventOfAnApplicationActivityWithAVeryLongEntityNameIndeed", abstract: true, attributes: [Attribute(long, .string, optional: true)],
                              relationships: [RelationshipDescription(longer, destination: "Tag", inverse: "events", toMany: true)],
                              fetchIndexes: [FetchIndex("byTheApplicationActivityMetadataKeyItemRelatedUniqueIdentifier", long)]),
            EntityDescription("Launch", parent: "DKEventOfAnApplicationActivityWithAVeryLongEntityNameIndeed", rows: 120,
                              attributes: [Attribute(long + "OfTheLaunch", .integer64)]),
            EntityDescription("Usage", parent: "DKEventOfAnApplicationActivityWithAVeryLongEntityNameIndeed", rows: 80,
                              attributes: [Attribute(long + "OfTheUsage", .date), Attribute("title", .string)]),
            EntityDescription("Focus", parent: "DKEventOfAnApplicationActivityWithAVeryLongEntityNameIndeed", rows: 60,
                              attributes: [Attribute(long + "OfTheFocus", .boolean), Attribute("minutes", .double), Attribute("reason", .string)]),
            EntityDescription("Tag", rows: 20, attributes: [Attribute("name", .string)],
                              relationships: [RelationshipDescription("events", destination: "DKEventOfAnApplicationActivityWithAVeryLongEntityNameIndeed", inverse: longer, toMany: true)]),
        ])
    }

    func checkReads(_ descriptions: [ModelDescription], file: StaticString = #filePath, line: UInt = #line) throws {
        for description in descriptions {
            let agreement = try StrategyAgreement(Strategies.all, description)
            try agreement.checkReads()
            agreement.assertAskedEnough(moreThan: 100, file: file, line: line)
            print("\(description.name): \(agreement.checks) requests compared, \(agreement.nonEmpty) found objects")
        }
    }

    func testPresetsAgree() throws { try checkReads(ModelPresets.all.map { $0.scaled(to: 600) }) }

    func testSyntheticModelsAgree() throws { try checkReads(Array(Self.models.suffix(2))) }

    func testCornerModelsAgree() throws { try checkReads(Self.cornerModels) }

    /// Saves as an app's log sends them (inserts, updates of several attributes, a version alone,
    /// deletes of an object's own rows) leave every layout holding the single-table store's objects.
    func testSavesAgreeWithSingleTable() throws {
        for description in Self.models + Self.cornerModels + ModelPresets.all.map({ $0.scaled(to: 300) }) {
            try StrategyAgreement(Array(Strategies.all.dropFirst()), description, against: SingleTable.self).checkSaves()
        }
    }

    func testWritesAgreeWithSingleTable() throws {
        for description in Self.models + Self.cornerModels {
            try StrategyAgreement(Array(Strategies.all.dropFirst()), description, against: SingleTable.self).checkWrites()
        }
    }
}
