import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite
import Strategies
import TestSupport
import XCTest

/// `enum-entity`'s corners (its answers on every preset and synthetic model are StrategyAgreementTests'):
/// its layout is pinned for two presets.
final class EnumEntityTests: XCTestCase {
    /// A model that reaches every corner of the layout: root attributes named `kind` and `text1`,
    /// a middle entity's to-one (a key slot) whose one-to-many inverse cascades, a to-one to a
    /// hierarchy (key and entity slots), a sub-entity's many-to-many, a constraint over several
    /// kinds (a partial unique index), a leaf's constraint and an `entity` fetch index.
    static let gadgets = ModelDescription(name: "gadgets", entities: [
        EntityDescription("Item", rows: 100, attributes: [
            Attribute("uid", .uuid), Attribute("kind", .string, values: ValueSpec(.choice, choices: ["a", "b"])),
            Attribute("text1", .integer32), Attribute("title", .string, optional: true),
        ], relationships: [
            RelationshipDescription("owner", destination: "Person", inverse: "items", optional: true),
        ], uniquenessConstraints: [["uid"]], fetchIndexes: [FetchIndex("byTitle", "title"), FetchIndex("byKind", "entity", "text1")]),
        EntityDescription("Gadget", parent: "Item", abstract: true, attributes: [
            Attribute("code", .string, values: ValueSpec(.topic)), Attribute("weight", .double, optional: true),
        ], relationships: [
            RelationshipDescription("maker", destination: "Person", inverse: "gadgets", optional: true, nullShare: 0.2),
            RelationshipDescription("labels", destination: "Label", inverse: "gadgets", toMany: true, count: FanOut(min: 0, max: 3)),
        ], uniquenessConstraints: [["code"]]),
        EntityDescription("Phone", parent: "Gadget", rows: 300, attributes: [Attribute("screen", .double), Attribute("released", .date)],
                          relationships: [RelationshipDescription("carrier", destination: "Company", optional: true)]),
        EntityDescription("Watch", parent: "Gadget", rows: 200, attributes: [
            Attribute("strap", .string, values: ValueSpec(.name)), Attribute("waterproof", .boolean), Attribute("serial", .uuid),
        ], relationships: [RelationshipDescription("wearer", destination: "Person", optional: true)]),
        EntityDescription("Book", parent: "Item", rows: 200, attributes: [Attribute("isbn", .string), Attribute("pages", .integer32)],
                          uniquenessConstraints: [["isbn"]], fetchIndexes: [FetchIndex("byEntityAndPages", "entity", "pages")]),
        EntityDescription("Person", rows: 50, attributes: [Attribute("name", .string, values: ValueSpec(.email))], relationships: [
            RelationshipDescription("items", destination: "Item", inverse: "owner", toMany: true),
            RelationshipDescription("gadgets", destination: "Gadget", inverse: "maker", toMany: true, deleteRule: .cascade),
        ], uniquenessConstraints: [["name"]]),
        EntityDescription("Employee", parent: "Person", rows: 50, attributes: [Attribute("salary", .decimal)], relationships: [
            RelationshipDescription("employer", destination: "Company", inverse: "staff"),
        ]),
        EntityDescription("Company", rows: 20, attributes: [Attribute("name", .string, values: ValueSpec(.topic))], relationships: [
            RelationshipDescription("staff", destination: "Employee", inverse: "employer", toMany: true),
        ], uniquenessConstraints: [["name"]]),
        EntityDescription("Label", rows: 30, attributes: [Attribute("name", .string, values: ValueSpec(.topic))], relationships: [
            RelationshipDescription("gadgets", destination: "Gadget", inverse: "labels", toMany: true, deleteRule: .deny),
        ], uniquenessConstraints: [["name"]]),
    ])

    /// A store of `description`'s model (seed 7) in memory.
    static func open(_ description: ModelDescription) throws -> LayoutStore {
        try StrategyAgreement.open(EnumEntity.self, ObjectGenerator(try Model(description), seed: 7))
    }

    /// The layout's corners the battery cannot reach (the battery itself runs on this model in StrategyAgreementTests).
    func testAgreesOnEveryCornerOfTheLayout() throws {
        let pair = try StrategyAgreement([EnumEntity.self], Self.gadgets, against: SingleTable.self)
        let model = pair.model
        // A Book whose pages (slot number1, Gadget's maker key) equal a person's key and whose isbn
        // (slot text1_, Gadget's code) equals another person's gadget's code: no false match, no false cascade.
        let person = pair.generator.object(root: model.index(of: "Person")!, at: 0)
        let other = pair.generator.object(root: model.index(of: "Person")!, at: 1)
        let books = try pair.expected(FetchRequest(entity: model.index(of: "Book")!, limit: 1))
        let gadget = try pair.expected(FetchRequest(entity: model.index(of: "Gadget")!, predicate: .toOne("maker", person.id), limit: 1))
        XCTAssertEqual(gadget.count, 1)
        for (attribute, value) in [("pages", Value.integer(other.id.key)), ("isbn", gadget[0].values[4])] {
            let versions = try pair.referenceStore.versions(books.map(\.id)).map { $0! }
            let objects = zip(books, versions).map { ObjectVersion(id: $0.id, version: $1) }
            XCTAssertEqual(try pair.same("update \(attribute)") { try $0.update(objects, attribute: attribute, value: value) }, 1)
        }
        let personEntity = model.index(of: "Person")!
        try pair.check(FetchRequest(entity: personEntity, predicate: .anyRelated("gadgets", "code", gadget[0].values[4])), "false match")
        try pair.same("delete a person") { try $0.delete([other.id]) }
        try pair.check(FetchRequest(entity: model.index(of: "Book")!), "false cascade")
        try pair.check(FetchRequest(entity: model.index(of: "Item")!), "false cascade")
        // Deleting people cascades to their gadgets through a key slot; deleting companies clears employers.
        for root in ["Person", "Company"] {
            let index = model.index(of: root)!
            let doomed = (0 ..< 8).map { pair.generator.object(root: index, at: $0 * 2).id }
            try pair.same("delete \(root)") { try $0.delete(doomed) }
            for entity in model.entities {
                try pair.check(FetchRequest(entity: entity.index), "after deleting \(root)")
            }
        }
        // A label still linked cannot go (deny), in both.
        let label = model.index(of: "Label")!
        let linked = try pair.expected(FetchRequest(entity: label)).first { object in
            try! pair.expectedCount(FetchRequest(entity: model.index(of: "Gadget")!, predicate: .anyRelated("labels", "name", object.values[0]))) > 0
        }!
        XCTAssertThrowsError(try pair.subject.delete([linked.id]))
        XCTAssertThrowsError(try pair.referenceStore.delete([linked.id]))
        // The renamed properties and the slots.
        let layout = pair.subject.schemaSQL.joined(separator: "\n")
        XCTAssertTrue(layout.contains("CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND_ INTEGER, ZNUMBER1 INTEGER, ZNUMBER2 INTEGER, ZNUMBER3 INTEGER, ZNUMBER4 INTEGER, ZNUMBER5 INTEGER, ZOWNER_KIND INTEGER, ZTEXT1 INTEGER, ZOWNER INTEGER, ZREAL1 FLOAT, ZREAL2 FLOAT, ZREAL3 FLOAT, ZKIND VARCHAR, ZTEXT1_ VARCHAR, ZTEXT2 VARCHAR, ZTITLE VARCHAR, ZUID BLOB, ZBLOB1 BLOB )"), layout)
        XCTAssertTrue(layout.contains("CREATE UNIQUE INDEX Z_Gadget_UNIQUE_code ON ZITEM (ZTEXT1_ COLLATE BINARY ASC) WHERE ZKIND_ >= 4 AND ZKIND_ <= 6"), layout)
        XCTAssertTrue(layout.contains("CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZITEM (ZTEXT1_ COLLATE BINARY ASC) WHERE ZKIND_ = 3"), layout)
        XCTAssertTrue(layout.contains("CREATE INDEX Z_Item_byKind ON ZITEM (ZKIND_ COLLATE BINARY ASC, ZTEXT1 COLLATE BINARY ASC)"), layout)
        XCTAssertTrue(layout.contains("CREATE INDEX Z_Item_byKind_ ON ZITEM (ZKIND_ COLLATE BINARY ASC)"), layout)
    }

    /// The indexes serve the reads they are for.
    func testQueryPlans() throws {
        func plan(_ strategy: LayoutStore, _ request: FetchRequest) throws -> String {
            let query = try strategy.layout.readQuery(request)
            return try strategy.database.queryPlan(query.sql, query.values.map { $0 as (any SQLiteBindable)? }).joined(separator: "; ")
        }
        let gadgets = try Self.open(Self.gadgets)
        let model = gadgets.model
        let code = try gadgets.fetch(FetchRequest(entity: model.index(of: "Phone")!))[0].values[4]
        XCTAssertTrue(try plan(gadgets, FetchRequest(entity: model.index(of: "Gadget")!, predicate: .equals("code", code))).contains("Z_Gadget_UNIQUE_code"))
        XCTAssertEqual(try gadgets.fetch(FetchRequest(entity: model.index(of: "Gadget")!, predicate: .equals("code", code))).count, 1)

        let publications = try Self.open(ModelPresets.publications.scaled(to: 1_500))
        let p = publications.model
        let book = p.index(of: "Book")!
        XCTAssertTrue(try plan(publications, FetchRequest(entity: book, predicate: .equals("isbn", .text("x")))).contains("Z_Book_UNIQUE_isbn"))
        XCTAssertTrue(try plan(publications, FetchRequest(entity: book)).contains("USING INDEX Z_"))
        let order = [SortKey("publishDate", ascending: false), SortKey("uid", ascending: false)]
        XCTAssertTrue(try plan(publications, FetchRequest(entity: p.mainRoot, sort: order, limit: 50, offset: 700)).contains("Z_Publication_byPublishDate"))
        XCTAssertTrue(try plan(publications, FetchRequest(entity: p.mainRoot, predicate: .after([.real(1), .blob([1])]), sort: order, limit: 50)).contains("Z_Publication_byPublishDate"))
        XCTAssertTrue(try plan(publications, FetchRequest(entity: p.mainRoot, predicate: .range("title", .text("A"), .text("B")))).contains("Z_Publication_byTitle"))
        XCTAssertTrue(try plan(publications, FetchRequest(entity: book, predicate: .range("publishDate", .real(1), .real(2)))).contains("Z_Book_byEntityAndPublishDate"))
    }

    func testIntegrityAfterInsert() throws {
        for description in StrategyAgreementTests.models + [Self.gadgets] {
            let subject = try Self.open(description)
            XCTAssertEqual(try subject.database.strings("PRAGMA integrity_check"), ["ok"], description.name)
            XCTAssertEqual(try subject.database.strings("PRAGMA foreign_key_check"), [], description.name)
            let rows = try subject.database.strings("SELECT Z_NAME || ':' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            let generator = ObjectGenerator(subject.model, seed: 7)
            XCTAssertEqual(rows, subject.layout.storedModel.entities.map { "\($0.name):\(generator.count(root: subject.model.index(of: $0.name)!))" },
                           description.name)
        }
    }

    func testPublicationsLayout() throws {
        let strategy = try EnumEntity(model: try Model(ModelPresets.publications))
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZNUMBER1 INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTEXT1 VARCHAR, ZTEXT2 VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_2TAGS) )",
            "CREATE UNIQUE INDEX Z_Publication_UNIQUE_uid ON ZPUBLICATION (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byKind ON ZPUBLICATION (ZKIND COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1PUBLICATIONS)",
            // isbn (text1) is unique among Books: one kind, so (kind, slot).
            // isbn unique among Books only: other kinds keep doi and url in ZTEXT1.
            "CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZPUBLICATION (ZTEXT1 COLLATE BINARY ASC) WHERE ZKIND = 4",
            "CREATE INDEX Z_Book_byEntityAndPublishDate ON ZPUBLICATION (ZKIND COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(strategy.schemaSQL.count, expected.count)
        for (actual, wanted) in zip(strategy.schemaSQL, expected) { XCTAssertEqual(actual, wanted) }
        XCTAssertEqual(strategy.storedModel.entities.map(\.name), ["Publication", "Tag"])
        // Book: isbn text1, pageCount number1; AcademicPaper: paperType number1, doi text1;
        // WebArticle: url text1, wordCount number1; BlogPost: url text1, blogName text2.
        let book = strategy.model.index(of: "Book")!
        let query = try strategy.fetchQuery(FetchRequest(entity: book, predicate: .equals("isbn", .text("x"))))
        XCTAssertEqual(query.sql, "SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZNUMBER1, t0.ZPUBLISHDATE, t0.ZTEXT1, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE FROM ZPUBLICATION t0 WHERE t0.ZTEXT1 = ? AND t0.ZKIND = \(book + 1)")
        XCTAssertEqual(query.values, [.text("x")])
    }

    func testAnimalsLayout() throws {
        let strategy = try EnumEntity(model: try Model(ModelPresets.efcoreAnimals))
        let expected = [
            // FarmAnimal: value real1, species text1; Human: favoriteAnimal key number1, its entity
            // number2; Pet: vet text1; Cat: educationLevel text2; Dog: favoriteToy text2.
            "CREATE TABLE ZANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZNUMBER1 INTEGER, ZNUMBER2 INTEGER, ZREAL1 FLOAT, ZNAME VARCHAR, ZTEXT1 VARCHAR, ZTEXT2 VARCHAR )",
            // Human.pets / Pet.humans, both now the enum entity's: Z_1HUMANS holds the human, Z_1PETS the pet.
            "CREATE TABLE Z_1PETS ( Z_1HUMANS INTEGER, Z_1PETS INTEGER, PRIMARY KEY (Z_1HUMANS, Z_1PETS) )",
            "CREATE INDEX Z_Animal_byName ON ZANIMAL (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_Animal_byKind ON ZANIMAL (ZKIND COLLATE BINARY ASC)",
            "CREATE INDEX Z_1PETS_Z_1PETS_INDEX ON Z_1PETS (Z_1PETS, Z_1HUMANS)",
            "CREATE INDEX ZANIMAL_ZNUMBER1_INDEX ON ZANIMAL (ZNUMBER1, ZKIND)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(strategy.schemaSQL.count, expected.count)
        for (actual, wanted) in zip(strategy.schemaSQL, expected) { XCTAssertEqual(actual, wanted) }
        let pet = strategy.model.index(of: "Pet")!
        let query = try strategy.fetchQuery(FetchRequest(entity: pet, sort: [SortKey("name")]))
        XCTAssertEqual(query.sql, "SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZTEXT1, t0.ZTEXT2 FROM ZANIMAL t0 WHERE t0.ZKIND >= 4 AND t0.ZKIND <= 6 ORDER BY t0.ZNAME")
        XCTAssertEqual(query.values, [])
        XCTAssertEqual(try strategy.fetchQuery(FetchRequest(entity: strategy.model.mainRoot)).sql,
                       "SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZNUMBER1, t0.ZNUMBER2, t0.ZREAL1, t0.ZTEXT1, t0.ZTEXT2 FROM ZANIMAL t0")
    }

    /// A row whose kind is unknown, or whose required slot is NULL, does not decode.
    func testCorruptRowsThrow() throws {
        let subject = try Self.open(ModelPresets.publications.scaled(to: 300))
        let database = subject.database
        let book = subject.model.index(of: "Book")!
        try database.execute("UPDATE ZPUBLICATION SET ZTEXT1 = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZPUBLICATION WHERE ZKIND = \(book + 1))")
        XCTAssertThrowsError(try subject.fetch(FetchRequest(entity: book))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
        try database.execute("UPDATE ZPUBLICATION SET ZKIND = 99 WHERE Z_PK = 1")
        XCTAssertThrowsError(try subject.fetch(FetchRequest(entity: subject.model.mainRoot))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
    }

    /// Wide models derive and create their schema (their derivation time is a benchmark: Benchmarks/, layout.*): 250 leaf entities four levels deep, and 250 roots of 64 attributes.
    func testWideModelsDeriveAndCreateTheirSchema() throws {
        let deep = try Model(SyntheticModel.make(leaves: 250, attributes: 7, skew: 1, rows: 100_000, depth: 4))
        let roots = try Model(ModelDescription(name: "roots", entities: (1 ... 250).map { number in
            EntityDescription("Root\(number)", rows: 10, attributes: (1 ... 64).map { Attribute("a\($0)", .integer64) })
        }))
        for model in [deep, roots] {
            let strategy = LayoutStore(try EnumEntity(model: model), database: try Database(path: ":memory:"))
            try strategy.createSchema()
            _ = try strategy.layout.readQuery(FetchRequest(entity: model.mainRoot))
        }
        // Far fewer columns than single-table's: the slots are shared by the 250 leaves.
        let strategy = try EnumEntity(model: deep)
        XCTAssertLessThan(strategy.schema.tables[0]!.fetchOrder.count, 40)
    }
}
