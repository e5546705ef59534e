import FetchRequests
import Generation
import Models
import SQLite
import Strategies
import TestSupport
import XCTest

/// Pins single-table's statements of the Core Data fetches of several statements (`FetchMode`)
/// to the logged forms docs/strategies.md ("Core Data's statements") quotes with their sources.
final class SingleTableCoreDataFetchTests: XCTestCase {
    static let all = "t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, t0.ZDOI, t0.ZPAPERTYPE, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZPAGECOUNT, t0.ZURL1, t0.ZWORDCOUNT"

    /// Batch faulting (Moody's log): the ID pass selects `Z_ENT, Z_PK` with the fetch's sort; each
    /// batch the whole list by the keys bound as `_Z_intarray0`, no `ORDER BY`, `LIMIT` the batch size.
    func testABatchedFetchIsTheIDPassThenBatchesByKeyList() throws {
        let model = try Model(ModelPresets.publications)
        let request = FetchRequest(entity: model.mainRoot, sort: [SortKey("publishDate", ascending: false), SortKey("uid", ascending: false)],
                                   mode: .batched(size: 20, objects: 1_000))
        let statements = try SingleTable(model: model).readQuery(request).statements
        XCTAssertEqual(statements.map(\.sql), [
            "SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC",
            "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, \(Self.all) FROM ZPUBLICATION t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT ?",
        ])
        XCTAssertEqual(statements.map(\.values), [[], [.integer(20)]])
    }

    /// A partial fetch (CoreDataPlus's dictionary fetch): the asked properties first, then
    /// `Z_ENT, Z_PK`, no `Z_OPT`; of the leaf, its entity's `Z_ENT = ?` (inferred).
    func testAPartialFetchSelectsThePropertiesThenZENTAndZPK() throws {
        let model = try Model(ModelPresets.publications)
        let layout = try SingleTable(model: model)
        let book = try XCTUnwrap(model.index(of: "Book"))
        let hierarchy = try layout.readQuery(FetchRequest(entity: model.mainRoot, mode: .partial(["title", "publishDate"])))
        XCTAssertEqual(hierarchy.sql, "SELECT t0.ZTITLE, t0.ZPUBLISHDATE, t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0")
        XCTAssertNil(hierarchy.program)
        let leaf = try layout.readQuery(FetchRequest(entity: book, mode: .partial(["title", "isbn"])))
        XCTAssertEqual(leaf.sql, "SELECT t0.ZTITLE, t0.ZISBN, t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?")
        XCTAssertEqual(leaf.values, [.integer(4)])
        // An entity without sub-entities: `0`, as the older logged ID pass has it.
        let tag = try XCTUnwrap(model.index(of: "Tag"))
        XCTAssertEqual(try layout.readQuery(FetchRequest(entity: tag, mode: .partial(["name"]))).sql, "SELECT t0.ZNAME, 0, t0.Z_PK FROM ZTAG t0")
        XCTAssertThrowsError(try layout.readQuery(FetchRequest(entity: tag, mode: .partial(["isbn"])))) { error in
            XCTAssertEqual("\(error)", "single-table: 'isbn' is not an attribute of 'Tag'")
        }
    }

    /// A fetch of aggregates as the logged one (`SELECT t0.ZBIRTHOFYEAR, COUNT( t0.ZBIRTHOFYEAR) AS
    /// __var0 FROM ZITEM t0 GROUP BY  t0.ZBIRTHOFYEAR HAVING __var0 > ?`), `sum:` as `total`, and
    /// distinct values: no entity number or key; HAVING's values after the WHERE's, the page's last.
    func testADictionaryFetchIsCoreDatasGroupedStatement() throws {
        let model = try Model(ModelPresets.publications)
        let layout = try SingleTable(model: model)
        let book = try XCTUnwrap(model.index(of: "Book")), tag = try XCTUnwrap(model.index(of: "Tag"))
        let grouped = DictionaryFetch(items: [.key("pageCount"), .aggregate(.count, "pageCount", name: "n"), .aggregate(.sum, "pageCount", name: "s")],
                                      groupBy: ["pageCount"], having: .compare("n", .greater, .integer(40)))
        let query = try layout.readQuery(FetchRequest(entity: book, predicate: .isNil("title", negated: true), sort: [SortKey("pageCount")], limit: 5, mode: .dictionary(grouped)))
        XCTAssertEqual(query.sql, "SELECT t0.ZPAGECOUNT, COUNT(t0.ZPAGECOUNT) AS __var0, total(t0.ZPAGECOUNT) FROM ZPUBLICATION t0 WHERE t0.ZTITLE IS NOT NULL AND t0.Z_ENT = ? GROUP BY t0.ZPAGECOUNT HAVING __var0 > ? ORDER BY t0.ZPAGECOUNT LIMIT ?")
        XCTAssertEqual(query.values, [.integer(4), .integer(40), .integer(5)])
        XCTAssertEqual(try layout.readQuery(FetchRequest(entity: tag, mode: .dictionary(DictionaryFetch(items: [.aggregate(.max, "name", name: "m")])))).sql, "SELECT max(t0.ZNAME) FROM ZTAG t0")
        XCTAssertEqual(try layout.readQuery(FetchRequest(entity: model.mainRoot, mode: .dictionary(DictionaryFetch(items: [.key("title")], distinct: true)))).sql,
                       "SELECT DISTINCT t0.ZTITLE FROM ZPUBLICATION t0")
    }

    /// Prefetching a to-many whose inverse is to-one (fatbobman's log): the objects, then the
    /// destinations' whole rows by the inverse key in the bound key list, ordered by it.
    func testAPrefetchReadsTheDestinationsByTheInverseKeyList() throws {
        let model = try Model(ModelPresets.codingMilitia)
        let owner = try XCTUnwrap(model.index(of: "Owner"))
        let layout = try SingleTable(model: model)
        let statements = try layout.readQuery(FetchRequest(entity: owner, limit: 50, mode: .prefetching(["items"]))).statements
        // The items' whole list is the one a fault of an item reads (the hierarchy's, `Z_ENT` first).
        let fault = try layout.fetchQuery(.fault(ObjectID(entity: model.mainRoot, key: 1))).sql
        let list = try XCTUnwrap(fault.components(separatedBy: " FROM ").first)
        XCTAssertTrue(list.hasPrefix("SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZAMOUNT, "))
        XCTAssertEqual(statements.map(\.sql), [
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZOWNER t0 LIMIT ?",
            "\(list) FROM ZBASEENTITY t0 WHERE t0.ZOWNER IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZOWNER",
        ])
        XCTAssertEqual(statements.map(\.values), [[.integer(50)], []])
    }

    /// Every layout orders a prefetch's batch by the inverse key, as Core Data does, table-per-entity's
    /// read of one table and its `UNION ALL` too (the answers agree unordered, so only the SQL shows
    /// it): over the presets and two generated models whose destinations have one table.
    func testEveryLayoutOrdersAPrefetchBatchByTheInverseKey() throws {
        var perEntityForms = Set<Bool>()
        for description in ModelPresets.all + [RandomModel.make(seed: 2), RandomModel.make(seed: 3)] {
            let model = try Model(description)
            for entity in model.entities {
                for relationship in entity.ownRelationships where relationship.toMany && !relationship.isManyToMany && model.inverse(of: relationship) != nil {
                    for type in Strategies.all {
                        let request = FetchRequest(entity: entity.index, limit: 50, mode: .prefetching([relationship.name]))
                        let statements = try type.init(model: model).readQuery(request).statements
                        XCTAssertEqual(statements.count, 2, "\(type.name) \(entity.name).\(relationship.name)")
                        XCTAssertTrue(statements[1].sql.contains(" IN (SELECT * FROM _Z_intarray0) ORDER BY "), "\(type.name): \(statements[1].sql)")
                        if type == TablePerEntity.self { perEntityForms.insert(statements[1].sql.contains(" UNION ALL ")) }
                    }
                }
            }
        }
        XCTAssertEqual(perEntityForms, [false, true], "table-per-entity's batches read one table and a union")
    }

    /// Prefetching a many-to-many (inferred: docs/strategies.md, "Core Data's statements"): the
    /// page, then the join table joined to the destinations' rows, the source's key last, selected
    /// and ordered by the bound key list.
    func testAManyToManyPrefetchReadsTheLinksWithTheirSourcesKeys() throws {
        let model = try Model(ModelPresets.publications)
        let sort = [SortKey("publishDate", ascending: false), SortKey("uid", ascending: false)]
        let request = FetchRequest(entity: model.mainRoot, sort: sort, limit: 50, mode: .prefetching(["tags"]))
        let statements = try SingleTable(model: model).readQuery(request).statements
        XCTAssertEqual(statements.map(\.sql), [
            "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, \(Self.all) FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC LIMIT ?",
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t1.Z_1PUBLICATIONS FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS IN (SELECT * FROM _Z_intarray0) ORDER BY t1.Z_1PUBLICATIONS",
        ])
        XCTAssertEqual(statements.map(\.values), [[.integer(50)], []])
    }

    /// The steps run on a store: the batches come back in the ID pass's order, the partial fetch's
    /// objects hold the asked values, the prefetch's destinations point at the page's objects.
    func testTheStepsRunOnAStore() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let generator = ObjectGenerator(model, seed: 5)
        let store = try LayoutStore(SingleTable.self, model, database: try Database(path: ":memory:"))
        try store.createSchema()
        for batch in generator.batches(of: 100) { try store.insert(batch) }
        let sort = [SortKey("publishDate", ascending: false), SortKey("uid", ascending: false)]
        let whole = try store.fetch(FetchRequest(entity: model.mainRoot, sort: sort))
        let batched = try store.fetch(FetchRequest(entity: model.mainRoot, sort: sort, mode: .batched(size: 7, objects: 100)))
        XCTAssertEqual(batched, Array(whole.prefix(100)))
        let partial = try store.fetch(FetchRequest(entity: model.mainRoot, sort: sort, mode: .partial(["title"])))
        XCTAssertEqual(partial.map(\.id), whole.map(\.id))
        XCTAssertEqual(partial.map(\.values), whole.map { [$0.values[model.entities[$0.id.entity].attributeIndex("title") ?? -1]] })
        let sectioned = try store.fetch(FetchRequest(entity: model.mainRoot, sort: sort, mode: .sectionedByEntity))
        XCTAssertEqual(sectioned.map(\.id.entity), whole.map(\.id.entity).sorted())
        XCTAssertEqual(Set(sectioned.map(\.id)), Set(whole.map(\.id)))
        // The prefetch: the page, then one row per link of the page's objects, its source's key beside it, in the sources' order.
        let prefetched = try store.fetch(FetchRequest(entity: model.mainRoot, sort: sort, limit: 50, mode: .prefetching(["tags"])))
        XCTAssertEqual(Array(prefetched.prefix(50)), Array(whole.prefix(50)))
        let rows = prefetched.dropFirst(50)
        let page = Set(whole.prefix(50).map(\.id.key))
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { $0.id.entity == model.index(of: "Tag") && page.contains($0.source ?? -1) }, "\(rows)")
        XCTAssertEqual(rows.map(\.source), rows.map(\.source).sorted { ($0 ?? -1) < ($1 ?? -1) })
        let expected = ReferenceStore(generator).fetch(FetchRequest(entity: model.mainRoot, sort: sort, limit: 50, mode: .prefetching(["tags"])))
        XCTAssertEqual(prefetched.sorted(by: ModelObject.answerOrder), expected)
    }
}

extension SingleTableCoreDataFetchTests {
    /// table-per-entity's batches go table by table, each with its own keys (the ID pass's union
    /// names each object's entity); joined's is one statement from the base, as single-table's.
    func testTablePerEntityBatchesTableByTable() throws {
        let model = try Model(ModelPresets.publications)
        let request = FetchRequest(entity: model.mainRoot, sort: [SortKey("uid")], mode: .batched(size: 20, objects: 100))
        let statements = try TablePerEntity(model: model).readQuery(request).statements.map(\.sql)
        XCTAssertEqual(statements.count, 1 + model.concreteEntities(in: model.entities[model.mainRoot].subtree).count)
        XCTAssertTrue(statements[0].hasPrefix("SELECT 1 AS c0, t0.Z_PK AS c1, t0.ZUID AS c2 FROM ZPUBLICATION t0 UNION ALL SELECT 2, t0.Z_PK, t0.ZUID FROM ZACADEMICPAPER t0"), statements[0])
        XCTAssertTrue(statements[0].hasSuffix(" ORDER BY c2"), statements[0])
        XCTAssertTrue(statements.dropFirst().allSatisfy { $0.hasSuffix(" t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT ?") && !$0.contains("UNION") }, "\(statements)")
        let joined = try Joined(model: model).readQuery(request).statements.map(\.sql)
        XCTAssertEqual(joined.first, "SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 ORDER BY t0.ZUID")
        XCTAssertEqual(joined.count, 2)
    }

    /// A many-to-many prefetch in the other layouts: table-per-entity's one `UNION ALL` over the
    /// join tables of each concrete publication table with `ZTAG`, ordered by the source's key;
    /// joined's and the JSON layouts' one join of their join table.
    func testTheOtherLayoutsPrefetchAManyToManyThroughTheirOwnLinks() throws {
        let model = try Model(ModelPresets.publications)
        let request = FetchRequest(entity: model.mainRoot, sort: [SortKey("uid")], limit: 50, mode: .prefetching(["tags"]))
        let perEntity = try TablePerEntity(model: model).readQuery(request).statements.map(\.sql)
        XCTAssertEqual(perEntity.count, 2)
        let arms = perEntity[1].components(separatedBy: " UNION ALL ")
        XCTAssertEqual(arms.count, model.concreteEntities(in: model.entities[model.mainRoot].subtree).count, perEntity[1])
        XCTAssertTrue(arms.allSatisfy { $0.contains(" JOIN ZTAG t0 ON t0.Z_PK = j.") && $0.contains(" IN (SELECT * FROM _Z_intarray0)") }, perEntity[1])
        XCTAssertTrue(arms[0].contains(" AS Z_SOURCE FROM ") && perEntity[1].hasSuffix(" ORDER BY Z_SOURCE"), perEntity[1])
        for layout in [try Joined(model: model) as any StorageLayout, try EnumEntity(model: model), try JSONEntity(model: model)] {
            let statements = try layout.readQuery(request).statements.map(\.sql)
            XCTAssertEqual(statements.count, 2, layout.name)
            XCTAssertTrue(statements[1].contains("Z_1TAGS") && statements[1].hasSuffix(" IN (SELECT * FROM _Z_intarray0) ORDER BY \(layout.name == "joined" ? "j" : "t1").Z_1PUBLICATIONS"),
                          "\(layout.name): \(statements[1])")
        }
    }
}
