import Foundation
import Models
@testable import SwiftDataModels
import XCTest

/// Hostile and mistaken Swift sources: each ends within seconds in a right reading or in one
/// sentence naming the file and the line.
final class SwiftDataHostileSourceTests: XCTestCase {
    var folder: URL!
    var file: String { folder.appendingPathComponent("Model.swift").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func read(_ source: String) throws -> SwiftDataModel {
        try Data(source.utf8).write(to: URL(fileURLWithPath: file))
        return try SwiftDataModelReader.read(path: file)
    }

    /// The sentence reading `source` fails with, after checking that it is one line.
    func failure(_ source: String) -> String {
        do {
            _ = try read(source)
            return "(read without error)"
        } catch {
            XCTAssertFalse("\(error)".contains("\n"), "one line: \(error)")
            return "\(error)"
        }
    }

    func columns(_ model: SwiftDataModel, _ entity: String) -> [String] {
        model.description.entities.first { $0.name == entity }?.attributes.map { "\($0.name) \($0.type.rawValue)\($0.optional ? "?" : "")" } ?? []
    }

    /// 400,000 `?` after a type: refused before parsing (the tree, and a recursion over the type,
    /// would be 400,000 deep).
    func testAWallOfOptionalsIsRefusedAtItsLine() {
        let message = failure("@Model class A {\n    var x: Int" + String(repeating: "?", count: 400_000) + "\n}\n")
        XCTAssertEqual(message, "\(file):2:15: 400000 '?' or '!' in a row wrap a type in as many optionals; a model's source does not (the suite reads at most 256): give the files that declare your SwiftData models")
    }

    /// `Optional<Optional<…>>` 150,000 deep: the run of `>` is refused before the parser splits it.
    func testGenericsNestedDeepAreRefusedAtTheirLine() {
        let message = failure("@Model class A {\n    var x: " + String(repeating: "Optional<", count: 150_000) + "Int" + String(repeating: ">", count: 150_000) + "\n}\n")
        XCTAssertEqual(message, "\(file):2:1350015: 150000 '>' in a row close generic types nested as deep; a model's source does not nest types so deep (the suite reads at most 256): give the files that declare your SwiftData models")
    }

    /// Codable structs 7 deep with 8 fields each would flatten into 2 million columns: the count
    /// stops at the table's limit, while flattening.
    func testFlatteningStopsAtTheColumnLimit() {
        var source = "@Model class A {\n    var root: S0\n}\n"
        for level in 0 ..< 7 {
            let field = level == 6 ? "Int" : "S\(level + 1)"
            source += "struct S\(level): Codable { " + (0 ..< 8).map { "var f\($0): \(field)" }.joined(separator: "; ") + " }\n"
        }
        let started = Date()
        XCTAssertEqual(failure(source), "\(file):2:9: 'A.root' has type S0, which SwiftData cannot store: flattened, its Codable values need more than the 1900 columns a table of the suite may have; change the type, or mark the property @Transient")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    /// A FIFO named like a source inside a folder is skipped, not waited on.
    func testAFIFOInASourceFolderIsSkipped() throws {
        try Data("@Model class A { var x: Int }\n".utf8).write(to: folder.appendingPathComponent("a.swift"))
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("b.swift").path, 0o644), 0)
        let model = try SwiftDataModelReader.read(path: folder.path)
        XCTAssertEqual(model.files.map { URL(fileURLWithPath: $0).lastPathComponent }, ["a.swift"])
    }

    /// A file of a folder that does not parse is left out with a warning when it declares no
    /// @Model class (an example with an editor placeholder), and refused when it declares one.
    func testAFileThatDoesNotParseIsLeftOutOnlyWithoutModels() throws {
        try Data("@Model class A { var x: Int }\n".utf8).write(to: folder.appendingPathComponent("A.swift"))
        let example = folder.appendingPathComponent("Example.swift")
        try Data("let client = Client(\n    token: <#token#>\n)\n".utf8).write(to: example)
        let model = try SwiftDataModelReader.read(path: folder.path)
        XCTAssertEqual(model.description.entities.map(\.name), ["A"])
        XCTAssertEqual(model.warnings.count, 1)
        XCTAssertTrue(model.warnings[0].hasPrefix("\(example.path):2:12: Swift syntax error: "), model.warnings[0])
        XCTAssertTrue(model.warnings[0].hasSuffix("; the file declares no @Model class, so it is left out"), model.warnings[0])
        try Data("@Model class B {\n    var y: Int =\n}\n".utf8).write(to: example)
        XCTAssertThrowsError(try SwiftDataModelReader.read(path: folder.path)) { error in
            XCTAssertEqual("\(error)", "\(example.path):2:17: Swift syntax error: expected expression in variable; fix the source so that it compiles")
        }
    }

    /// Codable structs read as the compiler reads them: `var x, y: Double` declares both, `var
    /// city = "Paris"` a String, and of two structs named `Point` the one in scope is flattened.
    func testCodableStructsAreReadWhole() throws {
        let model = try read("""
        struct Point: Codable { var x, y: Double }
        struct Address: Codable { var street: String; var city = "Paris"; var zip = 75001 }
        enum Legacy { struct Point: Codable { var q: Int } }
        @Model class Shop {
            var at: Point
            var address: Address
            var old: Legacy.Point?
        }
        """)
        XCTAssertEqual(columns(model, "Shop"), ["at_x double", "at_y double", "address_street string", "address_city string", "address_zip integer64", "old_q integer64?"])
    }

    /// The initial values apps write, each typed as the compiler types it; a value whose type
    /// the reader cannot tell is one sentence at the property.
    func testInitialValuesTellTheirTypes() throws {
        let model = try read("""
        enum Mood: Int, Codable { case calm, busy }
        @Model class Entry {
            var a = -3
            var b = (2.5)
            var c = "\\(1) items"
            var d = Mood(rawValue: 1)
            var e = URL(string: "https://example.com")
            var f = URL(string: "https://example.com")!
            var g = Set<String>()
            var h = [Int: String]()
            var i = Date.distantPast
            var j = [1, 2.5]
            var k = Mood.calm
            var tags = [Tag]()
        }
        @Model class Tag { var name = ""; var entry: Entry? }
        """)
        XCTAssertEqual(columns(model, "Entry"), [
            "a integer64", "b double", "c string", "d integer64?", "e uri?", "f uri", "g transformable", "h transformable", "i date",
            "j transformable", "k integer64",
        ])
        XCTAssertEqual(model.description.entities.first { $0.name == "Entry" }?.relationships.map { "\($0.name) \($0.toMany) \($0.inverse ?? "-")" }, ["tags true entry"])
        XCTAssertEqual(failure("@Model class A {\n    var x = .now\n}"), "\(file):2:9: 'A.x' has no written type, and the reader cannot tell it from its initial value `.now`; write the type, such as `var x: Type = …`")
    }

    /// Model-level mistakes name the line of the class or property they are about.
    func testModelLevelMistakesNameTheLine() {
        let deep = (1 ... 34).map { "@Model class C\($0): C\($0 - 1) { var v\($0): Int }" }.joined(separator: "\n")
        let cases: [(String, String)] = [
            ("@Model class A: B { var x: Int }\n@Model class B: A { var y: Int }", "\(file):1:14: @Model class 'A' inherits from itself (A → B → A); give the hierarchy a root class"),
            ("@Model class A: A { var x: Int }", "\(file):1:14: @Model class 'A' inherits from itself (A → A); give the hierarchy a root class"),
            ("@Model class C0 { var v0: Int }\n" + deep, "\(file):34:14: @Model class 'C33' has more than 32 levels of superclasses; the suite supports at most 32"),
            ("@Model class A {\n    #Index<A>([\\.nope])\n    var x: Int\n}", "\(file):2:15: #Index of 'A' names \\.nope, which is not a stored attribute or to-one relationship of 'A'; name one of its stored properties"),
            ("@Model class A {\n    #Unique<A>([])\n    var x: Int\n}", "\(file):2:16: #Unique of 'A' has an empty group; give each group at least one key path, such as [\\.name]"),
            ("@Model class Note { var x: Int }\n@Model class NOTE { var y: Int }", "\(file):1:14: entities 'Note' and 'NOTE' differ only in case; Core Data's table names (Z + upper case) would collide"),
            ("@Model class A {\n    @Relationship(.unique) var bs: [B]\n}\n@Model class B { var a: A? }", "\(file):2:32: 'A.bs' is a to-many relationship marked unique; SwiftData supports a uniqueness constraint on a relationship to a single model only (the #Unique documentation); drop .unique, or make it a to-one"),
            ("@Model class A {\n    var entity: String\n}", "\(file):2:9: property name 'entity' of 'A' is reserved: 'entity' means the entity column in a fetch index; rename it"),
            ("@Model class A {\n    var café: String\n}", "\(file):2:9: property name 'café' of 'A' must be 1 to 255 ASCII letters, digits and '_', starting with a letter or '_'"),
            ("@Model class A {\n    var " + String(repeating: "n", count: 256) + ": String\n}", "\(file):2:9: property name '\(String(repeating: "n", count: 256))' of 'A' must be 1 to 255 ASCII letters, digits and '_', starting with a letter or '_'"),
        ]
        for (source, expected) in cases { XCTAssertEqual(failure(source), expected, source) }
        XCTAssertTrue(failure("// bench.root: Nope\n@Model class A { var x: Int }").hasPrefix("\(file):2:14: "), failure("// bench.root: Nope\n@Model class A { var x: Int }"))
    }

    /// `--root` decides over a `// bench.root:` comment: a comment naming no entity is refused only
    /// without it, and with it is named in a warning.
    func testTheRootFlagDecidesOverTheComment() throws {
        let source = "// bench.root: Nope\n@Model class A { var x: Int }\n@Model class B: A { var y: Int }\n@Model class Tag { var name: String }"
        XCTAssertTrue(failure(source).hasPrefix("\(file):2:14: "), failure(source))
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let model = try SwiftDataModelReader.read(path: file, root: "A")
        XCTAssertEqual(model.description.root, "A")
        XCTAssertTrue(model.warnings.contains("\(file):2:14: bench.root names 'Nope', and --root A decides; the comment is not used"), "\(model.warnings)")
        try source.replacingOccurrences(of: "Nope", with: "A").write(toFile: file, atomically: true, encoding: .utf8)
        let agreeing = try SwiftDataModelReader.read(path: file, root: "A")
        XCTAssertFalse(agreeing.warnings.contains { $0.contains("bench.root") }, "the comment agrees with the flag: \(agreeing.warnings)")
    }

    /// A UTF-16 source is refused naming its encoding.
    func testAUTF16SourceNamesItsEncoding() throws {
        var data = Data([0xFF, 0xFE])
        data += "@Model class A { var x: Int }\n".data(using: .utf16LittleEndian)!
        try data.write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try SwiftDataModelReader.read(path: file)) { error in
            XCTAssertEqual("\(error)", "\(self.file):1:1: the file is in UTF-16, not UTF-8, the only encoding Swift source may have; save it as UTF-8")
        }
    }

    /// A cycle of aliases (which Swift rejects: "type alias references itself") is refused at the
    /// first alias of the cycle in source order, however it runs: through two aliases, an alias
    /// of itself nested in a model, a cycle reached through an alias that is not part of it. An
    /// alias of an alias that ends in a type is read.
    func testAliasCyclesAreRefusedAtTheirAlias() throws {
        XCTAssertEqual(failure("typealias Code = Label\ntypealias Label = Code\n@Model class A { var x: Code }\n"),
                       "\(file):1:11: type alias 'Code' refers to itself (Code → Label → Code), which Swift rejects; make one of them name a type")
        XCTAssertEqual(failure("@Model class A {\n    typealias Kind = Kind\n    var x: Int\n}\n"),
                       "\(file):2:15: type alias 'A.Kind' refers to itself (A.Kind → A.Kind), which Swift rejects; make one of them name a type")
        XCTAssertEqual(failure("typealias Entry = Loop\ntypealias Loop = Loop\n@Model class A { var x: Int }\n"),
                       "\(file):2:11: type alias 'Loop' refers to itself (Loop → Loop), which Swift rejects; make one of them name a type")
        XCTAssertEqual(columns(try read("typealias Code = Label\ntypealias Label = String\n@Model class A { var x: Code }\n"), "A"), ["x string"])
    }

    /// More opening brackets than any model's source holds (the parser's stack is sized from
    /// them) are refused at the first one too many.
    func testTooManyBracketsAreRefusedAtTheirPosition() {
        let message = failure("@Model class A {\n    var x = " + String(repeating: "(", count: 300_000) + "1\n}\n")
        XCTAssertEqual(message, "\(file):2:258060: the file holds more brackets than a model's source does (over 258048 '(', '[', '<' and '{'); give the files that declare your SwiftData models")
    }
}
