import CoreDataLayout
import FetchRequests
import Generation
import Models
@testable import Strategies
import XCTest

/// `Joined` (and `JoinedReader`) are values derived from the model alone: these tests build
/// them from models without opening a database, and pin their tables, statements and reads.
final class JoinedLayoutTests: XCTestCase {
    /// A small model: a hierarchy with an abstract middle entity, two sub-entities both declaring
    /// `label`, a to-one from a sub-entity to a plain root and one to the hierarchy, a many-to-many
    /// relationship, a constraint within one table and one across two, a fetch index with `entity`
    /// on a sub-entity.
    static let shapes = ModelDescription(name: "shapes", entities: [
        EntityDescription("Shape", abstract: true, attributes: [Attribute("name", .string), Attribute("created", .date)], relationships: [
            RelationshipDescription("canvas", destination: "Canvas", inverse: "shapes", optional: true),
            RelationshipDescription("tags", destination: "Tag", inverse: "shapes", toMany: true, count: FanOut(min: 0, max: 2)),
        ], fetchIndexes: [FetchIndex("byName", "name")]),
        EntityDescription("Circle", parent: "Shape", rows: 10, attributes: [Attribute("radius", .double), Attribute("label", .string)]),
        EntityDescription("Polygon", parent: "Shape", abstract: true, attributes: [Attribute("sides", .integer32)], relationships: [
            RelationshipDescription("fill", destination: "Colour", optional: true),
        ]),
        EntityDescription("Square", parent: "Polygon", rows: 10, attributes: [Attribute("side", .double), Attribute("label", .string)],
                          relationships: [RelationshipDescription("neighbour", destination: "Shape", optional: true)],
                          uniquenessConstraints: [["label"], ["name", "side"]], fetchIndexes: [FetchIndex("bySides", "entity", "sides", "side")]),
        EntityDescription("Canvas", rows: 5, attributes: [Attribute("title", .string)], relationships: [
            RelationshipDescription("shapes", destination: "Shape", inverse: "canvas", toMany: true),
        ]),
        EntityDescription("Colour", rows: 3, attributes: [Attribute("hex", .string)]),
        EntityDescription("Tag", rows: 4, attributes: [Attribute("word", .string)], relationships: [
            RelationshipDescription("shapes", destination: "Shape", inverse: "tags", toMany: true),
        ]),
    ])

    /// The whole DDL of the small model: a table per entity of its own columns (Circle's and
    /// Square's `label` both `ZLABEL`, no counting suffix), sub-tables keyed by the root row, each
    /// foreign key's index in the table holding it, a constraint across two tables as a plain index
    /// of its last property's table, a fetch index on a sub-entity keeping that table's columns only.
    func testTheSmallModelsStatements() throws {
        let layout = try Joined(model: try Model(Self.shapes))
        XCTAssertEqual(layout.schemaSQL, [
            "CREATE TABLE ZCANVAS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE ZCOLOUR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEX VARCHAR )",
            "CREATE TABLE ZSHAPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCANVAS INTEGER, ZCREATED TIMESTAMP, ZNAME VARCHAR )",
            "CREATE TABLE ZCIRCLE ( Z_PK INTEGER PRIMARY KEY REFERENCES ZSHAPE (Z_PK) ON DELETE CASCADE, ZRADIUS FLOAT, ZLABEL VARCHAR )",
            "CREATE TABLE ZPOLYGON ( Z_PK INTEGER PRIMARY KEY REFERENCES ZSHAPE (Z_PK) ON DELETE CASCADE, ZSIDES INTEGER, ZFILL INTEGER )",
            "CREATE TABLE ZSQUARE ( Z_PK INTEGER PRIMARY KEY REFERENCES ZSHAPE (Z_PK) ON DELETE CASCADE, ZNEIGHBOUR INTEGER, Z3_NEIGHBOUR INTEGER, ZSIDE FLOAT, ZLABEL VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWORD VARCHAR )",
            "CREATE TABLE Z_3TAGS ( Z_3SHAPES INTEGER, Z_7TAGS INTEGER, PRIMARY KEY (Z_3SHAPES, Z_7TAGS) )",
            "CREATE INDEX ZSHAPE_Z_ENT_INDEX ON ZSHAPE (Z_ENT)",
            "CREATE INDEX ZSHAPE_ZCANVAS_INDEX ON ZSHAPE (ZCANVAS)",
            "CREATE INDEX ZPOLYGON_ZFILL_INDEX ON ZPOLYGON (ZFILL)",
            "CREATE INDEX ZSQUARE_ZNEIGHBOUR_INDEX ON ZSQUARE (ZNEIGHBOUR)",
            "CREATE INDEX Z_Shape_byName ON ZSHAPE (ZNAME COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Square_UNIQUE_label ON ZSQUARE (ZLABEL COLLATE BINARY ASC)",
            "CREATE INDEX Z_Square_UNIQUE_name_side ON ZSQUARE (ZSIDE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Square_bySides ON ZSQUARE (ZSIDE COLLATE BINARY ASC)",
            "CREATE INDEX Z_3TAGS_Z_7TAGS_INDEX ON Z_3TAGS (Z_7TAGS, Z_3SHAPES)",
        ] + CoreDataSchema.bookkeepingSQL)
    }

    /// An object is one INSERT per table on its path, root first (`Z_ENT, Z_OPT` only there), each
    /// binding its columns in fetch order; its generated links go to the join table.
    func testInsertsFollowThePath() throws {
        let model = try Model(Self.shapes)
        let layout = try Joined(model: model)
        let square = try XCTUnwrap(model.index(of: "Square")), shape = try XCTUnwrap(model.index(of: "Shape"))
        let polygon = try XCTUnwrap(model.index(of: "Polygon"))
        XCTAssertEqual(layout.paths[square], [shape, polygon, square])
        let plan = try XCTUnwrap(layout.insertPlan(square))
        let steps = plan.steps
        XCTAssertEqual(steps.map(\.sql), [
            "INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT, ZCREATED, ZNAME, ZCANVAS) VALUES (?, ?, ?, ?, ?, ?)",
            "INSERT INTO ZPOLYGON (Z_PK, ZSIDES, ZFILL) VALUES (?, ?, ?)",
            "INSERT INTO ZSQUARE (Z_PK, ZLABEL, ZSIDE, ZNEIGHBOUR, Z3_NEIGHBOUR) VALUES (?, ?, ?, ?, ?)",
        ])
        // Square's attributes: name, created, sides, side, label; its to-ones: canvas, fill, neighbour.
        XCTAssertEqual(steps.map(\.sources), [
            [.key, .entityNumber, .version, .value(1), .value(0), .toOneKey(0)],
            [.key, .value(2), .toOneKey(1)],
            [.key, .value(4), .value(3), .toOneKey(2), .toOneEntity(2)],
        ])
        XCTAssertEqual(plan.links.map { $0.sql(to: 0) }, ["INSERT INTO Z_3TAGS (Z_3SHAPES, Z_7TAGS) VALUES (?, ?)"])
        XCTAssertNil(layout.insertPlan(polygon), "abstract")
        XCTAssertEqual(layout.versionSQL(square), "SELECT Z_OPT FROM ZSHAPE WHERE Z_PK = ?", "a version lives on the root's row")
    }

    /// A property is found in the table of the entity that declares it, from any descendant.
    func testPropertiesLiveInTheirDeclaringEntitysTable() throws {
        let model = try Model(Self.shapes)
        let layout = try Joined(model: model)
        let index = { (name: String) in try XCTUnwrap(model.index(of: name)) }
        let square = try index("Square")
        XCTAssertEqual(try layout.place(square, "name").table, "ZSHAPE")
        XCTAssertEqual(try layout.place(square, "name").column, "ZNAME")
        XCTAssertEqual(try layout.place(square, "sides").table, "ZPOLYGON")
        XCTAssertEqual(try layout.place(square, "label").table, "ZSQUARE")
        XCTAssertEqual(try layout.place(try index("Circle"), "label").column, "ZLABEL")
        XCTAssertEqual(try layout.place(square, "fill").table, "ZPOLYGON")
        XCTAssertEqual(try layout.place(square, "fill").column, "ZFILL")
        XCTAssertNil(layout.toOnePlace(square, try layout.toOnePosition(square, "fill")).entity, "Colour has no sub-entities")
        XCTAssertEqual(layout.toOnePlace(square, try layout.toOnePosition(square, "neighbour")).entity, "Z3_NEIGHBOUR")
        XCTAssertThrowsError(try layout.place(square, "tags"), "to-many")
        XCTAssertThrowsError(try layout.place(square, "missing"))
        XCTAssertEqual(layout.tables[square].tableOrder.map(\.name), ["ZNEIGHBOUR", "Z3_NEIGHBOUR", "ZSIDE", "ZLABEL"])
        XCTAssertEqual(layout.tables[square].properties[1], .attribute(try XCTUnwrap(model.entities[square].attributeIndex("side"))), "ZSIDE")
    }

    /// A read joins the ancestors (`t1`, `t2`, … up to the root) and, with sub-entities, left-joins
    /// the descendants, selecting each table's columns and then each left-joined table's `Z_PK`.
    func testReads() throws {
        let model = try Model(Self.shapes)
        let layout = try Joined(model: model)
        let polygon = try XCTUnwrap(model.index(of: "Polygon")), square = try XCTUnwrap(model.index(of: "Square"))
        let shape = try XCTUnwrap(model.index(of: "Shape")), canvas = try XCTUnwrap(model.index(of: "Canvas"))
        let withSquares = JoinedReader(layout, entity: polygon, includesSubentities: true)
        XCTAssertEqual(withSquares.selectList, "t1.Z_ENT, t0.Z_PK, t1.Z_OPT, t1.ZCREATED, t1.ZNAME, t1.ZCANVAS, t0.ZSIDES, t0.ZFILL, t2.ZLABEL, t2.ZSIDE, t2.ZNEIGHBOUR, t2.Z3_NEIGHBOUR, t2.Z_PK")
        XCTAssertEqual(withSquares.read.concrete, [square])
        XCTAssertEqual([polygon, shape, square].map(withSquares.alias), ["t0", "t1", "t2"])
        XCTAssertEqual([polygon, shape, square].map(withSquares.position), [1, 0, 2], "the path from the root, then the descendants")
        XCTAssertEqual(JoinedReader(layout, entity: polygon, includesSubentities: false).read.concrete, [], "abstract")
        XCTAssertEqual(JoinedReader(layout, entity: square, includesSubentities: true).selectList,
                       "t2.Z_ENT, t0.Z_PK, t2.Z_OPT, t2.ZCREATED, t2.ZNAME, t2.ZCANVAS, t1.ZSIDES, t1.ZFILL, t0.ZLABEL, t0.ZSIDE, t0.ZNEIGHBOUR, t0.Z3_NEIGHBOUR")
        XCTAssertEqual(JoinedReader(layout, entity: canvas, includesSubentities: true).selectList, "0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE")
        XCTAssertFalse(withSquares.needsUnion)
    }

    /// A to-many to a middle entity whose inverse it declares (Colour's `polygons`, Polygon's
    /// `fill`), its destination's attributes declared by it (`sides`) and by the root (`name`).
    static let paints = ModelDescription(name: "paints", entities: [
        EntityDescription("Shape", abstract: true, attributes: [Attribute("name", .string)]),
        EntityDescription("Circle", parent: "Shape", rows: 4, attributes: [Attribute("radius", .double)]),
        EntityDescription("Polygon", parent: "Shape", rows: 4, attributes: [Attribute("sides", .integer32)], relationships: [
            RelationshipDescription("fill", destination: "Colour", inverse: "polygons", optional: true),
        ]),
        EntityDescription("Square", parent: "Polygon", rows: 4, attributes: [Attribute("side", .double)]),
        EntityDescription("Colour", rows: 3, attributes: [Attribute("hex", .string)], relationships: [
            RelationshipDescription("polygons", destination: "Polygon", inverse: "fill", toMany: true),
        ]),
    ])

    /// `ANY` through a to-many joins where each part is kept: a join table, then the destination's
    /// table by key (as Core Data spells it); a one-to-many's inverse key in the table declaring it,
    /// then the table declaring the attribute by key when it is another (Shape's `name`).
    func testAnyThroughAToManyJoinsTheTablesKeepingItsParts() throws {
        let shapes = try Model(Self.shapes)
        let byWord = try Joined(model: shapes).fetchQuery(FetchRequest(entity: try XCTUnwrap(shapes.index(of: "Shape")), predicate: .anyRelated("tags", "word", .text("a")))).sql
        XCTAssertTrue(byWord.contains(" JOIN Z_3TAGS r1 ON t0.Z_PK = r1.Z_3SHAPES JOIN ZTAG r2 ON r2.Z_PK = r1.Z_7TAGS ") && byWord.hasSuffix(" WHERE r2.ZWORD = ?"), byWord)
        let paints = try Model(Self.paints)
        let layout = try Joined(model: paints), colour = try XCTUnwrap(paints.index(of: "Colour"))
        let byName = try layout.fetchQuery(FetchRequest(entity: colour, predicate: .anyRelated("polygons", "name", .text("n")))).sql
        XCTAssertTrue(byName.hasSuffix(" FROM ZCOLOUR t0 JOIN ZPOLYGON r1 ON r1.ZFILL = t0.Z_PK JOIN ZSHAPE r2 ON r2.Z_PK = r1.Z_PK WHERE r2.ZNAME = ?"), byName)
        let bySides = try layout.fetchQuery(FetchRequest(entity: colour, predicate: .anyRelated("polygons", "sides", .integer(4)))).sql
        XCTAssertTrue(bySides.hasSuffix(" FROM ZCOLOUR t0 JOIN ZPOLYGON r1 ON r1.ZFILL = t0.Z_PK WHERE r1.ZSIDES = ?"), bySides)
    }

    /// Above 64 tables a read is a union of one arm per concrete entity, the first naming the columns.
    func testAWideHierarchyIsReadAsAUnion() throws {
        let model = try Model(SyntheticModel.make(leaves: 80, attributes: 3, skew: 1, rows: 1_000, depth: 1))
        let layout = try Joined(model: model)
        let reader = JoinedReader(layout, entity: model.mainRoot, includesSubentities: true)
        XCTAssertTrue(reader.needsUnion)
        let (arms, values) = reader.unionArms(layout)
        XCTAssertEqual(arms.count, reader.read.concrete.count)
        XCTAssertTrue(arms[0].hasPrefix("SELECT s1.Z_ENT AS Z_ENT, s0.Z_PK AS Z_PK, s1.Z_OPT AS Z_OPT, s1."), arms[0])
        XCTAssertFalse(arms[1].contains(" AS "), arms[1])
        XCTAssertEqual(values.count, reader.read.concrete.filter { model.entities[$0].hasSubentities }.count)
        XCTAssertFalse(JoinedReader(layout, entity: model.mainRoot, includesSubentities: false).needsUnion)
    }

    /// Every preset is laid out without a database: a table per entity, an INSERT step per table on
    /// each concrete entity's path.
    func testPresetsAreLaidOutWithoutADatabase() throws {
        for description in ModelPresets.all {
            let model = try Model(description)
            let layout = try Joined(model: model)
            XCTAssertEqual(layout.tables.map(\.name), model.entities.map { "Z" + $0.name.uppercased() }, description.name)
            for entity in model.entities {
                XCTAssertEqual(layout.paths[entity.index].first, entity.root, "\(description.name): \(entity.name)")
                XCTAssertEqual(layout.insertPlan(entity.index)?.steps.count, entity.isConcrete ? entity.depth + 1 : nil, "\(description.name): \(entity.name)")
            }
            XCTAssertEqual(Array(layout.schemaSQL.suffix(3)), CoreDataSchema.bookkeepingSQL, description.name)
        }
    }
}
