import Foundation
import Models
@testable import SwiftDataModels
import XCTest

/// SwiftData `@Model` sources read into the model language: the fixtures under Tests/Fixtures,
/// each construct on its own, and each bad input as one sentence.
final class SwiftDataModelReaderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Reads `source` written to a file of its own.
    func read(_ source: String, file: String = "Model.swift") throws -> SwiftDataModel {
        let url = folder.appendingPathComponent(file)
        try Data(source.utf8).write(to: url)
        return try SwiftDataModelReader.read(path: url.path)
    }

    /// The sentence reading `source` fails with.
    func failure(_ source: String, file: String = "Model.swift") -> String {
        do {
            _ = try read(source, file: file)
            return "(read without error)"
        } catch { return "\(error)" }
    }

    func entity(_ model: SwiftDataModel, _ name: String) throws -> EntityDescription {
        try XCTUnwrap(model.description.entities.first { $0.name == name }, "no entity \(name)")
    }

    func testThePublicationsSourceIsThePreset() throws {
        let model = try SwiftDataModelReader.read(path: Self.fixtures.appendingPathComponent("SwiftDataPublications").path)
        var expected = ModelPresets.publications
        expected.name = "SwiftDataPublications"
        expected.summary = nil
        for index in expected.entities.indices { expected.entities[index].rows = nil }
        XCTAssertEqual(model.description, expected)
        XCTAssertEqual(model.warnings, [])
        XCTAssertEqual(model.files.map { URL(fileURLWithPath: $0).lastPathComponent }, ["Publication.swift", "Tag.swift"])
    }

    /// Three levels of classes, value types flattened, what SwiftData does not store left out, the
    /// relationships' inverses (written, on the other side, inferred), `#Unique` and `#Index`.
    func testTheStudioSourceReadsEveryConstruct() throws {
        let model = try SwiftDataModelReader.read(path: Self.fixtures.appendingPathComponent("SwiftDataStudio").path)
        let parents = Dictionary(uniqueKeysWithValues: model.description.entities.map { ($0.name, $0.parent ?? "-") })
        XCTAssertEqual(parents, ["Item": "-", "Book": "Item", "Hardcover": "Book", "Ebook": "Book", "Album": "Item", "Review": "-", "Shelf": "-", "Tag": "-"])
        let item = try entity(model, "Item")
        XCTAssertEqual(item.attributes.map { "\($0.name) \($0.type.rawValue)\($0.optional ? "?" : "")" }, [
            "sku string", "title string", "addedAt date", "rating integer64",
            "availability string?", "availability_inStock_count integer64?", "availability_backordered_until date?",
            "dimensions_width double?", "dimensions_height double?", "dimensions_unit string?",
            "keywords transformable", "price decimal?", "cover binary?",
        ])
        XCTAssertEqual(item.relationships.map { "\($0.name) → \($0.destination) \($0.toMany ? "many" : "one") inverse \($0.inverse ?? "-") \($0.deleteRule)" }, [
            "reviews → Review many inverse item cascade", "shelf → Shelf one inverse items nullify", "tags → Tag many inverse items nullify",
        ])
        XCTAssertEqual(try entity(model, "Review").relationships.map(\.inverse), ["reviews"])
        XCTAssertEqual(try entity(model, "Shelf").relationships.map(\.inverse), ["shelf"])
        XCTAssertEqual(try entity(model, "Tag").relationships.map(\.inverse), ["tags"])
        XCTAssertEqual(item.uniquenessConstraints, [["sku"]])
        XCTAssertEqual(item.fetchIndexes, [FetchIndex("title", "title"), FetchIndex("addedAt_title", "addedAt", "title")])
        XCTAssertEqual(try entity(model, "Tag").uniquenessConstraints, [["name"]])
        XCTAssertEqual(try entity(model, "Review").attributes.map { "\($0.name) \($0.type.rawValue)\($0.optional ? "?" : "")" }, ["stars integer16", "text string?"])
        XCTAssertEqual(try entity(model, "Ebook").attributes.map(\.name), ["fileSize", "format"])
        XCTAssertEqual(model.description.leaf, "Hardcover")
        XCTAssertEqual(model.warnings, [
            "Item.cover allows external storage; the suite keeps its values in the row (Core Data's external files are not modelled)",
            "Item.importedFrom is a lazy var; @Model persists stored properties that are not lazy, so it is left out",
        ])
        XCTAssertNoThrow(try Model(model.description.sharing(800)))
    }

    /// `@Attribute(.unique)` and a `#Unique` naming the same property, or one `#Unique` naming a
    /// group twice, are one constraint (SwiftData compiles both): read, with a warning, and laid
    /// out with one unique index.
    func testAConstraintDeclaredTwiceIsOne() throws {
        let model = try read("""
            import SwiftData
            @Model final class Code {
                #Unique<Code>([\\.value], [\\.value], [\\.value, \\.kind])
                @Attribute(.unique) var value: String = ""
                var kind: Int = 0
                init() {}
            }
            """)
        XCTAssertEqual(try entity(model, "Code").uniquenessConstraints, [["value"], ["value", "kind"]])
        XCTAssertEqual(model.warnings.filter { $0.contains("twice") }.count, 2, "\(model.warnings)")
        XCTAssertNoThrow(try Model(model.description.sharing(300)), "the model passes validation, which refuses a constraint declared twice")
    }

    func testTypesMapAsSwiftDataStoresThem() throws {
        let model = try read("""
        import Foundation
        @Model final class Sample {
            var a: String; var b: Int; var c: Int8; var d: Int16; var e: Int32; var f: Int64
            var g: UInt8; var h: UInt16; var i: UInt32; var j: UInt64; var k: Double; var l: Float
            var m: Bool; var n: Foundation.Date; var o: Data; var p: UUID; var q: URL; var r: Decimal
            var s: Optional<String>; var t: Int!; var u: [Int]; var v: Set<String>?; var w: [String: Double]
            var x, y: Double
            var observed: Int = 0 { didSet { } }
            var computed: Int { get { 1 } set { } }
            @Attribute(.transformable(by: "ColorTransformer")) var color: String
            @Attribute(originalName: "oldName") var renamed: String
        }
        """)
        let attributes = try entity(model, "Sample").attributes.map { "\($0.name) \($0.type.rawValue)\($0.optional ? "?" : "")" }
        XCTAssertEqual(attributes, [
            "a string", "b integer64", "c integer16", "d integer16", "e integer32", "f integer64",
            "g integer16", "h integer32", "i integer64", "j integer64", "k double", "l float",
            "m boolean", "n date", "o binary", "p uuid", "q uri", "r decimal",
            "s string?", "t integer64?", "u transformable", "v transformable?", "w transformable",
            "x double", "y double", "observed integer64", "color transformable", "renamed string",
        ])
    }

    func testRelationshipsTakeTheirOptions() throws {
        let model = try read("""
        @Model(schemaName: "Person") final class Owner {
            @Relationship(deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 4, inverse: \\Club.members) var clubs: Set<Club>? = []
            @Relationship(deleteRule: .noAction) var best: Owner?
        }
        @Model final class Club {
            var members: [Owner] = []
            var sponsors: [Owner]? = nil
        }
        """)
        let owner = try entity(model, "Person")
        XCTAssertEqual(owner.relationships.map { "\($0.name) \($0.destination) \($0.deleteRule) \($0.inverse ?? "-") \($0.count.map { "\($0.min)-\($0.max)" } ?? "-")" }, [
            "clubs Club deny members 1-4", "best Person noAction - -",
        ])
        let club = try entity(model, "Club")
        XCTAssertEqual(club.relationships.map { "\($0.name) \($0.destination) \($0.inverse ?? "-") \($0.optional)" }, [
            "members Person clubs false", "sponsors Person - true",
        ])
        XCTAssertEqual(model.warnings, [
            "Club.sponsors is to-many without an inverse; stored as Core Data stores it: a hidden to-one on 'Person' (column Z<entity number>SPONSORS), so each 'Person' object belongs to at most one 'Club'",
        ])
    }

    /// SwiftData pairs two relationships that point at each other when one side is optional; when
    /// neither is, it pairs nothing; when several could pair, the first declared is taken.
    func testInversesAreInferredWhereSwiftDataInfersThem() throws {
        let safe = try read("@Model class School { var students: [Student] = [] }\n@Model class Student { var school: School? }")
        XCTAssertEqual(try entity(safe, "School").relationships.map(\.inverse), ["school"])
        XCTAssertEqual(try entity(safe, "Student").relationships.map(\.inverse), ["students"])
        XCTAssertEqual(safe.warnings, [])

        let required = try read("@Model class School { var students: [Student] = [] }\n@Model class Student { var school: School }")
        XCTAssertEqual(try entity(required, "Student").relationships.map(\.inverse), [nil])
        XCTAssertEqual(required.warnings.first, "School.students and Student.school point at each other, but neither is optional, so SwiftData infers no inverse; they are stored as two one-way relationships (give @Relationship(inverse:) to pair them)")

        let several = try read("@Model class Match { var home: Team?\n var away: Team? }\n@Model class Team { var matches: [Match] = [] }")
        XCTAssertEqual(try entity(several, "Match").relationships.map(\.inverse), ["matches", nil])
        XCTAssertEqual(several.warnings.first, "Match.home and Team.matches are paired as inverses, the first declared of several that could be (also: Match.away); give @Relationship(inverse:) to choose")

        let tree = try read("@Model class Folder { var parent: Folder?\n var children: [Folder] = [] }")
        XCTAssertEqual(try entity(tree, "Folder").relationships.map(\.inverse), ["children", "parent"])
    }

    /// Versioned schemas declare the same classes once per version; the top-level typealiases
    /// name the current one, which is read.
    func testTheVersionTheTypealiasesNameIsRead() throws {
        let versions = """
        enum SchemaV1: VersionedSchema {
            @Model final class Note { var text: String }
            @Model final class Draft { var body: String }
        }
        enum SchemaV2: VersionedSchema {
            @Model final class Note { var text: String; var `default`: Bool; var folder: SchemaV2.Folder? }
            @Model final class Folder { var name: String; var notes: [Note] = [] }
        }
        """
        let model = try read(versions + "\ntypealias Note = SchemaV2.Note\ntypealias Folder = SchemaV2.Folder\n")
        XCTAssertEqual(model.description.entities.map(\.name), ["Note", "Folder"])
        XCTAssertEqual(try entity(model, "Note").attributes.map(\.name), ["text", "default"])
        XCTAssertEqual(try entity(model, "Note").relationships.map(\.inverse), ["notes"])
        XCTAssertEqual(model.warnings, ["the same @Model classes are declared in SchemaV1, SchemaV2; reading SchemaV2, the version the top-level typealiases name (SchemaV1 left out)"])
        XCTAssertEqual(failure(versions), "\(folder.appendingPathComponent("Model.swift").path):2:24: the same @Model classes are declared in SchemaV1, SchemaV2 (versioned schemas); the suite reads one: name the current one with top-level aliases, such as `typealias Note = <current version>.Note`, or give --model the file of one version")
    }

    /// Sources that would hang or crash swift-syntax's parser are refused or parsed safely: `[`
    /// nested beyond 16 (the parser's lookahead doubles its time per level) is one sentence,
    /// however deep; brackets in comments and strings do not count, interpolations do; generics
    /// nested 3,000 deep (which overflow a main thread's stack) parse on a large one.
    func testHostileSourcesNeitherHangNorCrash() throws {
        let file = folder.appendingPathComponent("Model.swift").path
        let deep = "@Model class A {\n  var x: " + String(repeating: "[", count: 5_000) + "Int" + String(repeating: "]", count: 5_000) + "\n}"
        XCTAssertEqual(failure(deep), "\(file):2:5009: square brackets nest 5000 deep; swift-syntax's parser takes twice as long for each level beyond about 16, and a model's source does not nest so deep: give the files that declare your SwiftData models")
        let seventeen = String(repeating: "[", count: 17) + "1" + String(repeating: "]", count: 17)
        XCTAssertTrue(failure("@Model class A { var x: Int = f(\"\\(\(seventeen))\") }").contains("square brackets nest 17 deep"))
        let quoted = String(repeating: "[", count: 40)
        let model = try read("""
        // \(quoted)
        /* \(quoted) /* \(quoted) */ */
        @Model class A {
            var x: [[String]] = [["\(quoted)"]]
            var y: String = #"\(quoted)"#
            var z: String = \"\"\"
                \(quoted) "
                \"\"\"
        }
        """)
        XCTAssertEqual(try entity(model, "A").attributes.map(\.name), ["x", "y", "z"])
        XCTAssertEqual(SourceShape("let a = [[[1]]]\nlet b = [[\"[[[[[[\\([[2]])\"]]").deepest, 4)
        XCTAssertEqual(SourceShape("let a = [[[1]]]\nlet b = [[\"[[[[[[\\([[2]])\"]]").deepestAt.description, "2:21")
        let generics = failure("@Model class A { var x: " + String(repeating: "Optional< ", count: 1_000) + "Int" + String(repeating: " >", count: 1_000) + " }")
        XCTAssertTrue(generics.hasPrefix("\(file):1:22: 'A.x' has type Optional< Optional<"), "one sentence, no crash: \(generics.prefix(200))")
        XCTAssertLessThan(generics.count, 600, "the type is cut short")
    }

    func testFoldersAreSearchedSkippingBuildsTestsAndHiddenFolders() throws {
        for (path, source) in [("Sources/App/Models/Note.swift", "@Model class Note { var text: String }"),
                               ("Sources/App/Models/Deep/Folder.swift", "@Model class Folder { var name: String }"),
                               ("Tests/AppTests/Fake.swift", "@Model class Fake { var x: Int }"),
                               (".build/checkouts/Other.swift", "@Model class Other { var x: Int }"),
                               (".hidden/Secret.swift", "@Model class Secret { var x: Int }"),
                               ("Sources/App/README.md", "@Model class Ignored { var x: Int }")] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(source.utf8).write(to: url)
        }
        let model = try SwiftDataModelReader.read(path: folder.path)
        XCTAssertEqual(model.description.entities.map(\.name), ["Folder", "Note"])
        XCTAssertTrue(SwiftSourceFiles.isSwiftSource(folder.path))
        XCTAssertFalse(SwiftSourceFiles.isSwiftSource(Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path))
        XCTAssertFalse(SwiftSourceFiles.isSwiftSource(Self.fixtures.appendingPathComponent("shop.json").path))
    }

    /// Each bad input is one sentence: where (file:line:column) and what to do.
    func testBadSourcesFailWithOneSentence() throws {
        let file = folder.appendingPathComponent("Model.swift").path
        let cases: [(String, String)] = [
            ("@Model class A {\n  var x: Int =\n}", "\(file):2:15: Swift syntax error: expected expression in variable; fix the source so that it compiles"),
            ("class A { var x = 1 }", "no @Model class in \(file) (1 Swift file read); give the file or folder that declares your SwiftData models"),
            ("class Base {}\n@Model class A: Base { var x: Int }", "\(file):2:14: @Model class 'A' inherits from 'Base', which is a class but not a @Model; mark 'Base' @Model, or make 'A' a root class"),
            ("@Model class A { var x: (Int, Int) }", "\(file):1:22: 'A.x' has type (Int, Int), which SwiftData cannot store: '(Int, Int)' is not a type it stores (String, Int, Double, Bool, Date, Data, UUID, URL, Decimal, a Codable struct or enum, an array or dictionary of those), nor a @Model class; change the type, or mark the property @Transient"),
            ("@Model class A { @Relationship(inverse: \\B.nope) var bs: [B] }\n@Model class B { var a: A? }", "\(file):1:54: 'A.bs' names the inverse \\B.nope, which 'B' does not have as a relationship; name one of its @Model-typed properties"),
            ("@Model class A { @Relationship(inverse: \\C.a) var bs: [B] }\n@Model class B { var a: A? }\n@Model class C { var a: A? }", "\(file):1:51: 'A.bs' names the inverse \\C.a, but it points at 'B'; name a property of 'B'"),
            ("@Model class A { @Relationship(deleteRule: .explode) var b: B? }\n@Model class B {}", "\(file):1:58: 'A.b' has delete rule '.explode'; SwiftData's rules: .nullify, .cascade, .deny, .noAction"),
            ("@Model class A { var x = makeX() }", "\(file):1:22: 'A.x' has no written type, and the reader cannot tell it from its initial value `makeX()`; write the type, such as `var x: Type = …`"),
            ("@Model class A { var x: Int }\n@Model class A { var y: Int }", "\(file):2:14: @Model class 'A' is declared twice (first at \(file):1:14); give each class one declaration (a folder read whole may hold a file your app does not build: give --model a folder of the files it builds)"),
            ("@Model class A { var x: Int // bench.values: lots\n}", "\(file):1:22: 'A.x': bench.values is 'lots'; give \(ValueSpec.textForms)"),
        ]
        for (source, expected) in cases {
            XCTAssertEqual(failure(source), expected, source)
        }
        let missing = folder.appendingPathComponent("Missing.swift").path
        XCTAssertThrowsError(try SwiftDataModelReader.read(path: missing)) { error in
            XCTAssertEqual("\(error)", "the Swift source \(missing) does not exist; give a .swift file or a folder of them")
        }
    }
}
