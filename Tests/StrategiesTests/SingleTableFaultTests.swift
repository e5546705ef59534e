import FetchRequests
import Generation
import Models
import Strategies
import XCTest

/// Pins single-table's statements of the Core Data workloads to the logged forms that
/// docs/strategies.md ("Core Data's statements") quotes with their sources.
final class SingleTableFaultTests: XCTestCase {
    /// A fault fired for a sub-entity's object (the objc.io book's Moody, a `Country` fault): the
    /// hierarchy's whole list, no `0` padding, by `Z_PK` alone, no `Z_ENT` condition; `lookup-id`'s
    /// read of the same object keeps its padded list and `Z_ENT = ?`.
    func testAFaultReadsTheWholeHierarchyByZPKAlone() throws {
        let model = try Model(ModelPresets.publications)
        let layout = try SingleTable(model: model)
        let book = try XCTUnwrap(model.index(of: "Book"))
        let fault = try layout.fetchQuery(.fault(ObjectID(entity: book, key: 42)))
        XCTAssertEqual(fault.sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, t0.ZDOI, t0.ZPAPERTYPE, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZPAGECOUNT, t0.ZURL1, t0.ZWORDCOUNT FROM ZPUBLICATION t0 WHERE t0.Z_PK = ?")
        XCTAssertEqual(fault.values, [.integer(42)])
        let lookup = try layout.fetchQuery(FetchRequest(entity: book, includesSubentities: false, predicate: .key(42)))
        XCTAssertEqual(lookup.sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, 0, 0, 0, 0, t0.ZISBN, t0.ZPAGECOUNT FROM ZPUBLICATION t0 WHERE t0.Z_PK = ? AND t0.Z_ENT = ?")
        XCTAssertEqual(lookup.values, [.integer(42), .integer(4)])
        // An entity without sub-entities: `0` for Z_ENT, as the logged fetches of one entity show.
        let tag = try XCTUnwrap(model.index(of: "Tag"))
        XCTAssertEqual(try layout.fetchQuery(.fault(ObjectID(entity: tag, key: 7))).sql, "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZTAG t0 WHERE t0.Z_PK = ?")
        // Depth 2: a Cat's fault reads every column of the animals' table, its to-one's entity column too.
        let animals = try Model(ModelPresets.efcoreAnimals)
        XCTAssertEqual(try SingleTable(model: animals).fetchQuery(.fault(ObjectID(entity: try XCTUnwrap(animals.index(of: "Cat")), key: 3))).sql,
                       "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSPECIES, t0.ZVALUE, t0.ZFAVORITEANIMAL, t0.Z1_FAVORITEANIMAL, t0.ZVET, t0.ZEDUCATIONLEVEL, t0.ZFAVORITETOY FROM ZANIMAL t0 WHERE t0.Z_PK = ?")
    }

    /// `includesSubentities = NO` on an entity with sub-entities (no log found; inferred from the
    /// numbering): `Z_ENT = ?`, with the list of a fetch of the entity and its sub-entities (the
    /// suite's choice, as for `lookup-id`'s objects of the root; docs/strategies.md says why).
    func testAnEntityWithoutItsSubentitiesIsOneZENT() throws {
        let model = try Model(ModelPresets.publications)
        let query = try SingleTable(model: model).fetchQuery(FetchRequest(entity: model.mainRoot, includesSubentities: false))
        XCTAssertEqual(query.sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, t0.ZDOI, t0.ZPAPERTYPE, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZPAGECOUNT, t0.ZURL1, t0.ZWORDCOUNT FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?")
        XCTAssertEqual(query.values, [.integer(1)])
    }
}

extension SingleTableFaultTests {
    /// The root's fetch filtered on Book's own isbn: the whole list, the column's condition alone, no
    /// `Z_ENT` condition (the root fetch of Moody's logs; its condition on a sub-entity's column inferred).
    func testARootFetchOnASubentitysAttributeHasNoEntityCondition() throws {
        let model = try Model(ModelPresets.publications)
        let book = try XCTUnwrap(model.index(of: "Book"))
        let query = try SingleTable(model: model).fetchQuery(FetchRequest(entity: book, predicate: .equals("isbn", .text("978")), asRootFetch: true))
        XCTAssertEqual(query.sql, "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, t0.ZDOI, t0.ZPAPERTYPE, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZPAGECOUNT, t0.ZURL1, t0.ZWORDCOUNT FROM ZPUBLICATION t0 WHERE t0.ZISBN = ?")
        XCTAssertEqual(query.values, [.text("978")])
        // Without its sub-entities, only a key keeps the root's read to the entity's objects.
        let own = FetchRequest(entity: model.mainRoot, includesSubentities: false, predicate: .equals("title", .text("a")), asRootFetch: true)
        XCTAssertThrowsError(try SingleTable(model: model).fetchQuery(own)) { error in
            XCTAssertEqual("\(error)", "single-table: a root fetch answers Publication only with its sub-entities, or by key")
        }
    }
}
