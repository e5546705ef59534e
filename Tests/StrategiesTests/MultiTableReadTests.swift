import Models
@testable import Strategies
import XCTest

/// `MultiTableRead` finds every entity's properties in a select list from the list alone.
final class MultiTableReadTests: XCTestCase {
    /// A column is where its property is for every entity below its owner, in whatever order the
    /// layout lists the columns; an arm spells NULL where its entity lacks the property, and the
    /// first arm names every item.
    func testPositionsAndArmsFollowTheList() throws {
        let model = try Model(JoinedLayoutTests.shapes)
        let index = { (name: String) in try XCTUnwrap(model.index(of: name)) }
        let shape = try index("Shape"), circle = try index("Circle"), polygon = try index("Polygon"), square = try index("Square")
        let name = try XCTUnwrap(model.entities[shape].attributeIndex("name"))
        let radius = try XCTUnwrap(model.entities[circle].attributeIndex("radius"))
        let sides = try XCTUnwrap(model.entities[polygon].attributeIndex("sides"))
        let neighbour = try XCTUnwrap(model.entities[square].toOneRelationships.firstIndex { $0.name == "neighbour" })
        let read = MultiTableRead(model, entity: shape, includesSubentities: true, columns: [
            MultiTableRead.Column(owner: circle, property: .attribute(radius)), MultiTableRead.Column(owner: square, property: .toOneKey(neighbour)),
            MultiTableRead.Column(owner: shape, property: .attribute(name)), MultiTableRead.Column(owner: polygon, property: .attribute(sides)),
        ])
        XCTAssertEqual(read.concrete, [circle, square], "Shape and Polygon are abstract")
        XCTAssertEqual(read.positions.attributes[name], 5, "the read entity's own, after Z_ENT, Z_PK, Z_OPT and two columns")
        XCTAssertEqual(read.concretePositions[0].attributes[radius], 3)
        XCTAssertEqual(read.concretePositions[0].attributes[name], 5, "inherited")
        XCTAssertEqual(read.concretePositions[1].attributes[name], 5)
        XCTAssertEqual(read.concretePositions[1].attributes[sides], 6)
        XCTAssertEqual(read.concretePositions[1].toOnes[neighbour].key, 4)
        XCTAssertNil(read.concretePositions[1].toOnes[neighbour].entity)
        XCTAssertEqual(read.arm(circle, ["1", "t0.Z_PK", "t0.Z_OPT"], names: nil) { "t\($0.owner)" }, "1, t0.Z_PK, t0.Z_OPT, t\(circle), NULL, t\(shape), NULL")
        XCTAssertEqual(read.arm(square, ["2", "k", "v"], names: ["E", "K", "V", "a", "b", "c", "d"]) { _ in "x" },
                       "2 AS E, k AS K, v AS V, NULL AS a, x AS b, x AS c, x AS d")
    }

    /// Without sub-entities, or for an abstract entity alone, the read returns its own objects or none.
    func testTheConcreteEntitiesRead() throws {
        let model = try Model(JoinedLayoutTests.shapes)
        let shape = try XCTUnwrap(model.index(of: "Shape")), square = try XCTUnwrap(model.index(of: "Square"))
        XCTAssertEqual(MultiTableRead(model, entity: shape, includesSubentities: false, columns: []).concrete, [])
        XCTAssertEqual(MultiTableRead(model, entity: square, includesSubentities: true, columns: []).concrete, [square])
    }

    /// Joined's reads and table-per-entity's union lists give every property of every concrete
    /// entity read a column: no position is left at 0 (`Z_ENT`), on any preset.
    func testEveryPropertyHasAColumnInEveryRead() throws {
        for description in ModelPresets.all + [JoinedLayoutTests.shapes] {
            let model = try Model(description)
            let joined = try Joined(model: model), flattened = try TablePerEntity(model: model)
            for entity in model.entities {
                var reads = [true, false].map { joined.reader(entity.index, includesSubentities: $0).read }
                if entity.hasSubentities { reads.append(flattened.unionList(entity.index).read) }
                for read in reads {
                    for (member, positions) in zip(read.concrete, read.concretePositions) {
                        let missing = positions.attributes.contains(0) || positions.toOnes.contains { $0.key == 0 }
                        XCTAssertFalse(missing, "\(description.name): \(model.entities[member].name) read as \(entity.name)")
                    }
                }
            }
        }
    }
}
