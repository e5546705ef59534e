import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite
import Strategies
import TestSupport
import XCTest

/// `joined`'s corners (its answers on every preset, synthetic model and `clubs` are StrategyAgreementTests'):
/// hierarchies too wide for one join, foreign keys in sub-tables, its layout, indexes and corrupt rows.
final class JoinedTests: XCTestCase {
    /// Hierarchies too wide for one join (SQLite's 64 tables): the fetches are `UNION ALL`s.
    func testWideHierarchiesAgreeThroughUnions() throws {
        // Concrete middle entities: each arm of a middle entity filters on Z_ENT.
        var entities = [EntityDescription("Root", rows: 20, attributes: [Attribute("uid", .uuid), Attribute("title", .string)],
                                          uniquenessConstraints: [["uid"]])]
        for number in 1 ... 35 {
            entities.append(EntityDescription("Mid\(number)", parent: "Root", rows: 10, attributes: [Attribute("m\(number)", .integer32)]))
            entities.append(EntityDescription("Leaf\(number)", parent: "Mid\(number)", rows: 10,
                                              attributes: [Attribute("l\(number)", .string, optional: true)]))
        }
        let wide = ModelDescription(name: "wide", entities: entities)
        for description in [SyntheticModel.make(leaves: 70, attributes: 2, skew: 0.5, rows: 1_000, depth: 1), wide] {
            let reads = try StrategyAgreement([Joined.self], description)
            try reads.checkReads()
            reads.assertAskedEnough(moreThan: 300)
            try StrategyAgreement([Joined.self], description, against: SingleTable.self).checkWrites()
            let polymorphic = try reads.subject.layout.readQuery(FetchRequest(entity: 0))
            XCTAssertTrue(polymorphic.sql.contains(" UNION ALL "), polymorphic.sql)
        }
    }

    /// A many-to-many prefetch into a hierarchy too wide to join (71 tables, with the join table
    /// past SQLite's 64) reads the union of the destination's arms joined to the join table; from
    /// that hierarchy into a narrow one, the joins. Both agree with the generated answers.
    func testAManyToManyPrefetchIntoAWideHierarchyReadsTheUnion() throws {
        var entities = [EntityDescription("Root", rows: 20, attributes: [Attribute("title", .string)], relationships: [
            RelationshipDescription("labels", destination: "Label", inverse: "items", toMany: true),
        ])]
        for number in 1 ... 35 {
            entities.append(EntityDescription("Mid\(number)", parent: "Root", rows: 4, attributes: [Attribute("m\(number)", .integer32)]))
            entities.append(EntityDescription("Leaf\(number)", parent: "Mid\(number)", rows: 4, attributes: [Attribute("l\(number)", .string, optional: true)]))
        }
        entities.append(EntityDescription("Label", rows: 30, attributes: [Attribute("name", .string)], relationships: [
            RelationshipDescription("items", destination: "Root", inverse: "labels", toMany: true),
        ]))
        let model = try Model(ModelDescription(name: "wide-links", entities: entities))
        let generator = ObjectGenerator(model, seed: 7)
        let store = try StrategyAgreement.open(Joined.self, generator)
        let reference = ReferenceStore(generator)
        for (entity, name, union) in [("Label", "items", true), ("Root", "labels", false)] {
            let request = FetchRequest(entity: try XCTUnwrap(model.index(of: entity)), mode: .prefetching([name]))
            let batch = try XCTUnwrap(try Joined(model: model).readQuery(request).statements.last).sql
            XCTAssertEqual(batch.hasPrefix("SELECT t0.*, j.") && batch.contains(" UNION ALL "), union, batch)
            let answer = try store.fetch(request)
            let page = reference.fetch(FetchRequest(entity: request.entity)).count
            XCTAssertGreaterThan(answer.count, page, "\(entity).\(name): the prefetch found links")
            XCTAssertEqual(answer.sorted(by: ModelObject.answerOrder), reference.fetch(request), "\(entity).\(name)")
        }
    }

    /// Foreign keys in sub-entities' tables: one-to-many reads, nullify and cascade through them,
    /// and constraints and indexes mixing a root's and a sub-entity's columns.
    static let clubs = ModelDescription(name: "clubs", entities: [
        EntityDescription("Club", rows: 30, attributes: [Attribute("name", .string, values: ValueSpec(.topic))], relationships: [
            RelationshipDescription("members", destination: "Member", inverse: "club", toMany: true),
            RelationshipDescription("coaches", destination: "Coach", inverse: "team", toMany: true, deleteRule: .cascade),
        ], uniquenessConstraints: [["name"]]),
        EntityDescription("Person", abstract: true, attributes: [
            Attribute("uid", .uuid), Attribute("handle", .string, values: ValueSpec(.email)),
        ], uniquenessConstraints: [["uid"], ["handle"]]),
        EntityDescription("Member", parent: "Person", rows: 500, attributes: [Attribute("since", .date)], relationships: [
            RelationshipDescription("club", destination: "Club", inverse: "members", optional: true, nullShare: 0.2),
        ], uniquenessConstraints: [["handle", "since"]]),
        EntityDescription("Guest", parent: "Person", rows: 200, attributes: [Attribute("note", .string, optional: true)], relationships: [
            RelationshipDescription("host", destination: "Member"),
        ], fetchIndexes: [FetchIndex("byNote", "note", "entity")]),
        EntityDescription("Staff", parent: "Person", abstract: true, attributes: [Attribute("salary", .double)]),
        EntityDescription("Coach", parent: "Staff", rows: 50, relationships: [
            RelationshipDescription("team", destination: "Club", inverse: "coaches"),
        ], fetchIndexes: [FetchIndex("byEntityAndHandle", "entity", "handle desc")]),
    ])

    func testForeignKeysInSubTables() throws {
        let pair = try StrategyAgreement([Joined.self], Self.clubs, against: SingleTable.self)
        let model = pair.model
        XCTAssertTrue(pair.subject.schemaSQL.contains("CREATE INDEX Z_Member_UNIQUE_handle_since ON ZMEMBER (ZSINCE COLLATE BINARY ASC)"))
        XCTAssertTrue(pair.subject.schemaSQL.contains("CREATE INDEX Z_Guest_byNote ON ZGUEST (ZNOTE COLLATE BINARY ASC)"))
        XCTAssertTrue(pair.subject.schemaSQL.contains("CREATE INDEX Z_Coach_byEntityAndHandle ON ZPERSON (Z_ENT COLLATE BINARY ASC, ZHANDLE COLLATE BINARY DESC)"))
        XCTAssertTrue(pair.subject.schemaSQL.contains("CREATE INDEX ZMEMBER_ZCLUB_INDEX ON ZMEMBER (ZCLUB)"))
        // Deleting clubs nullifies their members' club (bumping their versions) and deletes their coaches.
        let club = model.index(of: "Club")!, member = model.index(of: "Member")!
        let clubs = (0 ..< 6).map { pair.generator.object(root: club, at: $0 * 4).id }
        let members = try pair.expected(FetchRequest(entity: member)).map(\.id)
        try pair.same("versions of members") { try $0.versions(members) }
        XCTAssertGreaterThan(try pair.same("delete clubs") { try $0.delete(clubs) }, clubs.count)
        try pair.same("versions of members after the delete") { try $0.versions(members) }
        for entity in model.entities { try pair.check(FetchRequest(entity: entity.index), "\(entity.name) after club delete") }
        XCTAssertEqual(try pair.subject.database.strings("PRAGMA foreign_key_check"), [])
    }

    // MARK: Layout

    func testPublicationsSchema() throws {
        let joined = try Joined(model: try Model(ModelPresets.publications))
        let expected = [
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZACADEMICPAPER ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZPAPERTYPE INTEGER, ZDOI VARCHAR )",
            "CREATE TABLE ZBLOGPOST ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZBLOGNAME VARCHAR, ZURL VARCHAR )",
            "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZPAGECOUNT INTEGER, ZISBN VARCHAR )",
            "CREATE TABLE ZWEBARTICLE ( Z_PK INTEGER PRIMARY KEY REFERENCES ZPUBLICATION (Z_PK) ON DELETE CASCADE, ZWORDCOUNT INTEGER, ZURL VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1TAGS ( Z_1PUBLICATIONS INTEGER, Z_6TAGS INTEGER, PRIMARY KEY (Z_1PUBLICATIONS, Z_6TAGS) )",
            "CREATE INDEX ZPUBLICATION_Z_ENT_INDEX ON ZPUBLICATION (Z_ENT)",
            "CREATE UNIQUE INDEX Z_Publication_UNIQUE_uid ON ZPUBLICATION (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZBOOK (ZISBN COLLATE BINARY ASC)",
            "CREATE INDEX Z_Book_byEntityAndPublishDate ON ZPUBLICATION (Z_ENT COLLATE BINARY ASC, ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_6TAGS_INDEX ON Z_1TAGS (Z_6TAGS, Z_1PUBLICATIONS)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(joined.schemaSQL.count, expected.count)
        for (actual, expected) in zip(joined.schemaSQL, expected) { XCTAssertEqual(actual, expected) }
    }

    func testEFCoreAnimalsSchema() throws {
        let joined = try Joined(model: try Model(ModelPresets.efcoreAnimals))
        // Animal 1, FarmAnimal 2, Human 3, Pet 4, Cat 5, Dog 6.
        let expected = [
            "CREATE TABLE ZANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZFARMANIMAL ( Z_PK INTEGER PRIMARY KEY REFERENCES ZANIMAL (Z_PK) ON DELETE CASCADE, ZVALUE DECIMAL, ZSPECIES VARCHAR )",
            "CREATE TABLE ZHUMAN ( Z_PK INTEGER PRIMARY KEY REFERENCES ZANIMAL (Z_PK) ON DELETE CASCADE, ZFAVORITEANIMAL INTEGER, Z1_FAVORITEANIMAL INTEGER )",
            "CREATE TABLE ZPET ( Z_PK INTEGER PRIMARY KEY REFERENCES ZANIMAL (Z_PK) ON DELETE CASCADE, ZVET VARCHAR )",
            "CREATE TABLE ZCAT ( Z_PK INTEGER PRIMARY KEY REFERENCES ZANIMAL (Z_PK) ON DELETE CASCADE, ZEDUCATIONLEVEL VARCHAR )",
            "CREATE TABLE ZDOG ( Z_PK INTEGER PRIMARY KEY REFERENCES ZANIMAL (Z_PK) ON DELETE CASCADE, ZFAVORITETOY VARCHAR )",
            // Core Data names the pair's table from Cat, met first, which inherits Pet's `humans`.
            "CREATE TABLE Z_4HUMANS ( Z_4PETS INTEGER, Z_3HUMANS INTEGER, PRIMARY KEY (Z_4PETS, Z_3HUMANS) )",
            "CREATE INDEX ZANIMAL_Z_ENT_INDEX ON ZANIMAL (Z_ENT)",
            "CREATE INDEX ZHUMAN_ZFAVORITEANIMAL_INDEX ON ZHUMAN (ZFAVORITEANIMAL)",
            "CREATE INDEX Z_Animal_byName ON ZANIMAL (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_4HUMANS_Z_3HUMANS_INDEX ON Z_4HUMANS (Z_3HUMANS, Z_4PETS)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(joined.schemaSQL.count, expected.count)
        for (actual, expected) in zip(joined.schemaSQL, expected) { XCTAssertEqual(actual, expected) }
    }

    /// A polymorphic read LEFT JOINs the sub-tables; a middle entity's is its table's rows; a leaf's count its table alone.
    func testQueries() throws {
        let model = try Model(ModelPresets.efcoreAnimals)
        let joined = try Joined(model: model)
        let animal = model.index(of: "Animal")!, pet = model.index(of: "Pet")!, cat = model.index(of: "Cat")!
        XCTAssertEqual(try joined.fetchQuery(FetchRequest(entity: animal)).sql,
                       "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t1.ZSPECIES, t1.ZVALUE, t2.ZFAVORITEANIMAL, t2.Z1_FAVORITEANIMAL, t3.ZVET, t4.ZEDUCATIONLEVEL, t5.ZFAVORITETOY, t1.Z_PK, t2.Z_PK, t3.Z_PK, t4.Z_PK, t5.Z_PK FROM ZANIMAL t0 LEFT JOIN ZFARMANIMAL t1 ON t1.Z_PK = t0.Z_PK LEFT JOIN ZHUMAN t2 ON t2.Z_PK = t0.Z_PK LEFT JOIN ZPET t3 ON t3.Z_PK = t0.Z_PK LEFT JOIN ZCAT t4 ON t4.Z_PK = t0.Z_PK LEFT JOIN ZDOG t5 ON t5.Z_PK = t0.Z_PK")
        XCTAssertEqual(try joined.fetchQuery(FetchRequest(entity: pet)).sql,
                       "SELECT t1.Z_ENT, t0.Z_PK, t1.Z_OPT, t1.ZNAME, t0.ZVET, t2.ZEDUCATIONLEVEL, t3.ZFAVORITETOY, t2.Z_PK, t3.Z_PK FROM ZPET t0 JOIN ZANIMAL t1 ON t1.Z_PK = t0.Z_PK LEFT JOIN ZCAT t2 ON t2.Z_PK = t0.Z_PK LEFT JOIN ZDOG t3 ON t3.Z_PK = t0.Z_PK")
        XCTAssertEqual(try joined.fetchQuery(FetchRequest(entity: cat, sort: [SortKey("name")], limit: 10)).sql,
                       "SELECT t2.Z_ENT, t0.Z_PK, t2.Z_OPT, t2.ZNAME, t1.ZVET, t0.ZEDUCATIONLEVEL FROM ZCAT t0 JOIN ZPET t1 ON t1.Z_PK = t0.Z_PK JOIN ZANIMAL t2 ON t2.Z_PK = t0.Z_PK ORDER BY t2.ZNAME LIMIT ?")
        XCTAssertEqual(try joined.countQuery(FetchRequest(entity: cat)).sql, "SELECT COUNT(*) FROM ZCAT")
        XCTAssertEqual(try joined.countQuery(FetchRequest(entity: pet)).sql, "SELECT COUNT(*) FROM ZPET")
        XCTAssertEqual(try joined.countQuery(FetchRequest(entity: pet, includesSubentities: false)).sql,
                       "SELECT COUNT(*) FROM ZPET t0 JOIN ZANIMAL t1 ON t1.Z_PK = t0.Z_PK WHERE t1.Z_ENT = ?")
        XCTAssertEqual(try joined.countQuery(FetchRequest(entity: cat, predicate: .equals("vet", .text("x")))).sql,
                       "SELECT COUNT(*) FROM ZCAT t0 JOIN ZPET t1 ON t1.Z_PK = t0.Z_PK WHERE t1.ZVET = ?")
        XCTAssertEqual(try joined.deleteStatements(cat).delete,
                       ["DELETE FROM ZCAT WHERE Z_PK = ?1", "DELETE FROM ZPET WHERE Z_PK = ?1", "DELETE FROM ZANIMAL WHERE Z_PK = ?1"])
    }

    /// Lookups by a unique attribute, sorted pages and title ranges are served by indexes.
    func testIndexesServeTheReads() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 1_500))
        let joined = LayoutStore(try Joined(model: model), database: try Database(path: ":memory:"))
        try joined.createSchema()
        let publication = model.index(of: "Publication")!, book = model.index(of: "Book")!
        func plan(_ query: PreparedQuery) throws -> String {
            try joined.database.queryPlan(query.sql, query.values.map { $0 as (any SQLiteBindable)? }).joined(separator: " | ")
        }
        let byUID = try plan(joined.layout.readQuery(FetchRequest(entity: publication, predicate: .equals("uid", .blob(Array(repeating: 1, count: 16))))))
        XCTAssertTrue(byUID.contains("Z_Publication_UNIQUE_uid"), byUID)
        let byISBN = try plan(joined.layout.readQuery(FetchRequest(entity: book, predicate: .equals("isbn", .text("978")))))
        XCTAssertTrue(byISBN.contains("Z_Book_UNIQUE_isbn"), byISBN)
        let page = try plan(joined.layout.readQuery(FetchRequest(entity: publication, sort: [SortKey("publishDate", ascending: false), SortKey("uid", ascending: false)], limit: 50)))
        XCTAssertTrue(page.contains("Z_Publication_byPublishDate") && !page.contains("TEMP B-TREE"), page)
        let title = try plan(joined.layout.readQuery(FetchRequest(entity: publication, predicate: .range("title", .text("Ab"), .text("Ac")))))
        XCTAssertTrue(title.contains("Z_Publication_byTitle"), title)
    }

    func testIntegrityAfterInsert() throws {
        for description in [ModelPresets.publications.scaled(to: 1_500), ModelPresets.efcoreAnimals.scaled(to: 1_500),
                            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 1_000, depth: 3)] {
            let model = try Model(description)
            let joined = try StrategyAgreement.open(Joined.self, ObjectGenerator(model, seed: 7))
            let database = joined.database
            XCTAssertEqual(try database.strings("PRAGMA integrity_check"), ["ok"], description.name)
            XCTAssertEqual(try database.strings("PRAGMA foreign_key_check"), [], description.name)
            // Every object has one row in each table of its path.
            for entity in model.entities where !entity.isRoot {
                XCTAssertEqual(try joined.count(FetchRequest(entity: entity.index)), model.objectCount(entity.index), entity.name)
            }
        }
    }

    /// A base row whose sub-row is missing, or whose Z_ENT is unknown, does not decode.
    func testCorruptRowsThrow() throws {
        let joined = try StrategyAgreement.open(Joined.self, ObjectGenerator(try Model(ModelPresets.publications.scaled(to: 300)), seed: 7))
        let book = joined.model.index(of: "Book")!
        let victim = try joined.fetch(FetchRequest(entity: book)).first!
        try joined.database.execute("DELETE FROM ZBOOK WHERE Z_PK = \(victim.id.key)")
        XCTAssertThrowsError(try joined.fetch(FetchRequest(entity: 0))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
        try joined.database.execute("UPDATE ZPUBLICATION SET Z_ENT = 99 WHERE Z_PK = \(victim.id.key)")
        XCTAssertThrowsError(try joined.fetch(FetchRequest(entity: 0))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
    }

    /// A wide model derives (its derivation time is a benchmark: Benchmarks/, layout.*).
    func testAWideModelDerives() throws {
        var entities: [EntityDescription] = []
        for root in 0 ..< 10 {
            entities.append(EntityDescription("Root\(root)", abstract: true, attributes: (0 ..< 64).map { Attribute("r\(root)a\($0)", .string) },
                                              uniquenessConstraints: [["r\(root)a0"]]))
            for leaf in 0 ..< 24 {
                entities.append(EntityDescription("Leaf\(root)x\(leaf)", parent: "Root\(root)", rows: 10,
                                                  attributes: (0 ..< 64).map { Attribute("l\(root)x\(leaf)a\($0)", .integer64) }))
            }
        }
        let model = try Model(ModelDescription(name: "wide", entities: entities))
        let joined = try Joined(model: model)
        XCTAssertEqual(joined.schemaSQL.filter { $0.hasPrefix("CREATE TABLE Z") && !$0.hasPrefix("CREATE TABLE Z_") }.count, 250)
    }
}
