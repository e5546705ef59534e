import CoreDataLayout
import Models
@testable import Strategies
import XCTest

/// `EnumEntity` is a value derived from the model alone: these tests build it from models
/// without opening a database, and pin its slots, names and statements.
final class EnumEntityLayoutTests: XCTestCase {
    /// A small model: a hierarchy with a middle entity (an abstract `Polygon` with a to-one to a
    /// plain root), a root attribute named `kind` and one named `text1`, a root to-one whose
    /// destination has sub-entities, a leaf's uniqueness constraint and fetch index.
    static let shapes = ModelDescription(name: "shapes", entities: [
        EntityDescription("Shape", abstract: true, attributes: [
            Attribute("name", .string), Attribute("kind", .integer16), Attribute("text1", .string, optional: true),
        ], relationships: [
            RelationshipDescription("canvas", destination: "Canvas", inverse: "shapes", optional: true),
        ]),
        EntityDescription("Circle", parent: "Shape", rows: 10, attributes: [Attribute("radius", .double), Attribute("label", .string)]),
        EntityDescription("Polygon", parent: "Shape", abstract: true, attributes: [Attribute("sides", .integer32)], relationships: [
            RelationshipDescription("fill", destination: "Colour", optional: true),
        ]),
        EntityDescription("Square", parent: "Polygon", rows: 10, attributes: [Attribute("side", .double), Attribute("code", .string)],
                          relationships: [RelationshipDescription("neighbour", destination: "Shape", optional: true)],
                          uniquenessConstraints: [["code"]], fetchIndexes: [FetchIndex("bySide", "entity", "side")]),
        EntityDescription("Canvas", rows: 5, attributes: [Attribute("title", .string)], relationships: [
            RelationshipDescription("shapes", destination: "Shape", inverse: "canvas", toMany: true),
            RelationshipDescription("favourite", destination: "Shape", optional: true),
        ]),
        EntityDescription("Colour", rows: 3, attributes: [Attribute("hex", .string)]),
    ])

    func layout(_ description: ModelDescription) throws -> EnumEntity { try EnumEntity(model: try Model(description)) }

    /// The whole DDL of the small model: `kind` and `text1` taken by root attributes (so `kind_` and
    /// `text1_`), the slots of every kind the hierarchy needs (Polygon's `fill` key `number2`,
    /// Square's `neighbour` key and entity number `number3`, `number4`), Canvas's `favourite_kind`,
    /// a `(slot, kind)` index per to-one key slot, Square's partial unique index and its fetch index
    /// with `entity` as the kind.
    func testTheSmallModelsStatements() throws {
        let layout = try layout(Self.shapes)
        XCTAssertEqual(layout.schemaSQL, [
            "CREATE TABLE ZCANVAS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVOURITE_KIND INTEGER, ZFAVOURITE INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE ZCOLOUR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEX VARCHAR )",
            "CREATE TABLE ZSHAPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZKIND_ INTEGER, ZNUMBER1 INTEGER, ZNUMBER2 INTEGER, ZNUMBER3 INTEGER, ZNUMBER4 INTEGER, ZCANVAS INTEGER, ZREAL1 FLOAT, ZNAME VARCHAR, ZTEXT1 VARCHAR, ZTEXT1_ VARCHAR )",
            "CREATE INDEX ZCANVAS_ZFAVOURITE_INDEX ON ZCANVAS (ZFAVOURITE)",
            "CREATE INDEX ZSHAPE_ZCANVAS_INDEX ON ZSHAPE (ZCANVAS)",
            "CREATE INDEX Z_Shape_byKind ON ZSHAPE (ZKIND_ COLLATE BINARY ASC)",
            "CREATE INDEX ZSHAPE_ZNUMBER2_INDEX ON ZSHAPE (ZNUMBER2, ZKIND_)",
            "CREATE INDEX ZSHAPE_ZNUMBER3_INDEX ON ZSHAPE (ZNUMBER3, ZKIND_)",
            "CREATE UNIQUE INDEX Z_Square_UNIQUE_code ON ZSHAPE (ZTEXT1_ COLLATE BINARY ASC) WHERE ZKIND_ = 6",
            "CREATE INDEX Z_Square_bySide ON ZSHAPE (ZKIND_ COLLATE BINARY ASC, ZREAL1 COLLATE BINARY ASC)",
        ] + CoreDataSchema.bookkeepingSQL)
        XCTAssertEqual(layout.storedModel.entities.map(\.name), ["Canvas", "Colour", "Shape"])
        XCTAssertEqual(layout.storedModel.entity("Shape")?.attributes.map(\.name),
                       ["name", "kind", "text1", "kind_", "text1_", "number1", "number2", "number3", "number4", "real1"])
        XCTAssertEqual(layout.storedModel.entity("Canvas")?.attributes.map(\.name), ["title", "favourite_kind"])
        // Kept relationships: Canvas's own, and Shape's to-one (a root's); Square's neighbour is a slot.
        XCTAssertEqual(layout.storedModel.entity("Canvas")?.relationships.map(\.name), ["shapes", "favourite"])
        XCTAssertEqual(layout.storedModel.entity("Shape")?.relationships.map(\.name), ["canvas"])
    }

    /// Each concrete entity's INSERT: the kind after `Z_OPT`, the attributes in `attributes` order,
    /// then each to-one's key (and entity number); none for an abstract entity.
    func testInserts() throws {
        let model = try Model(Self.shapes)
        let layout = try EnumEntity(model: model)
        let index = { (name: String) in try XCTUnwrap(model.index(of: name)) }
        XCTAssertEqual(layout.insertPlan(try index("Square"))?.steps.first?.sql,
                       "INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT, ZKIND_, ZNAME, ZKIND, ZTEXT1, ZNUMBER1, ZREAL1, ZTEXT1_, ZCANVAS, ZNUMBER2, ZNUMBER3, ZNUMBER4) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        XCTAssertEqual(layout.insertPlan(try index("Square"))?.steps.first?.sources.filter(\.isToOneEntity), [.toOneEntity(2)])
        XCTAssertEqual(layout.insertPlan(try index("Circle"))?.steps.first?.sql,
                       "INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT, ZKIND_, ZNAME, ZKIND, ZTEXT1, ZREAL1, ZTEXT1_, ZCANVAS) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        XCTAssertEqual(layout.insertPlan(try index("Canvas"))?.steps.first?.sql,
                       "INSERT INTO ZCANVAS (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZFAVOURITE, ZFAVOURITE_KIND) VALUES (?, ?, ?, ?, ?, ?)")
        XCTAssertEqual(layout.insertPlan(try index("Canvas"))?.steps.first?.sources.filter(\.isToOneEntity), [.toOneEntity(0)])
        XCTAssertNil(layout.insertPlan(try index("Shape")))
        XCTAssertNil(layout.insertPlan(try index("Polygon")))
    }

    /// A sub-entity's attributes take the next free slot of their kind below their parent's; a
    /// property keeps its slot in its whole subtree, and the kinds that may read it are its
    /// declaring subtree's.
    func testSlotsOfASubEntity() throws {
        let model = try Model(Self.shapes)
        let layout = try EnumEntity(model: model)
        let circle = try XCTUnwrap(model.index(of: "Circle")), polygon = try XCTUnwrap(model.index(of: "Polygon"))
        let square = try XCTUnwrap(model.index(of: "Square")), shape = try XCTUnwrap(model.index(of: "Shape"))
        typealias Slot = EnumEntity.Slot
        XCTAssertEqual(layout.slots.attributes[circle], [Slot(kind: .real, number: 1), Slot(kind: .text, number: 1)])
        XCTAssertEqual(layout.slots.attributes[polygon], [Slot(kind: .number, number: 1)])
        // Square starts after Polygon's number1 (sides) and number2 (fill's key).
        XCTAssertEqual(layout.slots.attributes[square], [Slot(kind: .real, number: 1), Slot(kind: .text, number: 1)])
        XCTAssertEqual(layout.slots.toOnes[polygon]["fill"]?.key, Slot(kind: .number, number: 2))
        XCTAssertNil(layout.slots.toOnes[polygon]["fill"]?.entity, "Colour has no sub-entities")
        XCTAssertEqual(layout.slots.toOnes[square]["neighbour"]?.key, Slot(kind: .number, number: 3))
        XCTAssertEqual(layout.slots.toOnes[square]["neighbour"]?.entity, Slot(kind: .number, number: 4))
        XCTAssertEqual(layout.slots.counts[shape], [1, 4, 1, 0])
        XCTAssertEqual(layout.slots.attributes[shape], [], "a root's attributes are columns of their own")
        XCTAssertEqual(try layout.column(square, "sides"), "ZNUMBER1")
        XCTAssertEqual(try layout.column(square, "code"), "ZTEXT1_")
        XCTAssertEqual(try layout.column(square, "name"), "ZNAME")
        XCTAssertEqual(layout.stored.places[square].map(\.kinds), [nil, nil, nil, 5 ... 6, 6 ... 6, 6 ... 6])
        XCTAssertEqual(try layout.toOne(square, "fill").key, "ZNUMBER2")
        XCTAssertEqual(try layout.toOne(square, "fill").kinds, 5 ... 6)
        XCTAssertEqual(try layout.toOne(square, "neighbour").entity, "ZNUMBER4")
        XCTAssertNil(try layout.toOne(square, "canvas").kinds, "a root's to-one has a key column of its own")
    }

    /// Siblings start from the same slots: in the publications, Book's isbn and AcademicPaper's doi
    /// are both `text1`, and WebArticle's url too (BlogPost inherits it).
    func testSiblingsShareASlot() throws {
        let model = try Model(ModelPresets.publications)
        let layout = try EnumEntity(model: model)
        let book = try XCTUnwrap(model.index(of: "Book")), paper = try XCTUnwrap(model.index(of: "AcademicPaper"))
        let article = try XCTUnwrap(model.index(of: "WebArticle")), post = try XCTUnwrap(model.index(of: "BlogPost"))
        XCTAssertEqual(layout.slots.attributes[book].first, EnumEntity.Slot(kind: .text, number: 1))
        XCTAssertEqual(layout.slots.attributes[paper].first { $0.kind == .text }, EnumEntity.Slot(kind: .text, number: 1))
        XCTAssertEqual(try layout.column(book, "isbn"), "ZTEXT1")
        XCTAssertEqual(try layout.column(paper, "doi"), "ZTEXT1")
        XCTAssertEqual(try layout.column(article, "url"), "ZTEXT1")
        XCTAssertEqual(try layout.column(post, "url"), "ZTEXT1")
        XCTAssertEqual(try layout.column(post, "blogName"), "ZTEXT2")
        XCTAssertEqual(layout.stored.roots[book].table, "ZPUBLICATION")
        XCTAssertEqual(layout.stored.roots[book].kind, "ZKIND")
    }

    /// A name the model already uses gets the next free spelling, without case: `kind_` for the
    /// kind, `text1_` for a slot; a root without sub-entities has no kind and no slots.
    func testNameClashes() throws {
        let model = try Model(Self.shapes)
        let layout = try EnumEntity(model: model)
        let shape = try XCTUnwrap(model.index(of: "Shape")), canvas = try XCTUnwrap(model.index(of: "Canvas"))
        XCTAssertEqual(layout.names.kind[shape], "kind_")
        XCTAssertEqual(layout.names.slots[shape], [["text1_"], ["number1", "number2", "number3", "number4"], ["real1"], []])
        XCTAssertEqual(layout.names.toOneKind[PropertyKey(owner: canvas, name: "favourite")], "favourite_kind")
        XCTAssertNil(layout.names.kind[canvas])
        XCTAssertNil(layout.stored.roots[canvas].kind)
        var used: Set<String> = ["KIND", "KIND_"]
        XCTAssertEqual(EnumEntity.SlotNames.allocate("Kind", &used), "Kind_2")
        XCTAssertEqual(EnumEntity.SlotNames.allocate("kind", &used), "kind_3")
        XCTAssertEqual(used, ["KIND", "KIND_", "KIND_2", "KIND_3"])
    }

    /// Every preset is laid out without a database, each hierarchy one enum entity; a lookup the
    /// model cannot answer is a `LayoutError`, not a trap.
    func testPresetsAreLaidOutWithoutADatabase() throws {
        for description in ModelPresets.all {
            let model = try Model(description)
            let layout = try EnumEntity(model: model)
            XCTAssertEqual(layout.storedModel.entities.map(\.name).sorted(), model.roots.map { model.entities[$0].name }.sorted(), description.name)
            XCTAssertEqual(layout.stored.roots.count, model.entities.count, description.name)
            for entity in model.entities {
                XCTAssertEqual(layout.stored.places[entity.index].count, entity.attributes.count, "\(description.name): \(entity.name)")
                XCTAssertEqual(layout.insertPlan(entity.index) != nil, entity.isConcrete, "\(description.name): \(entity.name)")
            }
            XCTAssertEqual(Array(layout.schemaSQL.suffix(3)), CoreDataSchema.bookkeepingSQL, description.name)
        }
        let layout = try layout(Self.shapes)
        XCTAssertThrowsError(try layout.column(0, "missing")) { XCTAssertTrue($0 is LayoutError, "\($0)") }
        XCTAssertThrowsError(try layout.toOne(0, "missing")) { XCTAssertTrue($0 is LayoutError, "\($0)") }
    }
}

extension InsertStep.Source {
    var isToOneEntity: Bool { if case .toOneEntity = self { true } else { false } }
}
