import CoreDataLayout
import Foundation
import Generation
import Models
import SQLite
import Strategies
import TestSupport
import XCTest

/// Core Data's layout rules that real stores showed the suite lacked, one small model each
/// (docs/strategies.md, "Core Data's layout, rule by rule", has each rule's evidence).
final class CoreDataRulesTests: XCTestCase {
    /// The statements of `entities`' single-table layout, checked to run in SQLite.
    func schema(_ entities: [EntityDescription]) throws -> (tables: [String], indexes: [String]) {
        let model = try Model(ModelDescription(name: "rules", entities: entities))
        let schema = CoreDataSchema(model)
        let database = try Database(path: ":memory:")
        for statement in schema.schemaSQL { try database.execute(statement) }
        return (schema.tableSQL, schema.indexSQL)
    }

    /// UUID and URI columns form one group after VARCHAR and before Transformable, then binary.
    func testUUIDAndURIComeBeforeTransformable() throws {
        let tables = try schema([EntityDescription("Reminder", rows: 10, attributes: [
            Attribute("attachment", .transformable, optional: true), Attribute("data", .binary, optional: true), Attribute("identifier", .uuid),
            Attribute("link", .uri, optional: true), Attribute("title", .string),
        ])]).tables
        XCTAssertEqual(tables, ["CREATE TABLE ZREMINDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZIDENTIFIER BLOB, ZLINK VARCHAR, ZATTACHMENT BLOB, ZDATA BLOB )"])
    }

    /// Every hidden to-one (a to-many without inverse) of the hierarchy comes before every order
    /// key: `List.reminders` (no inverse) lands on the sub-entity `Task`, `Account.items`
    /// (ordered, inverse `Item.account`) on the root `Item`; entity by entity the order key would
    /// come first.
    func testHiddenKeysComeBeforeOrderKeys() throws {
        let tables = try schema([
            EntityDescription("Account", rows: 2, relationships: [RelationshipDescription("items", destination: "Item", inverse: "account", toMany: true, ordered: true)]),
            EntityDescription("Item", rows: 5, attributes: [Attribute("title", .string)],
                              relationships: [RelationshipDescription("account", destination: "Account", inverse: "items", optional: true)]),
            EntityDescription("Task", parent: "Item", rows: 5, attributes: [Attribute("done", .boolean)]),
            EntityDescription("List", rows: 2, relationships: [RelationshipDescription("reminders", destination: "Task", toMany: true)]),
        ]).tables
        XCTAssertEqual(tables[1], "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACCOUNT INTEGER, ZDONE INTEGER, Z4REMINDERS INTEGER, Z_FOK_ACCOUNT INTEGER, ZTITLE VARCHAR )")
    }

    /// Table by table, the to-one keys' indexes come before the `Z_ENT` index, as in real stores
    /// (`ZCAR_ZOWNER_INDEX`, then `ZCAR_Z_ENT_INDEX`): without statistics SQLite breaks a tie
    /// for the index created last, so a sub-entity's fetch by a to-one reads the `Z_ENT` index,
    /// in the suite's store as in Core Data's.
    func testTheEntityIndexComesAfterTheKeysIndexes() throws {
        let entities = [
            EntityDescription("Car", rows: 10, attributes: [Attribute("maker", .string)],
                              relationships: [RelationshipDescription("owner", destination: "Person", inverse: "cars", optional: true)]),
            EntityDescription("SportCar", parent: "Car", rows: 10, attributes: [Attribute("power", .integer32)]),
            EntityDescription("Person", rows: 5, attributes: [Attribute("name", .string)],
                              relationships: [RelationshipDescription("cars", destination: "Car", inverse: "owner", toMany: true)]),
        ]
        XCTAssertEqual(try schema(entities).indexes, ["CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER)", "CREATE INDEX ZCAR_Z_ENT_INDEX ON ZCAR (Z_ENT)"])
        let database = try Database(path: ":memory:")
        for statement in CoreDataSchema(try Model(ModelDescription(name: "rules", entities: entities))).schemaSQL { try database.execute(statement) }
        XCTAssertEqual(try database.queryPlan("SELECT t0.Z_PK FROM ZCAR t0 WHERE t0.ZOWNER = ? AND t0.Z_ENT = ?", [1, 2]),
                       ["SEARCH t0 USING INDEX ZCAR_Z_ENT_INDEX (Z_ENT=?)"])
    }

    /// A many-to-many that is its own inverse: `(Z_<n><NAME>, REFLEXIVE)`, indexed on the reversed pair.
    func testAReflexiveManyToMany() throws {
        let (tables, indexes) = try schema([EntityDescription("Person", rows: 10, attributes: [Attribute("name", .string)], relationships: [
            RelationshipDescription("mergeCandidates", destination: "Person", inverse: "mergeCandidates", toMany: true),
        ])])
        XCTAssertEqual(tables.last, "CREATE TABLE Z_1MERGECANDIDATES ( Z_1MERGECANDIDATES INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1MERGECANDIDATES, REFLEXIVE) )")
        XCTAssertEqual(indexes, ["CREATE INDEX Z_1MERGECANDIDATES_REFLEXIVE_INDEX ON Z_1MERGECANDIDATES (REFLEXIVE, Z_1MERGECANDIDATES)"])
    }

    /// An ordered many-to-many's join table has a third column, `Z_FOK_` + its members' column
    /// without `Z_` (Photos' `Z_26ASSETS … Z_FOK_34ASSETS`).
    func testAnOrderedManyToManyHasAnOrderColumn() throws {
        let tables = try schema([
            EntityDescription("Album", rows: 3, relationships: [RelationshipDescription("assets", destination: "Asset", inverse: "albums", toMany: true, ordered: true)]),
            EntityDescription("Asset", rows: 9, relationships: [RelationshipDescription("albums", destination: "Album", inverse: "assets", toMany: true)]),
        ]).tables
        XCTAssertEqual(tables.last, "CREATE TABLE Z_1ASSETS ( Z_1ALBUMS INTEGER, Z_2ASSETS INTEGER, Z_FOK_2ASSETS INTEGER, PRIMARY KEY (Z_1ALBUMS, Z_2ASSETS) )")
    }

    /// Two relationships of one entity, each other's inverse: the later by name names the table
    /// (a real store's `Z_1FAVORITES (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES)`).
    func testAnEntitysOwnInversePairIsNamedAfterTheLaterSide() throws {
        let (tables, indexes) = try schema([EntityDescription("Folder", rows: 10, attributes: [Attribute("name", .string)], relationships: [
            RelationshipDescription("favoriteFolders", destination: "Folder", inverse: "favorites", toMany: true),
            RelationshipDescription("favorites", destination: "Folder", inverse: "favoriteFolders", toMany: true, ordered: true),
        ])])
        XCTAssertEqual(tables.last, "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )")
        XCTAssertEqual(indexes, ["CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS)"])
    }

    /// A fetch index whose one element is a to-one creates no index (the foreign key's serves); a
    /// to-one beside another element is indexed.
    func testAFetchIndexOfALoneToOneCreatesNoIndex() throws {
        let indexes = try schema([
            EntityDescription("Note", rows: 10, attributes: [Attribute("date", .date)],
                              relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes", optional: true)],
                              fetchIndexes: [FetchIndex("byFolder", "folder"), FetchIndex("byFolderAndDate", "folder", "date desc")]),
            EntityDescription("Folder", rows: 2, relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true)]),
        ]).indexes
        XCTAssertEqual(indexes, [
            "CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)",
            "CREATE INDEX Z_Note_byFolderAndDate ON ZNOTE (ZFOLDER COLLATE BINARY ASC, ZDATE COLLATE BINARY DESC)",
        ])
    }

    /// A transient relationship has no column and no index; a stored relationship whose inverse
    /// is transient is stored without one.
    func testATransientRelationshipHasNoColumn() throws {
        let xml = """
            <model>
              <entity name="Folder">
                <attribute name="name" attributeType="String"/>
                <relationship name="notes" toMany="YES" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                <relationship name="preview" optional="YES" maxCount="1" destinationEntity="Note" inverseName="previewOf" inverseEntity="Note" transient="YES"/>
              </entity>
              <entity name="Note">
                <attribute name="title" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                <relationship name="previewOf" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="preview" inverseEntity="Folder"/>
                <relationship name="cachedFolder" optional="YES" maxCount="1" destinationEntity="Folder" transient="YES"/>
              </entity>
            </model>
            """
        let read = try XcodeModelReader.parse(Data(xml.utf8), source: "Notes.xcdatamodel", name: "Notes")
        XCTAssertTrue(read.warnings.contains("Folder.preview is a transient relationship; the suite leaves it out (Core Data stores no column for it)"), "\(read.warnings)")
        XCTAssertTrue(read.warnings.contains("Note.cachedFolder is a transient relationship; the suite leaves it out (Core Data stores no column for it)"), "\(read.warnings)")
        let (tables, indexes) = try schema(try read.description.sharing(10).entities)
        XCTAssertEqual(tables, [
            "CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZPREVIEWOF INTEGER, ZTITLE VARCHAR )",
        ])
        XCTAssertEqual(indexes, ["CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)", "CREATE INDEX ZNOTE_ZPREVIEWOF_INDEX ON ZNOTE (ZPREVIEWOF)"])
    }

    /// Names real stores hold: a property name that starts with `_` (column `Z_` + the rest), a
    /// fetch index name longer than 60 characters (kept whole).
    func testUnderscoredNamesAndLongIndexNames() throws {
        let long = "byCDEntityMetadataKeyBestLanguageAndTitleForTheSpotlightImporterAndTheSearchField"
        XCTAssertGreaterThan(long.count, 60)
        let (tables, indexes) = try schema([EntityDescription("Item", rows: 10, attributes: [
            Attribute("_CDEntityMetadataKey__bestLanguage", .string, optional: true), Attribute("title", .string),
        ], fetchIndexes: [FetchIndex(long, "_CDEntityMetadataKey__bestLanguage", "title")])])
        XCTAssertEqual(tables, ["CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z_CDENTITYMETADATAKEY__BESTLANGUAGE VARCHAR, ZTITLE VARCHAR )"])
        XCTAssertEqual(indexes, ["CREATE INDEX Z_Item_\(long) ON ZITEM (Z_CDENTITYMETADATAKEY__BESTLANGUAGE COLLATE BINARY ASC, ZTITLE COLLATE BINARY ASC)"])
        XCTAssertThrowsError(try Model(ModelDescription(name: "rules", entities: [EntityDescription("Item", rows: 1, attributes: [Attribute("_a-b", .string)])])))
    }

    /// A fetch index element `SELF` is the key column `Z_PK` in every strategy's index; the
    /// strategies still agree on every read.
    func testTheElementSELFIsTheKeyColumn() throws {
        let entities = [
            EntityDescription("Note", rows: 20, attributes: [Attribute("date", .date), Attribute("title", .string)],
                              fetchIndexes: [FetchIndex("byDateAndSelf", [FetchIndex.Element(property: "date", ascending: false), .primaryKey()])]),
            EntityDescription("Memo", parent: "Note", rows: 10, attributes: [Attribute("pinned", .boolean)],
                              fetchIndexes: [FetchIndex("bySelf", "SELF desc")]),
        ]
        XCTAssertEqual(try schema(entities).indexes, [
            "CREATE INDEX ZNOTE_Z_ENT_INDEX ON ZNOTE (Z_ENT)",
            "CREATE INDEX Z_Note_byDateAndSelf ON ZNOTE (ZDATE COLLATE BINARY DESC, Z_PK COLLATE BINARY ASC)",
            "CREATE INDEX Z_Memo_bySelf ON ZNOTE (Z_PK COLLATE BINARY DESC)",
        ])
        let description = ModelDescription(name: "rules", entities: entities)
        let model = try Model(description)
        for type in Strategies.all {
            let indexes = try type.init(model: model).schemaSQL.filter { $0.contains("byDateAndSelf") || $0.contains("bySelf") }
            XCTAssertFalse(indexes.isEmpty, "\(type.name) has no index with SELF")
            XCTAssertTrue(indexes.allSatisfy { $0.contains("Z_PK COLLATE BINARY") }, "\(type.name): \(indexes)")
        }
        let reads = try StrategyAgreement(Strategies.all, description)
        try reads.checkReads()
    }

    /// A partial index's condition, written as Core Data writes it: the columns unqualified, nil as
    /// `IS NULL` / `IS NOT NULL`, numbers as they print, strings quoted, AND/OR in parentheses.
    func testAPartialIndexHasItsCondition() throws {
        let draft = FetchIndex.Condition.compare(property: "title", .notEqual, .null)
        let recent = FetchIndex.Condition.and([.compare(property: "folder", .equal, .null), .compare(property: "rank", .greaterOrEqual, .integer(3)),
                                               .not(.compare(property: "kind", .equal, .text("it's")))])
        let (_, indexes) = try schema([
            EntityDescription("Note", rows: 10, attributes: [Attribute("title", .string, optional: true), Attribute("rank", .integer16), Attribute("kind", .string)],
                              relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes", optional: true)],
                              fetchIndexes: [FetchIndex("byTitledOnly", [FetchIndex.Element(property: "title")], condition: draft),
                                             FetchIndex("byRank", [FetchIndex.Element(property: "rank"), .primaryKey()], condition: recent),
                                             FetchIndex("byFolder", [FetchIndex.Element(property: "folder")], condition: draft)]),
            EntityDescription("Folder", rows: 2, relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true)]),
        ])
        XCTAssertEqual(indexes, [
            "CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)",
            "CREATE INDEX Z_Note_byTitledOnly ON ZNOTE (ZTITLE COLLATE BINARY ASC) WHERE ZTITLE IS NOT NULL",
            "CREATE INDEX Z_Note_byRank ON ZNOTE (ZRANK COLLATE BINARY ASC, Z_PK COLLATE BINARY ASC) WHERE (ZFOLDER IS NULL AND ZRANK >= 3 AND  NOT (ZKIND = 'it''s'))",
        ])
        XCTAssertEqual(FetchIndex.Condition.or([.compare(property: "a", .less, .real(1.5)), .compare(property: "b", .greater, .date(86_400))]).sql { "Z" + $0.uppercased() },
                       "(ZA < 1.5 OR ZB > 86400.000000)")
        XCTAssertNil(FetchIndex.Condition.compare(property: "a", .less, .null).sql { $0 }, "nil is only equal or not")
        XCTAssertThrowsError(try Model(ModelDescription(name: "rules", entities: [EntityDescription("Note", rows: 1, attributes: [Attribute("title", .string)], fetchIndexes: [
            FetchIndex("byTitle", [FetchIndex.Element(property: "title")], condition: .compare(property: "missing", .equal, .null)),
        ])])))
    }

    /// An ordered many-to-many's join table holds each member's order key, spaced as a to-one's
    /// order keys are (1024 apart, from 2048 for key 1), whichever side generates the links.
    func testAnOrderedManyToManyFillsItsOrderColumn() throws {
        for orderedSideCounts in [true, false] {
            let count = FanOut(min: 1, max: 3)
            let entities = [
                EntityDescription("Album", rows: 4, relationships: [RelationshipDescription("assets", destination: "Asset", inverse: "albums", toMany: true, ordered: true,
                                                                                               count: orderedSideCounts ? count : nil)]),
                EntityDescription("Asset", rows: 9, relationships: [RelationshipDescription("albums", destination: "Album", inverse: "assets", toMany: true,
                                                                                               count: orderedSideCounts ? nil : count)]),
            ]
            let generator = ObjectGenerator(try Model(ModelDescription(name: "rules", entities: entities)), seed: 3)
            let store = try StrategyAgreement.open(SingleTable.self, generator)
            let rows = try store.database.strings("SELECT Z_2ASSETS || ' ' || IFNULL(Z_FOK_2ASSETS, 'NULL') FROM Z_1ASSETS")
            XCTAssertGreaterThan(rows.count, 3)
            for row in rows {
                let parts = row.split(separator: " ").compactMap { Int64($0) }
                XCTAssertEqual(parts.count, 2, row)
                XCTAssertEqual(parts.last, parts.first.map(ObjectGenerator.orderKey), row)
            }
            XCTAssertEqual(ObjectGenerator.orderKey(1), 2_048)
        }
    }
}
