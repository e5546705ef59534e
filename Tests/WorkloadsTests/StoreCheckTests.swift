import Foundation
import Generation
import Models
import SQLite
import Strategies
@testable import Workloads
import XCTest

/// The one store check every model and strategy goes through: SQLite's integrity and foreign keys,
/// the objects of every entity, the link rows of every many-to-many relationship.
final class StoreCheckTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func populated(_ type: any StorageLayout.Type, _ model: Model) throws -> (MeasuredStore, Census) {
        let generator = ObjectGenerator(model, seed: 3)
        let census = Census(generator)
        let store = try MeasuredStore(try type.init(model: model), path: folder.appendingPathComponent("\(type.name)-\(UUID().uuidString).sqlite").path)
        try store.populate(generator, batchSize: 100, census: census)
        return (store, census)
    }

    func testAnIntactStorePassesAndAStoreThatLostALinkOrAnObjectFails() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 500))
        for type in Strategies.all {
            let (store, census) = try populated(type, model)
            XCTAssertGreaterThan(census.links[0], 0)
            XCTAssertNoThrow(try store.check(census, thorough: true), type.name)
            let database = store.layoutStore!.database
            let joins = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
            XCTAssertFalse(joins.isEmpty, type.name)
            try database.execute("DELETE FROM \(joins[0]) WHERE rowid = (SELECT MIN(rowid) FROM \(joins[0]))")
            XCTAssertThrowsError(try store.check(census, thorough: false), type.name) { error in
                XCTAssertTrue("\(error)".contains("links where"), "\(error)")
            }
            store.remove()
        }
    }

    func testAnObjectRowLostBehindTheStrategysBackFailsTheCheck() throws {
        let model = try Model(ModelPresets.efcoreAnimals.scaled(to: 400))
        for type in Strategies.all {
            let (store, census) = try populated(type, model)
            let database = store.layoutStore!.database
            let tables = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ZANIMAL', 'ZCAT')")
            try database.execute("DELETE FROM \(tables.contains("ZCAT") ? "ZCAT" : "ZANIMAL") WHERE Z_PK = (SELECT MAX(Z_PK) FROM \(tables.contains("ZCAT") ? "ZCAT" : "ZANIMAL"))")
            XCTAssertThrowsError(try store.check(census, thorough: true), type.name)
            store.remove()
        }
    }

    func testACorruptIndexFailsTheIntegrityCheck() throws {
        let model = try Model(ModelPresets.timestamps.scaled(to: 300))
        let (store, census) = try populated(SingleTable.self, model)
        let database = store.layoutStore!.database
        // Change a row behind its uid index's back: the table and the index then disagree.
        try database.execute("PRAGMA writable_schema = ON")
        try database.execute("UPDATE sqlite_master SET sql = 'CREATE UNIQUE INDEX Z_TimestampedEntity_UNIQUE_uid ON ZTIMESTAMPEDENTITY (ZCREATEDATE)' WHERE name = 'Z_TimestampedEntity_UNIQUE_uid'")
        try database.execute("PRAGMA writable_schema = OFF")
        store.close()
        let reopened = try MeasuredStore(try SingleTable(model: model), path: store.path)
        XCTAssertThrowsError(try reopened.check(census, thorough: true)) { XCTAssertTrue("\($0)".contains("integrity check"), "\($0)") }
        reopened.remove()
    }

    func testStorageReportsMeasureEveryStrategysStore() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 600))
        let reports = try StorageReport.run(strategies: Strategies.all, dataset: ObjectGenerator(model, seed: 4), batchSize: 100)
        XCTAssertEqual(reports.map(\.strategy), Strategies.names)
        for report in reports {
            XCTAssertEqual(report.publications, 600)
            XCTAssertEqual(Int64(report.pageCount * report.pageSize), report.fileBytes, report.strategy)
            XCTAssertEqual(report.objects.reduce(0) { $0 + $1.pages }, report.pageCount, report.strategy)
            XCTAssertTrue(report.objects.contains { $0.name == "ZTAG" && $0.type == "table" })
            XCTAssertTrue(report.objects.contains { $0.name == "Z_Tag_UNIQUE_name" && $0.type == "index" && $0.table == "ZTAG" })
        }
        let byName = Dictionary(uniqueKeysWithValues: reports.map { ($0.strategy, $0) })
        XCTAssertGreaterThan(byName["single-table"]!.publicationNullShare!, 0.3, "the wide table is sparse")
        XCTAssertEqual(byName["table-per-entity"]!.publicationNullShare!, 0, "the flattened tables have no NULL cells")
    }

    func testAHarnessCaseTimesWhatTheRunnerTimes() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        for (name, rows) in [("fetch-leaf", model.entity("Book")!.rows), ("count-all", 300), ("insert-single", 300), ("delete-cascade", 30), ("update", 30)] {
            let harness = try HarnessCase(strategy: Joined.self, workload: Workloads.named(name)!, variant: "", model: model, seed: 42, batchSize: 100)
            var marks = 0
            try harness.prepareRepetition()
            let handled = try harness.run(startMeasurement: { marks += 1 }, stopMeasurement: { marks += 10 })
            XCTAssertEqual(marks, 11, "\(name): one measured region")
            XCTAssertEqual(handled, rows, name)
            let work = try XCTUnwrap(harness.lastWork, name)
            XCTAssertGreaterThan(work.vmSteps, 0, name)
            try harness.prepareRepetition()
            XCTAssertEqual(try harness.run(startMeasurement: {}, stopMeasurement: {}), rows, "\(name): a second repetition")
            XCTAssertEqual(harness.lastWork?.vmSteps, work.vmSteps, "\(name): the same work in every repetition")
        }
        XCTAssertThrowsError(try Strategies.layout(named: "wide")) { XCTAssertEqual("\($0)", "unknown strategy 'wide'; choose from: \(Strategies.names.joined(separator: ", "))") }
        XCTAssertThrowsError(try HarnessCase(strategy: Joined.self, workload: Workloads.named("fetch-branch")!, variant: "", model: model, seed: 1))
    }
}
