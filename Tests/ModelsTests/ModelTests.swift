import Foundation
import Models
import XCTest

final class ModelTests: XCTestCase {
    func testEntityNumbersAreDepthFirstInCaseInsensitiveNameOrder() throws {
        let model = try Model(ModelPresets.efcoreAnimals)
        XCTAssertEqual(model.entities.map(\.name), ["Animal", "FarmAnimal", "Human", "Pet", "Cat", "Dog"])
        let pet = model.entity("Pet")!
        XCTAssertEqual(pet.subtree, 3 ... 5, "a subtree is a contiguous range of numbers")
        XCTAssertEqual(pet.depth, 1)
        XCTAssertEqual(model.entity("Cat")!.attributes.map(\.name), ["name", "vet", "educationLevel"], "inherited first")
        XCTAssertEqual(model.entity("Cat")!.relationships.map(\.name), ["humans"])
        XCTAssertEqual(model.leaf, model.index(of: "Cat"))
        XCTAssertEqual(model.branch, model.index(of: "Pet"))
        let mixed = try Model(ModelDescription(name: "m", entities: [
            EntityDescription("Zeta", rows: 1), EntityDescription("alpha".capitalized, rows: 1), EntityDescription("Beta", parent: "Zeta", rows: 1),
            EntityDescription("AlphaB", parent: "Zeta", rows: 1), EntityDescription("Alphaa", parent: "Zeta", rows: 1),
        ]))
        XCTAssertEqual(mixed.entities.map(\.name), ["Alpha", "Zeta", "Alphaa", "AlphaB", "Beta"])
        XCTAssertEqual(mixed.mainRoot, 1)
    }

    func testScalingSharesObjectsExactlyAndLeavesFlatRootsAlone() throws {
        let scaled = try Model(ModelPresets.publications.scaled(to: 1_001))
        XCTAssertEqual(scaled.objectCount(0), 1_001)
        XCTAssertEqual(scaled.entity("Tag")!.rows, 200)
        XCTAssertEqual(try Model(ModelPresets.codingMilitia.scaled(to: 7)).objectCount(0), 7)
    }

    func testSyntheticModelsHaveTheDepthAsked() throws {
        for depth in 1 ... 6 {
            let model = try Model(SyntheticModel.make(leaves: 8, attributes: 2, skew: 0, rows: 800, depth: depth))
            let leaves = model.entities.filter { !$0.hasSubentities }
            XCTAssertEqual(leaves.count, 8)
            XCTAssertEqual(leaves.map(\.depth).max(), depth)
            XCTAssertEqual(model.objectCount(model.mainRoot), 800)
            XCTAssertEqual(model.branch == nil, depth == 1)
        }
    }

    /// Each mistake is one sentence naming what is wrong.
    func testMistakesAreOneClearSentence() {
        func fails(_ entities: [EntityDescription], _ fragment: String, line: UInt = #line) {
            XCTAssertThrowsError(try Model(ModelDescription(name: "m", entities: entities)), line: line) { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(error)", line: line)
                XCTAssertFalse("\(error)".contains("\n"), line: line)
            }
        }
        fails([], "has no entities")
        fails([EntityDescription("A", parent: "B", rows: 1)], "names parent 'B'")
        fails([EntityDescription("A", parent: "B", rows: 1), EntityDescription("B", parent: "A", rows: 1)], "form a cycle")
        fails([EntityDescription("a", rows: 1)], "capital letter")
        // A line break or another control character in a name is shown escaped, the sentence whole.
        fails([EntityDescription("Bo\nok", rows: 1)], "entity name 'Bo\\nok' must be 1 to 255 ASCII letters, digits and '_', starting with a capital letter (Core Data's rule)")
        fails([EntityDescription("A", parent: "B\r\u{1B}[2K", rows: 1)], "entity 'A' names parent 'B\\r\\u{1B}[2K', which the model does not declare")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("x\ty", .string)])], "property name 'x\\ty' of 'A' must be 1 to 255 ASCII letters")
        fails([EntityDescription("A", rows: 1), EntityDescription("a".uppercased(), rows: 1)], "declared twice")
        fails([EntityDescription("A", abstract: true, rows: 3)], "abstract but has 3 rows")
        fails([EntityDescription("A", rows: 0)], "has no objects")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("abc", .string), Attribute("aBC", .integer16)])], "declares 'aBC' twice")
        fails([EntityDescription("A", rows: 1, relationships: [RelationshipDescription("b", destination: "B")])], "destination 'B'")
        fails([EntityDescription("A", rows: 1, uniquenessConstraints: [["nope"]])], "names 'nope'")
        fails([EntityDescription("A", rows: 1, relationships: [RelationshipDescription("b", destination: "A", inverse: "c", ordered: true),
                                                               RelationshipDescription("c", destination: "A", inverse: "b", toMany: true)])], "only a to-many relationship has an order")
        fails([EntityDescription("A", rows: 1, fetchIndexes: [FetchIndex("byX", "x")])], "names 'x'")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("entity", .string)])], "reserved")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("description", .string)])],
              "property name 'description' of 'A' is reserved: Core Data reserves the names of NSManagedObject's methods (description is NSObject's); rename it")
        fails([EntityDescription("A", rows: 1, relationships: [RelationshipDescription("objectID", destination: "A")])], "property name 'objectID' of 'A' is reserved")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("SELF", .string)], uniquenessConstraints: [["SELF"]])], "property name 'SELF' of 'A' is reserved: 'SELF' means the object's own key")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("c", .string)], uniquenessConstraints: [["c"], ["c"]])],
              "entity 'A' declares the uniqueness constraint (c) twice; declare it once")
        fails([EntityDescription("A", rows: 1, attributes: [Attribute("n", .integer32, values: ValueSpec(.isbn))])], "are strings")
        fails([EntityDescription("A", rows: Model.maximumRows + 1)], "rows must be between")
        fails([EntityDescription("A", rows: 1, attributes: (0 ..< 1_901).map { Attribute("a\($0)", .integer16) })], "columns")
    }

    /// A property named as an object's state is not refused (Core Data and SwiftData store it) but
    /// warned about; the names of NSManagedObject's identity still are refused.
    func testStateNamesAreWarnedAboutNotRefused() throws {
        let description = ModelDescription(name: "m", entities: [
            EntityDescription("A", rows: 2, attributes: [Attribute("isDeleted", .boolean), Attribute("fault", .string), Attribute("isDeletedLocally", .boolean)],
                              relationships: [RelationshipDescription("hasChanges", destination: "A")]),
        ])
        let model = try Model(description)
        XCTAssertEqual(model.entities[0].attributes.map(\.name), ["isDeleted", "fault", "isDeletedLocally"])
        XCTAssertEqual(Model.stateNameWarnings(description).map { $0.prefix { $0 != " " } }, ["A.isDeleted", "A.fault", "A.hasChanges"])
        XCTAssertEqual(Model.stateNameWarnings(description)[1], "A.fault has the name of an object's own state in Core Data and SwiftData; it is stored as any other property, "
            + "but an app reading it by key-value coding gets the object's state instead of the stored value: consider renaming it")
    }

    func testJSONMistakesNameTheField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ text: String) -> String {
            let file = folder.appendingPathComponent("m.json")
            try? Data(text.utf8).write(to: file)
            do { _ = try Model(try ModelDescription.load(path: file.path)); return "ok" } catch { return "\(error)" }
        }
        XCTAssertTrue(load("{").contains("not valid JSON"))
        XCTAssertTrue(load(#"{"name": "m", "entities": [{"name": "A", "rows": 1.5}]}"#).contains("entities[0].rows"), load(#"{"name": "m", "entities": [{"name": "A", "rows": 1.5}]}"#))
        XCTAssertTrue(load(#"{"name": "m", "entities": [{"name": "A", "rows": 1e30}]}"#).contains("entities[0].rows: must be at most 1000000000000000; got 1e+30"))
        // A syntax mistake: where it is.
        XCTAssertTrue(load("{ \"name\": \"m\",\n  \"entities\": [ { \"name\": \"A\" rows: 3 } ] }").hasSuffix("is not a model description: not valid JSON, at line 2, column 31; correct it there"),
                      load("{ \"name\": \"m\",\n  \"entities\": [ { \"name\": \"A\" rows: 3 } ] }"))
        XCTAssertTrue(load(#"{"name": "m", "entities": [{"name": "A", "rows": 1, "attributes": [{"name": "x", "type": "money"}]}]}"#).contains("unknown attribute type 'money'"))
        XCTAssertTrue(load(#"{"name": "m", "entities": [{"rows": 1}]}"#).contains("lacks \"name\""))
        XCTAssertTrue(load(#"{"name": "m", "entities": [{"name": "A", "rows": 1, "attributes": [{"name": "x", "type": "str\ning"}]}]}"#)
            .hasSuffix(": entities[0].attributes[0].type: unknown attribute type 'str\\ning'; choose from integer16, integer32, integer64, decimal, double, float, string, boolean, date, binary, uuid, uri, transformable"))
        XCTAssertEqual(load(#"{"name": "m", "entities": [{"name": "A", "rows": 1, "attributes": [{"name": "x", "type": "Integer 32"}], "fetchIndexes": [{"name": "byX", "elements": ["x desc"]}]}]}"#), "ok")
        XCTAssertThrowsError(try ModelDescription.load(path: folder.path)) { XCTAssertTrue("\($0)".contains("is a folder")) }
        XCTAssertThrowsError(try ModelDescription.load(path: folder.appendingPathComponent("none.json").path)) { XCTAssertTrue("\($0)".contains("does not exist")) }
    }

    /// A device is refused for what it is, without reading it (reading /dev/zero never ends).
    func testADeviceIsNotAModelFile() throws {
        XCTAssertThrowsError(try ModelDescription.load(path: "/dev/zero")) {
            XCTAssertEqual("\($0)", "the model file /dev/zero is a device, not a regular file; give the path of a JSON model description")
        }
    }

    /// A pipe (a FIFO here, as `<(cat m.json)` or `/dev/stdin`) can be read only once: a command
    /// reads its model several times (validating each option group, then running), so the bytes are
    /// kept and every read gets the same model, where a second read would find the pipe empty or wait
    /// for ever for a writer.
    func testAModelInAPipeReadsTheSameEveryTime() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString).fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let json = ModelPresets.named("publications")!.json
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(json.utf8))
            try? handle.close()
        }
        writer.start()
        let first = try ModelDescription.load(path: fifo)
        // The writer wrote once and closed: reading the FIFO again would block, waiting for another.
        let second = try ModelDescription.load(path: fifo)
        XCTAssertEqual(first, ModelPresets.named("publications"))
        XCTAssertEqual(second, first)
    }

    func testPresetsRoundTripThroughJSON() throws {
        for preset in ModelPresets.all {
            let decoded = try JSONDecoder().decode(ModelDescription.self, from: Data(preset.json.utf8))
            XCTAssertEqual(decoded, preset)
            XCTAssertNoThrow(try Model(preset))
        }
    }

    /// Several hierarchies: the workloads read the largest unless the description (or `--root`)
    /// picks one; results then carry the root in their hierarchy label.
    func testARootPicksTheHierarchyTheWorkloadsRead() throws {
        var description = ModelDescription(name: "two", entities: [
            EntityDescription("Note", abstract: true), EntityDescription("TextNote", parent: "Note", rows: 30),
            EntityDescription("Sketch", parent: "Note", rows: 30),
            EntityDescription("Reminder", rows: 10), EntityDescription("Timed", parent: "Reminder", rows: 10),
            EntityDescription("Tag", rows: 500),
        ])
        let largest = try Model(description)
        XCTAssertEqual(largest.entities[largest.mainRoot].name, "Note", "the hierarchy with the most objects, not the largest flat root")
        XCTAssertEqual(largest.hierarchies.map { largest.entities[$0].name }, ["Note", "Reminder"])
        XCTAssertEqual(largest.hierarchyLabel, "two/Note")
        description.root = "Reminder"
        let picked = try Model(description)
        XCTAssertEqual(picked.entities[picked.mainRoot].name, "Reminder")
        XCTAssertEqual(picked.hierarchyLabel, "two/Reminder")
        for (root, message) in [("Timed", "has a parent; give the root of its hierarchy, 'Reminder'"), ("Nope", "is not an entity of the model; its hierarchies: Note, Reminder")] {
            description.root = root
            XCTAssertThrowsError(try Model(description)) { XCTAssertTrue("\($0)".contains(message), "\($0)") }
        }
        XCTAssertEqual(try Model(ModelPresets.publications).hierarchyLabel, "publications", "one hierarchy: the model's name alone")
    }

    /// The ordered reads need a total order: the order's key has a value in every object even when
    /// it is optional (Xcode's default); a model asking for NULLs there is refused in one line.
    func testTheOrderKeyIsNeverNull() throws {
        var description = ModelDescription(name: "optional-uid", entities: [
            EntityDescription("Item", abstract: true, attributes: [Attribute("uid", .uuid, optional: true), Attribute("note", .string, optional: true)],
                              uniquenessConstraints: [["uid"]]),
            EntityDescription("Small", parent: "Item", rows: 300), EntityDescription("Large", parent: "Item", rows: 300),
        ])
        let model = try Model(description)
        XCTAssertEqual(model.orderKey, "uid")
        description.entities[0].attributes[0].nullShare = 0.2
        XCTAssertThrowsError(try Model(description)) { XCTAssertTrue("\($0)".contains("orders the ordered reads"), "\($0)") }
    }

    /// An entity's own NULL shares (`nullShares`): kept through JSON, and refused in one line where
    /// they cannot hold (an abstract entity, a name it lacks, a required property, a one-to-one
    /// side, a share outside 0 ... 1).
    func testAnEntitysOwnNullSharesAreCheckedAndKept() throws {
        func description(_ shares: [String: Double], on entity: String = "Dog") -> ModelDescription {
            var description = ModelDescription(name: "pets", entities: [
                EntityDescription("Animal", abstract: true, attributes: [Attribute("vet", .string, optional: true), Attribute("name", .string)],
                                  relationships: [RelationshipDescription("owner", destination: "Person", optional: true),
                                                  RelationshipDescription("tag", destination: "Tag", inverse: "animal", optional: true)]),
                EntityDescription("Dog", parent: "Animal", rows: 20), EntityDescription("Cat", parent: "Animal", rows: 20),
                EntityDescription("Person", rows: 10),
                EntityDescription("Tag", rows: 10, relationships: [RelationshipDescription("animal", destination: "Animal", inverse: "tag", optional: true)]),
            ])
            let at = description.entities.firstIndex { $0.name == entity }!
            description.entities[at].nullShares = shares
            return description
        }
        let model = try Model(description(["vet": 0, "owner": 1]))
        let dog = try XCTUnwrap(model.entity("Dog")), cat = try XCTUnwrap(model.entity("Cat"))
        XCTAssertEqual([dog.nullShare(ofAttributeAt: 0), cat.nullShare(ofAttributeAt: 0), dog.nullShare(ofAttributeAt: 1)], [0, 0.1, 0])
        XCTAssertEqual(dog.nullShare(of: try XCTUnwrap(dog.relationship("owner"))), 1)
        let json = try JSONEncoder().encode(description(["vet": 0.25]))
        XCTAssertEqual(try JSONDecoder().decode(ModelDescription.self, from: json), description(["vet": 0.25]))
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains(#""nullShares":{"vet":0.25}"#))
        for (shares, entity, message) in [
            (["vet": 0.5], "Animal", "entity 'Animal' is abstract, so it has no objects of its own, but it gives nullShares; give them on its concrete sub-entities"),
            (["colour": 0.5], "Dog", "nullShares of 'Dog' names 'colour', which is not one of its attributes or to-one relationships"),
            (["name": 0.5], "Dog", "nullShares of 'Dog' names 'name', which is not optional; make it optional or drop its share"),
            (["tag": 0.5], "Dog", "nullShares of 'Dog' names 'tag', which is one side of a one-to-one pair (its pairs are left out over the whole subtree); drop its share"),
            (["vet": 1.5], "Cat", "nullShares of 'Cat' names 'vet' with 1.5; a share must be between 0 and 1"),
        ] {
            XCTAssertThrowsError(try Model(description(shares, on: entity))) { XCTAssertEqual("\($0)", message) }
        }
    }

    /// An R-tree index (`"rtree": true`) keeps its kind through JSON, and names numeric or date
    /// attributes only.
    func testAnRTreeIndexNamesNumbers() throws {
        func description(_ elements: String...) -> ModelDescription {
            ModelDescription(name: "places", entities: [
                EntityDescription("Place", rows: 10, attributes: [Attribute("latitude", .double), Attribute("seen", .date), Attribute("name", .string)],
                                  fetchIndexes: [FetchIndex("boundedByRect", elements.compactMap(FetchIndex.Element.init(text:)), rtree: true)]),
            ])
        }
        XCTAssertNoThrow(try Model(description("latitude", "seen")))
        let json = try JSONEncoder().encode(description("latitude", "seen"))
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains(#""rtree":true"#))
        XCTAssertEqual(try JSONDecoder().decode(ModelDescription.self, from: json), description("latitude", "seen"))
        XCTAssertThrowsError(try Model(description("latitude", "latitude desc"))) {
            XCTAssertEqual("\($0)", "R-tree index 'boundedByRect' of 'Place' names an element twice; give each of at most 5 attributes once")
        }
        XCTAssertThrowsError(try Model(description("latitude", "seen", "latitude", "seen", "latitude", "seen"))) {
            XCTAssertEqual("\($0)", "R-tree index 'boundedByRect' of 'Place' names 6 elements; SQLite's R-tree holds 1 to 5; give each of at most 5 attributes once")
        }
        for element in ["name", "entity", "SELF"] {
            XCTAssertThrowsError(try Model(description("latitude", element))) {
                XCTAssertEqual("\($0)", "R-tree index 'boundedByRect' of 'Place' names '\(element)', which is not a numeric or date attribute; an R-tree holds each element's minimum and maximum")
            }
        }
    }
}
