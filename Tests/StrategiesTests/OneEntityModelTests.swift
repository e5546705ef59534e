import Models
@testable import Strategies
import XCTest

/// `OneEntityModel` derives enum-entity's and json-entity's stored models one way: a root without
/// sub-entities is stored as Core Data stores it, so its table and indexes are single-table's.
final class OneEntityModelTests: XCTestCase {
    /// A root without sub-entities (`Note`, with a partial fetch index as a store's model declares
    /// one) beside a hierarchy (`Shape`).
    static let notes = ModelDescription(name: "notes", entities: [
        EntityDescription("Note", rows: 10, attributes: [Attribute("title", .string, optional: true), Attribute("rank", .integer16)],
                          fetchIndexes: [FetchIndex("byTitledOnly", [FetchIndex.Element(property: "title")], condition: .compare(property: "title", .notEqual, .null)),
                                         FetchIndex("byRank", "rank desc")]),
        EntityDescription("Shape", abstract: true, attributes: [Attribute("name", .string)]),
        EntityDescription("Circle", parent: "Shape", rows: 5, attributes: [Attribute("radius", .double)]),
    ])

    func testARootWithoutSubEntitiesIsStoredAsCoreDataStoresIt() throws {
        let model = try Model(Self.notes)
        let note = try XCTUnwrap(model.index(of: "Note"))
        let single = try SingleTable(model: model)
        func noteStatements(_ schemaSQL: [String]) -> [String] { schemaSQL.filter { $0.contains("ZNOTE ") } }
        let expected = [
            "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZTITLE VARCHAR )",
            "CREATE INDEX Z_Note_byTitledOnly ON ZNOTE (ZTITLE COLLATE BINARY ASC) WHERE ZTITLE IS NOT NULL",
            "CREATE INDEX Z_Note_byRank ON ZNOTE (ZRANK COLLATE BINARY DESC)",
        ]
        XCTAssertEqual(noteStatements(single.schemaSQL), expected)
        let layouts: [any OneEntityLayout] = [try EnumEntity(model: model), try JSONEntity(model: model)]
        for layout in layouts {
            XCTAssertEqual(noteStatements(layout.schemaSQL), expected, layout.name)
            XCTAssertNil(layout.stored.roots[note].kind, layout.name)
            XCTAssertEqual(layout.stored.places[note].map { $0.sql("t0") }, ["t0.ZTITLE", "t0.ZRANK"], layout.name)
            XCTAssertEqual(layout.storedModel.entity("Note")?.fetchIndexes, model.entities[note].fetchIndexes, layout.name)
        }
    }
}
