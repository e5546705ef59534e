import CoreDataLayout
import FetchRequests
import Generation
import Models
@testable import Strategies
import XCTest

/// `TablePerEntity` is a value derived from the model alone: these tests build it from
/// models without opening a database, and pin its flattened model, tables, statements and reads.
final class TablePerEntityLayoutTests: XCTestCase {
    /// The small model of `JoinedLayoutTests`: a hierarchy with an abstract middle entity, two
    /// sub-entities both declaring `label`, a to-one from a sub-entity to a plain root and one to
    /// the hierarchy, a many-to-many relationship to the hierarchy, constraints, fetch indexes.
    static let shapes = JoinedLayoutTests.shapes

    /// The whole DDL of the small model: a dense table per concrete entity holding its inherited
    /// columns (no table for Shape or Polygon), an entity column `Z3_NEIGHBOUR` right after the
    /// foreign key to a hierarchy of two tables, a join table per concrete entity Tag links to,
    /// Shape's fetch index copied to both tables, Square's `entity` element dropped.
    func testTheSmallModelsStatements() throws {
        let layout = try TablePerEntity(model: try Model(Self.shapes))
        XCTAssertEqual(layout.schemaSQL, [
            "CREATE TABLE ZCANVAS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE ZCIRCLE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCANVAS INTEGER, ZCREATED TIMESTAMP, ZRADIUS FLOAT, ZLABEL VARCHAR, ZNAME VARCHAR )",
            "CREATE TABLE ZCOLOUR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEX VARCHAR )",
            "CREATE TABLE ZSQUARE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSIDES INTEGER, ZCANVAS INTEGER, ZFILL INTEGER, ZNEIGHBOUR INTEGER, Z3_NEIGHBOUR INTEGER, ZCREATED TIMESTAMP, ZSIDE FLOAT, ZLABEL VARCHAR, ZNAME VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWORD VARCHAR )",
            "CREATE TABLE Z_2TAGS ( Z_2CIRCLES INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_2CIRCLES, Z_5TAGS) )",
            "CREATE TABLE Z_4TAGS ( Z_4SQUARES INTEGER, Z_5TAGS1 INTEGER, PRIMARY KEY (Z_4SQUARES, Z_5TAGS1) )",
            "CREATE INDEX ZCIRCLE_ZCANVAS_INDEX ON ZCIRCLE (ZCANVAS)",
            "CREATE INDEX ZSQUARE_ZCANVAS_INDEX ON ZSQUARE (ZCANVAS)",
            "CREATE INDEX ZSQUARE_ZFILL_INDEX ON ZSQUARE (ZFILL)",
            "CREATE INDEX ZSQUARE_ZNEIGHBOUR_INDEX ON ZSQUARE (ZNEIGHBOUR)",
            "CREATE INDEX Z_Circle_byName ON ZCIRCLE (ZNAME COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Square_UNIQUE_label ON ZSQUARE (ZLABEL COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Square_UNIQUE_name_side ON ZSQUARE (ZNAME COLLATE BINARY ASC, ZSIDE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Square_byName ON ZSQUARE (ZNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_Square_bySides ON ZSQUARE (ZSIDES COLLATE BINARY ASC, ZSIDE COLLATE BINARY ASC)",
            "CREATE INDEX Z_2TAGS_Z_5TAGS_INDEX ON Z_2TAGS (Z_5TAGS, Z_2CIRCLES)",
            "CREATE INDEX Z_4TAGS_Z_5TAGS1_INDEX ON Z_4TAGS (Z_5TAGS1, Z_4SQUARES)",
        ] + CoreDataSchema.bookkeepingSQL)
    }

    /// The flattened model: a root per concrete entity, the many-to-many relationship split per
    /// pair of tables (named after the partner on the side that reaches several), no table for
    /// abstract entities.
    func testTheFlattenedModel() throws {
        let model = try Model(Self.shapes)
        let layout = try TablePerEntity(model: model)
        let index = { (name: String) in try XCTUnwrap(model.index(of: name)) }
        XCTAssertEqual(layout.storedModel.entities.map(\.name), ["Canvas", "Circle", "Colour", "Square", "Tag"])
        XCTAssertEqual(layout.storedModel.entity("Tag")?.relationships.map(\.name), ["circles", "squares"])
        XCTAssertEqual(layout.storedModel.entity("Square")?.relationships.map(\.name), ["canvas", "fill", "neighbour", "tags"])
        XCTAssertEqual(layout.storedModel.entity("Square")?.fetchIndexes.map(\.name), ["byName", "bySides"])
        XCTAssertEqual(layout.concrete[try index("Shape")], [try index("Circle"), try index("Square")])
        XCTAssertEqual(layout.concrete[try index("Polygon")], [try index("Square")])
        XCTAssertNil(layout.flat[try index("Shape")], "abstract")
        XCTAssertEqual(layout.tables[try index("Polygon")], "")
        XCTAssertEqual(layout.tables[try index("Square")], "ZSQUARE")
    }

    /// Where each property of a concrete entity lives: its own table's columns, a to-one to the
    /// hierarchy keeping the destination's entity number, a to-one to one table naming it.
    func testColumnsAndJoinTables() throws {
        let model = try Model(Self.shapes)
        let layout = try TablePerEntity(model: model)
        let index = { (name: String) in try XCTUnwrap(model.index(of: name)) }
        let square = try index("Square"), tag = try index("Tag")
        XCTAssertEqual(try layout.column(square, "sides"), "ZSIDES")
        XCTAssertEqual(try layout.column(try index("Circle"), "label"), "ZLABEL")
        XCTAssertThrowsError(try layout.column(square, "missing"))
        let toOne = { (name: String) in layout.toOneColumns[square][try layout.toOnePosition(square, name)] }
        XCTAssertEqual(try toOne("neighbour").entity, "Z3_NEIGHBOUR")
        XCTAssertEqual(try toOne("fill").key, "ZFILL")
        XCTAssertNil(try toOne("fill").entity)
        XCTAssertEqual(try toOne("fill").destination, try index("Colour"))
        XCTAssertThrowsError(try toOne("tags"), "to-many")
        XCTAssertEqual(try layout.place(square, "fill").column, "ZFILL")
        let tags = try XCTUnwrap(model.entities[square].relationship("tags"))
        let links = layout.joinLinks(square, tags)
        XCTAssertEqual(links.map(\.join), ["Z_4TAGS"])
        XCTAssertEqual(links.map(\.this), ["Z_4SQUARES"])
        XCTAssertEqual(links.map(\.other), ["Z_5TAGS1"])
        XCTAssertEqual(links.map(\.partner), [tag])
        let shapes = try XCTUnwrap(model.entities[tag].relationship("shapes"))
        XCTAssertEqual(layout.joinLinks(tag, shapes).map(\.join), ["Z_2TAGS", "Z_4TAGS"], "one join table per partner table")
    }

    /// `ANY` through a to-many reads the tables of the concrete entities that keep both the
    /// inverse's key and the attribute (`JoinedLayoutTests.paints`): Polygon's and Square's as one
    /// `UNION ALL` for Shape's `name` (Circle has it but no `fill`).
    func testAnyThroughAToManyReadsEachTableKeepingIt() throws {
        let model = try Model(JoinedLayoutTests.paints)
        let byName = try TablePerEntity(model: model).fetchQuery(FetchRequest(entity: try XCTUnwrap(model.index(of: "Colour")),
                                                                                predicate: .anyRelated("polygons", "name", .text("n")))).sql
        XCTAssertTrue(byName.hasSuffix(" FROM ZCOLOUR t0 JOIN (SELECT d.ZFILL AS Z_SOURCE, d.ZNAME AS Z_VALUE FROM ZPOLYGON d UNION ALL "
            + "SELECT d.ZFILL AS Z_SOURCE, d.ZNAME AS Z_VALUE FROM ZSQUARE d) t1 ON t1.Z_SOURCE = t0.Z_PK WHERE t1.Z_VALUE = ?"), byName)
    }

    /// An abstract entity has no table and no objects: deleting one is the `LayoutError` every
    /// strategy's store throws for inserting one, naming the entity.
    func testAnAbstractEntityHasNoObjectsToDelete() throws {
        let model = try Model(Self.shapes)
        let polygon = try XCTUnwrap(model.index(of: "Polygon"))
        XCTAssertThrowsError(try TablePerEntity(model: model).deleteStatements(polygon)) { error in
            XCTAssertTrue(error is LayoutError, "\(type(of: error))")
            XCTAssertEqual("\(error)", "table-per-entity: Polygon is abstract; it has no objects to delete (its objects are stored as their concrete entities)")
        }
    }

    /// An object is one INSERT into its entity's table: `Z_PK, Z_ENT, Z_OPT`, its attributes in
    /// `attributes` order, then each to-one's key (and entity column); a version is read there.
    func testInserts() throws {
        let model = try Model(Self.shapes)
        let layout = try TablePerEntity(model: model)
        let square = try XCTUnwrap(model.index(of: "Square")), polygon = try XCTUnwrap(model.index(of: "Polygon"))
        XCTAssertEqual(layout.insertPlan(square)?.steps.first?.sql,
                       "INSERT INTO ZSQUARE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCREATED, ZSIDES, ZSIDE, ZLABEL, ZCANVAS, ZFILL, ZNEIGHBOUR, Z3_NEIGHBOUR) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        XCTAssertNil(layout.insertPlan(polygon), "abstract")
        XCTAssertEqual(layout.versionSQL(square), "SELECT Z_OPT FROM ZSQUARE WHERE Z_PK = ?")
        XCTAssertNil(layout.versionSQL(polygon))
        // Per generating relationship of a concrete entity: one link INSERT per partner table.
        var checked = 0
        for entity in model.entities where entity.isConcrete {
            let generating = entity.relationships.filter { $0.isManyToMany && $0.generatesLinks }
            let byRelationship = try XCTUnwrap(layout.insertPlan(entity.index)?.links)
            XCTAssertEqual(byRelationship.count, generating.count, entity.name)
            for (relationship, link) in zip(generating, byRelationship) {
                guard case let .byDestination(byPartner) = link else { return XCTFail("one link INSERT per partner: \(entity.name)") }
                XCTAssertEqual(byPartner.keys.sorted(), layout.joinLinks(entity.index, relationship).map(\.partner), entity.name)
                checked += byPartner.count
            }
        }
        XCTAssertEqual(checked, 2, "Circle–Tag and Square–Tag")
        let tag = try XCTUnwrap(model.index(of: "Tag"))
        if try XCTUnwrap(model.entities[square].relationship("tags")).generatesLinks {
            XCTAssertEqual(layout.insertPlan(square)?.links.map { $0.sql(to: tag) }, ["INSERT INTO Z_4TAGS (Z_4SQUARES, Z_5TAGS1) VALUES (?, ?)"])
        } else {
            XCTAssertEqual(layout.insertPlan(tag)?.links.first?.sql(to: square), "INSERT INTO Z_4TAGS (Z_5TAGS1, Z_4SQUARES) VALUES (?, ?)")
        }
    }

    /// A read across the hierarchy shares one list: Shape's columns, then each descendant's own,
    /// named as Core Data's single table would name them (Square's `label` is `ZLABEL1`); an arm
    /// selects NULL for what its entity lacks and only the first arm names the columns.
    func testTheUnionList() throws {
        let model = try Model(Self.shapes)
        let layout = try TablePerEntity(model: model)
        let shape = try XCTUnwrap(model.index(of: "Shape")), circle = try XCTUnwrap(model.index(of: "Circle"))
        let square = try XCTUnwrap(model.index(of: "Square"))
        let (read, names) = layout.unionList(shape)
        XCTAssertEqual(names, ["Z_ENT", "Z_PK", "Z_OPT", "ZNAME", "ZCREATED", "ZCANVAS", "ZRADIUS", "ZLABEL",
                                      "ZSIDES", "ZFILL", "ZSIDE", "ZLABEL1", "ZNEIGHBOUR", "Z3_NEIGHBOUR"])
        XCTAssertEqual(layout.armList(read, circle, names: nil),
                       "4, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZCREATED, t0.ZCANVAS, t0.ZRADIUS, t0.ZLABEL, NULL, NULL, NULL, NULL, NULL, NULL")
        XCTAssertTrue(layout.armList(read, square, names: names).hasPrefix("6 AS Z_ENT, t0.Z_PK AS Z_PK, t0.Z_OPT AS Z_OPT, t0.ZNAME AS ZNAME"))
        XCTAssertEqual(read.concrete, [circle, square])
        XCTAssertTrue(try layout.tableList(square).sql.hasSuffix(", t0.Z3_NEIGHBOUR"), "the entity column follows Core Data's list")
    }

    /// Every preset is laid out without a database: a table per concrete entity, none for an
    /// abstract one, an INSERT binding every column.
    func testPresetsAreLaidOutWithoutADatabase() throws {
        for description in ModelPresets.all {
            let model = try Model(description)
            let layout = try TablePerEntity(model: model)
            XCTAssertEqual(layout.storedModel.entities.count, model.concreteEntities.count, description.name)
            for entity in model.entities {
                XCTAssertEqual(layout.tables[entity.index].isEmpty, !entity.isConcrete, "\(description.name): \(entity.name)")
                guard entity.isConcrete else { continue }
                let columns = 3 + entity.attributes.count + layout.toOneColumns[entity.index].reduce(0) { $0 + ($1.entity == nil ? 1 : 2) }
                let marks = layout.insertPlan(entity.index)?.steps.first?.sql.components(separatedBy: "?").count
                XCTAssertEqual(marks, columns + 1, "\(description.name): \(entity.name)")
            }
            XCTAssertEqual(Array(layout.schemaSQL.suffix(3)), CoreDataSchema.bookkeepingSQL, description.name)
        }
    }
}
