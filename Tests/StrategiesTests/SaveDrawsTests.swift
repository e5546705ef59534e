import FetchRequests
import Generation
import Models
import Strategies
import TestSupport
import XCTest

/// Saves drawn as a session draws them stay true to the store as the saves before them left it:
/// an unlink names a link that is there, a to-one that must be its object's own is left empty.
final class SaveDrawsTests: XCTestCase {
    private let description = ModelDescription(
        name: "tagged",
        entities: [
            EntityDescription(
                "Note", rows: 30, attributes: [Attribute("title", .string)],
                relationships: [
                    RelationshipDescription("tags", destination: "Tag", inverse: "notes", toMany: true),
                    RelationshipDescription("cover", destination: "Cover", inverse: "note", optional: true),
                    RelationshipDescription("badge", destination: "Badge", optional: true),
                ],
                uniquenessConstraints: [["badge"]]),
            EntityDescription(
                "Tag", rows: 2, attributes: [Attribute("name", .string)],
                relationships: [RelationshipDescription("notes", destination: "Note", inverse: "tags", toMany: true)]),
            EntityDescription(
                "Cover", rows: 30, attributes: [Attribute("color", .string)],
                relationships: [RelationshipDescription("note", destination: "Note", inverse: "cover", optional: true)]),
            EntityDescription("Badge", rows: 30, attributes: [Attribute("label", .string)]),
        ])

    /// Each save as drawn on a store of the data, one after another: every change must be made.
    private func run(_ specs: [SaveSpec]) throws -> (made: [Int], requests: [SaveRequest]) {
        let model = try Model(description), generator = ObjectGenerator(model, seed: 4)
        let store = try StrategyAgreement.open(SingleTable.self, generator)
        var draws = SaveDraws(generator, seed: 9, atLeast: 100)
        var made: [Int] = [], requests: [SaveRequest] = []
        for spec in specs {
            let request = draws.request(spec)
            made.append(try store.save(try store.prepare(request, versions: try store.versions(of: request))))
            XCTAssertGreaterThanOrEqual(made.last ?? 0, request.mustWrite, "\(spec.text(model))")
            requests.append(request)
        }
        return (made, requests)
    }

    func testAnUnlinkNeverNamesALinkAClearRemoved() throws {
        let model = try Model(description)
        let note = try XCTUnwrap(model.entities.firstIndex { $0.name == "Note" }), tag = try XCTUnwrap(model.entities.firstIndex { $0.name == "Tag" })
        // Both tags' links cleared (from the tag's side, and in the same save), then every unlink
        // there is room for: none may name a cleared link, so none is drawn.
        var clearing = SaveSpec()
        clearing.append(.unlink(entity: tag, relationship: "notes", all: true))
        clearing.append(.unlink(entity: tag, relationship: "notes", all: true))
        for _ in 0..<5 { clearing.append(.unlink(entity: note, relationship: "tags")) }
        var later = SaveSpec()
        for _ in 0..<5 { later.append(.unlink(entity: note, relationship: "tags")) }
        let (made, requests) = try run([clearing, later])
        XCTAssertEqual(made, [2, 0], "only the two clears: every link was gone")
        XCTAssertEqual(requests.map(\.changes.count), [2, 0])
    }

    func testADeleteTakesTheObjectWhoseLinksItsSaveClears() throws {
        let model = try Model(description)
        let note = try XCTUnwrap(model.entities.firstIndex { $0.name == "Note" })
        var spec = SaveSpec()
        spec.append(.unlink(entity: note, relationship: "tags", all: true))
        spec.append(.delete(entity: note))
        let (_, requests) = try run([spec])
        guard case let .unlinkAll(cleared, _) = requests[0].changes[0], case let .delete(deleted) = requests[0].changes[1] else { return XCTFail("\(requests)") }
        XCTAssertEqual(cleared, deleted, "Core Data's delete of an object clears its own links")
    }

    /// An update on a stale version changes nothing in any table: in a multi-table layout the
    /// sub-entity's table is not written when the version's table was not.
    func testAStaleUpdateWritesNoTable() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let book = try XCTUnwrap(model.entities.firstIndex { $0.name == "Book" })
        let store = try StrategyAgreement.open(Joined.self, ObjectGenerator(model, seed: 4))
        let id = try XCTUnwrap(try store.fetch(FetchRequest(entity: book, includesSubentities: false)).first?.id)
        let before = try store.fetch(.fault(id))
        let request = SaveRequest(changes: [.update(id, [AttributeChange("title", .text("new")), AttributeChange("pageCount", .integer(9_999))])])
        let version = try XCTUnwrap(try store.versions([id]).first ?? nil)
        XCTAssertEqual(try store.save(try store.prepare(request, versions: [id: version + 5])), 0, "a stale version makes no change")
        XCTAssertEqual(try store.fetch(.fault(id)), before, "neither the root's table nor Book's was written")
        XCTAssertEqual(try store.save(try store.prepare(request, versions: [id: version])), 1)
        XCTAssertNotEqual(try store.fetch(.fault(id)), before)
    }

    func testAToOneThatMustBeItsObjectsOwnIsLeftEmpty() throws {
        let model = try Model(description)
        let note = try XCTUnwrap(model.entities.firstIndex { $0.name == "Note" })
        var spec = SaveSpec()
        for _ in 0..<10 { spec.append(.insert(entity: note)) }
        for _ in 0..<10 { spec.append(.update(entity: note, attributes: ["title"], toOnes: ["cover", "badge"])) }
        let (made, requests) = try run([spec])
        XCTAssertEqual(made, [20], "no UNIQUE constraint failed on the badge")
        for change in requests[0].changes {
            switch change {
            case let .insert(object): XCTAssertEqual(object.toOne, [nil, nil])
            case let .update(_, _, toOnes): XCTAssertEqual(toOnes.map(\.destination), [nil, nil])
            default: XCTFail("\(change)")
            }
        }
    }
}
