import Dataset
import SQLite
@testable import Strategies
import XCTest

/// Pins the single-table store to Core Data's layout, statement by statement.
final class SingleTableLayoutTests: XCTestCase {
    func testSchemaIsCoreDataLayout() throws {
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAPERTYPE INTEGER, ZPAGECOUNT INTEGER, ZWORDCOUNT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZDOI VARCHAR, ZBLOGNAME VARCHAR, ZURL VARCHAR, ZISBN VARCHAR, ZURL1 VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_6TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_6TAGS) )",
            "CREATE INDEX ZPUBLICATION_Z_ENT_INDEX ON ZPUBLICATION (Z_ENT)",
            "CREATE UNIQUE INDEX Z_PUBLICATION_UNIQUE_UID ON ZPUBLICATION (ZUID)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_BOOK_UNIQUE_ISBN ON ZPUBLICATION (ZISBN)",
            "CREATE INDEX Z_Book_byEntityAndPublishDate ON ZPUBLICATION (Z_ENT COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (ZNAME)",
            "CREATE INDEX Z_1TAGS_Z_6TAGS_INDEX ON Z_1TAGS (Z_6TAGS, Z_1PUBLICATIONS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ]
        XCTAssertEqual(SingleTableStrategy.model.schemaSQL, expected)
    }
}

/// The rows Core Data keeps beside the data: Z_PRIMARYKEY, Z_METADATA, and Z_ENT / Z_OPT per row.
final class SingleTableBookkeepingTests: XCTestCase {
    func testBookkeepingRowsAreCoreData() throws {
        let db = try Database(path: ":memory:")
        let strategy = SingleTableStrategy(database: db)
        let generator = DatasetGenerator(DatasetConfiguration(seed: 11, scale: 300))
        try strategy.createSchema(tags: generator.tags)
        for batch in generator.batches(of: 64) { try strategy.insert(batch) }

        // One row per entity; Z_SUPER is the parent's number; Z_MAX is kept on the root row only.
        let keys = try db.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var rows: [String] = []
        while try keys.step() { rows.append("\(keys.int(at: 0)) \(keys.string(at: 1)) \(keys.int(at: 2)) \(keys.int(at: 3))") }
        XCTAssertEqual(rows, ["1 Publication 0 300", "2 AcademicPaper 1 0", "3 BlogPost 1 0", "4 Book 1 0", "5 WebArticle 1 0", "6 Tag 0 200"])

        // Every row carries its concrete entity's number, Z_OPT 1 after insert, and Z_PK 1…300 in save order.
        let numbers: [EntityKind: Int] = [.publication: 1, .academicPaper: 2, .blogPost: 3, .book: 4, .webArticle: 5]
        let publications = try db.prepare("SELECT Z_PK, Z_ENT, Z_OPT FROM ZPUBLICATION ORDER BY Z_PK")
        var index = 0
        while try publications.step() {
            XCTAssertEqual(publications.int(at: 0), index + 1)
            XCTAssertEqual(publications.int(at: 1), numbers[generator.publication(at: index).item.kind])
            XCTAssertEqual(publications.int(at: 2), 1)
            index += 1
        }
        XCTAssertEqual(index, 300)
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM ZTAG WHERE Z_ENT = 6 AND Z_OPT = 1"), 200)
        // A sub-entity's own columns are NULL in every other entity's rows.
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT != 4 AND (ZISBN IS NOT NULL OR ZPAGECOUNT IS NOT NULL)"), 0)
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM ZPUBLICATION WHERE Z_ENT = 5 AND (ZURL IS NOT NULL OR ZURL1 IS NULL)"), 0,
                       "WebArticle's url is ZURL1; ZURL is BlogPost's")

        // Z_METADATA holds one row with a binary property list; Z_MODELCACHE exists with one row.
        let metadata = try db.prepare("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        XCTAssertTrue(try metadata.step())
        XCTAssertEqual(metadata.int(at: 0), 1)
        XCTAssertNotNil(UUID(uuidString: metadata.string(at: 1)))
        XCTAssertEqual(Array(metadata.bytes(at: 2).prefix(8)), Array("bplist00".utf8))
        XCTAssertFalse(try metadata.step())
        XCTAssertEqual(try db.scalarInt("SELECT COUNT(*) FROM Z_MODELCACHE"), 1)
        // WAL is Core Data's journal mode (checked on a file store: memory databases have none).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.path + suffix) } }
        XCTAssertEqual(try StoreFile.open(folder.path).pragma("journal_mode"), "wal")
    }
}
