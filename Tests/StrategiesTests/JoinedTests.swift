import Generation
import Models
import SQLite
import Strategies
import XCTest

final class JoinedTests: XCTestCase {
    /// A store of each strategy holding the same objects.
    struct Pair {
        let model: Model
        let generator: ObjectGenerator
        let reference: SingleTable
        let joined: Joined
    }

    func makePair(_ description: ModelDescription) throws -> Pair {
        let model = try Model(description)
        let reference = try SingleTable(model: model, database: try Database(path: ":memory:"))
        let joined = try Joined(model: model, database: try Database(path: ":memory:"))
        try reference.createSchema()
        try joined.createSchema()
        let generator = ObjectGenerator(model, seed: 7)
        for batch in generator.batches(of: 300) {
            try reference.insert(batch)
            try joined.insert(batch)
        }
        return Pair(model: model, generator: generator, reference: reference, joined: joined)
    }

    /// The same objects (sorted by id when the request does not sort), the same count.
    func check(_ pair: Pair, _ request: FetchRequest, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var expected = try pair.reference.fetch(request)
        var actual = try pair.joined.fetch(request)
        if request.sort.isEmpty { expected.sort { $0.id < $1.id }; actual.sort { $0.id < $1.id } }
        XCTAssertEqual(actual.count, expected.count, "\(pair.model.name) \(what): fetched", file: file, line: line)
        XCTAssertEqual(actual, expected, "\(pair.model.name) \(what): objects", file: file, line: line)
        checks += 1
        if !expected.isEmpty { nonEmpty += 1 }
        if request.sort.isEmpty, request.limit == nil {
            var plain = request
            plain.offset = nil
            XCTAssertEqual(try pair.joined.count(plain), try pair.reference.count(plain), "\(pair.model.name) \(what): count", file: file, line: line)
        }
    }

    static var agreementModels: [ModelDescription] {
        ModelPresets.all.map { $0.scaled(to: 1_500) } + [
            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 1_000, depth: 3),
            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 1_000, depth: 1),
        ]
    }

    var checks = 0, nonEmpty = 0

    func testAgreesWithSingleTable() throws {
        for description in Self.agreementModels { try agreement(description) }
        // The battery asks something: most requests find objects.
        XCTAssertGreaterThan(checks, 300)
        XCTAssertGreaterThan(Double(nonEmpty), 0.8 * Double(checks), "\(nonEmpty) of \(checks) requests found objects")
        print("JoinedTests: \(checks) requests compared, \(nonEmpty) non-empty")
    }

    /// Hierarchies too wide for one join (SQLite's 64 tables): the fetches are `UNION ALL`s.
    func testWideHierarchiesAgreeThroughUnions() throws {
        try agreement(SyntheticModel.make(leaves: 70, attributes: 2, skew: 0.5, rows: 1_000, depth: 1))
        // Concrete middle entities: each arm of a middle entity filters on Z_ENT.
        var entities = [EntityDescription("Root", rows: 20, attributes: [Attribute("uid", .uuid), Attribute("title", .string)],
                                          uniquenessConstraints: [["uid"]])]
        for number in 1 ... 35 {
            entities.append(EntityDescription("Mid\(number)", parent: "Root", rows: 10, attributes: [Attribute("m\(number)", .integer32)]))
            entities.append(EntityDescription("Leaf\(number)", parent: "Mid\(number)", rows: 10,
                                              attributes: [Attribute("l\(number)", .string, optional: true)]))
        }
        let wide = ModelDescription(name: "wide", entities: entities)
        let pair = try agreement(wide)
        let polymorphic = try pair.joined.fetchQuery(FetchRequest(entity: 0))
        XCTAssertTrue(polymorphic.sql.contains(" UNION ALL "), polymorphic.sql)
    }

    @discardableResult
    func agreement(_ description: ModelDescription) throws -> Pair {
        let pair = try makePair(description)
        let model = pair.model, generator = pair.generator
        // Every entity, with and without its sub-entities.
        for entity in model.entities {
            for includes in [true, false] {
                try check(pair, FetchRequest(entity: entity.index, includesSubentities: includes), "\(entity.name) subentities \(includes)")
            }
        }
        let main = model.entities[model.mainRoot]
        let total = generator.count(root: model.mainRoot)
        // The model's order: a page at half, and the keyset page after the object just before it.
        if let order = model.order {
            let sort = order.map { SortKey($0.property!, ascending: $0.ascending) }
            let offset = total / 2
            try check(pair, FetchRequest(entity: main.index, sort: sort, limit: 50, offset: offset), "order page")
            let all = try pair.reference.fetch(FetchRequest(entity: main.index, sort: sort))
            let before = all[offset - 1]
            let values = sort.map { before.values[main.attributeIndex($0.attribute)!] }
            try check(pair, FetchRequest(entity: main.index, predicate: .after(values), sort: sort, limit: 50), "keyset page")
            if let leaf = model.leaf {
                try check(pair, FetchRequest(entity: leaf, sort: sort, limit: 20, offset: 5), "leaf page")
            }
            if let branch = model.branch {
                try check(pair, FetchRequest(entity: branch, sort: sort, limit: 20, offset: 5), "branch page")
            }
        }
        // Lookups by key, of every entity's objects.
        for position in stride(from: 0, to: total, by: max(1, total / 7)) {
            let object = generator.object(root: model.mainRoot, at: position)
            for entity in [main.index, object.id.entity] + Array(model.entities[object.id.entity].subtree) {
                try check(pair, FetchRequest(entity: entity, predicate: .key(object.id.key)), "key \(object.id) as \(model.entities[entity].name)")
            }
        }
        // Every to-one relationship of the main hierarchy, with some destination.
        for entity in main.subtree.map({ model.entities[$0] }) {
            for relationship in entity.toOneRelationships where relationship.owner == entity.index {
                /// The object's destination through `relationship` (its position differs per concrete entity).
                func destination(_ object: ModelObject) -> ObjectID? {
                    guard entity.subtree.contains(object.id.entity) else { return nil }
                    return object.toOne[model.entities[object.id.entity].toOneRelationships.firstIndex { $0.name == relationship.name }!]
                }
                guard let target = (0 ..< total).lazy.compactMap({ destination(generator.object(root: model.mainRoot, at: $0)) }).first else { continue }
                try check(pair, FetchRequest(entity: entity.index, predicate: .toOne(relationship.name, target)), "toOne \(relationship.name)")
                // A page, sorted by the first attribute then a unique one (a total order).
                if let first = entity.attributes.first, let unique = main.attributes.first(where: { model.isUnique($0.name, of: main.index) }) {
                    let sort = [SortKey(first.name), SortKey(unique.name)]
                    try check(pair, FetchRequest(entity: entity.index, predicate: .toOne(relationship.name, target), sort: sort, limit: 3), "toOne page")
                }
            }
        }
        // ANY relationship.attribute == value through every to-many relationship reaching a unique string.
        for entity in model.entities {
            for relationship in entity.relationships where relationship.toMany && relationship.owner == entity.index {
                let destination = model.entities[relationship.destination]
                guard let attribute = destination.attributes.first(where: { $0.type == .string && model.isUnique($0.name, of: relationship.destination) }) else { continue }
                let position = destination.attributeIndex(attribute.name)!
                for target in [generator.popularDestination(relationship), generator.rareDestination(relationship)].compactMap({ $0 }) {
                    let value = generator.object(target).values[position]
                    let predicate = FetchPredicate.anyRelated(relationship.name, attribute.name, value)
                    try check(pair, FetchRequest(entity: entity.index, predicate: predicate), "any \(relationship.name)")
                    try check(pair, FetchRequest(entity: entity.index, includesSubentities: false, predicate: predicate), "any \(relationship.name) alone")
                }
            }
        }
        // A date window and an equality on a unique attribute.
        if let date = main.attributes.first(where: { $0.type == .date }) {
            let position = main.attributeIndex(date.name)!
            let values = (0 ..< min(total, 200)).map { generator.object(root: model.mainRoot, at: $0).values[position] }.filter { !$0.isNull }
                .sorted(by: Value.sqliteLess)
            if values.count > 4 {
                let range = FetchPredicate.range(date.name, values[values.count / 4], values[values.count * 3 / 4])
                try check(pair, FetchRequest(entity: main.index, predicate: range), "date range")
                if let leaf = model.leaf { try check(pair, FetchRequest(entity: leaf, predicate: range), "leaf date range") }
                if let branch = model.branch {
                    try check(pair, FetchRequest(entity: branch, predicate: .and([range, .key(1)])), "branch range and key")
                }
            }
        }
        for entity in main.subtree.map({ model.entities[$0] }) {
            for (position, attribute) in entity.attributes.enumerated() where model.isUnique(attribute.name, of: entity.index) {
                guard let object = (0 ..< total).lazy.map({ generator.object(root: model.mainRoot, at: $0) }).first(where: { entity.subtree.contains($0.id.entity) }) else { continue }
                try check(pair, FetchRequest(entity: entity.index, predicate: .equals(attribute.name, object.values[position])), "equals \(entity.name).\(attribute.name)")
            }
        }

        // Updates: an attribute of the root's table, and one of a sub-entity's table.
        var targets: [(ids: [ObjectID], attribute: String, value: Value)] = []
        let objects = (0 ..< total).map { generator.object(root: model.mainRoot, at: $0) }
        if let attribute = main.attributes.first(where: { !model.isUnique($0.name, of: main.index) }) {
            let ids = stride(from: 0, to: total, by: max(1, total / 20)).prefix(20).map { objects[$0].id }
            targets.append((ids, attribute.name, objects[total - 1].values[main.attributeIndex(attribute.name)!]))
        }
        if let leaf = model.leaf, let attribute = model.entities[leaf].ownAttributes.first(where: { !model.isUnique($0.name, of: leaf) }) {
            let ids = objects.filter { $0.id.entity == leaf }.prefix(20).map(\.id)
            let source = objects.last { $0.id.entity == leaf }!
            targets.append((ids, attribute.name, source.values[model.entities[leaf].attributeIndex(attribute.name)!]))
        }
        for (ids, attribute, value) in targets {
            let before = try pair.reference.versions(ids)
            XCTAssertEqual(try pair.joined.versions(ids), before, "\(model.name) versions before")
            let stale = ids.prefix(3).map { ObjectVersion(id: $0, version: 7) }
            let fresh = zip(ids, before).map { ObjectVersion(id: $0, version: $1!) }
            XCTAssertEqual(try pair.joined.update(fresh + stale, attribute: attribute, value: value),
                           try pair.reference.update(fresh + stale, attribute: attribute, value: value), "\(model.name) update \(attribute)")
            XCTAssertEqual(try pair.joined.versions(ids), try pair.reference.versions(ids), "\(model.name) versions after")
            for id in ids { try check(pair, FetchRequest(entity: id.entity, predicate: .key(id.key)), "updated \(id)") }
        }

        // Deletes of 20 objects of the main root, following the delete rules.
        let doomed = stride(from: 1, to: total, by: max(1, total / 20)).prefix(20).map { objects[$0].id }
        XCTAssertEqual(try pair.joined.delete(doomed), try pair.reference.delete(doomed), "\(model.name) deleted")
        for entity in model.entities {
            for includes in [true, false] {
                let request = FetchRequest(entity: entity.index, includesSubentities: includes)
                XCTAssertEqual(try pair.joined.count(request), try pair.reference.count(request), "\(model.name) \(entity.name) count after delete")
            }
        }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isManyToMany && relationship.generatesLinks && relationship.owner == entity.index {
                XCTAssertEqual(try pair.joined.countLinks(relationship), try pair.reference.countLinks(relationship), "\(model.name) links after delete")
            }
        }
        try check(pair, FetchRequest(entity: main.index), "after delete")
        return pair
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
        let pair = try agreement(Self.clubs)
        let model = pair.model
        XCTAssertTrue(pair.joined.schemaSQL.contains("CREATE INDEX Z_Member_UNIQUE_handle_since ON ZMEMBER (ZSINCE COLLATE BINARY ASC)"))
        XCTAssertTrue(pair.joined.schemaSQL.contains("CREATE INDEX Z_Guest_byNote ON ZGUEST (ZNOTE COLLATE BINARY ASC)"))
        XCTAssertTrue(pair.joined.schemaSQL.contains("CREATE INDEX Z_Coach_byEntityAndHandle ON ZPERSON (Z_ENT COLLATE BINARY ASC, ZHANDLE COLLATE BINARY DESC)"))
        XCTAssertTrue(pair.joined.schemaSQL.contains("CREATE INDEX ZMEMBER_ZCLUB_INDEX ON ZMEMBER (ZCLUB)"))
        // Deleting clubs nullifies their members' club (bumping their versions) and deletes their coaches.
        let club = model.index(of: "Club")!, member = model.index(of: "Member")!
        let clubs = (0 ..< 6).map { pair.generator.object(root: club, at: $0 * 4).id }
        let members = try pair.reference.fetch(FetchRequest(entity: member)).map(\.id)
        XCTAssertEqual(try pair.joined.versions(members), try pair.reference.versions(members))
        XCTAssertEqual(try pair.joined.delete(clubs), try pair.reference.delete(clubs))
        XCTAssertEqual(try pair.joined.versions(members), try pair.reference.versions(members))
        for entity in model.entities { try check(pair, FetchRequest(entity: entity.index), "\(entity.name) after club delete") }
        XCTAssertEqual(try pair.joined.database.strings("PRAGMA foreign_key_check"), [])
    }

    // MARK: Layout

    func testPublicationsSchema() throws {
        let joined = try Joined(model: try Model(ModelPresets.publications), database: try Database(path: ":memory:"))
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
        let joined = try Joined(model: try Model(ModelPresets.efcoreAnimals), database: try Database(path: ":memory:"))
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
        let joined = try Joined(model: model, database: try Database(path: ":memory:"))
        let animal = model.index(of: "Animal")!, pet = model.index(of: "Pet")!, cat = model.index(of: "Cat")!
        XCTAssertEqual(try joined.fetchQuery(FetchRequest(entity: animal)).sql,
                       "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t1.ZSPECIES, t1.ZVALUE, t2.ZFAVORITEANIMAL, t2.Z1_FAVORITEANIMAL, t3.ZVET, t4.ZEDUCATIONLEVEL, t5.ZFAVORITETOY, t1.Z_PK, t2.Z_PK, t3.Z_PK, t4.Z_PK, t5.Z_PK FROM ZANIMAL t0 LEFT JOIN ZFARMANIMAL t1 ON t1.Z_PK = t0.Z_PK LEFT JOIN ZHUMAN t2 ON t2.Z_PK = t0.Z_PK LEFT JOIN ZPET t3 ON t3.Z_PK = t0.Z_PK LEFT JOIN ZCAT t4 ON t4.Z_PK = t0.Z_PK LEFT JOIN ZDOG t5 ON t5.Z_PK = t0.Z_PK")
        XCTAssertEqual(try joined.fetchQuery(FetchRequest(entity: pet)).sql,
                       "SELECT t1.Z_ENT, t0.Z_PK, t1.Z_OPT, t1.ZNAME, t0.ZVET, t2.ZEDUCATIONLEVEL, t3.ZFAVORITETOY, t2.Z_PK, t3.Z_PK FROM ZPET t0 JOIN ZANIMAL t1 ON t1.Z_PK = t0.Z_PK LEFT JOIN ZCAT t2 ON t2.Z_PK = t0.Z_PK LEFT JOIN ZDOG t3 ON t3.Z_PK = t0.Z_PK")
        XCTAssertEqual(try joined.fetchQuery(FetchRequest(entity: cat, sort: [SortKey("name")], limit: 10)).sql,
                       "SELECT t2.Z_ENT, t0.Z_PK, t2.Z_OPT, t2.ZNAME, t1.ZVET, t0.ZEDUCATIONLEVEL FROM ZCAT t0 JOIN ZPET t1 ON t1.Z_PK = t0.Z_PK JOIN ZANIMAL t2 ON t2.Z_PK = t0.Z_PK ORDER BY t2.ZNAME ASC LIMIT ?")
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
        let joined = try Joined(model: model, database: try Database(path: ":memory:"))
        try joined.createSchema()
        let publication = model.index(of: "Publication")!, book = model.index(of: "Book")!
        func plan(_ query: PreparedQuery) throws -> String {
            try joined.database.queryPlan(query.sql, query.values.map { $0 as (any SQLiteBindable)? }).joined(separator: " | ")
        }
        let byUID = try plan(joined.fetchQuery(FetchRequest(entity: publication, predicate: .equals("uid", .blob(Array(repeating: 1, count: 16))))))
        XCTAssertTrue(byUID.contains("Z_Publication_UNIQUE_uid"), byUID)
        let byISBN = try plan(joined.fetchQuery(FetchRequest(entity: book, predicate: .equals("isbn", .text("978")))))
        XCTAssertTrue(byISBN.contains("Z_Book_UNIQUE_isbn"), byISBN)
        let page = try plan(joined.fetchQuery(FetchRequest(entity: publication, sort: [SortKey("publishDate", ascending: false), SortKey("uid", ascending: false)], limit: 50)))
        XCTAssertTrue(page.contains("Z_Publication_byPublishDate") && !page.contains("TEMP B-TREE"), page)
        let title = try plan(joined.fetchQuery(FetchRequest(entity: publication, predicate: .range("title", .text("Ab"), .text("Ac")))))
        XCTAssertTrue(title.contains("Z_Publication_byTitle"), title)
    }

    func testIntegrityAfterInsert() throws {
        for description in [ModelPresets.publications.scaled(to: 1_500), ModelPresets.efcoreAnimals.scaled(to: 1_500),
                            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 1_000, depth: 3)] {
            let pair = try makePair(description)
            let database = pair.joined.database
            XCTAssertEqual(try database.strings("PRAGMA integrity_check"), ["ok"], description.name)
            XCTAssertEqual(try database.strings("PRAGMA foreign_key_check"), [], description.name)
            // Every object has one row in each table of its path.
            for entity in pair.model.entities where !entity.isRoot {
                XCTAssertEqual(try pair.joined.count(FetchRequest(entity: entity.index)), pair.model.objectCount(entity.index), entity.name)
            }
        }
    }

    /// A base row whose sub-row is missing, or whose Z_ENT is unknown, does not decode.
    func testCorruptRowsThrow() throws {
        let pair = try makePair(ModelPresets.publications.scaled(to: 300))
        let book = pair.model.index(of: "Book")!
        let victim = try pair.joined.fetch(FetchRequest(entity: book)).first!
        try pair.joined.database.execute("DELETE FROM ZBOOK WHERE Z_PK = \(victim.id.key)")
        XCTAssertThrowsError(try pair.joined.fetch(FetchRequest(entity: 0))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
        try pair.joined.database.execute("UPDATE ZPUBLICATION SET Z_ENT = 99 WHERE Z_PK = \(victim.id.key)")
        XCTAssertThrowsError(try pair.joined.fetch(FetchRequest(entity: 0))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
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
        let joined = try Joined(model: model, database: try Database(path: ":memory:"))
        XCTAssertEqual(joined.schemaSQL.filter { $0.hasPrefix("CREATE TABLE Z") && !$0.hasPrefix("CREATE TABLE Z_") }.count, 250)
    }
}
