import Foundation
import Models
import XCTest

/// The Xcode model reader on the fixtures (what it reads, what it warns about) and on every kind
/// of bad input (one sentence each).
final class XcodeModelReaderTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let library = fixtures.appendingPathComponent("Library.xcdatamodeld").path
    static let publications = fixtures.appendingPathComponent("Publications.xcdatamodel").path

    static let libraryWarnings = [
        "Film.trailer allows external storage; the suite keeps its values in the row (Core Data's external files are not modelled)",
        "Item.displayTitle is transient; the suite leaves it out (Core Data does not store transient attributes)",
        "Shelf.favorites is a fetched property; the suite leaves it out (a fetched property is a stored fetch request, not a column)",
        "configuration 'Cloud' is not modelled: the suite stores every entity in one store",
    ]

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func entity(_ model: XcodeModel, _ name: String) -> EntityDescription { model.description.entities.first { $0.name == name }! }

    func testTheLibraryBundleReadsItsCurrentVersion() throws {
        let read = try XcodeModelReader.read(path: Self.library)
        XCTAssertEqual(read.version, "Library 2")
        XCTAssertEqual(read.versions, ["Library", "Library 2"])
        XCTAssertTrue(read.contents.hasSuffix("Library.xcdatamodeld/Library 2.xcdatamodel/contents"), read.contents)
        XCTAssertEqual(read.description.name, "Library")
        XCTAssertEqual(read.description.entities.map(\.name), ["Album", "Document", "Film", "Item", "Label", "Media", "Shelf", "Tag"])
        XCTAssertTrue(read.description.entities.allSatisfy { $0.rows == nil }, "an Xcode model has no rows")

        let item = entity(read, "Item")
        XCTAssertNil(item.parent)
        XCTAssertFalse(item.abstract)
        XCTAssertEqual(item.attributes.map(\.name), ["addedAt", "isFavorite", "price", "searchTitle", "title", "uid"], "the transient displayTitle is left out, the derived searchTitle kept")
        XCTAssertEqual(item.attributes.map(\.type), [.date, .boolean, .decimal, .string, .string, .uuid])
        XCTAssertEqual(item.attributes.map(\.optional), [false, false, true, true, false, false])
        XCTAssertEqual(item.uniquenessConstraints, [["uid"]])
        XCTAssertEqual(item.fetchIndexes, [FetchIndex("byTitle", "title")])
        XCTAssertEqual(item.relationships, [
            RelationshipDescription("shelf", destination: "Shelf", inverse: "items", optional: true),
            RelationshipDescription("tags", destination: "Tag", inverse: "items", toMany: true, optional: true),
        ])
        let media = entity(read, "Media")
        XCTAssertEqual(media.parent, "Item")
        XCTAssertTrue(media.abstract)
        XCTAssertEqual(media.attributes.map(\.type), [.integer32, .double])
        let album = entity(read, "Album"), film = entity(read, "Film")
        XCTAssertEqual(album.parent, "Media")
        XCTAssertEqual(album.attributes.map(\.name), ["format", "rating", "trackCount"])
        XCTAssertEqual(album.attributes.map(\.type), [.string, .float, .integer16])
        XCTAssertEqual(album.fetchIndexes, [FetchIndex("byEntityAndAdded", [.entity(), FetchIndex.Element(property: "addedAt", ascending: false)])])
        XCTAssertEqual(film.attributes.map(\.name), ["format", "homepage", "sizeBytes", "trailer"], "format again, as Album has it")
        XCTAssertEqual(film.attributes.map(\.type), [.string, .uri, .integer64, .binary])
        XCTAssertEqual(entity(read, "Document").attributes.map(\.type), [.transformable, .integer32], "Transformable is a type of its own")
        XCTAssertEqual(entity(read, "Shelf").relationships, [
            RelationshipDescription("items", destination: "Item", inverse: "shelf", toMany: true, ordered: true, deleteRule: .cascade, optional: true),
            RelationshipDescription("label", destination: "Label", inverse: "shelf", deleteRule: .cascade, optional: true),
        ], "ordered is kept; a one-to-one pair keeps its inverses")
        XCTAssertEqual(entity(read, "Label").relationships, [RelationshipDescription("shelf", destination: "Shelf", inverse: "label", optional: true)])
        XCTAssertEqual(entity(read, "Tag").uniquenessConstraints, [["name"]])
        XCTAssertEqual(read.warnings, Self.libraryWarnings)

        let model = try Model(read.description.sharing(700))
        XCTAssertEqual(model.entity("Album")!.depth, 2, "three levels: Item, Media, Album")
        XCTAssertEqual(model.concreteEntities.map { model.entities[$0].rows }, Array(repeating: 100, count: 7), "even shares, flat roots included")
    }

    /// A fetch index of Xcode's type `RTree` is an R-tree index; a type Xcode has no other of is a
    /// plain index, with a warning.
    func testAnRTreeFetchIndexIsKept() throws {
        let path = try write(model(#"""
            <entity name="Place"><attribute name="latitude" attributeType="Double"/><attribute name="longitude" attributeType="Double"/>
            <fetchIndex name="byLocation"><fetchIndexElement property="latitude" type="RTree" order="ascending"/><fetchIndexElement property="longitude" type="RTree" order="ascending"/></fetchIndex>
            <fetchIndex name="byLatitude"><fetchIndexElement property="latitude" type="Hash" order="ascending"/></fetchIndex></entity>
            """#))
        let read = try XcodeModelReader.read(path: path)
        XCTAssertEqual(read.description.entities[0].fetchIndexes, [FetchIndex("byLocation", "latitude", "longitude").rtreeCopy, FetchIndex("byLatitude", "latitude")])
        XCTAssertEqual(read.warnings, ["fetch index 'Place.byLatitude' is of type Hash; the suite makes it a plain (binary) index"])
    }

    func testAVersionTheVersionFolderAndTheContentsFileReadAlike() throws {
        let older = try XcodeModelReader.read(path: Self.library, version: "Library")
        XCTAssertEqual(older.version, "Library")
        XCTAssertEqual(older.description.entities.map(\.name), ["Album", "Film", "Item"])
        XCTAssertEqual(older.warnings, [])
        XCTAssertEqual(try XcodeModelReader.read(path: Self.library, version: "Library.xcdatamodel").description, older.description)
        let current = try XcodeModelReader.read(path: Self.library)
        let folder = try XcodeModelReader.read(path: Self.library + "/Library 2.xcdatamodel")
        let contents = try XcodeModelReader.read(path: Self.library + "/Library 2.xcdatamodel/contents")
        XCTAssertEqual(folder.description.entities, current.description.entities)
        XCTAssertEqual(contents.description.entities, current.description.entities)
        XCTAssertEqual(folder.description.name, "Library-2", "a version's name, its space made a dash")
        XCTAssertEqual(folder.warnings, current.warnings)
        XCTAssertEqual(folder.versions, [])
    }

    func testPublicationsIsThePublicationsPreset() throws {
        let read = try XcodeModelReader.read(path: Self.publications)
        XCTAssertEqual(read.warnings, [])
        let preset = ModelPresets.publications
        var description = read.description
        for position in description.entities.indices {
            description.entities[position].rows = preset.entities.first { $0.name == description.entities[position].name }!.rows
        }
        description.name = preset.name
        description.summary = preset.summary
        description.entities.sort { a, b in preset.entities.firstIndex { $0.name == a.name }! < preset.entities.firstIndex { $0.name == b.name }! }
        XCTAssertEqual(description, preset, "the same entities, attributes, values, relationship, constraints, indexes, leaf and order")
    }

    func testSharingFollowsTheMixAndRefusesBadNames() throws {
        let read = try XcodeModelReader.read(path: Self.library).description
        let shared = try read.sharing(1_000, weights: ["Album": 3, "Film": 1, "Tag": 1])
        XCTAssertEqual(shared.entities.map { $0.rows ?? 0 }, [600, 0, 200, 0, 0, 0, 0, 200], "in declared order: Album … Tag; unnamed get none")
        XCTAssertEqual(try read.sharing(10).entities.compactMap(\.rows).reduce(0, +), 10, "largest remainders add up exactly")
        XCTAssertThrowsError(try read.sharing(10, weights: ["Albm": 1])) { error in
            XCTAssertEqual("\(error)", "--mix names 'Albm', which the model does not declare; its concrete entities: Album, Document, Film, Item, Label, Shelf, Tag")
        }
        XCTAssertThrowsError(try read.sharing(10, weights: ["Media": 1])) { error in
            XCTAssertTrue("\(error)".hasPrefix("--mix names 'Media', which is abstract (it has no objects of its own)"), "\(error)")
        }
        XCTAssertThrowsError(try read.sharing(10, weights: ["Album": 0])) { error in
            XCTAssertEqual("\(error)", "--mix weight of 'Album' must be a positive number; got 0.0")
        }
        let fanned = try read.sharing(500).withFanOut(FanOut(min: 2, max: 3))
        XCTAssertEqual(fanned.entities.first { $0.name == "Item" }!.relationships.first { $0.name == "tags" }!.count, FanOut(min: 2, max: 3),
                       "Item (number 1) generates the Item-Tag links")
        XCTAssertNil(fanned.entities.first { $0.name == "Tag" }!.relationships[0].count)
    }

    // MARK: Bad input

    func write(_ xml: String, to name: String = "Bad.xcdatamodel") throws -> String {
        let version = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: version.appendingPathComponent("contents"))
        return version.path
    }

    func model(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23605" systemVersion="24D81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
        </model>
        """
    }

    func sentence(_ body: () throws -> Any) -> String {
        do { _ = try body(); return "no error" } catch { return "\(error)" }
    }

    func testEveryBadInputIsOneSentence() throws {
        let contents = { (path: String) in path + "/contents" }
        let malformed = try write(model(#"<entity name="Note">\#n<attribute name="text" attributeType="String"</entity>"#))
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: malformed) }.hasPrefix("\(contents(malformed)) is not well-formed XML: line 4, column "),
                      sentence { try XcodeModelReader.read(path: malformed) })
        let unknown = try write(model(#"<entity name="Note"><attribute name="text" attributeType="Text"/></entity>"#))
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: unknown) }.hasPrefix(
            "\(contents(unknown)): line 3: attribute 'Note.text' has type 'Text', which the suite cannot store; Core Data's stored types: Binary, Boolean,"))
        let missing = try write(model(#"<entity name="Note"><relationship name="folder" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity>"#))
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: missing) },
                       "\(contents(missing)): line 3: relationship 'Note.folder' points at entity 'Folder', which the model does not declare")
        // A line break in a type or a name is shown escaped, and the sentence is whole.
        let brokenType = try write(model(#"<entity name="Note"><attribute name="text" attributeType="Str&#10;ing"/></entity>"#))
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: brokenType) }.hasPrefix(
            "\(contents(brokenType)): line 3: attribute 'Note.text' has type 'Str\\ning', which the suite cannot store; Core Data's stored types: Binary, Boolean,"),
                      sentence { try XcodeModelReader.read(path: brokenType) })
        let brokenName = try write(model(#"<entity name="No&#13;&#10;te"><attribute name="text" attributeType="String"/></entity>"#))
        XCTAssertEqual(sentence { try Model(XcodeModelReader.read(path: brokenName).description.sharing(10)) },
                       "entity name 'No\\r\\nte' must be 1 to 255 ASCII letters, digits and '_', starting with a capital letter (Core Data's rule)")
        let notAModel = try write(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#)
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: notAModel) }, "\(contents(notAModel)) is not a Core Data model: its root element is <plist>, not <model>")
        let empty = try write("")
        // Linux's parser takes an empty document without an error, macOS's reports one: either way one sentence.
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: empty) }.hasPrefix("\(contents(empty)) is not "), sentence { try XcodeModelReader.read(path: empty) })

        // Parents that form a cycle read, and Model refuses them as it refuses them in JSON.
        let cycle = try write(model(#"<entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/>"#))
        let read = try XcodeModelReader.read(path: cycle)
        XCTAssertTrue(sentence { try Model(read.description.sharing(10)) }.hasPrefix("entity 'A' is its own ancestor"))
        // No inheritance is no error: the command line notes it.
        let flat = try write(model(#"<entity name="Note"><attribute name="text" attributeType="String"/></entity>"#))
        XCTAssertFalse(try Model(XcodeModelReader.read(path: flat).description.sharing(10)).hasInheritance)

        let nowhere = folder.appendingPathComponent("Gone.xcdatamodeld").path
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: nowhere) },
                       "the Xcode model \(nowhere) does not exist; give an .xcdatamodeld bundle, an .xcdatamodel folder, its contents file, or a JSON model description")
        let hollow = folder.appendingPathComponent("Hollow.xcdatamodeld")
        try FileManager.default.createDirectory(at: hollow, withIntermediateDirectories: true)
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: hollow.path) },
                       "the Xcode model bundle \(hollow.path) holds no model version (no .xcdatamodel folder); add one in Xcode, or give another model")
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: Self.library, version: "Library 3") },
                       "--model-version 'Library 3' is not a version of \(Self.library); its versions: 'Library', 'Library 2'")
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: Self.publications, version: "Publications") },
                       "--model-version 'Publications' applies to an .xcdatamodeld bundle, and \(Self.publications) is one version (.xcdatamodel)")
        let noContents = folder.appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: noContents, withIntermediateDirectories: true)
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: noContents.path) }.hasPrefix("\(noContents.path) holds no contents file"))
        // A contents file that is a device is refused for what it is, without reading it.
        let device = folder.appendingPathComponent("Device.xcdatamodel")
        try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: contents(device.path), withDestinationPath: "/dev/zero")
        for path in [device.path, contents(device.path)] {
            XCTAssertEqual(sentence { try XcodeModelReader.read(path: path) },
                           "the Xcode model file \(contents(device.path)) is a device, not a regular file; give an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file")
        }
    }

    func testABundleWithoutCurrentVersionReadsTheNewestAndSaysSo() throws {
        let bundle = folder.appendingPathComponent("Two.xcdatamodeld")
        let older = try write(model(#"<entity name="Old" />"#), to: "Two.xcdatamodeld/Two.xcdatamodel")
        _ = try write(model(#"<entity name="New" />"#), to: "Two.xcdatamodeld/Two 2.xcdatamodel")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: older + "/contents")
        let read = try XcodeModelReader.read(path: bundle.path)
        XCTAssertEqual(read.description.entities.map(\.name), ["New"])
        XCTAssertEqual(read.warnings, ["\(bundle.path) has no .xccurrentversion naming its current version; reading the newest by modification date, 'Two 2' (pick another with --model-version; versions: 'Two', 'Two 2')"])
        // A .xccurrentversion that names no version (shipping bundles hold an empty property list) reads the newest too.
        let empty = try PropertyListSerialization.data(fromPropertyList: [String: String](), format: .xml, options: 0)
        try empty.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let again = try XcodeModelReader.read(path: bundle.path)
        XCTAssertEqual(again.description.entities.map(\.name), ["New"])
        XCTAssertEqual(again.warnings, read.warnings)
        // A file there that is not a property list at all is said to be ignored, with one version or several.
        let garbled = "\(bundle.path)/.xccurrentversion is not a property list; it is ignored (Xcode keeps the current version's name there)"
        for contents in [Data(), Data("not a plist".utf8)] {
            try contents.write(to: bundle.appendingPathComponent(".xccurrentversion"))
            let again = try XcodeModelReader.read(path: bundle.path)
            XCTAssertEqual(again.description.entities.map(\.name), ["New"])
            XCTAssertEqual(again.warnings, [garbled] + read.warnings)
        }
        let single = folder.appendingPathComponent("One.xcdatamodeld")
        _ = try write(model(#"<entity name="Only" />"#), to: "One.xcdatamodeld/One.xcdatamodel")
        try Data("{{".utf8).write(to: single.appendingPathComponent(".xccurrentversion"))
        XCTAssertEqual(try XcodeModelReader.read(path: single.path).warnings,
                       ["\(single.path)/.xccurrentversion is not a property list; it is ignored (Xcode keeps the current version's name there)"])
        let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "Two 3.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: bundle.path) }.contains("names the current version 'Two 3.xcdatamodel', which \(bundle.path) does not hold"))
    }

    func testAnUnreadableBundleIsOneSentence() throws {
        if geteuid() == 0 { throw XCTSkip("root reads every file") }
        let bundle = folder.appendingPathComponent("Locked.xcdatamodeld")
        _ = try write(model(#"<entity name="A" />"#), to: "Locked.xcdatamodeld/Locked.xcdatamodel")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: bundle.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.path) }
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: bundle.path) }.hasPrefix("cannot read the Xcode model \(bundle.path): "))
    }

    func testUserInfoMistakesAreOneSentence() throws {
        let values = try write(model(#"<entity name="A"><attribute name="n" attributeType="String"><userInfo><entry key="bench.values" value="lots"/></userInfo></attribute></entity>"#))
        XCTAssertTrue(sentence { try XcodeModelReader.read(path: values) }.hasPrefix("\(values)/contents: line 3: user info bench.values of 'A.n' is 'lots'; give a kind"))
        let count = try write(model(#"<entity name="A"><relationship name="bs" toMany="YES" destinationEntity="A" inverseName="bs" inverseEntity="A"><userInfo><entry key="bench.count" value="a-b"/></userInfo></relationship></entity>"#))
        XCTAssertEqual(sentence { try XcodeModelReader.read(path: count) }, "\(count)/contents: line 3: relationship 'A.bs': user info bench.count is 'a-b'; give MIN-MAX, such as 0-5")
    }
}

extension FetchIndex {
    /// This index as an R-tree.
    var rtreeCopy: FetchIndex {
        var copy = self
        copy.rtree = true
        return copy
    }
}
