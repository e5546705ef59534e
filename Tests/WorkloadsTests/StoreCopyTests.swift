import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import Strategies
import TestSupport
@testable import Workloads
import XCTest

/// A store's own objects copied into every layout: every copy proved to hold every object and
/// link (a copy that loses or changes one fails with the first difference), `single-table`'s copy
/// the store's own tables row for row, and every strategy agreeing on every workload.
final class StoreCopyTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-copy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A Core Data store of `model`'s generated objects, opened as a dataset of the model read from it.
    func dataset(_ model: Model) throws -> StoreDataset {
        let path = folder.appendingPathComponent("\(model.name)-\(UUID().uuidString.prefix(4)).sqlite").path
        try CoreDataStoreFixture.writeGenerated(model, seed: 9, to: path)
        let read = try Model(CoreDataStoreFile.read(path: path).description)
        return try StoreDataset.open(path: path, model: read, seed: 1, privateCopy: StorePrivateCopy())
    }

    func copy(_ dataset: StoreDataset, _ type: any StorageLayout.Type) throws -> MeasuredStore {
        let store = try MeasuredStore(try type.init(model: dataset.model), path: folder.appendingPathComponent("\(type.name)-\(UUID().uuidString.prefix(4)).sqlite").path)
        try store.populate(dataset, batchSize: 97, census: Census(dataset))
        return store
    }

    /// Rows of `table` in one database and not in the other (every column but `Z_OPT`, which a copy starts at 1).
    static func unmatched(_ table: String, _ database: Database) throws -> Int {
        let columns = try database.strings("SELECT name FROM pragma_table_info('\(table)') WHERE name <> 'Z_OPT'").joined(separator: ", ")
        let one = try database.scalarInt("SELECT COUNT(*) FROM (SELECT \(columns) FROM main.\(table) EXCEPT SELECT \(columns) FROM source.\(table))") ?? 0
        let other = try database.scalarInt("SELECT COUNT(*) FROM (SELECT \(columns) FROM source.\(table) EXCEPT SELECT \(columns) FROM main.\(table))") ?? 0
        return Int(one + other)
    }

    func testEveryLayoutHoldsTheStoresObjectsAndSingleTableIsTheStoreRowForRow() throws {
        let random = try (11 ... 14).map { try Model(RandomModel.make(seed: $0)) }
        for model in try ModelPresets.all.map({ try Model($0.scaled(to: 500)) }) + random {
            let dataset = try dataset(model)
            for type in Strategies.all {
                let store = try copy(dataset, type)
                defer { store.remove() }
                guard type == SingleTable.self else { continue }
                let database = try store.opened.database
                try database.execute("ATTACH DATABASE '\(dataset.path)' AS source")
                let tables = try database.strings("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
                XCTAssertFalse(tables.isEmpty)
                for table in tables {
                    XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM main.\(table)"), try database.scalarInt("SELECT COUNT(*) FROM source.\(table)"), "\(model.name) \(table)")
                    XCTAssertEqual(try Self.unmatched(table, database), 0, "\(model.name) \(table)")
                }
                try database.execute("DETACH DATABASE source")
            }
        }
    }

    /// An app's values the generator never makes: doubles of 17 significant digits, a whole-number
    /// date a TIMESTAMP column keeps as an integer, text with NUL and non-ASCII characters, an empty
    /// blob, extreme integers. Every layout's copy holds them exactly (json-entity's JSON once
    /// kept only 15 digits of a REAL).
    func testEveryLayoutHoldsAnAppsValuesExactly() throws {
        let description = ModelDescription(name: "Readings", entities: [
            EntityDescription("Item", rows: 100, attributes: [Attribute("title", .string, optional: true), Attribute("created", .date)]),
            EntityDescription("Reading", parent: "Item", rows: 200,
                              attributes: [Attribute("value", .double), Attribute("taken", .date, optional: true), Attribute("count", .integer64, optional: true),
                                           Attribute("raw", .binary, optional: true), Attribute("note", .string, optional: true)]),
        ])
        let path = folder.appendingPathComponent("values.sqlite").path
        try CoreDataStoreFixture.writeGenerated(try Model(description), seed: 9, to: path)
        let database = try Database(path: path)
        try database.execute("""
            UPDATE ZITEM SET ZVALUE = 615803726.8558493, ZTAKEN = 0.30000000000000004 WHERE Z_ENT = 2 AND Z_PK % 3 = 0;
            UPDATE ZITEM SET ZCREATED = 700000000, ZVALUE = 1e-300 WHERE Z_PK % 5 = 0 AND Z_ENT = 2;
            UPDATE ZITEM SET ZTITLE = 'a' || char(0) || 'b é 🦘', ZNOTE = '"quoted" \\ ' || char(10) WHERE Z_PK % 7 = 0;
            UPDATE ZITEM SET ZCOUNT = 9223372036854775807, ZRAW = x'' WHERE Z_ENT = 2 AND Z_PK % 4 = 0
            """)
        let read = try Model(CoreDataStoreFile.read(path: path).description)
        let dataset = try StoreDataset.open(path: path, model: read, seed: 1, privateCopy: StorePrivateCopy())
        let reading = try XCTUnwrap(read.entity("Reading"))
        let value = try XCTUnwrap(reading.attributeIndex("value"))
        XCTAssertTrue(dataset.objects(root: read.mainRoot, 0 ..< 300).contains { $0.values.count > value && $0.id.entity == reading.index && $0.values[value] == .real(615_803_726.855_849_3) })
        for type in Strategies.all {
            let store = try copy(dataset, type)
            store.remove()
        }
    }

    /// An ordered many-to-many's join table order (`Z_FOK_`) is the store's own in single-table's
    /// copy, not the generator's spacing by key.
    func testAnOrderedManyToManyKeepsTheStoresOrder() throws {
        let description = ModelDescription(name: "Playlists", entities: [
            EntityDescription("Playlist", rows: 20, attributes: [Attribute("name", .string)],
                              relationships: [RelationshipDescription("songs", destination: "Song", inverse: "playlists", toMany: true, ordered: true)]),
            EntityDescription("Song", rows: 60, attributes: [Attribute("title", .string)],
                              relationships: [RelationshipDescription("playlists", destination: "Playlist", inverse: "songs", toMany: true)]),
        ])
        let path = folder.appendingPathComponent("playlists.sqlite").path
        try CoreDataStoreFixture.writeGenerated(try Model(description), seed: 9, to: path)
        let database = try Database(path: path)
        let join = try XCTUnwrap(database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%Z_FOK_%'").first)
        let order = try XCTUnwrap(database.strings("SELECT name FROM pragma_table_info('\(join)') WHERE name LIKE 'Z_FOK_%'").first)
        XCTAssertGreaterThan(try database.scalarInt("SELECT COUNT(*) FROM \(join)") ?? 0, 0)
        try database.execute("UPDATE \(join) SET \(order) = 1000000 - 7 * \(order)")
        let read = try Model(CoreDataStoreFile.read(path: path).description)
        let dataset = try StoreDataset.open(path: path, model: read, seed: 1, privateCopy: StorePrivateCopy())
        let store = try copy(dataset, SingleTable.self)
        defer { store.remove() }
        let copied = try store.opened.database
        try copied.execute("ATTACH DATABASE '\(path)' AS source")
        XCTAssertEqual(try Self.unmatched(join, copied), 0)
        XCTAssertEqual(try copied.scalarInt("SELECT COUNT(*) FROM main.\(join) WHERE \(order) > 500000"), try copied.scalarInt("SELECT COUNT(*) FROM source.\(join)"))
    }

    func testACopyThatLosesOrChangesAnythingFailsWithTheFirstDifference() throws {
        let dataset = try dataset(try Model(ModelPresets.publications.scaled(to: 400)))
        let store = try copy(dataset, SingleTable.self)
        defer { store.remove() }
        let database = try store.opened.database
        try database.execute("UPDATE ZPUBLICATION SET ZTITLE = ZTITLE || '!' WHERE Z_PK = 7")
        XCTAssertThrowsError(try store.proveHolds(dataset)) { error in
            XCTAssertTrue("\(error)".hasSuffix(".title of \(dataset.model.entities[dataset.entity(root: dataset.model.mainRoot, at: 6)].name) 7 differs"), "\(error)")
        }
        try database.execute("UPDATE ZPUBLICATION SET ZTITLE = substr(ZTITLE, 1, length(ZTITLE) - 1) WHERE Z_PK = 7")
        XCTAssertNoThrow(try store.proveHolds(dataset))
        try database.execute("DELETE FROM ZPUBLICATION WHERE Z_PK = 9")
        XCTAssertThrowsError(try store.proveHolds(dataset)) { error in XCTAssertTrue("\(error)".hasSuffix(" 9 is missing"), "\(error)") }
        let other = try copy(dataset, SingleTable.self)
        defer { other.remove() }
        try other.opened.database.execute("UPDATE Z_1TAGS SET Z_6TAGS = Z_6TAGS % 200 + 1 WHERE rowid = 5")
        XCTAssertThrowsError(try other.proveHolds(dataset)) { error in XCTAssertEqual("\(error)", "single-table: the copy of the store's objects does not hold the store's Publication.tags links of the objects from key 1 to 400") }
    }

    func testEveryStrategyAgreesOnEveryWorkloadOnTheStoresObjects() throws {
        for model in [try Model(ModelPresets.publications.scaled(to: 400)), try Model(RandomModel.make(seed: 21))] {
            let dataset = try dataset(model)
            let plan = RunPlan(seed: 77, batchSize: 64, repetitions: 1)
            let results = try Runner(plan: plan, inputs: WorkloadInputs(dataset: dataset)).run()
            XCTAssertFalse(results.isEmpty)
            for (caseName, group) in Dictionary(grouping: results, by: \.caseName) {
                XCTAssertEqual(Set(group.map(\.digest.value)).count, 1, "\(model.name) \(caseName): digests differ")
                XCTAssertEqual(group.map(\.strategy), Strategies.names)
            }
            XCTAssertEqual(Set(results.map(\.setting.scale)), [dataset.totalCount])
        }
    }
}
