import CoreDataStores
import Foundation
import Models
@testable import ModelSources
import SQLite
import TestSupport
import XCTest

/// Where a command's model comes from: the format chosen from the path's name and contents, and
/// each read into its description.
final class ModelSourceTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    func testTheFormatIsChosenFromThePath() throws {
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: nil, version: nil), .preset("publications"))
        XCTAssertEqual(try ModelSource.choose(preset: "codingmilitia", model: nil, version: nil), .preset("codingmilitia"))
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: fixture("shop.json"), version: nil), .json(fixture("shop.json")))
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: fixture("Library.xcdatamodeld"), version: "Library 2"), .xcode(fixture("Library.xcdatamodeld"), version: "Library 2"))
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: fixture("SwiftDataStudio"), version: nil), .swiftData(fixture("SwiftDataStudio")))
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: fixture("SwiftDataStudio/Items.swift"), version: nil), .swiftData(fixture("SwiftDataStudio/Items.swift")))
        // A store by its contents whatever its name, and by its extension when it cannot be read
        // (so that a damaged store is refused as a store).
        let store = folder.appendingPathComponent("App.data").path
        try CoreDataStoreFixture.write(try Model(ModelPresets.publications.scaled(to: 20)), to: store)
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: store, version: nil), .store(store))
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: "Missing.sqlite", version: nil), .store("Missing.sqlite"))
        XCTAssertEqual(try ModelSource.choose(preset: nil, model: "missing.json", version: nil), .json("missing.json"))
    }

    /// A folder holding both @Model sources and an Xcode model is refused: which was meant is not ours to guess.
    func testAFolderOfBothKindsIsRefused() throws {
        try FileManager.default.copyItem(atPath: fixture("SwiftDataStudio/Items.swift"), toPath: folder.appendingPathComponent("Items.swift").path)
        try FileManager.default.copyItem(atPath: fixture("Publications.xcdatamodel"), toPath: folder.appendingPathComponent("Publications.xcdatamodel").path)
        XCTAssertThrowsError(try ModelSource.choose(preset: nil, model: folder.path, version: nil)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(folder.path) holds both SwiftData @Model sources and an Xcode model (Publications.xcdatamodel)"), "\(error)")
        }
    }

    func testEachSourceReadsItsModel() throws {
        XCTAssertEqual(try ModelSource.preset("efcore-animals").read().description.name, "efcore-animals")
        XCTAssertThrowsError(try ModelSource.preset("nope").read()) { XCTAssertTrue("\($0)".hasPrefix("unknown preset 'nope'; choose from: publications, "), "\($0)") }
        XCTAssertEqual(try ModelSource.json(fixture("shop.json")).read().description.name, "shop")
        let library = try ModelSource.xcode(fixture("Library.xcdatamodeld"), version: nil).read().description
        XCTAssertFalse(library.entities.isEmpty)
        let studio = try ModelSource.swiftData(fixture("SwiftDataStudio")).read().description
        XCTAssertFalse(studio.entities.isEmpty)
        XCTAssertTrue(studio.entities.allSatisfy { $0.rows == nil }, "sources have no object counts")
        // A store is read by the reader the command gives (its own, cleaning up on Ctrl-C).
        let store = folder.appendingPathComponent("App.sqlite").path
        let model = try Model(ModelPresets.publications.scaled(to: 20))
        try CoreDataStoreFixture.write(model, to: store)
        var asked: [String] = []
        let read = try ModelSource.store(store).read { path in
            asked.append(path)
            return try CoreDataStoreFile.read(path: path)
        }
        XCTAssertEqual(asked, [store])
        XCTAssertNotNil(read.store)
        XCTAssertEqual(Set(read.description.entities.map(\.name)), Set(model.entities.map(\.name)))
    }

    /// `root` (`--root`) decides over a SwiftData source's `// bench.root:` comment.
    func testTheRootGivenDecidesOverASourcesComment() throws {
        let file = folder.appendingPathComponent("Models.swift")
        try "// bench.root: Nope\n@Model class A { var x: Int }\n@Model class B: A { var y: Int }\n".write(to: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ModelSource.swiftData(file.path).read())
        let read = try ModelSource.swiftData(file.path).read(root: "A")
        XCTAssertEqual(read.description.root, "A")
        XCTAssertTrue(read.warnings.contains { $0.contains("bench.root names 'Nope', and --root A decides") }, "\(read.warnings)")
    }

    /// An R-tree index is kept where SQLite has the R-tree module (this machine's does), and left
    /// out of the model, with one warning each, where it has not.
    func testRTreesAreLeftOutWhereSQLiteHasNoModule() throws {
        XCTAssertTrue(Database.hasRTreeModule, "Debian's SQLite has the R-tree module")
        let description = ModelDescription(name: "places", entities: [
            EntityDescription("Place", rows: 10, attributes: [Attribute("latitude", .double), Attribute("longitude", .double)],
                              fetchIndexes: [FetchIndex("boundedByRect", [FetchIndex.Element(property: "latitude"), FetchIndex.Element(property: "longitude")], rtree: true),
                                             FetchIndex("byLatitude", "latitude")]),
        ])
        var kept = ModelSource.Read(description: description, warnings: [])
        ModelSource.leaveOutRTrees(&kept, moduleAvailable: true)
        XCTAssertEqual(kept.description, description)
        var left = ModelSource.Read(description: description, warnings: [])
        ModelSource.leaveOutRTrees(&left, moduleAvailable: false)
        XCTAssertEqual(left.description.entities[0].fetchIndexes.map(\.name), ["byLatitude"])
        XCTAssertEqual(left.warnings, ["R-tree index 'Place.boundedByRect' is left out of every layout: this SQLite (\(Database.libraryVersion)) has no R-tree module, so no store here keeps it (Core Data's does, at a cost on every write)"])
    }
}
