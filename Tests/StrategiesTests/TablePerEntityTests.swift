import CoreDataLayout
import FetchRequests
import Foundation
import Generation
import Models
import SQLite
@testable import Strategies
import TestSupport
import XCTest

/// `table-per-entity` follows single-table's delete rules, pins its layout, and keeps a sound store (its
/// answers on every preset and synthetic model, and on `edges`, are StrategyAgreementTests').
final class TablePerEntityTests: XCTestCase {
    /// Relationships inside one hierarchy (many-to-many between its own tables), a concrete middle
    /// entity, and a to-one from a root without sub-entities into a hierarchy (an entity column in its table).
    static let edges = ModelDescription(name: "edges", entities: [
        EntityDescription("Item", abstract: true, attributes: [Attribute("uid", .uuid), Attribute("title", .string)], relationships: [
            RelationshipDescription("related", destination: "Item", inverse: "relatedBy", toMany: true, count: FanOut(min: 0, max: 3)),
            RelationshipDescription("relatedBy", destination: "Item", inverse: "related", toMany: true),
            RelationshipDescription("owner", destination: "Owner", inverse: "items", optional: true),
        ], uniquenessConstraints: [["uid"]], fetchIndexes: [FetchIndex("byEntityAndTitle", "entity", "title")]),
        EntityDescription("Note", parent: "Item", rows: 300, attributes: [Attribute("body", .string)]),
        EntityDescription("Task", parent: "Item", rows: 200, attributes: [Attribute("due", .date)],
                          fetchIndexes: [FetchIndex("byEntity", "entity")]),
        EntityDescription("Subtask", parent: "Task", rows: 250, attributes: [Attribute("step", .integer32)], relationships: [
            RelationshipDescription("tags", destination: "Label", inverse: "subtasks", toMany: true),
        ]),
        EntityDescription("Owner", rows: 40, attributes: [Attribute("name", .string)], relationships: [
            RelationshipDescription("items", destination: "Item", inverse: "owner", toMany: true, deleteRule: .cascade),
            RelationshipDescription("favorite", destination: "Item", optional: true, nullShare: 0.3),
        ], uniquenessConstraints: [["name"]]),
        EntityDescription("Label", rows: 20, attributes: [Attribute("name", .string, values: ValueSpec(.topic))], relationships: [
            RelationshipDescription("subtasks", destination: "Subtask", inverse: "tags", toMany: true, count: FanOut(min: 1, max: 4)),
        ], uniquenessConstraints: [["name"]]),
    ])

    func testEdgesLayout() throws {
        let strategy = try TablePerEntity(model: try Model(Self.edges))
        // A side reaching several tables names its relationships after them; a clash takes the original name plus the entity's.
        XCTAssertEqual(strategy.storedModel.entity("Note")!.relationships.map(\.name),
                       ["owner", "notes", "relatedByNote", "tasks", "subtasks", "relatedByTask", "relatedBySubtask"])
        XCTAssertEqual(strategy.storedModel.entity("Owner")!.relationships.map(\.name), ["favorite"])
        XCTAssertTrue(strategy.schemaSQL.contains(
            "CREATE TABLE ZOWNER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITE INTEGER, Z1_FAVORITE INTEGER, ZNAME VARCHAR )"))
        // Two sides of one entity: the later by name names the join table (Core Data's rule).
        XCTAssertTrue(strategy.schemaSQL.contains("CREATE TABLE Z_2RELATEDBYNOTE ( Z_2NOTES INTEGER, Z_2RELATEDBYNOTE INTEGER, PRIMARY KEY (Z_2NOTES, Z_2RELATEDBYNOTE) )"))
        // Task's index of the entity alone is dropped; Item's (entity, title) keeps its title on every table.
        XCTAssertFalse(strategy.schemaSQL.contains { $0.contains("byEntity ") })
        XCTAssertEqual(strategy.schemaSQL.filter { $0.contains("_byEntityAndTitle ON") }.count, 3)
    }

    // MARK: Agreement

    /// Delete rules through every relationship kind: cascade and deny on a to-one, a one-to-many and a many-to-many.
    func testDeleteRulesAgree() throws {
        for rule in [DeleteRule.cascade, .deny, .nullify, .noAction] {
            var description = ModelPresets.codingMilitia.scaled(to: 600)
            description.entities[description.entities.count - 1].relationships[0].deleteRule = rule
            description.entities[0].relationships[0].deleteRule = rule == .deny ? .nullify : rule
            var animals = ModelPresets.efcoreAnimals.scaled(to: 600)
            animals.entities[1].relationships[0].deleteRule = rule
            animals.entities[5].relationships[0].deleteRule = rule
            animals.entities[5].relationships[1].deleteRule = rule
            var denied = 0, cascaded = 0
            for description in [description, animals] {
                let agreement = try StrategyAgreement([TablePerEntity.self], description, against: SingleTable.self)
                let (model, reference, strategy) = (agreement.model, agreement.referenceStore, agreement.subject)
                for root in model.roots {
                    let objects = try reference.fetch(FetchRequest(entity: root)).prefix(6).map(\.id)
                    for id in objects {
                        let expected = Result { try reference.delete([id]) }
                        let actual = Result { try strategy.delete([id]) }
                        switch (expected, actual) {
                        case let (.success(a), .success(b)): XCTAssertEqual(b, a, "\(description.name) \(rule)"); cascaded += a > 1 ? 1 : 0
                        case (.failure(let a as DeleteDenied), .failure(let b as DeleteDenied)): XCTAssertEqual(b.description, a.description); denied += 1
                        default: XCTFail("\(description.name) \(rule): \(expected) vs \(actual)")
                        }
                    }
                }
                for entity in model.entities {
                    try agreement.check(FetchRequest(entity: entity.index), "\(rule) \(entity.name)")
                    for relationship in entity.ownRelationships where relationship.isManyToMany && relationship.generatesLinks {
                        try agreement.same("\(rule) links of \(relationship.name)") { try $0.countLinks(relationship) }
                    }
                }
            }
            if rule == .deny { XCTAssertGreaterThan(denied, 0) }
            if rule == .cascade { XCTAssertGreaterThan(cascaded, 0) }
        }
    }

    // MARK: Layout

    func testPublicationsLayout() throws {
        let model = try Model(ModelPresets.publications)
        let strategy = try TablePerEntity(model: model)
        XCTAssertEqual(strategy.storedModel.entities.map(\.name), ["AcademicPaper", "BlogPost", "Book", "Publication", "Tag", "WebArticle"])
        XCTAssertEqual(strategy.storedModel.entities[4].relationships.map(\.name), ["publications", "academicPapers", "blogPosts", "books", "webArticles"])
        let expected = [
            "CREATE TABLE ZACADEMICPAPER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAPERTYPE INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZDOI VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZBLOGPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZBLOGNAME VARCHAR, ZTITLE VARCHAR, ZURL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPAGECOUNT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZISBN VARCHAR, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZPUBLICATION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZWEBARTICLE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWORDCOUNT INTEGER, ZCREATEDATE TIMESTAMP, ZPUBLISHDATE TIMESTAMP, ZUPDATEDATE TIMESTAMP, ZTITLE VARCHAR, ZURL VARCHAR, ZUID BLOB )",
            "CREATE TABLE Z_1TAGS ( Z_1ACADEMICPAPERS INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_1ACADEMICPAPERS, Z_5TAGS) )",
            "CREATE TABLE Z_2TAGS ( Z_2BLOGPOSTS INTEGER, Z_5TAGS1 INTEGER, PRIMARY KEY (Z_2BLOGPOSTS, Z_5TAGS1) )",
            "CREATE TABLE Z_3TAGS ( Z_3BOOKS INTEGER, Z_5TAGS2 INTEGER, PRIMARY KEY (Z_3BOOKS, Z_5TAGS2) )",
            "CREATE TABLE Z_4TAGS ( Z_4PUBLICATIONS INTEGER, Z_5TAGS3 INTEGER, PRIMARY KEY (Z_4PUBLICATIONS, Z_5TAGS3) )",
            "CREATE TABLE Z_5WEBARTICLES ( Z_5TAGS4 INTEGER, Z_6WEBARTICLES INTEGER, PRIMARY KEY (Z_5TAGS4, Z_6WEBARTICLES) )",
            "CREATE UNIQUE INDEX Z_AcademicPaper_UNIQUE_uid ON ZACADEMICPAPER (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_AcademicPaper_byPublishDate ON ZACADEMICPAPER (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_AcademicPaper_byTitle ON ZACADEMICPAPER (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_BlogPost_UNIQUE_uid ON ZBLOGPOST (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_BlogPost_byPublishDate ON ZBLOGPOST (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_BlogPost_byTitle ON ZBLOGPOST (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Book_UNIQUE_uid ON ZBOOK (ZUID COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZBOOK (ZISBN COLLATE BINARY ASC)",
            "CREATE INDEX Z_Book_byPublishDate ON ZBOOK (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
            // Book's (entity, publishDate) index loses its entity element: one table holds one entity.
            "CREATE INDEX Z_Book_byEntityAndPublishDate ON ZBOOK (ZPUBLISHDATE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Publication_UNIQUE_uid ON ZPUBLICATION (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byPublishDate ON ZPUBLICATION (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Publication_byTitle ON ZPUBLICATION (ZTITLE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_WebArticle_UNIQUE_uid ON ZWEBARTICLE (ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_WebArticle_byPublishDate ON ZWEBARTICLE (ZPUBLISHDATE COLLATE BINARY ASC, ZUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_WebArticle_byTitle ON ZWEBARTICLE (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_1TAGS_Z_5TAGS_INDEX ON Z_1TAGS (Z_5TAGS, Z_1ACADEMICPAPERS)",
            "CREATE INDEX Z_2TAGS_Z_5TAGS1_INDEX ON Z_2TAGS (Z_5TAGS1, Z_2BLOGPOSTS)",
            "CREATE INDEX Z_3TAGS_Z_5TAGS2_INDEX ON Z_3TAGS (Z_5TAGS2, Z_3BOOKS)",
            "CREATE INDEX Z_4TAGS_Z_5TAGS3_INDEX ON Z_4TAGS (Z_5TAGS3, Z_4PUBLICATIONS)",
            "CREATE INDEX Z_5WEBARTICLES_Z_6WEBARTICLES_INDEX ON Z_5WEBARTICLES (Z_6WEBARTICLES, Z_5TAGS4)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(strategy.schemaSQL.count, expected.count)
        for (actual, wanted) in zip(strategy.schemaSQL, expected) { XCTAssertEqual(actual, wanted) }
    }

    func testAnimalsLayout() throws {
        let model = try Model(ModelPresets.efcoreAnimals)
        let strategy = try TablePerEntity(model: model)
        // Abstract Animal and Pet get no table; Human's favourite animal keeps Animal's number (1) in its entity column.
        let expected = [
            "CREATE TABLE ZCAT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZEDUCATIONLEVEL VARCHAR, ZNAME VARCHAR, ZVET VARCHAR )",
            "CREATE TABLE ZDOG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITETOY VARCHAR, ZNAME VARCHAR, ZVET VARCHAR )",
            "CREATE TABLE ZFARMANIMAL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZVALUE DECIMAL, ZNAME VARCHAR, ZSPECIES VARCHAR )",
            "CREATE TABLE ZHUMAN ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITEANIMAL INTEGER, Z1_FAVORITEANIMAL INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_1HUMANS ( Z_1CATS INTEGER, Z_4HUMANS INTEGER, PRIMARY KEY (Z_1CATS, Z_4HUMANS) )",
            "CREATE TABLE Z_2HUMANS ( Z_2DOGS INTEGER, Z_4HUMANS1 INTEGER, PRIMARY KEY (Z_2DOGS, Z_4HUMANS1) )",
            "CREATE INDEX ZHUMAN_ZFAVORITEANIMAL_INDEX ON ZHUMAN (ZFAVORITEANIMAL)",
            "CREATE INDEX Z_Cat_byName ON ZCAT (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_Dog_byName ON ZDOG (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_FarmAnimal_byName ON ZFARMANIMAL (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_Human_byName ON ZHUMAN (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_1HUMANS_Z_4HUMANS_INDEX ON Z_1HUMANS (Z_4HUMANS, Z_1CATS)",
            "CREATE INDEX Z_2HUMANS_Z_4HUMANS1_INDEX ON Z_2HUMANS (Z_4HUMANS1, Z_2DOGS)",
        ] + CoreDataSchema.bookkeepingSQL
        XCTAssertEqual(strategy.schemaSQL.count, expected.count)
        for (actual, wanted) in zip(strategy.schemaSQL, expected) { XCTAssertEqual(actual, wanted) }
        XCTAssertEqual(strategy.storedModel.entities.map(\.name), ["Cat", "Dog", "FarmAnimal", "Human"])
        XCTAssertEqual(strategy.storedModel.entities[3].relationships.map(\.name), ["favoriteAnimal", "cats", "dogs"])
    }

    /// The reads docs/strategies.md describes: a middle entity's and the hierarchy's are one UNION ALL, ordered as a whole.
    func testReadsAreOneUnionAll() throws {
        let model = try Model(ModelPresets.efcoreAnimals)
        let strategy = try TablePerEntity(model: model)
        let pet = model.index(of: "Pet")!
        let query = try strategy.fetchQuery(FetchRequest(entity: pet, sort: [SortKey("name")], limit: 10))
        XCTAssertEqual(query.sql, "SELECT 5 AS Z_ENT, t0.Z_PK AS Z_PK, t0.Z_OPT AS Z_OPT, t0.ZNAME AS ZNAME, t0.ZVET AS ZVET, "
            + "t0.ZEDUCATIONLEVEL AS ZEDUCATIONLEVEL, NULL AS ZFAVORITETOY FROM ZCAT t0 "
            + "UNION ALL SELECT 6, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZVET, NULL, t0.ZFAVORITETOY FROM ZDOG t0 ORDER BY ZNAME LIMIT ?")
        let cat = model.index(of: "Cat")!
        XCTAssertEqual(try strategy.countQuery(FetchRequest(entity: cat)).sql, "SELECT COUNT(*) FROM ZCAT")
        XCTAssertEqual(try strategy.countQuery(FetchRequest(entity: pet)).sql,
                       "SELECT SUM(n) FROM (SELECT COUNT(*) AS n FROM ZCAT UNION ALL SELECT COUNT(*) FROM ZDOG)")
        XCTAssertTrue(try strategy.fetchQuery(FetchRequest(entity: cat)).sql.hasSuffix(" FROM ZCAT t0"))
    }

    /// The newest-first page of publications merges the five tables' indexes: no temporary sort.
    func testNewestPageMergesIndexes() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 2_000))
        let database = try Database(path: ":memory:")
        let strategy = LayoutStore(try TablePerEntity(model: model), database: database)
        try strategy.createSchema()
        for batch in ObjectGenerator(model, seed: 3).batches(of: 500) { try strategy.insert(batch) }
        let sort = model.order!.map { SortKey($0.property!, ascending: $0.ascending) }
        let query = try strategy.layout.readQuery(FetchRequest(entity: model.mainRoot, sort: sort, limit: 50))
        let plan = try database.queryPlan(query.sql, query.values).joined(separator: "\n")
        XCTAssertTrue(plan.contains("MERGE (UNION ALL)"), plan)
        XCTAssertFalse(plan.contains("TEMP B-TREE"), plan)
        let byName = try strategy.layout.readQuery(FetchRequest(entity: model.mainRoot, predicate: .anyRelated("tags", "name", .text("x"))))
        let tagPlan = try database.queryPlan(byName.sql, byName.values).joined(separator: "\n")
        XCTAssertFalse(tagPlan.contains("SCAN"), tagPlan)
        // The keyset page reads each table's index past the cursor, merged.
        let after = try strategy.layout.readQuery(FetchRequest(entity: model.mainRoot, predicate: .after([.real(500_000_000), .blob(Array(repeating: 0, count: 16))]),
                                                         sort: sort, limit: 50))
        let afterPlan = try database.queryPlan(after.sql, after.values).joined(separator: "\n")
        XCTAssertTrue(afterPlan.contains("MERGE (UNION ALL)") && afterPlan.contains("SEARCH t0 USING INDEX Z_Book_byPublishDate"), afterPlan)
        XCTAssertFalse(afterPlan.contains("TEMP B-TREE"), afterPlan)
        // A book date window uses the copy of Book's (entity, publishDate) index.
        let window = try strategy.layout.readQuery(FetchRequest(entity: model.index(of: "Book")!, predicate: .range("publishDate", .real(1), .real(2))))
        XCTAssertEqual(try database.queryPlan(window.sql, window.values), ["SEARCH t0 USING INDEX Z_Book_byEntityAndPublishDate (ZPUBLISHDATE>? AND ZPUBLISHDATE<?)"])
    }

    // MARK: Store

    func testIntegrityAndKeysAfterInserting() throws {
        for description in StrategyAgreementTests.models + [Self.edges] {
            let model = try Model(description)
            let database = try Database(path: ":memory:")
            let layout = try TablePerEntity(model: model)
            let strategy = LayoutStore(layout, database: database)
            try strategy.createSchema()
            let generator = ObjectGenerator(model, seed: 7)
            for batch in generator.batches(of: 300) { try strategy.insert(batch) }
            XCTAssertEqual(try database.pragma("integrity_check"), "ok", description.name)
            XCTAssertEqual(try database.strings("PRAGMA foreign_key_check"), [], description.name)
            // Each table's Z_MAX is its highest key.
            for entity in layout.storedModel.entities {
                let table = layout.schema.table(of: entity.index).name
                XCTAssertEqual(try database.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [entity.number]),
                               try database.scalarInt("SELECT COALESCE(MAX(Z_PK), 0) FROM \(table)"), "\(description.name) \(table)")
                XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM \(table) WHERE Z_ENT != ? OR Z_OPT != 1", [entity.number]), 0)
            }
        }
    }

    func testLargeModelsDeriveAndCreateTheirSchema() throws {
        // 250 leaves at depth 8, and 250 independent roots of 64 attributes each.
        let deep = try Model(SyntheticModel.make(leaves: 250, attributes: 6, skew: 1, rows: 100_000, depth: 8))
        let wide = try Model(ModelDescription(name: "wide", entities: (1 ... 250).map { number in
            EntityDescription("Root\(number)", rows: 10, attributes: (1 ... 64).map { Attribute("r\(number)a\($0)", .integer64) },
                              fetchIndexes: [FetchIndex("byFirst", "r\(number)a1")])
        }))
        for model in [deep, wide] {
            let strategy = LayoutStore(try TablePerEntity(model: model), database: try Database(path: ":memory:"))
            _ = try strategy.layout.readQuery(FetchRequest(entity: model.mainRoot, sort: [SortKey(model.entities[model.mainRoot].attributes[0].name)], limit: 5))
            try strategy.createSchema()
        }
        let strategy = LayoutStore(try TablePerEntity(model: deep), database: try Database(path: ":memory:"))
        try strategy.createSchema()
        for batch in ObjectGenerator(deep, seed: 1).batches(of: 2_000).prefix(1) { try strategy.insert(batch) }
        XCTAssertEqual(try strategy.fetch(FetchRequest(entity: deep.mainRoot, sort: [SortKey("uid")], limit: 30)).count, 30)
        XCTAssertEqual(try strategy.count(FetchRequest(entity: deep.mainRoot)), 2_000)
    }
}
