import Generation
import Models
import XCTest

/// `fetch-by-relationship`'s `popular` and `rare` destinations on a store's shape: of a
/// many-to-many whose links follow measured fan-outs, the destination linked most and the one
/// linked least, whichever side generates the links.
final class ObjectGeneratorShapedPopularityTests: XCTestCase {
    func testPopularAndRareAreTheBusiestAndTheQuietestDestinations() throws {
        // A note has 1 to 6 tags; a tag is on 0 to 200 notes, most on a few.
        let noteTags = try XCTUnwrap(Quantiles(histogram: [1: 300, 2: 300, 3: 200, 4: 100, 6: 100]))
        let tagNotes = try XCTUnwrap(Quantiles(histogram: [0: 60, 1: 80, 3: 40, 10: 15, 200: 5]))
        for tagsGenerate in [false, true] {
            var tags = RelationshipDescription("tags", destination: "Tag", inverse: "notes", toMany: true, fanOut: noteTags)
            var notes = RelationshipDescription("notes", destination: "Note", inverse: "tags", toMany: true, fanOut: tagNotes)
            if tagsGenerate { notes.count = FanOut(min: 0, max: 200) } else { tags.count = FanOut(min: 1, max: 6) }
            let model = try Model(ModelDescription(name: "Tags", entities: [
                EntityDescription("Note", rows: 1_000, attributes: [Attribute("title", .string)], relationships: [tags]),
                EntityDescription("Tag", rows: 200, attributes: [Attribute("label", .string)], relationships: [notes]),
            ]))
            let generator = ObjectGenerator(model, seed: 5)
            let relationship = try XCTUnwrap(model.entities[0].relationship("tags"))
            XCTAssertEqual(relationship.generatesLinks, !tagsGenerate)
            var linked: [Int64: Int] = [:]
            for root in model.roots {
                for object in generator.objects(root: root, 0 ..< generator.count(root: root)) {
                    for (position, relationship) in model.entities[object.id.entity].relationships.filter({ $0.isManyToMany && $0.generatesLinks }).enumerated() {
                        for destination in object.links[position] {
                            let tag = relationship.name == "tags" ? destination.key : object.id.key
                            linked[tag, default: 0] += 1
                        }
                    }
                }
            }
            let counts = (1 ... 200).map { linked[Int64($0), default: 0] }
            let popular = try XCTUnwrap(generator.popularDestination(relationship)), rare = try XCTUnwrap(generator.rareDestination(relationship))
            XCTAssertEqual(linked[popular.key, default: 0], counts.max(), "tags generate: \(tagsGenerate)")
            XCTAssertEqual(linked[rare.key, default: 0], counts.min(), "tags generate: \(tagsGenerate)")
            XCTAssertGreaterThan(counts.max() ?? 0, 20 * max(1, counts.min() ?? 0))
        }
    }
}
