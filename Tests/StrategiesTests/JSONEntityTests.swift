import CoreDataLayout
import FetchRequests
import Foundation
import Generation
import Models
import SQLite
import Strategies
import TestSupport
import XCTest

/// `json-entity`'s corners (its answers on every preset, synthetic model and `awkward` are StrategyAgreementTests'):
/// entities past 63 keys, integrity, corrupt rows, its layout, query plans and SQL.
final class JSONEntityTests: XCTestCase {
    // MARK: Agreement

    /// More than 63 keys in `details`: the object is built from `json_patch`ed pieces (three at 140
    /// attributes). What it checks is each key's place, not the number of objects: 30 of them (15 per
    /// leaf) keep it quick, since a debug build decodes each object's 141 keys slowly.
    func testWideEntitiesAgree() throws {
        let wide = SyntheticModel.make(leaves: 2, attributes: 140, skew: 0, rows: 30, depth: 2)
        let reads = try StrategyAgreement([JSONEntity.self], wide)
        try reads.checkReads()
        reads.assertAskedEnough(moreThan: 300)
        try StrategyAgreement([JSONEntity.self], wide, against: SingleTable.self).checkWrites()
    }

    /// Root attributes named `kind` and `details`, UUID, binary and optional values in `details`,
    /// siblings declaring the same to-one name, a to-one into a hierarchy, cascades from another root
    /// (asked of every strategy in StrategyAgreementTests).
    static let awkward = ModelDescription(name: "awkward", entities: [
        EntityDescription("Item", abstract: true, attributes: [
            Attribute("uid", .uuid), Attribute("kind", .string, values: ValueSpec(.choice, choices: ["a", "b\"c", "d\\e\u{1}"])),
            Attribute("details", .integer32), Attribute("createdAt", .date),
        ], uniquenessConstraints: [["uid"]], fetchIndexes: [FetchIndex("byEntity", "entity", "createdAt")]),
        EntityDescription("Alpha", parent: "Item", rows: 300, attributes: [
            Attribute("code", .uuid), Attribute("note", .string, optional: true, nullShare: 0.4), Attribute("payload", .binary, optional: true),
            Attribute("score", .double), Attribute("at", .date), Attribute("title", .string),
        ], relationships: [RelationshipDescription("owner", destination: "Owner", inverse: "alphas", optional: true)],
        uniquenessConstraints: [["code"]], fetchIndexes: [FetchIndex("byScore", "score desc", "entity"), FetchIndex("byEntity", "at")]),
        EntityDescription("AlphaPrime", parent: "Alpha", rows: 200, attributes: [Attribute("extra", .integer64, optional: true)]),
        EntityDescription("Beta", parent: "Item", rows: 300, attributes: [Attribute("note", .integer16), Attribute("flag", .boolean)],
                          relationships: [RelationshipDescription("owner", destination: "Owner", inverse: "betas"),
                                          RelationshipDescription("friend", destination: "Item", optional: true)],
                          fetchIndexes: [FetchIndex("byOwnerNote", "owner", "note")]),
        EntityDescription("Owner", rows: 50, attributes: [Attribute("name", .string, values: ValueSpec(.name))], relationships: [
            RelationshipDescription("alphas", destination: "Alpha", inverse: "owner", toMany: true, deleteRule: .cascade),
            RelationshipDescription("betas", destination: "Beta", inverse: "owner", toMany: true),
        ], uniquenessConstraints: [["name"]]),
    ], order: ["uid"])

    func checkIntegrity(_ database: Database, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try database.strings("PRAGMA integrity_check"), ["ok"], file: file, line: line)
        XCTAssertEqual(try database.strings("PRAGMA foreign_key_check"), [], file: file, line: line)
    }

    // MARK: Integrity

    func testIntegrityAfterInsert() throws {
        for description in ModelPresets.all.map({ $0.scaled(to: 1_500) }) + [Self.awkward] {
            let model = try Model(description)
            let strategy = LayoutStore(try JSONEntity(model: model), database: try Database(path: ":memory:"))
            try strategy.createSchema()
            for batch in ObjectGenerator(model, seed: 7).batches(of: 300) { try strategy.insert(batch) }
            try checkIntegrity(strategy.database)
            // Z_PRIMARYKEY lists the stored model's entities; each root's Z_MAX is its highest key.
            for root in model.roots {
                let stored = strategy.layout.storedModel.index(of: model.entities[root].name)!
                XCTAssertEqual(try strategy.database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [stored + 1]),
                               Int64(ObjectGenerator(model, seed: 7).count(root: root)))
            }
        }
    }

    // MARK: Corrupt rows

    func testCorruptRowsThrow() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let strategy = LayoutStore(try JSONEntity(model: model), database: try Database(path: ":memory:"))
        try strategy.createSchema()
        for batch in ObjectGenerator(model, seed: 7).batches(of: 300) { try strategy.insert(batch) }
        let book = model.index(of: "Book")!
        let db = strategy.database
        let key = try XCTUnwrap(db.scalarInt("SELECT Z_PK FROM ZPUBLICATION WHERE ZKIND = ? LIMIT 1", [book + 1]))
        let paper = try XCTUnwrap(db.scalarInt("SELECT Z_PK FROM ZPUBLICATION WHERE ZKIND = ? LIMIT 1", [model.index(of: "AcademicPaper")! + 1]))
        func fetchThrows(_ change: String, _ what: String, key: Int64 = key) throws {
            try db.execute("SAVEPOINT s")
            try db.execute(change.replacingOccurrences(of: "KEY", with: "\(key)"))
            XCTAssertThrowsError(try strategy.fetch(FetchRequest(entity: model.mainRoot)), what) { XCTAssertTrue($0 is CorruptRow, "\(what): \($0)") }
            try db.execute("ROLLBACK TO s; RELEASE s")
            XCTAssertNoThrow(try strategy.fetch(FetchRequest(entity: model.mainRoot)))
        }
        try fetchThrows("UPDATE ZPUBLICATION SET ZKIND = 99 WHERE Z_PK = KEY", "unknown kind")
        try fetchThrows("UPDATE ZPUBLICATION SET ZKIND = 6 WHERE Z_PK = KEY", "kind of another root")
        try fetchThrows("UPDATE ZPUBLICATION SET ZKIND = NULL WHERE Z_PK = KEY", "NULL kind")
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = json_remove(ZDETAILS, '$.pageCount') WHERE Z_PK = KEY", "a required key missing")
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = json_set(ZDETAILS, '$.pageCount', 1.5) WHERE Z_PK = KEY", "a fraction for an integer")
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = json_set(ZDETAILS, '$.doi', 'x') WHERE Z_PK = KEY", "a key of another entity")
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = json_set(ZDETAILS, '$.isbn', 12) WHERE Z_PK = KEY", "a number for a string")
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = NULL WHERE Z_PK = KEY", "NULL details")
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = '{\"isbn\":\"1\",\"pageCount\":3,\"pageCount\":4}' WHERE Z_PK = KEY", "a key twice")
        // A Book's details must be JSON for its isbn index; an AcademicPaper's are not indexed.
        XCTAssertThrowsError(try db.execute("UPDATE ZPUBLICATION SET ZDETAILS = '{' WHERE Z_PK = \(key)"))
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = '{\"paperType\":1,\"doi\":\"x\"} x' WHERE Z_PK = KEY", "text after the object", key: paper)
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = '{\"paperType\":1,\"doi\":\"x\\u0\"}' WHERE Z_PK = KEY", "a short escape", key: paper)
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = '{\"paperType\":01,\"doi\":\"x\"}' WHERE Z_PK = KEY", "a leading zero", key: paper)
        try fetchThrows("UPDATE ZPUBLICATION SET ZDETAILS = '[]' WHERE Z_PK = KEY", "an array", key: paper)

        // Other spellings of the same object read back the same.
        let request = FetchRequest(entity: book, predicate: .key(key))
        let original = try strategy.fetch(request)
        let isbn = try XCTUnwrap(db.strings("SELECT ZDETAILS ->> '$.isbn' FROM ZPUBLICATION WHERE Z_PK = ?", [key]).first)
        let pages = try XCTUnwrap(db.scalarInt("SELECT ZDETAILS ->> '$.pageCount' FROM ZPUBLICATION WHERE Z_PK = ?", [key]))
        let escaped = isbn.unicodeScalars.map { "\\u" + String(format: "%04x", $0.value) }.joined()
        let spelled = try db.prepare("UPDATE ZPUBLICATION SET ZDETAILS = ? WHERE Z_PK = ?")
        try spelled.bind([" { \"pageCount\" : \(pages) ,\n\t\"is\\u0062n\":\"\(escaped)\" } ", key])
        try spelled.run()
        XCTAssertEqual(try strategy.fetch(request), original)
    }

    // MARK: Layout

    func testPublicationsLayout() throws {
        let strategy = try JSONEntity(model: try Model(ModelPresets.publications))
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZDETAILS VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_2TAGS) )",
            "CREATE UNIQUE INDEX Z_Publication_UNIQUE_uid ON ZPUBLICATION (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1PUBLICATIONS)",
            "CREATE INDEX ZPUBLICATION_ZKIND_INDEX ON ZPUBLICATION (ZKIND)",
            "CREATE UNIQUE INDEX Z_Publication_UNIQUE_isbn ON ZPUBLICATION ((ZDETAILS ->> '$.isbn') COLLATE BINARY ASC) WHERE ZKIND = 4",
            "CREATE INDEX Z_Publication_byEntityAndPublishDate ON ZPUBLICATION (ZKIND COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC) WHERE ZKIND = 4",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(strategy.schemaSQL.count, expected.count)
        for (actual, wanted) in zip(strategy.schemaSQL, expected) { XCTAssertEqual(actual, wanted) }
    }

    func testEFCoreAnimalsLayout() throws {
        let strategy = try JSONEntity(model: try Model(ModelPresets.efcoreAnimals))
        let expected = [
            // Attributes by name (details, favoriteAnimalKind, kind, name), then the to-one, grouped by type.
            "CREATE TABLE ZANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITEANIMALKIND INTEGER, ZKIND INTEGER, ZFAVORITEANIMAL INTEGER, ZDETAILS VARCHAR, ZNAME VARCHAR )",
            // Human.pets (entity 3 before Pet, 4) names the join table; both sides are the one entity Animal now.
            "CREATE TABLE Z_1PETS ( Z_1HUMANS INTEGER, Z_1PETS INTEGER, PRIMARY KEY (Z_1HUMANS, Z_1PETS) )",
            "CREATE INDEX ZANIMAL_ZFAVORITEANIMAL_INDEX ON ZANIMAL (ZFAVORITEANIMAL)",
            "CREATE INDEX Z_Animal_byName ON ZANIMAL (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1PETS_Z_1PETS_INDEX ON Z_1PETS (Z_1PETS, Z_1HUMANS)",
            "CREATE INDEX ZANIMAL_ZKIND_INDEX ON ZANIMAL (ZKIND)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(strategy.schemaSQL.count, expected.count)
        for (actual, wanted) in zip(strategy.schemaSQL, expected) { XCTAssertEqual(actual, wanted) }
    }

    func testAwkwardLayoutNames() throws {
        let strategy = try JSONEntity(model: try Model(Self.awkward))
        let item = strategy.schema.table(of: strategy.storedModel.index(of: "Item")!)
        let names = item.tableOrder.map(\.name)
        XCTAssertTrue(names.contains("ZKIND") && names.contains("ZDETAILS"), "the model's own kind and details")
        XCTAssertTrue(names.contains("ZKIND1") && names.contains("ZDETAILS1"), "the layout's kind and details")
        XCTAssertTrue(names.contains("ZOWNER") && names.contains("ZOWNER1") && names.contains("ZFRIEND") && names.contains("ZFRIENDKIND"), "\(names)")
        XCTAssertTrue(strategy.schemaSQL.contains("CREATE INDEX Z_Item_byEntity ON ZITEM (ZKIND1 COLLATE BINARY ASC, ZCREATEDAT COLLATE BINARY ASC)"))
        XCTAssertTrue(strategy.schemaSQL.contains("CREATE INDEX Z_Item_Alpha_byEntity ON ZITEM ((ZDETAILS1 ->> '$.at') COLLATE BINARY ASC) WHERE ZKIND1 BETWEEN 2 AND 3"))
        XCTAssertTrue(strategy.schemaSQL.contains("CREATE INDEX Z_Item_byOwnerNote ON ZITEM (ZOWNER1 COLLATE BINARY ASC, (ZDETAILS1 ->> '$.note') COLLATE BINARY ASC) WHERE ZKIND1 = 4"))
    }

    // MARK: Query plans

    func testLookupsUseIndexes() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let strategy = LayoutStore(try JSONEntity(model: model), database: try Database(path: ":memory:"))
        try strategy.createSchema()
        for batch in ObjectGenerator(model, seed: 7).batches(of: 300) { try strategy.insert(batch) }
        func plan(_ request: FetchRequest) throws -> String {
            let query = try strategy.layout.readQuery(request)
            return try strategy.database.queryPlan(query.sql, query.values.map { $0 as (any SQLiteBindable)? }).joined(separator: "; ")
        }
        let book = model.index(of: "Book")!
        XCTAssertTrue(try plan(FetchRequest(entity: book, predicate: .equals("isbn", .text("9780000000001")))).contains("Z_Publication_UNIQUE_isbn"))
        XCTAssertTrue(try plan(FetchRequest(entity: book)).contains("USING INDEX"))
        XCTAssertTrue(try plan(FetchRequest(entity: model.mainRoot, predicate: .equals("uid", .blob(Array(repeating: 1, count: 16))))).contains("Z_Publication_UNIQUE_uid"))
        XCTAssertTrue(try plan(FetchRequest(entity: model.mainRoot, predicate: .range("title", .text("Ab"), .text("Ac")))).contains("Z_Publication_byTitle"))

        let awkward = try Model(Self.awkward)
        let other = LayoutStore(try JSONEntity(model: awkward), database: try Database(path: ":memory:"))
        try other.createSchema()
        let prime = awkward.index(of: "AlphaPrime")!
        let query = try other.layout.readQuery(FetchRequest(entity: prime, predicate: .equals("code", .blob([1, 2]))))
        XCTAssertTrue(query.sql.contains("t0.ZKIND1 = 3 AND t0.ZKIND1 BETWEEN 2 AND 3"), query.sql)
        XCTAssertEqual(query.values, [.text("0102")])
        XCTAssertTrue(try other.database.queryPlan(query.sql, query.values.map { $0 as (any SQLiteBindable)? }).joined().contains("Z_Item_UNIQUE_code"))
    }

    /// The SQL of the examples in docs/strategies.md.
    func testQueries() throws {
        let model = try Model(ModelPresets.publications)
        let strategy = try JSONEntity(model: model)
        // Core Data's fetch order: the attributes by name (`kind` is first in the select list).
        let list = "t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZDETAILS, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE"
        XCTAssertEqual(try strategy.fetchQuery(FetchRequest(entity: model.mainRoot)).sql, "SELECT \(list) FROM ZPUBLICATION t0")
        let book = model.index(of: "Book")!
        XCTAssertEqual(try strategy.fetchQuery(FetchRequest(entity: book, predicate: .equals("isbn", .text("978")))).sql,
                       "SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.ZDETAILS ->> '$.isbn' = ? AND t0.ZKIND = 4")
        XCTAssertEqual(try strategy.countQuery(FetchRequest(entity: book)).sql, "SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.ZKIND = 4")
        XCTAssertEqual(try strategy.fetchQuery(FetchRequest(entity: model.index(of: "Tag")!, predicate: .anyRelated("publications", "title", .text("A")))).sql,
                       "SELECT DISTINCT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZTAG t0 JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_2TAGS JOIN ZPUBLICATION t2 ON t2.Z_PK = t1.Z_1PUBLICATIONS WHERE t2.ZTITLE = ?")
        let animals = try Model(ModelPresets.efcoreAnimals)
        let zoo = try JSONEntity(model: animals)
        XCTAssertEqual(try zoo.fetchQuery(FetchRequest(entity: animals.index(of: "Pet")!, sort: [SortKey("name")])).sql,
                       "SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZDETAILS, t0.ZNAME FROM ZANIMAL t0 WHERE t0.ZKIND BETWEEN 4 AND 6 ORDER BY t0.ZNAME")
    }

    // MARK: Derivation

    func testLargeModelsDeriveAndCreateTheirSchema() throws {
        for description in [SyntheticModel.make(leaves: 250, attributes: 7, skew: 1, rows: 10_000, depth: 1),
                            SyntheticModel.make(leaves: 240, attributes: 7, skew: 1, rows: 10_000, depth: 4),
                            SyntheticModel.make(leaves: 29, attributes: 64, skew: 1, rows: 10_000, depth: 3)] {
            let model = try Model(description)
            let strategy = LayoutStore(try JSONEntity(model: model), database: try Database(path: ":memory:"))
            try strategy.createSchema()
        }
    }
}
