import Generation
import Models
import XCTest

/// A measured distinct share (`Attribute.distinctShare`) is followed: about that share of an
/// attribute's non-NULL values are distinct, in the entity that declares it and its sub-entities,
/// at any scale; the NULL share stays the object's own.
final class ObjectGeneratorDistinctShareTests: XCTestCase {
    func description(objects: Int, share: Double) -> ModelDescription {
        var rank = Attribute("rank", .integer32, optional: true, nullShare: 0.2)
        rank.distinctShare = share
        var title = Attribute("title", .string, optional: true, nullShare: 0.3)
        title.distinctShare = share
        return ModelDescription(name: "Distinct", entities: [
            EntityDescription("Note", rows: objects / 2, attributes: [rank, title, Attribute("body", .string, optional: true)],
                              fetchIndexes: [FetchIndex("byRank", "rank"), FetchIndex("byTitle", "title")]),
            EntityDescription("Checklist", parent: "Note", rows: objects / 2, attributes: [Attribute("items", .integer16)]),
        ])
    }

    /// (distinct values, non-NULL values, objects) of `attribute` over every object of the hierarchy.
    func measure(_ generator: ObjectGenerator, _ attribute: Int) -> (distinct: Int, filled: Int, objects: Int) {
        var seen = Set<String>(), filled = 0
        for object in generator.objects(root: 0, 0 ..< generator.count(root: 0)) where object.values[attribute] != .null {
            filled += 1
            seen.insert("\(object.values[attribute])")
        }
        return (seen.count, filled, generator.count(root: 0))
    }

    func testTheDistinctShareIsFollowedAtAnyScale() throws {
        for (objects, share) in [(4_000, 0.05), (20_000, 0.05), (6_000, 0.4)] {
            let model = try Model(description(objects: objects, share: share))
            let generator = ObjectGenerator(model, seed: 11)
            for (position, nullShare) in [(0, 0.2), (1, 0.3)] {
                let (distinct, filled, total) = measure(generator, position)
                XCTAssertEqual(Double(distinct) / Double(filled), share, accuracy: share * 0.05, "\(objects) objects, attribute \(position)")
                XCTAssertEqual(1 - Double(filled) / Double(total), nullShare, accuracy: 0.02, "the NULL share is unchanged")
            }
            let (distinct, filled, _) = measure(generator, 2)
            XCTAssertGreaterThan(Double(distinct) / Double(filled), 0.9, "an attribute without a share keeps its own values")
        }
    }
}
