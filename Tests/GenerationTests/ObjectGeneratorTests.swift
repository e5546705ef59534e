import Generation
import Models
import XCTest

final class ObjectGeneratorTests: XCTestCase {
    func testStreamsAreDeterministicExactAndMixed() throws {
        let model = try Model(ModelPresets.efcoreAnimals.scaled(to: 4_000))
        let a = ObjectGenerator(model, seed: 3), b = ObjectGenerator(model, seed: 3), c = ObjectGenerator(model, seed: 4)
        let root = model.mainRoot
        XCTAssertEqual(a.objects(root: root, 0 ..< 50), b.objects(root: root, 0 ..< 50))
        XCTAssertNotEqual(a.objects(root: root, 0 ..< 50), c.objects(root: root, 0 ..< 50))
        var counts = Array(repeating: 0, count: model.entities.count)
        for position in 0 ..< a.count(root: root) {
            let object = a.object(root: root, at: position)
            XCTAssertEqual(object.id.key, Int64(position + 1))
            counts[object.id.entity] += 1
        }
        XCTAssertEqual(counts, model.entities.map(\.rows), "every entity gets exactly its rows")
        XCTAssertEqual(Set(a.objects(root: root, 0 ..< 40).map(\.id.entity)).count, 4, "a prefix mixes the concrete entities")
    }

    func testRelationshipsReachTheirDestinationSubtree() throws {
        let model = try Model(ModelPresets.efcoreAnimals.scaled(to: 3_000))
        let generator = ObjectGenerator(model, seed: 9)
        let pet = model.entity("Pet")!, human = model.index(of: "Human")!
        var nulls = 0, humans = 0
        for position in 0 ..< generator.count(root: 0) {
            let object = generator.object(root: 0, at: position)
            guard object.id.entity == human else { continue }
            humans += 1
            if let favourite = object.toOne[0] {
                XCTAssertEqual(generator.object(favourite).id, favourite, "a to-one points at an existing object")
            } else { nulls += 1 }
            XCTAssertLessThanOrEqual(object.links[0].count, 3)
            XCTAssertEqual(Set(object.links[0]).count, object.links[0].count, "links are distinct")
            for destination in object.links[0] { XCTAssertTrue(pet.subtree.contains(destination.entity)) }
        }
        XCTAssertGreaterThan(nulls, humans / 10)
        XCTAssertLessThan(nulls, humans / 3, "an optional to-one is NULL in about its nullShare of the objects")
    }

    /// An entity's own NULL shares (a sub-entity that never sets an inherited attribute or to-one,
    /// another that always does) hold object by object, a unique to-one's too; the others keep the
    /// property's own share.
    func testAnEntitysOwnNullSharesHold() throws {
        let model = try Model(ModelDescription(name: "pets", entities: [
            EntityDescription("Animal", abstract: true, attributes: [Attribute("vet", .string, optional: true, nullShare: 0.3)],
                              relationships: [RelationshipDescription("owner", destination: "Person", optional: true, nullShare: 0.3),
                                              RelationshipDescription("chip", destination: "Chip", optional: true, nullShare: 0.3)],
                              uniquenessConstraints: [["chip"]]),
            EntityDescription("Dog", parent: "Animal", rows: 400, nullShares: ["vet": 0, "owner": 1, "chip": 0]),
            EntityDescription("Cat", parent: "Animal", rows: 400, nullShares: ["vet": 1, "owner": 0, "chip": 1]),
            EntityDescription("Bird", parent: "Animal", rows: 2_000),
            EntityDescription("Person", rows: 100), EntityDescription("Chip", rows: 3_000),
        ]))
        let generator = ObjectGenerator(model, seed: 3)
        var nulls: [String: [Int]] = [:]
        for position in 0 ..< generator.count(root: 0) {
            let object = generator.object(root: 0, at: position)
            let name = model.entities[object.id.entity].name
            nulls[name, default: [0, 0, 0, 0]][0] += 1
            for (index, isNull) in [object.values[0] == .null, object.toOne[0] == nil, object.toOne[1] == nil].enumerated() where isNull {
                nulls[name]![index + 1] += 1
            }
        }
        XCTAssertEqual(nulls["Dog"], [400, 0, 400, 0])
        XCTAssertEqual(nulls["Cat"], [400, 400, 0, 400])
        let birds = try XCTUnwrap(nulls["Bird"])
        for share in birds.dropFirst() { XCTAssertEqual(Double(share) / 2_000, 0.3, accuracy: 0.04, "\(birds)") }
    }

    func testUniqueAttributesAreUniqueAndTagsAreZipfPopular() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 5_000))
        let generator = ObjectGenerator(model, seed: 1)
        let objects = generator.objects(root: 0, 0 ..< 5_000)
        XCTAssertEqual(Set(objects.map { $0.values[0] }).count, 5_000, "uid")
        let isbns = objects.filter { $0.id.entity == model.index(of: "Book")! }.map { $0.values[5] }
        XCTAssertEqual(Set(isbns).count, isbns.count, "isbn")
        let tags = generator.objects(root: model.index(of: "Tag")!, 0 ..< 200).map { $0.values[0] }
        XCTAssertEqual(Set(tags).count, 200, "tag names")
        var popularity: [ObjectID: Int] = [:]
        for object in objects { for tag in object.links[0] { popularity[tag, default: 0] += 1 } }
        let popular = generator.popularDestination(model.entities[0].relationships[0])!
        XCTAssertEqual(popularity.max { $0.value < $1.value }?.key, popular)
        XCTAssertLessThan(popularity[generator.rareDestination(model.entities[0].relationships[0])!] ?? 0, popularity[popular]! / 20)
    }

    /// A one-to-one pair links objects both ways (A.b is B exactly when B.a is A): across two
    /// hierarchies of different sizes, within one entity (next and previous), from a sub-entity
    /// to a root's sub-entity, and for a relationship that is its own inverse.
    func testOneToOnePairsAreInversesOfEachOther() throws {
        let model = try Model(ModelDescription(name: "pairs", entities: [
            EntityDescription("Person", rows: 70, relationships: [
                RelationshipDescription("passport", destination: "Passport", inverse: "holder", optional: true, nullShare: 0.3),
                RelationshipDescription("next", destination: "Person", inverse: "previous", optional: true, nullShare: 0),
                RelationshipDescription("previous", destination: "Person", inverse: "next", optional: true),
                RelationshipDescription("spouse", destination: "Person", inverse: "spouse", optional: true, nullShare: 0),
            ]),
            EntityDescription("Document", abstract: true),
            EntityDescription("Passport", parent: "Document", rows: 40, relationships: [
                RelationshipDescription("holder", destination: "Person", inverse: "passport", optional: true)]),
            EntityDescription("Visa", parent: "Document", rows: 25),
        ]))
        let generator = ObjectGenerator(model, seed: 5)
        var objects: [ObjectID: ModelObject] = [:]
        for root in model.roots { for position in 0 ..< generator.count(root: root) { let o = generator.object(root: root, at: position); objects[o.id] = o } }
        func target(_ object: ModelObject, _ name: String) -> ObjectID? {
            model.entities[object.id.entity].toOneRelationships.firstIndex { $0.name == name }.flatMap { object.toOne[$0] }
        }
        var linked: [String: Int] = [:]
        for object in objects.values {
            for relationship in model.entities[object.id.entity].toOneRelationships where relationship.isOneToOne {
                guard let other = target(object, relationship.name) else { continue }
                linked[relationship.name, default: 0] += 1
                XCTAssertEqual(target(objects[other]!, relationship.inverse!), object.id, "\(object.id).\(relationship.name)")
            }
        }
        XCTAssertEqual(linked["next"], 70, "within one entity every object has a next")
        XCTAssertEqual(linked["spouse"], 70, "an even count: every object has a spouse")
        XCTAssertEqual(linked["passport"], linked["holder"])
        XCTAssertGreaterThan(linked["passport"] ?? 0, 15, "about 70 % of the 40 possible pairs")
        XCTAssertLessThan(linked["passport"] ?? 0, 40, "the null share leaves some out")
        XCTAssertTrue(objects.values.filter { $0.id.entity == model.index(of: "Visa")! }.allSatisfy { $0.toOne.isEmpty }, "a visa has no holder")
    }

    /// A to-one under a uniqueness constraint of its own points each destination at most once:
    /// with more owners than destinations the rest are NULL, spread over the owner's sub-entities;
    /// with fewer, every owner outside the null share has a destination; a required one with more
    /// owners is refused, and a constraint of booleans alone still is.
    func testAUniqueToOneGivesEachDestinationOneOwnerAtMost() throws {
        func model(members: Int, badges: Int, nullShare: Double?, optional: Bool = true) throws -> Model {
            try Model(ModelDescription(name: "unique-to-one", entities: [
                EntityDescription("Member", rows: members, attributes: [Attribute("handle", .string)],
                                  relationships: [RelationshipDescription("badge", destination: "Badge", optional: optional, nullShare: nullShare)],
                                  uniquenessConstraints: [["handle"], ["badge"]]),
                EntityDescription("Moderator", parent: "Member", rows: members),
                EntityDescription("Badge", rows: badges, attributes: [Attribute("title", .string)]),
            ]))
        }
        func badges(_ model: Model) -> (pointed: [ObjectID], nulls: [Int: Int]) {
            let generator = ObjectGenerator(model, seed: 7)
            var pointed: [ObjectID] = [], nulls: [Int: Int] = [:]
            for object in generator.objects(root: model.index(of: "Member")!, 0 ..< generator.count(root: model.index(of: "Member")!)) {
                if let badge = object.toOne[0] { pointed.append(badge) } else { nulls[object.id.entity, default: 0] += 1 }
            }
            return (pointed, nulls)
        }
        let many = badges(try model(members: 150, badges: 200, nullShare: nil))
        XCTAssertEqual(Set(many.pointed).count, many.pointed.count, "no badge has two owners")
        XCTAssertGreaterThan(many.pointed.count, 170, "the 200 badges less about a tenth (the null share)")
        XCTAssertLessThanOrEqual(many.pointed.count, 200)
        XCTAssertEqual(many.nulls.count, 2, "the NULLs are spread over Member and Moderator")
        XCTAssertGreaterThan(many.nulls.values.min() ?? 0, 30)
        let few = badges(try model(members: 50, badges: 500, nullShare: 0.2))
        XCTAssertEqual(Set(few.pointed).count, few.pointed.count)
        XCTAssertGreaterThan(few.pointed.count, 65, "about 80 % of 100 owners")
        XCTAssertLessThan(few.pointed.count, 95)
        let required = badges(try model(members: 50, badges: 200, nullShare: nil, optional: false))
        XCTAssertEqual(Set(required.pointed).count, 100, "a required one: every owner has a badge of its own")
        XCTAssertThrowsError(try model(members: 100, badges: 150, nullShare: nil, optional: false)) { error in
            XCTAssertEqual("\(error)", "relationship 'Member.badge' is unique (each 'Badge' pointed at by one object at most) and never NULL (required, or a null share of 0), but its 200 objects have 150 to point at; give 'Badge' at least 200 objects, or make the relationship optional")
        }
        XCTAssertThrowsError(try Model(ModelDescription(name: "flags", entities: [
            EntityDescription("Flag", rows: 3, attributes: [Attribute("on", .boolean)], uniquenessConstraints: [["on"]]),
        ]))) { error in XCTAssertTrue("\(error)".contains("has no attribute that can take a different value in each object and no to-one"), "\(error)") }
    }

    /// An optional unique attribute that orders the reads has a value in every object; another
    /// optional attribute is NULL in about a tenth.
    func testTheOrderKeyHasAValueInEveryObject() throws {
        let model = try Model(ModelDescription(name: "optional-uid", entities: [
            EntityDescription("Item", abstract: true, attributes: [Attribute("uid", .uuid, optional: true), Attribute("note", .string, optional: true)],
                              uniquenessConstraints: [["uid"]]),
            EntityDescription("Small", parent: "Item", rows: 300), EntityDescription("Large", parent: "Item", rows: 300),
        ]))
        let generator = ObjectGenerator(model, seed: 8)
        let objects = generator.objects(root: model.mainRoot, 0 ..< generator.count(root: model.mainRoot))
        XCTAssertTrue(objects.allSatisfy { !$0.values[0].isNull }, "the order key")
        XCTAssertEqual(Set(objects.map { $0.values[0] }).count, objects.count, "and unique")
        let notes = objects.filter { $0.values[1].isNull }.count
        XCTAssertTrue((30 ... 100).contains(notes), "about 10 % of 600 notes are NULL: \(notes)")
    }
}

final class SplitMix64Tests: XCTestCase {
    /// Neighbouring streams share no draws: stream p + 1 is not stream p one step later.
    func testStreamsAreNotShiftedCopiesOfEachOther() {
        for stream in [UInt64(0), 1, 41, 1_000_000] {
            var a = SplitMix64(seed: 42, stream: stream), b = SplitMix64(seed: 42, stream: stream + 1)
            let first = (0 ..< 64).map { _ in a.next() }, second = Set((0 ..< 64).map { _ in b.next() })
            XCTAssertTrue(second.isDisjoint(with: first), "stream \(stream)")
        }
        var x = SplitMix64(seed: 7, stream: 3), y = SplitMix64(seed: 7, stream: 3)
        XCTAssertEqual((0 ..< 8).map { _ in x.next() }, (0 ..< 8).map { _ in y.next() }, "deterministic")
    }

}
