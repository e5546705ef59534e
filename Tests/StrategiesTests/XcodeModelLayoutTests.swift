import Foundation
import Models
import SQLite
import Strategies
import XCTest

/// The layouts of the Xcode model fixtures: single-table pinned statement by statement, every
/// other strategy derives its tables, and `Publications.xcdatamodel` is laid out exactly as the
/// publications preset.
final class XcodeModelLayoutTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    func read(_ name: String) throws -> Model {
        try Model(XcodeModelReader.read(path: Self.fixtures.appendingPathComponent(name).path).description.sharing(1_000))
    }

    /// Three levels with an abstract middle (`Media`), `format` declared by two leaves (`ZFORMAT`,
    /// `ZFORMAT1`), every type in its group (Transformable as a BLOB), the transient attribute left
    /// out, the one-to-one pair as a to-one column on each side, the ordered `Shelf.items` as the
    /// `ZSHELF` key and its order key `Z_FOK_SHELF` after every entity's integers, and the index with the entity element on the leaf `Album`.
    func testTheLibraryIsCoreDatasLayout() throws {
        let model = try read("Library.xcdatamodeld")
        XCTAssertEqual(try SingleTable(model: model).schemaSQL, [
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISFAVORITE INTEGER, ZSHELF INTEGER, ZPAGECOUNT INTEGER, ZBITRATE INTEGER, ZTRACKCOUNT INTEGER, ZSIZEBYTES INTEGER, Z_FOK_SHELF INTEGER, ZADDEDAT TIMESTAMP, ZDURATION FLOAT, ZRATING FLOAT, ZPRICE DECIMAL, ZSEARCHTITLE VARCHAR, ZTITLE VARCHAR, ZFORMAT VARCHAR, ZFORMAT1 VARCHAR, ZUID BLOB, ZHOMEPAGE VARCHAR, ZATTACHMENT BLOB, ZTRAILER BLOB )",
            "CREATE TABLE ZLABEL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZTEXT VARCHAR )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1ITEMS INTEGER, Z_8TAGS INTEGER, PRIMARY KEY (Z_1ITEMS, Z_8TAGS) )",
            "CREATE INDEX ZITEM_ZSHELF_INDEX ON ZITEM (ZSHELF)",
            "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)",
            "CREATE INDEX ZLABEL_ZSHELF_INDEX ON ZLABEL (ZSHELF)",
            "CREATE INDEX ZSHELF_ZLABEL_INDEX ON ZSHELF (ZLABEL)",
            "CREATE UNIQUE INDEX Z_Item_UNIQUE_uid ON ZITEM (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Item_byTitle ON ZITEM (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Album_byEntityAndAdded ON ZITEM (Z_ENT COLLATE BINARY ASC, ZADDEDAT COLLATE BINARY DESC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_8TAGS_INDEX ON Z_1TAGS (Z_8TAGS, Z_1ITEMS)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ])
    }

    /// What real apps' models hold, in Core Data's layout: `Folder.notes`, to-many without an
    /// inverse, as the hidden key `Z2NOTES` (Folder is entity 2) after every integer column of
    /// `ZNOTE`, with its index; the ordered `Folder.children` as the order key `Z_FOK_PARENT` beside
    /// `ZPARENT`; the one-to-one `Note.preview`/`Preview.note` as a key on each side; the
    /// Transformable `style` after the VARCHARs and the UUID; `Box` and `Label` (capitals) as
    /// `ZBOX` and `ZLABEL`; `indexed="YES"` on `Folder.name` as `Z_Folder_name`, on the to-one
    /// `Folder.parent` as nothing more than its key's index; the fetch index element naming the
    /// to-many `attachments` left out, and the index naming nothing else gone.
    func testTheNotebookIsCoreDatasLayout() throws {
        let model = try read("Notebook.xcdatamodeld")
        XCTAssertEqual(try SingleTable(model: model).schemaSQL, [
            "CREATE TABLE ZATTACHMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNOTE INTEGER, Z3_NOTE INTEGER, ZFILENAME VARCHAR, ZDATA BLOB )",
            "CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPARENT INTEGER, Z_FOK_PARENT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPREVIEW INTEGER, ZWORDCOUNT INTEGER, Z2NOTES INTEGER, ZCREATED TIMESTAMP, ZWIDTH FLOAT, ZTITLE VARCHAR, ZLABEL VARCHAR, ZBODY VARCHAR, ZUID BLOB, ZSTYLE BLOB, ZBOX BLOB )",
            "CREATE TABLE ZPREVIEW ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNOTE INTEGER, Z3_NOTE INTEGER, ZIMAGE BLOB )",
            "CREATE TABLE ZREMINDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZREPEATS INTEGER, ZDUE TIMESTAMP, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZIDENTIFIER VARCHAR )",
            "CREATE INDEX ZATTACHMENT_ZNOTE_INDEX ON ZATTACHMENT (ZNOTE)",
            "CREATE INDEX ZFOLDER_ZPARENT_INDEX ON ZFOLDER (ZPARENT)",
            "CREATE INDEX ZNOTE_ZPREVIEW_INDEX ON ZNOTE (ZPREVIEW)",
            "CREATE INDEX ZNOTE_Z2NOTES_INDEX ON ZNOTE (Z2NOTES)",
            "CREATE INDEX ZNOTE_Z_ENT_INDEX ON ZNOTE (Z_ENT)",
            "CREATE INDEX ZPREVIEW_ZNOTE_INDEX ON ZPREVIEW (ZNOTE)",
            "CREATE INDEX ZREMINDER_Z_ENT_INDEX ON ZREMINDER (Z_ENT)",
            "CREATE INDEX Z_Folder_name ON ZFOLDER (ZNAME COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Note_UNIQUE_uid ON ZNOTE (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Note_byTitleAndAttachments ON ZNOTE (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Note_title ON ZNOTE (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Reminder_UNIQUE_identifier ON ZREMINDER (ZIDENTIFIER COLLATE BINARY ASC)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ])
    }

    func testEveryStrategyDerivesTablesForEachFixture() throws {
        for name in ["Library.xcdatamodeld", "Notebook.xcdatamodeld", "Publications.xcdatamodel"] {
            let model = try read(name)
            for type in Strategies.all {
                let strategy = LayoutStore(try type.init(model: model), database: try Database(path: ":memory:"))
                XCTAssertFalse(strategy.schemaSQL.isEmpty, "\(type.name) on \(name)")
                XCTAssertNoThrow(try strategy.createSchema(), "\(type.name) on \(name)")
            }
        }
    }

    func testPublicationsIsLaidOutAsThePreset() throws {
        let model = try read("Publications.xcdatamodel")
        for type in Strategies.all {
            let xcode = try type.init(model: model).schemaSQL
            let preset = try type.init(model: try Model(ModelPresets.publications)).schemaSQL
            XCTAssertEqual(xcode, preset, type.name)
        }
    }
}
