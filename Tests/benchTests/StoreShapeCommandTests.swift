import Foundation
import TestSupport
import XCTest

/// `bench model --model App.sqlite` prints the data's shape beside the entity tree, and no value of
/// the store's rows reaches any output: not the command's lines, not a store generated from its
/// shape (every text the fixture writes holds `ShapedStoreFixture.marker`).
final class StoreShapeCommandTests: XCTestCase {
    func testTheShapeIsPrintedAndNoRowValueLeavesTheStore() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shape-command-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Notes.sqlite")
        try ShapedStoreFixture.write(to: store.path, notes: 3_000)
        let described = try CommandLineTests.bench(["model", "--model", store.path], in: folder)
        XCTAssertEqual(described.status, 0, described.stderr)
        for line in ["Shape: the NULL shares of 6 optional properties (and 4 per entity, where the entities of a hierarchy differ), the fan-outs of 3 to-manys, the lengths of 5 text and binary attributes, the distinct shares of 1 indexed attribute; model and shape read in ",
                     "  1 Folder (300 objects; 1 attributes, 1 relationships)\n      fan-out: notes median ",
                     "      length: body median ", "; thumbnail median ", "      distinct: title ",
                     "      NULL among its own objects: body 31 %; folder 12 %\n    3 Checklist", "        NULL among its own objects: body 61 %; folder 51 %\n"] {
            XCTAssertTrue(described.stdout.contains(line), "\(line)\n\(described.stdout)")
        }
        let generated = folder.appendingPathComponent("Generated.sqlite")
        let made = try CommandLineTests.bench(["generate", "--model", store.path, "--strategy", "single-table", "--output", generated.path], in: folder)
        XCTAssertEqual(made.status, 0, made.stderr)
        for output in [described.stdout, described.stderr, made.stdout, made.stderr] {
            XCTAssertFalse(output.contains(ShapedStoreFixture.marker), output)
        }
        let bytes = try Data(contentsOf: generated)
        XCTAssertGreaterThan(bytes.count, 100_000)
        XCTAssertNil(bytes.range(of: Data(ShapedStoreFixture.marker.utf8)))
    }
}
