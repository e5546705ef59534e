import Generation
import Models
import SQLite
import Strategies
import XCTest

/// `enum-entity` gives exactly the answers `single-table` gives, on every preset and on synthetic
/// models with middle entities; its layout is pinned for two presets.
final class EnumEntityTests: XCTestCase {
    /// Both stores, filled with the same objects.
    struct Pair {
        let model: Model
        let generator: ObjectGenerator
        let reference: SingleTable
        let subject: EnumEntity
    }

    func makePair(_ description: ModelDescription) throws -> Pair {
        let model = try Model(description)
        let reference = try SingleTable(model: model, database: try Database(path: ":memory:"))
        let subject = try EnumEntity(model: model, database: try Database(path: ":memory:"))
        try reference.createSchema()
        try subject.createSchema()
        let generator = ObjectGenerator(model, seed: 7)
        for batch in generator.batches(of: 300) {
            try reference.insert(batch)
            try subject.insert(batch)
        }
        return Pair(model: model, generator: generator, reference: reference, subject: subject)
    }

    static var models: [ModelDescription] {
        ModelPresets.all.map { $0.scaled(to: 1_500) } + [
            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 1_000, depth: 3),
            SyntheticModel.make(leaves: 5, attributes: 3, skew: 1, rows: 1_000, depth: 1),
        ]
    }

    func testAgreesWithSingleTable() throws {
        for description in Self.models {
            let pair = try makePair(description)
            try agree(pair, description.name + (description.name == "synthetic" ? " \(pair.model.entities.count) entities" : ""))
        }
    }

    /// Compares one request's answer (sorted by id unless the request sorts) and count.
    func compare(_ pair: Pair, _ request: FetchRequest, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var expected = try pair.reference.fetch(request)
        var actual = try pair.subject.fetch(request)
        if request.sort.isEmpty { expected.sort { $0.id < $1.id }; actual.sort { $0.id < $1.id } }
        XCTAssertEqual(actual.count, expected.count, "\(what): \(request)", file: file, line: line)
        XCTAssertEqual(actual, expected, "\(what): \(request)", file: file, line: line)
        XCTAssertEqual(try pair.subject.count(request), try pair.reference.count(request), "\(what) count: \(request)", file: file, line: line)
    }

    func agree(_ pair: Pair, _ name: String) throws {
        let model = pair.model, generator = pair.generator
        let mainRoot = model.entities[model.mainRoot]
        var requests = 0

        // Every entity, with and without its sub-entities.
        for entity in model.entities {
            for includes in [true, false] {
                try compare(pair, FetchRequest(entity: entity.index, includesSubentities: includes), name)
                requests += 1
            }
        }
        XCTAssertEqual(try pair.subject.fetch(FetchRequest(entity: model.mainRoot)).count, generator.count(root: model.mainRoot), name)

        // The model's order: an offset page and the keyset page after the object just before it.
        if let order = model.order {
            let sort = order.map { SortKey($0.property!, ascending: $0.ascending) }
            let half = generator.count(root: model.mainRoot) / 2
            let page = FetchRequest(entity: model.mainRoot, sort: sort, limit: 50, offset: half)
            try compare(pair, page, name)
            let before = try pair.reference.fetch(FetchRequest(entity: model.mainRoot, sort: sort, limit: 1, offset: half - 1))[0]
            let values = sort.map { before.values[mainRoot.attributeIndex($0.attribute)!] }
            let keyset = FetchRequest(entity: model.mainRoot, predicate: .after(values), sort: sort, limit: 50)
            try compare(pair, keyset, name)
            XCTAssertEqual(try pair.subject.fetch(keyset), try pair.subject.fetch(page), "\(name): keyset page = offset page")
            // The same order over each middle entity and leaf.
            for entity in mainRoot.subtree.dropFirst() {
                try compare(pair, FetchRequest(entity: entity, sort: sort, limit: 20, offset: 5), name)
            }
            requests += 3
        }

        // Lookups by key, of the object's entity and of its root.
        for position in stride(from: 0, to: generator.count(root: model.mainRoot), by: 97) {
            let object = generator.object(root: model.mainRoot, at: position)
            try compare(pair, FetchRequest(entity: object.id.entity, predicate: .key(object.id.key)), name)
            try compare(pair, FetchRequest(entity: model.mainRoot, predicate: .key(object.id.key)), name)
            XCTAssertEqual(try pair.subject.fetch(FetchRequest(entity: object.id.entity, includesSubentities: false, predicate: .key(object.id.key))),
                           [object.fetched], name)
            requests += 2
        }

        // To-one relationships of the main hierarchy, by some object's destination.
        for entity in mainRoot.subtree.map({ model.entities[$0] }) {
            for relationship in entity.ownRelationships where !relationship.toMany {
                let concrete = model.concreteEntities(in: entity.subtree)
                let sample = (0 ..< min(200, generator.count(root: model.mainRoot))).lazy
                    .map { generator.object(root: model.mainRoot, at: $0) }
                    .first { concrete.contains($0.id.entity) && $0.toOne[model.entities[$0.id.entity].toOneRelationships.firstIndex { $0.name == relationship.name }!] != nil }
                guard let sample else { continue }
                let destination = sample.toOne[model.entities[sample.id.entity].toOneRelationships.firstIndex { $0.name == relationship.name }!]!
                try compare(pair, FetchRequest(entity: entity.index, predicate: .toOne(relationship.name, destination)), name)
                try compare(pair, FetchRequest(entity: sample.id.entity, includesSubentities: false, predicate: .toOne(relationship.name, destination)), name)
                requests += 2
            }
        }

        // ANY relationship.attribute == value through every to-many relationship reaching a unique string.
        for entity in model.entities {
            for relationship in entity.ownRelationships where relationship.toMany {
                let destination = model.entities[relationship.destination]
                guard let attribute = destination.attributes.enumerated().first(where: { position, attribute in
                    attribute.type == .string && model.isUnique(attribute.name, of: destination.attributeOwners[position])
                }) else { continue }
                for target in [generator.popularDestination(relationship), generator.rareDestination(relationship)].compactMap({ $0 }) {
                    let value = generator.object(target).values[attribute.offset]
                    try compare(pair, FetchRequest(entity: entity.index, predicate: .anyRelated(relationship.name, attribute.element.name, value)), name)
                    try compare(pair, FetchRequest(entity: entity.index, predicate: .and([.anyRelated(relationship.name, attribute.element.name, value), .key(3)])), name)
                    requests += 2
                }
            }
        }

        // Ranges on dates, and equality on unique attributes, of every entity.
        let sample = generator.objects(root: model.mainRoot, 0 ..< min(50, generator.count(root: model.mainRoot)))
        for entity in model.entities {
            for (position, attribute) in entity.ownAttributes.enumerated() {
                let index = entity.attributes.count - entity.ownAttributes.count + position
                let values = sample.filter { entity.subtree.contains($0.id.entity) && model.entities[$0.id.entity].attributes.indices.contains(index) }
                    .map { $0.values[index] }.filter { !$0.isNull }
                if attribute.type == .date, values.count >= 2 {
                    let sorted = values.sorted(by: Value.sqliteLess)
                    try compare(pair, FetchRequest(entity: entity.index, predicate: .range(attribute.name, sorted[0], sorted[sorted.count - 1])), name)
                    try compare(pair, FetchRequest(entity: entity.index, predicate: .range(attribute.name, sorted[0], sorted[sorted.count - 1]),
                                                   sort: [SortKey(attribute.name, ascending: false)], limit: 7), name)
                    requests += 2
                }
                if model.isUnique(attribute.name, of: entity.index), let value = values.first {
                    try compare(pair, FetchRequest(entity: entity.index, predicate: .equals(attribute.name, value)), name)
                    if entity.isRoot {
                        try compare(pair, FetchRequest(entity: entity.index, includesSubentities: false, predicate: .equals(attribute.name, value)), name)
                    }
                    requests += 2
                }
            }
        }
        XCTAssertGreaterThan(requests, 10, name)

        // Updates: 20 objects of the main hierarchy (two with a stale version), of a root attribute
        // and, on a leaf's objects, of a sub-entity's own attribute.
        let objects = (0 ..< 20).map { generator.object(root: model.mainRoot, at: $0 * 7 % generator.count(root: model.mainRoot)) }
        let ids = objects.map(\.id)
        XCTAssertEqual(try pair.subject.versions(ids), try pair.reference.versions(ids), name)
        let rootAttribute = mainRoot.attributes.indices.first { !model.isUnique(mainRoot.attributes[$0].name, of: mainRoot.index) } ?? 0
        let newValue = generator.object(root: model.mainRoot, at: 1).values[rootAttribute]
        let versions = ids.enumerated().map { ObjectVersion(id: $1, version: $0 < 2 ? 5 : 1) }
        let changed = try pair.subject.update(versions, attribute: mainRoot.attributes[rootAttribute].name, value: newValue)
        XCTAssertEqual(changed, try pair.reference.update(versions, attribute: mainRoot.attributes[rootAttribute].name, value: newValue), name)
        XCTAssertEqual(changed, Set(ids).count - 2, name)
        XCTAssertEqual(try pair.subject.versions(ids), try pair.reference.versions(ids), name)
        let leafEntity = model.leaf.map { model.entities[$0] }
        if let leaf = model.leaf, let own = leafEntity!.ownAttributes.indices.first(where: { !model.isUnique(leafEntity!.attributes[$0].name, of: leaf) }) {
            let position = own
            let leafObjects = objects.filter { $0.id.entity == leaf }.map(\.id)
            let current = try pair.subject.versions(leafObjects)
            let leafVersions = zip(leafObjects, current).map { ObjectVersion(id: $0, version: $1!) }
            let value = generator.object(leafObjects.first ?? ObjectID(entity: leaf, key: 1)).values[position]
            let name2 = model.entities[leaf].attributes[position].name
            XCTAssertEqual(try pair.subject.update(leafVersions, attribute: name2, value: value),
                           try pair.reference.update(leafVersions, attribute: name2, value: value), name)
        }
        try compare(pair, FetchRequest(entity: model.mainRoot), name + " after update")

        // Deletes: 20 objects of the main root; every entity's count and every link count agree.
        let doomed = (0 ..< 20).map { generator.object(root: model.mainRoot, at: ($0 * 13 + 5) % generator.count(root: model.mainRoot)).id }
        XCTAssertEqual(try pair.subject.delete(doomed), try pair.reference.delete(doomed), name)
        for entity in model.entities {
            for includes in [true, false] {
                let request = FetchRequest(entity: entity.index, includesSubentities: includes)
                XCTAssertEqual(try pair.subject.count(request), try pair.reference.count(request), "\(name) after delete: \(entity.name)")
            }
        }
        for entity in model.entities {
            for relationship in entity.ownRelationships where relationship.isManyToMany && relationship.generatesLinks {
                XCTAssertEqual(try pair.subject.countLinks(relationship), try pair.reference.countLinks(relationship), "\(name): \(relationship.name)")
            }
        }
        try compare(pair, FetchRequest(entity: model.mainRoot), name + " after delete")
    }

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

    func testAgreesOnEveryCornerOfTheLayout() throws {
        let pair = try makePair(Self.gadgets)
        let model = pair.model
        try agree(pair, "gadgets")
        // A Book whose pages (slot number1, Gadget's maker key) equal a person's key and whose isbn
        // (slot text1_, Gadget's code) equals another person's gadget's code: no false match, no false cascade.
        let person = pair.generator.object(root: model.index(of: "Person")!, at: 0)
        let other = pair.generator.object(root: model.index(of: "Person")!, at: 1)
        let books = try pair.reference.fetch(FetchRequest(entity: model.index(of: "Book")!, limit: 1))
        let gadget = try pair.reference.fetch(FetchRequest(entity: model.index(of: "Gadget")!, predicate: .toOne("maker", person.id), limit: 1))
        XCTAssertEqual(gadget.count, 1)
        for (attribute, value) in [("pages", Value.integer(other.id.key)), ("isbn", gadget[0].values[4])] {
            let versions = try pair.reference.versions(books.map(\.id)).map { $0! }
            let objects = zip(books, versions).map { ObjectVersion(id: $0.id, version: $1) }
            XCTAssertEqual(try pair.subject.update(objects, attribute: attribute, value: value), 1)
            XCTAssertEqual(try pair.reference.update(objects, attribute: attribute, value: value), 1)
        }
        let personEntity = model.index(of: "Person")!
        try compare(pair, FetchRequest(entity: personEntity, predicate: .anyRelated("gadgets", "code", gadget[0].values[4])), "false match")
        XCTAssertEqual(try pair.subject.delete([other.id]), try pair.reference.delete([other.id]))
        try compare(pair, FetchRequest(entity: model.index(of: "Book")!), "false cascade")
        try compare(pair, FetchRequest(entity: model.index(of: "Item")!), "false cascade")
        // Deleting people cascades to their gadgets through a key slot; deleting companies clears employers.
        for root in ["Person", "Company"] {
            let index = model.index(of: root)!
            let doomed = (0 ..< 8).map { pair.generator.object(root: index, at: $0 * 2).id }
            XCTAssertEqual(try pair.subject.delete(doomed), try pair.reference.delete(doomed), root)
            for entity in model.entities {
                try compare(pair, FetchRequest(entity: entity.index), "after deleting \(root)")
            }
        }
        // A label still linked cannot go (deny), in both.
        let label = model.index(of: "Label")!
        let linked = try pair.reference.fetch(FetchRequest(entity: label)).first { object in
            try! pair.reference.count(FetchRequest(entity: model.index(of: "Gadget")!, predicate: .anyRelated("labels", "name", object.values[0]))) > 0
        }!
        XCTAssertThrowsError(try pair.subject.delete([linked.id]))
        XCTAssertThrowsError(try pair.reference.delete([linked.id]))
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
        func plan(_ strategy: EnumEntity, _ request: FetchRequest) throws -> String {
            let query = try strategy.fetchQuery(request)
            return try strategy.database.queryPlan(query.sql, query.values.map { $0 as (any SQLiteBindable)? }).joined(separator: "; ")
        }
        let gadgets = try makePair(Self.gadgets).subject
        let model = gadgets.model
        let code = try gadgets.fetch(FetchRequest(entity: model.index(of: "Phone")!))[0].values[4]
        XCTAssertTrue(try plan(gadgets, FetchRequest(entity: model.index(of: "Gadget")!, predicate: .equals("code", code))).contains("Z_Gadget_UNIQUE_code"))
        XCTAssertEqual(try gadgets.fetch(FetchRequest(entity: model.index(of: "Gadget")!, predicate: .equals("code", code))).count, 1)

        let publications = try makePair(ModelPresets.publications.scaled(to: 1_500)).subject
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
        for description in Self.models + [Self.gadgets] {
            let pair = try makePair(description)
            XCTAssertEqual(try pair.subject.database.strings("PRAGMA integrity_check"), ["ok"], description.name)
            XCTAssertEqual(try pair.subject.database.strings("PRAGMA foreign_key_check"), [], description.name)
            let rows = try pair.subject.database.strings("SELECT Z_NAME || ':' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            XCTAssertEqual(rows, pair.subject.storedModel.entities.map { "\($0.name):\(pair.generator.count(root: pair.model.index(of: $0.name)!))" },
                           description.name)
        }
    }

    func testPublicationsLayout() throws {
        let strategy = try EnumEntity(model: try Model(ModelPresets.publications), database: try Database(path: ":memory:"))
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
        let strategy = try EnumEntity(model: try Model(ModelPresets.efcoreAnimals), database: try Database(path: ":memory:"))
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
        XCTAssertEqual(query.sql, "SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZTEXT1, t0.ZTEXT2 FROM ZANIMAL t0 WHERE t0.ZKIND >= 4 AND t0.ZKIND <= 6 ORDER BY t0.ZNAME ASC")
        XCTAssertEqual(query.values, [])
        XCTAssertEqual(try strategy.fetchQuery(FetchRequest(entity: strategy.model.mainRoot)).sql,
                       "SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZNUMBER1, t0.ZNUMBER2, t0.ZREAL1, t0.ZTEXT1, t0.ZTEXT2 FROM ZANIMAL t0")
    }

    /// A row whose kind is unknown, or whose required slot is NULL, does not decode.
    func testCorruptRowsThrow() throws {
        let pair = try makePair(ModelPresets.publications.scaled(to: 300))
        let database = pair.subject.database
        let book = pair.model.index(of: "Book")!
        try database.execute("UPDATE ZPUBLICATION SET ZTEXT1 = NULL WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZPUBLICATION WHERE ZKIND = \(book + 1))")
        XCTAssertThrowsError(try pair.subject.fetch(FetchRequest(entity: book))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
        try database.execute("UPDATE ZPUBLICATION SET ZKIND = 99 WHERE Z_PK = 1")
        XCTAssertThrowsError(try pair.subject.fetch(FetchRequest(entity: pair.model.mainRoot))) { XCTAssertTrue($0 is CorruptRow, "\($0)") }
    }

    /// Wide models derive and create their schema (their derivation time is a benchmark: Benchmarks/, layout.*): 250 leaf entities four levels deep, and 250 roots of 64 attributes.
    func testWideModelsDeriveAndCreateTheirSchema() throws {
        let deep = try Model(SyntheticModel.make(leaves: 250, attributes: 7, skew: 1, rows: 100_000, depth: 4))
        let roots = try Model(ModelDescription(name: "roots", entities: (1 ... 250).map { number in
            EntityDescription("Root\(number)", rows: 10, attributes: (1 ... 64).map { Attribute("a\($0)", .integer64) })
        }))
        for model in [deep, roots] {
            let strategy = try EnumEntity(model: model, database: try Database(path: ":memory:"))
            try strategy.createSchema()
            _ = try strategy.fetchQuery(FetchRequest(entity: model.mainRoot))
        }
        // Far fewer columns than single-table's: the slots are shared by the 250 leaves.
        let strategy = try EnumEntity(model: deep, database: try Database(path: ":memory:"))
        XCTAssertLessThan(strategy.schema.tables[0]!.fetchOrder.count, 40)
    }
}
