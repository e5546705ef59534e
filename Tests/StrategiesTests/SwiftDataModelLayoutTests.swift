import Foundation
import Models
import SQLite
import Strategies
import SwiftDataModels
import XCTest

/// The layouts of the SwiftData model fixtures: the studio's single-table pinned statement by
/// statement, every strategy derives tables for both, and the publications source is laid out
/// exactly as the publications preset.
final class SwiftDataModelLayoutTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    func read(_ name: String) throws -> Model {
        try Model(SwiftDataModelReader.read(path: Self.fixtures.appendingPathComponent(name).path).description.sharing(1_000))
    }

    /// `Item` three levels deep in one table; `format`, declared by `Ebook` and `Album`, as
    /// `ZFORMAT` and `ZFORMAT1`; the raw-value enum `rating` an INTEGER; the enum with associated
    /// values a case column and one column per associated value; the struct `dimensions` one
    /// column per field; `[String]` a BLOB in the Transformable group; the `lazy var`, `@Transient`,
    /// computed and static properties absent; `Review.item`, pointing at a hierarchy, with its
    /// entity column; the inferred `Shelf.items`/`Item.shelf` pair as the key `ZSHELF`;
    /// `#Unique` and both `#Index` groups named after their properties.
    func testTheStudioIsCoreDatasLayout() throws {
        let model = try read("SwiftDataStudio")
        XCTAssertEqual(try SingleTable(model: model).schemaSQL, [
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAVAILABILITY_INSTOCK_COUNT INTEGER, ZRATING INTEGER, ZSHELF INTEGER, ZTRACKCOUNT INTEGER, ZPAGECOUNT INTEGER, ZFILESIZE INTEGER, ZADDEDAT TIMESTAMP, ZAVAILABILITY_BACKORDERED_UNTIL TIMESTAMP, ZDIMENSIONS_HEIGHT FLOAT, ZDIMENSIONS_WIDTH FLOAT, ZWEIGHT FLOAT, ZPRICE DECIMAL, ZAVAILABILITY VARCHAR, ZDIMENSIONS_UNIT VARCHAR, ZSKU VARCHAR, ZTITLE VARCHAR, ZFORMAT VARCHAR, ZISBN VARCHAR, ZFORMAT1 VARCHAR, ZKEYWORDS BLOB, ZCOVER BLOB )",
            "CREATE TABLE ZREVIEW ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTARS INTEGER, ZITEM INTEGER, Z1_ITEM INTEGER, ZTEXT VARCHAR )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1ITEMS INTEGER, Z_8TAGS INTEGER, PRIMARY KEY (Z_1ITEMS, Z_8TAGS) )",
            "CREATE INDEX ZITEM_ZSHELF_INDEX ON ZITEM (ZSHELF)",
            "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)",
            "CREATE INDEX ZREVIEW_ZITEM_INDEX ON ZREVIEW (ZITEM)",
            "CREATE UNIQUE INDEX Z_Item_UNIQUE_sku ON ZITEM (ZSKU COLLATE BINARY ASC)",
            "CREATE INDEX Z_Item_title ON ZITEM (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Item_addedAt_title ON ZITEM (ZADDEDAT COLLATE BINARY ASC, ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_8TAGS_INDEX ON Z_1TAGS (Z_8TAGS, Z_1ITEMS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ])
    }

    func testEveryStrategyDerivesTablesForEachFixture() throws {
        for name in ["SwiftDataPublications", "SwiftDataStudio"] {
            let model = try read(name)
            for type in Strategies.all {
                let strategy = LayoutStore(try type.init(model: model), database: try Database(path: ":memory:"))
                XCTAssertFalse(strategy.schemaSQL.isEmpty, "\(type.name) on \(name)")
                XCTAssertNoThrow(try strategy.createSchema(), "\(type.name) on \(name)")
            }
        }
    }

    func testPublicationsIsLaidOutAsThePreset() throws {
        let model = try read("SwiftDataPublications")
        for type in Strategies.all {
            let source = try type.init(model: model).schemaSQL
            let preset = try type.init(model: try Model(ModelPresets.publications)).schemaSQL
            XCTAssertEqual(source, preset, type.name)
        }
    }
}
