import CoreDataLayout
import FetchRequests
import Models
@testable import Strategies
import XCTest

/// `JSONEntity` is a value derived from the model alone: these tests build it from models
/// without opening a database, and pin its stored model, where properties live, its statements
/// and its reads.
final class JSONEntityLayoutTests: XCTestCase {
    /// The small model of `JoinedLayoutTests` (a hierarchy with an abstract middle entity, a to-one
    /// to the hierarchy, a many-to-many relationship, a sub-entity's constraints and fetch index).
    static let shapes = JoinedLayoutTests.shapes

    /// The whole DDL of the small model: Shape's hierarchy one table with `ZKIND`, `ZDETAILS` and
    /// `ZNEIGHBOURKIND`, Core Data's indexes of it, the kind index, and Square's constraints and
    /// fetch index as partial indexes on `ZKIND = 6` reading `details` with `->>`.
    func testTheSmallModelsStatements() throws {
        let layout = try JSONEntity(model: try Model(Self.shapes))
        XCTAssertEqual(layout.schemaSQL, [
            "CREATE TABLE ZCANVAS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE ZCOLOUR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEX VARCHAR )",
            "CREATE TABLE ZSHAPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZNEIGHBOURKIND INTEGER, ZCANVAS INTEGER, ZFILL INTEGER, ZNEIGHBOUR INTEGER, ZCREATED TIMESTAMP, ZDETAILS VARCHAR, ZNAME VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWORD VARCHAR )",
            "CREATE TABLE Z_3TAGS ( Z_3SHAPES INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_3SHAPES, Z_4TAGS) )",
            "CREATE INDEX ZSHAPE_ZCANVAS_INDEX ON ZSHAPE (ZCANVAS)",
            "CREATE INDEX ZSHAPE_ZFILL_INDEX ON ZSHAPE (ZFILL)",
            "CREATE INDEX ZSHAPE_ZNEIGHBOUR_INDEX ON ZSHAPE (ZNEIGHBOUR)",
            "CREATE INDEX Z_Shape_byName ON ZSHAPE (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_3TAGS_Z_4TAGS_INDEX ON Z_3TAGS (Z_4TAGS, Z_3SHAPES)",
            "CREATE INDEX ZSHAPE_ZKIND_INDEX ON ZSHAPE (ZKIND)",
            "CREATE UNIQUE INDEX Z_Shape_UNIQUE_label ON ZSHAPE ((ZDETAILS ->> '$.label') COLLATE BINARY ASC) WHERE ZKIND = 6",
            "CREATE UNIQUE INDEX Z_Shape_UNIQUE_name_side ON ZSHAPE (ZNAME COLLATE BINARY ASC, (ZDETAILS ->> '$.side') COLLATE BINARY ASC) WHERE ZKIND = 6",
            "CREATE INDEX Z_Shape_bySides ON ZSHAPE (ZKIND COLLATE BINARY ASC, (ZDETAILS ->> '$.sides') COLLATE BINARY ASC, (ZDETAILS ->> '$.side') COLLATE BINARY ASC) WHERE ZKIND = 6",
        ] + CoreDataSchema.bookkeepingSQL)
    }

    /// The stored model: one entity per root, the hierarchy's relationships on its root's entity,
    /// `kind`, `details` and the to-one's `neighbourKind` added.
    func testTheStoredModel() throws {
        let layout = try JSONEntity(model: try Model(Self.shapes))
        XCTAssertEqual(layout.storedModel.entities.map(\.name), ["Canvas", "Colour", "Shape", "Tag"])
        XCTAssertEqual(layout.storedModel.entity("Shape")?.attributes.map(\.name), ["name", "created", "kind", "details", "neighbourKind"])
        XCTAssertEqual(layout.storedModel.entity("Shape")?.relationships.map(\.name), ["canvas", "tags", "fill", "neighbour"])
        XCTAssertEqual(layout.storedModel.entity("Canvas")?.attributes.map(\.name), ["title"])
    }

    /// The root's attributes are typed columns, the sub-entities' keys of `details`; every entity
    /// of the hierarchy shares its root's table.
    func testWherePropertiesLive() throws {
        let model = try Model(Self.shapes)
        let layout = try JSONEntity(model: model)
        let index = { (name: String) in try XCTUnwrap(model.index(of: name)) }
        let square = try index("Square")
        XCTAssertEqual(layout.stored.places[square].map { $0.sql("t0") },
                       ["t0.ZNAME", "t0.ZCREATED", "t0.ZDETAILS ->> '$.sides'", "t0.ZDETAILS ->> '$.side'", "t0.ZDETAILS ->> '$.label'"])
        XCTAssertEqual(layout.stored.places[try index("Canvas")].map { $0.sql("t0") }, ["t0.ZTITLE"])
        XCTAssertEqual(layout.stored.roots[square].table, "ZSHAPE")
        XCTAssertEqual(layout.stored.roots[square].kind, "ZKIND")
        XCTAssertEqual(layout.stored.roots[square].details, "ZDETAILS")
        XCTAssertNil(layout.stored.roots[try index("Canvas")].kind, "a root without sub-entities")
        XCTAssertEqual(try layout.expression(square, "side", alias: "t0").sql, "t0.ZDETAILS ->> '$.side'")
        XCTAssertEqual(try layout.expression(square, "name", alias: "t1").sql, "t1.ZNAME")
        XCTAssertEqual(try layout.toOne(square, "neighbour").entity, "ZNEIGHBOURKIND")
        XCTAssertNil(try layout.toOne(square, "fill").entity)
        XCTAssertEqual(layout.entityNumber(try index("Shape"), alias: "t1"), "t1.ZKIND")
        XCTAssertEqual(layout.entityNumber(try index("Canvas"), alias: "t1"), "\(try index("Canvas") + 1)")
        XCTAssertEqual(try layout.link(try XCTUnwrap(model.entities[square].relationship("tags"))).name, "Z_3TAGS")
        XCTAssertEqual(layout.partialIndexes.map(\.subtree), [square ... square, square ... square, square ... square])
        XCTAssertEqual(layout.partialIndexes.map(\.properties), [["label"], ["name", "side"], ["sides", "side"]])
    }

    /// An object is one INSERT: the typed columns and to-ones bound, `details` built by
    /// `json_object` from the sub-entities' attributes in attribute order (a REAL through `json(?)`).
    func testInserts() throws {
        let model = try Model(Self.shapes)
        let layout = try JSONEntity(model: model)
        let square = try XCTUnwrap(model.index(of: "Square"))
        let insert = try XCTUnwrap(layout.insertPlan(square)?.steps.first)
        XCTAssertEqual(insert.sql, "INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT, ZKIND, ZNAME, ZCREATED, ZCANVAS, ZFILL, ZNEIGHBOUR, ZNEIGHBOURKIND, ZDETAILS) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, json_object('sides', ?, 'side', json(?), 'label', ?))")
        // The typed columns' attributes, the to-ones (Square's neighbour with its kind), then the details' attributes.
        XCTAssertEqual(insert.sources, [.key, .constant(Int64(layout.stored.roots[square].stored + 1)), .version, .entityNumber, .value(0), .value(1),
                                        .toOneKey(0), .toOneKey(1), .toOneKey(2), .toOneEntity(2), .detail(2), .detail(3), .detail(4)])
        XCTAssertNil(layout.insertPlan(try XCTUnwrap(model.index(of: "Polygon"))), "abstract")
    }

    /// More than 63 keys take several `json_object` calls patched together; optional keys start
    /// from `json_patch('{}', …)`, which drops NULLs.
    func testDetailsExpressions() {
        XCTAssertEqual(JSONEntity.detailsExpression([], dropsNulls: true), "'{}'")
        XCTAssertEqual(JSONEntity.detailsExpression(["a", "b"], dropsNulls: false), "json_object('a', ?, 'b', ?)")
        XCTAssertEqual(JSONEntity.detailsExpression(["a"], dropsNulls: true), "json_patch('{}', json_object('a', ?))")
        XCTAssertEqual(JSONEntity.detailsExpression(["a", "b"], dropsNulls: false, numbers: ["b"]), "json_object('a', ?, 'b', json(?))")
        let keys = (1 ... 64).map { "k\($0)" }
        let expression = JSONEntity.detailsExpression(keys, dropsNulls: false)
        XCTAssertTrue(expression.hasPrefix("json_patch(json_object('k1', ?, "), expression)
        XCTAssertTrue(expression.hasSuffix("'k63', ?), json_object('k64', ?))"), expression)
        XCTAssertEqual(JSONEntity.kindTerm(3 ... 3, column: "t0.ZKIND"), "t0.ZKIND = 4")
        XCTAssertEqual(JSONEntity.kindTerm(2 ... 5, column: "ZKIND"), "ZKIND BETWEEN 3 AND 6")
    }

    /// A fetch selects the kind, the columns its subtree needs in Core Data's fetch order of the table (attributes, then to-ones) and
    /// `details` when an entity of it keeps a key there.
    func testReads() throws {
        let model = try Model(Self.shapes)
        let layout = try JSONEntity(model: model)
        let shape = try XCTUnwrap(model.index(of: "Shape")), canvas = try XCTUnwrap(model.index(of: "Canvas"))
        XCTAssertEqual(try layout.selection(FetchRequest(entity: shape)).list,
                       "t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZDETAILS, t0.ZNAME, t0.ZNEIGHBOURKIND, t0.ZCANVAS, t0.ZFILL, t0.ZNEIGHBOUR")
        XCTAssertEqual(try layout.selection(FetchRequest(entity: try XCTUnwrap(model.index(of: "Circle")))).list,
                       "t0.ZKIND, t0.Z_PK, t0.Z_OPT, t0.ZCREATED, t0.ZDETAILS, t0.ZNAME, t0.ZCANVAS")
        XCTAssertEqual(try layout.selection(FetchRequest(entity: canvas)).list, "0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE")
    }

    /// Every preset is laid out without a database: one stored entity per root, an INSERT per
    /// concrete entity into its root's table.
    func testPresetsAreLaidOutWithoutADatabase() throws {
        for description in ModelPresets.all {
            let model = try Model(description)
            let layout = try JSONEntity(model: model)
            XCTAssertEqual(layout.storedModel.entities.count, model.roots.count, description.name)
            for entity in model.entities {
                XCTAssertEqual(layout.stored.roots[entity.index].root, entity.root, "\(description.name): \(entity.name)")
                XCTAssertEqual(layout.insertPlan(entity.index)?.steps.first?.sql.hasPrefix("INSERT INTO \(layout.stored.roots[entity.index].table) "),
                               entity.isConcrete ? true : nil, "\(description.name): \(entity.name)")
            }
            XCTAssertEqual(Array(layout.schemaSQL.suffix(3)), CoreDataSchema.bookkeepingSQL, description.name)
        }
    }
}
