import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite
import StoreFiles
import Strategies
import XCTest

/// Pins single-table to Core Data's layout and queries, statement by statement.
final class SingleTableLayoutTests: XCTestCase {
    func strategy(_ description: ModelDescription) throws -> SingleTable {
        try SingleTable(model: try Model(description))
    }

    func testThePublicationModelIsCoreDatasLayout() throws {
        XCTAssertEqual(try strategy(ModelPresets.publications).schemaSQL, [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAPERTYPE INTEGER, ZPAGECOUNT INTEGER, ZWORDCOUNT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZDOI VARCHAR, ZBLOGNAME VARCHAR, ZURL VARCHAR, ZISBN VARCHAR, ZURL1 VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_6TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_6TAGS) )",
            "CREATE INDEX ZPUBLICATION_Z_ENT_INDEX ON ZPUBLICATION (Z_ENT)",
            // Uniqueness constraints are named like fetch indexes, entity and attribute as declared, columns collated.
            "CREATE UNIQUE INDEX Z_Publication_UNIQUE_uid ON ZPUBLICATION (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZPUBLICATION (ZISBN COLLATE BINARY ASC)",
            "CREATE INDEX Z_Book_byEntityAndPublishDate ON ZPUBLICATION (Z_ENT COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_6TAGS_INDEX ON Z_1TAGS (Z_6TAGS, Z_1PUBLICATIONS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ])
    }

    /// Depth 2, abstract entities, a to-one to an entity with sub-entities (`Z1_FAVORITEANIMAL` beside
    /// its key, in the INTEGER group, not sorted in by name), DECIMAL before VARCHAR, and a join table
    /// named from the side met first by name (Cat, which inherits Pet's `humans`: `Z_4HUMANS`).
    func testTheAnimalModelIsCoreDatasLayout() throws {
        XCTAssertEqual(try strategy(ModelPresets.efcoreAnimals).schemaSQL, [
            "CREATE TABLE ZANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITEANIMAL INTEGER, Z1_FAVORITEANIMAL INTEGER, ZVALUE DECIMAL, ZNAME VARCHAR, ZSPECIES VARCHAR, ZVET VARCHAR, ZEDUCATIONLEVEL VARCHAR, ZFAVORITETOY VARCHAR )",
            "CREATE TABLE Z_4HUMANS ( Z_4PETS INTEGER, Z_3HUMANS INTEGER, PRIMARY KEY (Z_4PETS, Z_3HUMANS) )",
            "CREATE INDEX ZANIMAL_ZFAVORITEANIMAL_INDEX ON ZANIMAL (ZFAVORITEANIMAL)",
            "CREATE INDEX ZANIMAL_Z_ENT_INDEX ON ZANIMAL (Z_ENT)",
            "CREATE INDEX Z_Animal_byName ON ZANIMAL (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_4HUMANS_Z_3HUMANS_INDEX ON Z_4HUMANS (Z_3HUMANS, Z_4PETS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ])
    }

    /// Core Data's select lists and entity filters: every column for the root, a literal 0 for each
    /// column of an entity outside the fetched subtree (and none after its last column), no filter for
    /// the root, a Z_ENT range for a middle entity, `Z_ENT = ?` for one entity.
    func testQueriesAreCoreDatas() throws {
        let model = try Model(ModelPresets.efcoreAnimals)
        let animals = try SingleTable(model: model)
        let sql = { (name: String) in try animals.fetchQuery(FetchRequest(entity: model.index(of: name)!)) }
        XCTAssertEqual(try sql("Animal").sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSPECIES, t0.ZVALUE, t0.ZFAVORITEANIMAL, t0.Z1_FAVORITEANIMAL, t0.ZVET, t0.ZEDUCATIONLEVEL, t0.ZFAVORITETOY FROM ZANIMAL t0")
        XCTAssertEqual(try sql("Pet").sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, 0, 0, 0, 0, t0.ZVET, t0.ZEDUCATIONLEVEL, t0.ZFAVORITETOY FROM ZANIMAL t0 WHERE t0.Z_ENT >= ? AND t0.Z_ENT <= ?")
        XCTAssertEqual(try sql("Pet").values, [.integer(4), .integer(6)])
        XCTAssertEqual(try sql("Cat").sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, 0, 0, 0, 0, t0.ZVET, t0.ZEDUCATIONLEVEL FROM ZANIMAL t0 WHERE t0.Z_ENT = ?")
        XCTAssertEqual(try sql("Cat").values, [.integer(5)])
        XCTAssertEqual(try animals.countQuery(FetchRequest(entity: 0)).sql, "SELECT COUNT(*) FROM ZANIMAL")

        let publications = try Model(ModelPresets.publications)
        let store = try SingleTable(model: publications)
        let book = publications.index(of: "Book")!
        XCTAssertEqual(try store.fetchQuery(FetchRequest(entity: book, predicate: .equals("isbn", .text("x")))).sql,
                       "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, 0, 0, 0, 0, t0.ZISBN, t0.ZPAGECOUNT FROM ZPUBLICATION t0 WHERE t0.ZISBN = ? AND t0.Z_ENT = ?")
        XCTAssertEqual(try store.fetchQuery(FetchRequest(entity: 0, predicate: .anyRelated("tags", "name", .text("swift")))).sql,
                       "SELECT DISTINCT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, t0.ZDOI, t0.ZPAPERTYPE, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZPAGECOUNT, t0.ZURL1, t0.ZWORDCOUNT FROM ZPUBLICATION t0 JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1PUBLICATIONS JOIN ZTAG t2 ON t2.Z_PK = t1.Z_6TAGS WHERE t2.ZNAME = ?")
        XCTAssertEqual(CoreDataBookkeeping.reserveSQL, "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
    }

    /// The rows Core Data keeps beside the data: Z_PRIMARYKEY, Z_METADATA, and Z_ENT / Z_OPT per row.
    func testBookkeepingRowsAreCoreDatas() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let db = try Database(path: ":memory:")
        let strategy = LayoutStore(try SingleTable(model: model), database: db)
        try strategy.createSchema()
        let generator = ObjectGenerator(model, seed: 11)
        for batch in generator.batches(of: 64) { try strategy.insert(batch) }
        // One row per entity; Z_SUPER is the parent's number; Z_MAX is kept on the root row only.
        XCTAssertEqual(try db.strings("SELECT Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER || ' ' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                       ["1 Publication 0 300", "2 AcademicPaper 1 0", "3 BlogPost 1 0", "4 Book 1 0", "5 WebArticle 1 0", "6 Tag 0 200"])
        for position in 0 ..< 300 {
            let row = try db.strings("SELECT Z_ENT || ' ' || Z_OPT FROM ZPUBLICATION WHERE Z_PK = ?", [position + 1])
            XCTAssertEqual(row, ["\(generator.entity(root: 0, at: position) + 1) 1"])
        }
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT != 4 AND (ZISBN IS NOT NULL OR ZPAGECOUNT IS NOT NULL)"), 0)
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT = 5 AND (ZURL IS NOT NULL OR ZURL1 IS NULL)"), 0,
                       "WebArticle's url is ZURL1; ZURL is BlogPost's")
        let metadata = try db.prepare("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        XCTAssertTrue(try metadata.step())
        XCTAssertEqual(metadata.int(at: 0), 1)
        XCTAssertNotNil(UUID(uuidString: metadata.string(at: 1)))
        XCTAssertEqual(Array(metadata.bytes(at: 2).prefix(8)), Array("bplist00".utf8))
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM Z_MODELCACHE"), 1)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) } }
        XCTAssertEqual(try StoreFile.open(file.path).pragma("journal_mode"), "wal")
    }
}

/// The registry is the one place that lists strategies: each strategy's name is spelled in its own
/// file and nowhere else under Sources/, so adding a strategy is one file plus one registry line.
final class RegistryTests: XCTestCase {
    func testEachStrategyNameIsSpelledOnlyInItsOwnFile() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 20)
        XCTAssertGreaterThanOrEqual(Strategies.all.count, 2)
        for type in Strategies.all {
            let spelling = "\"\(type.name)\""
            let holders = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains(spelling) }.map(\.lastPathComponent)
            XCTAssertEqual(holders, ["\(type)".split(separator: ".").last.map { "\($0).swift" }!], "\(type.name) is spelled in \(holders)")
        }
        XCTAssertEqual(Set(Strategies.names).count, Strategies.all.count)
    }
}
