import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import TestSupport
import XCTest

/// The data's shape read from a store: exactly what the store holds (fan-outs, lengths, distinct
/// shares, NULL shares, objects per entity), and followed by the generator: a store generated from
/// the shape at the store's own scale has the same shape (objects per entity and NULL shares within
/// 1 %, fan-out quantiles within 10 %), and at twice the scale each object's fan-out keeps its
/// distribution where its destinations scale alike. (An attribute's NULLs are drawn object by
/// object, so its share is within 1 % at this size, 18,000 notes, a standard deviation of about
/// 0.4 %; a to-one's NULLs and every fan-out are laid out exactly.)
final class StoreShapeTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shape-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if ProcessInfo.processInfo.environment["KEEP_SHAPE"] == nil { try? FileManager.default.removeItem(at: folder) } else { print("kept", folder.path) } }

    static let notes = 18_000

    func entity(_ description: ModelDescription, _ name: String) throws -> EntityDescription {
        try XCTUnwrap(description.entities.first { $0.name == name }, name)
    }

    func testTheShapeIsWhatTheStoreHolds() throws {
        let path = folder.appendingPathComponent("Notes.sqlite").path
        let written = try ShapedStoreFixture.write(to: path, notes: Self.notes)
        let store = try CoreDataStoreFile.read(path: path)
        let read = store.description
        var folderNotes = written.folderNotes
        for key in 1 ... ShapedStoreFixture.folders where folderNotes[key] == nil { folderNotes[key] = 0 }
        XCTAssertEqual(try entity(read, "Folder").relationships.first { $0.name == "notes" }?.fanOut,
                       Quantiles(histogram: Dictionary(folderNotes.values.map { ($0, 1) }, uniquingKeysWith: +)))
        XCTAssertEqual(try entity(read, "Note").relationships.first { $0.name == "tags" }?.fanOut,
                       Quantiles(histogram: Dictionary(written.noteTags.values.map { ($0, 1) }, uniquingKeysWith: +)))
        XCTAssertEqual(try entity(read, "Tag").relationships.first { $0.name == "notes" }?.fanOut,
                       Quantiles(histogram: Dictionary(written.tagNotes.values.map { ($0, 1) }, uniquingKeysWith: +)))
        for name in ["title", "body", "thumbnail"] {
            XCTAssertEqual(try entity(read, "Note").attributes.first { $0.name == name }?.lengths, Quantiles(histogram: written.lengths[name] ?? [:]), name)
        }
        // Sparsity by sub-entity: each entity's own share where the two differ, none where they agree.
        for name in ["Note", "Checklist"] {
            let own = try entity(read, name).nullShares
            for property in ["body", "folder"] {
                let share = Double(written.nulls["\(name).\(property)"] ?? 0) / Double(written.objects[name] ?? 1)
                XCTAssertEqual(try XCTUnwrap(own[property], "\(name).\(property)"), share, accuracy: 0.000_05, "\(name).\(property)")
            }
            XCTAssertNil(own["thumbnail"], "\(name): a thumbnail is as often NULL in both")
        }
        let titles = try XCTUnwrap(try entity(read, "Note").attributes.first { $0.name == "title" }?.distinctShare)
        XCTAssertEqual(titles, Double(written.titles.count) / Double(written.titled), accuracy: 0.000_1)
        XCTAssertLessThan(titles, 0.5)
        let measured = store.distributions
        XCTAssertEqual([measured.fanOuts, measured.lengths, measured.distinctShares], [3, 5, 1])
        XCTAssertEqual(measured.sampled, [])
        // The folder's skew: a sixth of the folders hold no note, the first holds far more than the median.
        let fanOut = try XCTUnwrap(try entity(read, "Folder").relationships.first { $0.name == "notes" }?.fanOut)
        XCTAssertEqual(fanOut.quantiles[Quantiles.steps / 10], 0)
        XCTAssertGreaterThan(fanOut.maximum, 5 * fanOut.median)
    }

    /// A hierarchy above the sample limit (lowered here from 200,000 to 3,000 objects) is read in
    /// windows of keys: objects per entity still exact, the NULL shares, fan-outs and lengths close
    /// to the whole store's.
    func testALargeHierarchyIsReadFromASample() throws {
        let path = folder.appendingPathComponent("Notes.sqlite").path
        try ShapedStoreFixture.write(to: path, notes: Self.notes)
        let whole = try CoreDataStoreFile.read(path: path)
        var heard: [String] = []
        let sampled = try CoreDataStoreFile.read(path: path, sampleLimit: 3_000) { heard.append($0) }
        XCTAssertEqual(whole.distributions.sampled, [])
        XCTAssertEqual(sampled.distributions.sampled, ["ZNOTE"])
        XCTAssertEqual(sampled.nullSharesMeasured, whole.nullSharesMeasured)
        XCTAssertEqual([sampled.distributions.fanOuts, sampled.distributions.lengths], [whole.distributions.fanOuts, whole.distributions.lengths])
        for expected in whole.description.entities {
            let found = try entity(sampled.description, expected.name)
            XCTAssertEqual(found.rows, expected.rows, "\(expected.name): objects are counted, not sampled")
            for attribute in expected.attributes {
                let read = try XCTUnwrap(found.attributes.first { $0.name == attribute.name })
                if let share = attribute.nullShare { XCTAssertEqual(try XCTUnwrap(read.nullShare), share, accuracy: 0.03, "\(expected.name).\(attribute.name)") }
                if let lengths = attribute.lengths { assertClose(try XCTUnwrap(read.lengths), lengths, scale: 1, "\(expected.name).\(attribute.name) lengths") }
            }
            for relationship in expected.relationships {
                let read = try XCTUnwrap(found.relationships.first { $0.name == relationship.name })
                if let share = relationship.nullShare, !relationship.toMany { XCTAssertEqual(try XCTUnwrap(read.nullShare), share, accuracy: 0.03, relationship.name) }
            }
        }
        let tags = try XCTUnwrap(try entity(sampled.description, "Note").relationships.first { $0.name == "tags" }?.fanOut)
        assertClose(tags, try XCTUnwrap(try entity(whole.description, "Note").relationships.first { $0.name == "tags" }?.fanOut), scale: 1, "Note.tags fan-out")
        XCTAssertTrue(heard.isEmpty, "a store under 32 MiB reads without progress lines: \(heard)")
    }

    func testTheGeneratorFollowsTheShapeAtTheStoresScale() throws {
        let path = folder.appendingPathComponent("Notes.sqlite").path
        try ShapedStoreFixture.write(to: path, notes: Self.notes)
        let store = try CoreDataStoreFile.read(path: path)
        let generatedPath = folder.appendingPathComponent("Generated.sqlite").path
        try CoreDataStoreFixture.writeGenerated(try Model(store.description), seed: 42, to: generatedPath)
        let generated = try CoreDataStoreFile.read(path: generatedPath)
        try assertShape(generated.description, follows: store.description, fanOutScale: [:])
    }

    func testTheGeneratorFollowsTheShapeAtTwiceTheScale() throws {
        let path = folder.appendingPathComponent("Notes.sqlite").path
        try ShapedStoreFixture.write(to: path, notes: Self.notes / 2)
        let store = try CoreDataStoreFile.read(path: path)
        let generatedPath = folder.appendingPathComponent("Generated.sqlite").path
        let scaled = store.description.scaled(to: Self.notes)
        try CoreDataStoreFixture.writeGenerated(try Model(scaled), seed: 7, to: generatedPath)
        let generated = try CoreDataStoreFile.read(path: generatedPath)
        // Notes double, folders and tags keep their objects: a folder's and a tag's notes double,
        // a note's tags keep their distribution.
        try assertShape(generated.description, follows: scaled, fanOutScale: ["Folder.notes": 2, "Tag.notes": 2])
    }

    /// Writes the store the shape's benchmark reads (docs/model.md, "Measure your store"): run with
    /// `INHERITANCE_BENCH_LARGE_STORE=/tmp/Large.sqlite` (and `INHERITANCE_BENCH_LARGE_NOTES`, default
    /// 75,000 notes: about 100 MB), then time `bench model --model /tmp/Large.sqlite` in a release
    /// build. Skipped otherwise.
    func testWriteTheLargeStoreOfTheBenchmark() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment["INHERITANCE_BENCH_LARGE_STORE"] else { throw XCTSkip("set INHERITANCE_BENCH_LARGE_STORE to write the large store") }
        try? FileManager.default.removeItem(atPath: path)
        try ShapedStoreFixture.write(to: path, notes: environment["INHERITANCE_BENCH_LARGE_NOTES"].flatMap { Int($0) } ?? 75_000)
        let store = try CoreDataStoreFile.read(path: path)
        XCTAssertGreaterThan(store.distributions.fanOuts, 0)
    }

    /// Objects per entity and NULL shares within 1 % (of the objects, of the share), fan-out
    /// deciles and means within 10 % (after `fanOutScale`), lengths' deciles and distinct shares within 10 %.
    func assertShape(_ generated: ModelDescription, follows store: ModelDescription, fanOutScale: [String: Double],
                     file: StaticString = #filePath, line: UInt = #line) throws {
        for expected in store.entities {
            let actual = try entity(generated, expected.name)
            XCTAssertEqual(Double(actual.rows ?? 0), Double(expected.rows ?? 0), accuracy: Double(expected.rows ?? 0) / 100, expected.name, file: file, line: line)
            for attribute in expected.attributes {
                let found = try XCTUnwrap(actual.attributes.first { $0.name == attribute.name })
                if let share = attribute.nullShare {
                    XCTAssertEqual(try XCTUnwrap(found.nullShare), share, accuracy: 0.01, "\(expected.name).\(attribute.name) NULL share", file: file, line: line)
                }
                if let lengths = attribute.lengths {
                    assertClose(try XCTUnwrap(found.lengths), lengths, scale: 1, "\(expected.name).\(attribute.name) lengths", file: file, line: line)
                }
                if let share = attribute.distinctShare {
                    XCTAssertEqual(try XCTUnwrap(found.distinctShare), share, accuracy: share / 10, "\(expected.name).\(attribute.name) distinct share", file: file, line: line)
                }
            }
            // An entity's own share, against the generated store's own or, where it kept none (within
            // half a percent of the subtree's), its subtree's.
            for (name, share) in expected.nullShares {
                let subtree = try generated.entities.compactMap { declarer in
                    try declarer.attributes.first { $0.name == name }?.nullShare ?? declarer.relationships.first { $0.name == name }.map { try XCTUnwrap($0.nullShare) }
                }.first
                XCTAssertEqual(try XCTUnwrap(actual.nullShares[name] ?? subtree), share, accuracy: 0.015, "\(expected.name).\(name) own NULL share", file: file, line: line)
            }
            for relationship in expected.relationships {
                let found = try XCTUnwrap(actual.relationships.first { $0.name == relationship.name })
                if let share = relationship.nullShare, !relationship.toMany {
                    XCTAssertEqual(try XCTUnwrap(found.nullShare), share, accuracy: 0.01, "\(expected.name).\(relationship.name) NULL share", file: file, line: line)
                }
                if let fanOut = relationship.fanOut {
                    assertClose(try XCTUnwrap(found.fanOut), fanOut, scale: fanOutScale["\(expected.name).\(relationship.name)"] ?? 1,
                                "\(expected.name).\(relationship.name) fan-out", file: file, line: line)
                }
            }
        }
    }

    func assertClose(_ actual: Quantiles, _ expected: Quantiles, scale: Double, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for step in stride(from: 2, through: Quantiles.steps - 2, by: 2) {
            let wanted = expected.quantiles[step] * scale
            XCTAssertEqual(actual.quantiles[step], wanted, accuracy: max(wanted * 0.1, 0.5),
                           "\(what) at \(step * 100 / Quantiles.steps) %: \(actual.quantiles) against \(expected.quantiles)", file: file, line: line)
        }
        XCTAssertEqual(actual.mean, expected.mean * scale, accuracy: expected.mean * scale * 0.1, "\(what) mean", file: file, line: line)
    }
}
