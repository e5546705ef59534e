import Foundation
import Models
@testable import SwiftDataModels
import XCTest

/// SwiftData `@Model` sources as shipping apps write them: each construct of the fixture folders
/// under Tests/Fixtures (one per construct) read as SwiftData stores it.
final class SwiftDataAppSourceTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    func read(_ fixture: String) throws -> SwiftDataModel {
        try SwiftDataModelReader.read(path: Self.fixtures.appendingPathComponent(fixture).path)
    }

    func columns(_ model: SwiftDataModel, _ entity: String) throws -> [String] {
        try XCTUnwrap(model.description.entities.first { $0.name == entity }, "no entity \(entity)").attributes.map {
            "\($0.name) \($0.type.rawValue)\($0.optional ? "?" : "")"
        }
    }

    /// `TimeInterval` and `CGFloat` are `Double`; the app's aliases, top-level, nested in the
    /// class and chained, are followed; the iOS 26 subclass is a sub-entity.
    func testAliasesAreFollowed() throws {
        let model = try read("SwiftDataAliases")
        XCTAssertEqual(try columns(model, "Recording"), [
            "title string", "language string", "length double", "fadeOut double", "volume double", "gain double", "recordedAt date",
        ])
        XCTAssertEqual(model.description.entities.first { $0.name == "Interview" }?.parent, "Recording")
        XCTAssertEqual(model.warnings, [])
    }

    /// A property named as an object's state (`isDeleted`, `updated`) is stored as SwiftData
    /// compiles it, with a warning at its place in the source.
    func testStateNamesAreStoredWithAWarning() throws {
        let model = try read("SwiftDataStateNames")
        XCTAssertEqual(try columns(model, "Record"), ["title string", "isDeleted boolean", "updated date?", "isMarkedForDeletion boolean"])
        let file = Self.fixtures.appendingPathComponent("SwiftDataStateNames/Record.swift").path
        XCTAssertEqual(model.warnings.map { $0.prefix { $0 != " " } }, ["\(file):9:9:", "\(file):10:9:"])
        XCTAssertTrue(model.warnings[0].hasSuffix(": Record.isDeleted has the name of an object's own state in Core Data and SwiftData; it is stored as any other property, "
            + "but an app reading it by key-value coding gets the object's state instead of the stored value: consider renaming it"), model.warnings[0])
        XCTAssertTrue(model.warnings[1].contains("Record.updated has the name"), model.warnings[1])
    }

    /// Stored properties without a written type take the type of their initial value.
    func testTypesAreInferredFromInitialValues() throws {
        let model = try read("SwiftDataInferredTypes")
        XCTAssertEqual(try columns(model, "Task"), [
            "id uuid", "title string", "isPinned boolean", "sortOrder integer64", "progress double", "createdAt date", "dueAt date",
            "state string", "priority_level integer64", "priority_label string", "labels transformable", "checklist transformable",
            "estimates transformable", "retries integer16",
        ])
        XCTAssertEqual(model.description.entities.first { $0.name == "TaskList" }?.relationships.map { "\($0.name) \($0.toMany) \($0.inverse ?? "-")" }, ["tasks true list"])
        XCTAssertEqual(model.warnings, [])
    }

    /// `SchemaLatest = SchemaV2` and `Trail = SchemaLatest.Trail` name V2, whose `Point` is its own.
    func testChainedAliasesNameTheVersionAndItsOwnNestedTypes() throws {
        let model = try read("SwiftDataVersionedSchema")
        XCTAssertEqual(model.description.entities.map(\.name), ["Trail", "Stage"])
        XCTAssertEqual(try columns(model, "Trail"), ["name string", "start_latitude double?", "start_longitude double?", "start_altitude double?"])
        XCTAssertEqual(try columns(model, "Stage"), ["order integer64", "end_latitude double?", "end_longitude double?", "end_altitude double?"])
        XCTAssertEqual(model.warnings, ["the same @Model classes are declared in SchemaV1, SchemaV2; reading SchemaV2, the version the top-level typealiases name (SchemaV1 left out)"])
    }

    /// Two to-many relationships naming one inverse: the first declared pairs, the other is one-way.
    func testTwoToManyRelationshipsSharingAnInverse() throws {
        let model = try read("SwiftDataSharedInverse")
        let garden = try XCTUnwrap(model.description.entities.first { $0.name == "Garden" })
        XCTAssertEqual(garden.relationships.map { "\($0.name) \($0.inverse ?? "-")" }, ["northBeds garden", "southBeds -"])
        XCTAssertEqual(model.description.entities.first { $0.name == "Bed" }?.relationships.map { "\($0.name) \($0.inverse ?? "-")" }, ["garden northBeds"])
        XCTAssertEqual(model.warnings.first, "Garden.northBeds and Garden.southBeds both name Bed.garden as their inverse, which can pair with one; paired with Garden.northBeds, the first declared, and Garden.southBeds is stored one-way")
        XCTAssertNoThrow(try Model(model.description.sharing(300)))
    }

    /// `@Attribute(.unique) let` is stored with its constraint; a unique to-one is a constraint of
    /// the relationship alone, inherited by a subclass; a required one with fewer destinations
    /// than owners is refused.
    func testUniqueLetAndUniqueToOne() throws {
        let model = try read("SwiftDataUniqueToOne")
        let member = try XCTUnwrap(model.description.entities.first { $0.name == "Member" })
        XCTAssertEqual(try columns(model, "Member"), ["handle string", "joinedAt date"])
        XCTAssertEqual(member.uniquenessConstraints, [["handle"], ["badge"]])
        XCTAssertEqual(member.relationships.map { "\($0.name) → \($0.destination) \($0.deleteRule) \($0.optional)" }, ["badge → Badge cascade true"])
        XCTAssertEqual(model.warnings, [])
        let built = try Model(model.description.sharing(300))
        XCTAssertTrue(built.generatesDistinctDestinations(try XCTUnwrap(built.entities.first { $0.name == "Moderator" }?.relationships.first)))
        var required = try model.description.sharing(300)
        required.entities[0].relationships[0].optional = false
        XCTAssertThrowsError(try Model(required)) { error in
            XCTAssertEqual("\(error)", "relationship 'Member.badge' is unique (each 'Badge' pointed at by one object at most) and never NULL (required, or a null share of 0), but its 200 objects have 100 to point at; give 'Badge' at least 200 objects, or make the relationship optional")
        }
    }

    /// A type the sources do not declare is one BLOB, with one warning naming it; `.codable` keeps
    /// a declared struct as one BLOB, without a warning.
    func testFrameworkTypesAreOneBlobEach() throws {
        let model = try read("SwiftDataFrameworkTypes")
        XCTAssertEqual(try columns(model, "Place"), ["name string", "coordinate transformable?", "openingHours transformable?", "walk transformable?", "visits integer64", "entrance transformable?"])
        XCTAssertEqual(model.warnings.count, 3)
        XCTAssertTrue(model.warnings[0].hasPrefix("Place.coordinate has type CLLocationCoordinate2D, which the sources read do not declare as a struct, an enum or a @Model class"), model.warnings[0])
        XCTAssertTrue(model.warnings[1].hasPrefix("Place.openingHours has type DateComponents,"), model.warnings[1])
        XCTAssertTrue(model.warnings[2].hasPrefix("Place.walk has type Measurement<UnitLength>,"), model.warnings[2])
    }

    /// `Album.Kind` (Int) and `Film.Kind` (String, declared in an extension) are each their model's
    /// own; `Kind.RawValue` is the raw type.
    func testNestedTypesAreScoped() throws {
        let model = try read("SwiftDataNestedTypes")
        XCTAssertEqual(try columns(model, "Album"), ["title string", "kind integer64", "previousKind integer64"])
        XCTAssertEqual(try columns(model, "Film"), ["title string", "kind string", "format_width integer64?", "format_height integer64?", "format_kind string?"])
    }
}
