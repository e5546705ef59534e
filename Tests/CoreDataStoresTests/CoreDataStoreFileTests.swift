import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import TestSupport
import XCTest

/// A store read as a model: every preset and Xcode fixture written as Core Data lays out a store
/// (tables, `Z_PRIMARYKEY`, a `Z_MODELCACHE` archive) reads back as the same model with the
/// store's object counts; the store is never changed; every hostile store is refused in one line.
final class CoreDataStoreFileTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// What the model cache carries, entity by entity (the generator's settings are not in a store).
    static func archived(_ description: ModelDescription) -> [String] {
        description.entities.sorted { $0.name < $1.name }.map { entity in
            let attributes = entity.attributes.sorted { $0.name < $1.name }.map { "\($0.name):\($0.type.rawValue)\($0.optional ? "?" : "")" }
            let relationships = entity.relationships.sorted { $0.name < $1.name }.map {
                "\($0.name)->\($0.destination)/\($0.inverse ?? "-")\($0.toMany ? "*" : "")\($0.ordered ? " ordered" : "") \($0.deleteRule.rawValue)\($0.optional ? "?" : "")"
            }
            return "\(entity.name)<\(entity.parent ?? "")\(entity.abstract ? " abstract" : "") [\(attributes.joined(separator: ", "))] [\(relationships.joined(separator: ", "))] "
                + "unique \(entity.uniquenessConstraints) indexes \(entity.fetchIndexes.map { "\($0.name)(\($0.elements.map(\.description).joined(separator: ",")))" })"
        }
    }

    func models() throws -> [Model] {
        try ModelPresets.all.map { try Model($0) } + ["Library.xcdatamodeld", "Notebook.xcdatamodeld"].map {
            try Model(XcodeModelReader.read(path: Self.fixtures.appendingPathComponent($0).path).description.sharing(300))
        }
    }

    /// Model → store → model: the same entities, properties, constraints and indexes, and each
    /// entity's objects counted from the store's rows.
    func testAStoreReadsBackAsItsModel() throws {
        for model in try models() {
            let path = folder.appendingPathComponent("\(model.name).sqlite").path
            try CoreDataStoreFixture.write(try model.scaled(), to: path)
            let store = try CoreDataStoreFile.read(path: path)
            XCTAssertEqual(Self.archived(store.description), Self.archived(model.description), model.name)
            let read = try Model(store.description)
            XCTAssertEqual(read.entities.map(\.rows), try model.scaled().entities.map(\.rows), model.name)
            XCTAssertEqual(store.primaryKeys.map(\.name), model.entities.map(\.name), model.name)
            XCTAssertEqual(store.frameworkVersion, "1447")
            XCTAssertEqual(store.description.name, model.name)
        }
    }

    /// The archive's dictionaries may be plain `NSDictionary`s (older frameworks) as well as
    /// Core Data's `NSKnownKeysDictionary1`.
    func testPlainDictionariesReadAlike() throws {
        let model = try Model(ModelPresets.named("publications")!)
        let path = folder.appendingPathComponent("plain.sqlite").path
        try CoreDataStoreFixture.write(model, to: path, cache: RawDeflate.deflate(CoreDataStoreFixture.archive(of: model.description, plainDictionaries: true)))
        XCTAssertEqual(Self.archived(try CoreDataStoreFile.read(path: path).description), Self.archived(model.description))
    }

    /// Reading leaves the store byte for byte as it was, and makes no file beside it (no -wal,
    /// no -shm, no journal).
    func testReadingNeverWritesTheStore() throws {
        let model = try Model(ModelPresets.named("publications")!)
        let path = folder.appendingPathComponent("App.sqlite").path
        try CoreDataStoreFixture.write(model, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        _ = try CoreDataStoreFile.read(path: path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["App.sqlite"])
    }

    /// A store another process has open in WAL mode, with commits still in its -wal file: read as
    /// committed (the copy holds them), and the app's files are left as they were.
    func testAStoreInUseIsReadAsCommitted() throws {
        let model = try Model(ModelPresets.named("publications")!).scaled()
        let path = folder.appendingPathComponent("Busy.sqlite").path
        try CoreDataStoreFixture.write(model, to: path)
        let app = try Database(path: path)
        try app.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0")
        let root = model.entities[model.mainRoot]
        try app.execute("INSERT INTO Z\(root.name.uppercased()) (Z_PK, Z_ENT, Z_OPT) VALUES (1000000, \(root.subtreeEnd + 1), 1)")
        let files = { try FileManager.default.contentsOfDirectory(atPath: self.folder.path).sorted() }
        let listed = try files()
        XCTAssertTrue(listed.contains("Busy.sqlite-wal"))
        let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let store = try CoreDataStoreFile.read(path: path)
        XCTAssertEqual(store.description.entities.compactMap(\.rows).reduce(0, +), model.entities.reduce(0) { $0 + $1.rows } + 1)
        XCTAssertEqual(try files(), listed)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")), wal)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).contains { $0.hasPrefix("inheritance-bench-store-\(getpid())-") })
        // Through a symbolic link (from another folder, as to an app's container), the same: the
        // -wal is the one beside the store the link leads to.
        let links = folder.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: false)
        let link = links.appendingPathComponent("Link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        XCTAssertTrue(CoreDataStoreFile.isStore(link))
        let linked = try CoreDataStoreFile.read(path: link)
        XCTAssertEqual(linked.description.entities.compactMap(\.rows), store.description.entities.compactMap(\.rows))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: links.path), ["Link.sqlite"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")), wal)
        withExtendedLifetime(app) {}
    }

    /// NULL shares measured from the rows (aggregates only): 7 of 10 notes without a title, 4 of
    /// 10 without a folder; the unique `uid` and the required `name` are left alone. Generated at
    /// the store's own scale, the objects have those shares within 1 %.
    func testNullSharesAreMeasuredAndTheGeneratorFollowsThem() throws {
        let description = ModelDescription(name: "Notes", entities: [
            EntityDescription("Folder", rows: 2, attributes: [Attribute("name", .string)],
                              relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true)]),
            EntityDescription("Note", rows: 2_000, attributes: [Attribute("title", .string, optional: true), Attribute("uid", .uuid, optional: true)],
                              relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes", optional: true)], uniquenessConstraints: [["uid"]]),
        ])
        let path = folder.appendingPathComponent("Notes.sqlite").path
        try CoreDataStoreFixture.write(try Model(description), to: path)
        let database = try Database(path: path)
        try database.execute("UPDATE ZNOTE SET ZTITLE = 'x' WHERE Z_PK % 10 < 3; UPDATE ZNOTE SET ZFOLDER = 1 WHERE Z_PK % 10 < 6")
        let store = try CoreDataStoreFile.read(path: path)
        XCTAssertEqual(store.nullSharesMeasured, 2)
        let note = try XCTUnwrap(store.description.entities.first { $0.name == "Note" })
        XCTAssertEqual(note.attributes.map(\.nullShare), [0.7, nil])
        XCTAssertEqual(note.relationships.map(\.nullShare), [0.4])
        XCTAssertEqual(store.description.entities.first { $0.name == "Folder" }?.attributes.map(\.nullShare), [nil])

        let model = try Model(store.description)
        let generator = ObjectGenerator(model, seed: 42)
        let entity = try XCTUnwrap(model.entity("Note"))
        let objects = generator.objects(root: entity.root, 0 ..< generator.count(root: entity.root))
        XCTAssertEqual(objects.count, 2_000)
        let title = try XCTUnwrap(entity.attributeIndex("title"))
        let folder = try XCTUnwrap(entity.toOneRelationships.firstIndex { $0.name == "folder" })
        XCTAssertEqual(Double(objects.filter { $0.values[title] == .null }.count) / 2_000, 0.7, accuracy: 0.01)
        XCTAssertEqual(Double(objects.filter { $0.toOne[folder] == nil }.count) / 2_000, 0.4, accuracy: 0.01)
    }

    /// A required to-one whose destination has no object in the store (its rows deleted) is read
    /// as optional and always NULL, so that the store's model is measured, not refused.
    func testARequiredToOneToAnEmptyEntityIsRead() throws {
        let description = ModelDescription(name: "Empty", entities: [
            EntityDescription("Folder", rows: 1, attributes: [Attribute("name", .string)]),
            EntityDescription("Note", rows: 5, attributes: [Attribute("title", .string)], relationships: [RelationshipDescription("folder", destination: "Folder")]),
        ])
        let path = folder.appendingPathComponent("Empty.sqlite").path
        try CoreDataStoreFixture.write(try Model(description), to: path)
        try Database(path: path).execute("DELETE FROM ZFOLDER")
        let read = try CoreDataStoreFile.read(path: path).description
        let relationship = try XCTUnwrap(read.entities.first { $0.name == "Note" }?.relationships.first)
        XCTAssertTrue(relationship.optional)
        XCTAssertEqual(relationship.nullShare, 1)
        XCTAssertNoThrow(try Model(read))
    }

    /// What a store's model holds that the suite leaves out, each with a warning: a fetched
    /// property, a transient attribute (silently: it has no column), an attribute of an undefined
    /// type, a partial index's predicate the suite cannot translate, an R-tree index over a text
    /// (an R-tree over numbers is kept, from a fetch index or a location attribute). The index
    /// element `SELF` is kept (`Z_PK`), and so is `entity` (`Z_ENT`) archived as Photos' stores
    /// archive it: a key path specifier as `valueForKey:`'s argument, under a made-up property name.
    func testWhatIsLeftOutIsWarnedAbout() throws {
        let writer = KeyedArchiveWriter()
        let top = writer.reserve()
        let entity = writer.reserve()
        func property(_ className: String, _ name: String, _ fields: [(String, PropertyListNode)]) -> (String, Int) {
            (name, writer.add(className, [("NSPropertyName", .uid(writer.string(name))), ("NSEntity", .uid(entity))] + fields))
        }
        func index(_ name: String, _ element: [(String, PropertyListNode)], predicate: Bool = false) -> Int {
            let uid = writer.reserve()
            let elements = writer.array([writer.add("NSFetchIndexElementDescription", element + [("NSFetchIndexDescription", .uid(uid)), ("NSAscending", .bool(true))])])
            return writer.add("NSFetchIndexDescription", [("NSIndexName", .uid(writer.string(name))), ("NSIndexElements", .uid(elements)),
                                                          ("NSPartialIndexPredicate", .uid(predicate ? writer.add("NSComparisonPredicate", []) : 0))], at: uid)
        }
        let selfElement = writer.add("NSExpressionDescription", [("NSExpression", .uid(writer.add("NSSelfExpression", [("NSExpressionType", .integer(1))])))])
        let entityElement = writer.add("NSExpressionDescription", [
            ("NSPropertyName", .uid(writer.string("expression15"))), ("NSExpressionType", .integer(0)),
            ("NSExpression", .uid(writer.add("NSKeyPathExpression", [
                ("NSExpressionType", .integer(3)), ("NSSelectorName", .uid(writer.string("valueForKey:"))),
                ("NSOperand", .uid(writer.add("NSSelfExpression", [("NSExpressionType", .integer(1))]))),
                ("NSArguments", .uid(writer.array([writer.add("NSKeyPathSpecifierExpression", [("NSExpressionType", .integer(10)), ("NSKeyPath", .uid(writer.string("entity")))])]))),
            ]))),
        ])
        let properties = writer.dictionary([
            property("NSAttributeDescription", "title", [("NSAttributeType", .integer(700)), ("_P", .integer(0xF3))]),
            property("NSAttributeDescription", "draft", [("NSAttributeType", .integer(700)), ("_P", .integer(0xFB))]),
            property("NSAttributeDescription", "thing", [("NSAttributeType", .integer(0)), ("_P", .integer(0xF3))]),
            property("NSAttributeDescription", "lat", [("NSAttributeType", .integer(500)), ("_P", .integer(0xF3))]),
            property("NSAttributeDescription", "lon", [("NSAttributeType", .integer(500)), ("_P", .integer(0xF3))]),
            // Location attributes (transient, of no type): their components in an R-tree, given as
            // text (Photos on macOS 13 and 15) or as an array (macOS 10.15).
            property("NSAttributeDescription", "boundedByRect", [("NSAttributeType", .integer(0)), ("_P", .integer(0xFB)), ("NSUserInfo", .uid(writer.dictionary([
                ("_NSLocationAttributeDerivedComponents", writer.string("lat, lon")),
            ])))]),
            property("NSAttributeDescription", "boundedByArray", [("NSAttributeType", .integer(0)), ("_P", .integer(0xFB)), ("NSUserInfo", .uid(writer.dictionary([
                ("_NSLocationAttributeDerivedComponents", writer.array([writer.string("lon"), writer.string("lat")])),
            ])))]),
            property("NSFetchedPropertyDescription", "recent", [("_P", .integer(0xF3))]),
        ])
        let indexes = writer.array([
            index("bySelf", [("NSIndexedProperty", .uid(selfElement)), ("NSFetchIndexElementType", .integer(0))]),
            index("byEntity", [("NSIndexedProperty", .uid(entityElement)), ("NSPropertyName", .uid(writer.string("expression15"))), ("NSFetchIndexElementType", .integer(0))]),
            index("byTitle", [("NSPropertyName", .uid(writer.string("title"))), ("NSFetchIndexElementType", .integer(0))], predicate: true),
            index("byPlace", [("NSPropertyName", .uid(writer.string("title"))), ("NSFetchIndexElementType", .integer(1))]),
            index("byPoint", [("NSPropertyName", .uid(writer.string("lat"))), ("NSFetchIndexElementType", .integer(1))]),
        ])
        writer.add("NSEntityDescription", [("NSEntityName", .uid(writer.string("Note"))), ("NSProperties", .uid(properties)),
                                           ("NSFetchIndexDescriptions", .uid(indexes))], at: entity)
        writer.add("NSManagedObjectModel", [("NSEntities", .uid(writer.knownKeysDictionary([("Note", entity)])))], at: top)
        let store = try CoreDataStoreFile.read(path: try store(cache: RawDeflate.deflate(writer.archive(root: top)), name: "leftOut"))
        XCTAssertEqual(Self.archived(store.description), ["Note< [lat:double?, lon:double?, title:string?] [] unique [] indexes [\"bySelf(SELF)\", \"byEntity(entity)\", \"byTitle(title)\", \"byPoint(lat)\", \"boundedByArray(lon,lat)\", \"boundedByRect(lat,lon)\"]"])
        XCTAssertEqual(store.description.entities[0].fetchIndexes.filter(\.rtree).map(\.name), ["byPoint", "boundedByArray", "boundedByRect"])
        XCTAssertEqual(store.warnings, [
            "Note.recent is a fetched property; the suite leaves it out",
            "Note.thing has attribute type 0, which has no column; left out",
            "fetch index 'Note.byTitle' is a partial index whose predicate is a comparison without an operator; the suite indexes every row",
            "fetch index 'Note.byPlace' is an R-tree index over 'title', which is not a numeric or date attribute; the suite leaves it out",
        ])
    }

    // MARK: Hostile stores

    /// `path`'s refusal: one line that names the file.
    func refusal(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try CoreDataStoreFile.read(path: path)
            XCTFail("\(path) was read", file: file, line: line)
            return ""
        } catch {
            let message = "\(error)"
            XCTAssertTrue(error is ModelError, "\(type(of: error)): \(message)", file: file, line: line)
            XCTAssertTrue(message.hasPrefix(path), message, file: file, line: line)
            XCTAssertFalse(message.contains("\n"), message, file: file, line: line)
            return message
        }
    }

    /// A store of the publications preset whose model cache is `cache`.
    func store(cache: [UInt8], name: String = #function) throws -> String {
        let path = folder.appendingPathComponent("\(name.prefix { $0 != "(" }).sqlite").path
        try CoreDataStoreFixture.write(try Model(ModelPresets.named("publications")!), to: path, cache: cache)
        return path
    }

    func testFilesThatAreNotStoresAreRefused() throws {
        let text = folder.appendingPathComponent("notes.sqlite").path
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertTrue(refusal(text).contains("is not an SQLite database"))
        let plain = folder.appendingPathComponent("plain.sqlite").path
        try Database(path: plain).execute("CREATE TABLE t (a INTEGER)")
        XCTAssertTrue(refusal(plain).contains("not a Core Data store (it has no Z_PRIMARYKEY or Z_MODELCACHE table)"))
        let empty = folder.appendingPathComponent("empty.sqlite").path
        try CoreDataStoreFixture.write(try Model(ModelPresets.named("publications")!), to: empty)
        try Database(path: empty).execute("DELETE FROM Z_MODELCACHE")
        XCTAssertTrue(refusal(empty).contains("has no model cache"))
        XCTAssertTrue(refusal(try store(cache: [], name: "cleared")).contains("has an empty model cache (Z_MODELCACHE holds no bytes"))
        let missing = folder.appendingPathComponent("missing.sqlite").path
        XCTAssertTrue(refusal(missing).contains("does not exist"))
    }

    func testDamagedCachesAreRefused() throws {
        let archive = CoreDataStoreFixture.archive(of: ModelPresets.named("publications")!)
        let deflated = RawDeflate.deflate(archive)
        XCTAssertTrue(refusal(try store(cache: Array("garbage!".utf8) + Array(repeating: 0xFF, count: 64), name: "garbage")).contains("is not raw-deflate data"))
        XCTAssertTrue(refusal(try store(cache: Array(deflated.prefix(deflated.count / 2)), name: "truncated")).contains("is cut short"))
        // 200 MB of zeros deflate to about 200 KB: refused at the cap, never inflated whole.
        let bomb = RawDeflate.deflate([UInt8](repeating: 0, count: 200 << 20))
        XCTAssertLessThan(bomb.count, 1 << 20)
        XCTAssertTrue(refusal(try store(cache: bomb, name: "bomb")).contains("inflates to more than \(ModelCache.inflatedLimit) bytes"))
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(Array(archive.dropLast(20))), name: "cut")).contains("damaged trailer"))
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(Array("just text".utf8)), name: "text")).contains("not a binary property list"))
    }

    /// A trailer claiming 2^40 objects, and a container claiming more members than the bytes hold.
    func testHugeCountsAreRefused() throws {
        var huge = BinaryPropertyListWriter.write(.array([.integer(1)]))
        let trailer = huge.count - 32
        huge.replaceSubrange(trailer + 8 ..< trailer + 16, with: BinaryPropertyListWriter.bigEndian(1 << 40, size: 8))
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(huge), name: "huge")).contains("damaged trailer"))
        var wide = BinaryPropertyListWriter.write(.dictionary([("$objects", .array(Array(repeating: .string("x"), count: 20)))]))
        let count: [UInt8] = [0xAF, 0x13] + BinaryPropertyListWriter.bigEndian(20, size: 8)
        let marker = try XCTUnwrap((0 ..< wide.count - count.count).first { Array(wide[$0 ..< $0 + count.count]) == count })
        wide.replaceSubrange(marker + 2 ..< marker + 10, with: BinaryPropertyListWriter.bigEndian(1 << 30, size: 8))
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(wide), name: "wide")).contains("more than its bytes"))
    }

    /// Archives whose objects are of the wrong class, refer to themselves, or nest deep.
    func testHostileArchivesAreRefused() throws {
        // The root is an array.
        let notModel = KeyedArchiveWriter()
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(notModel.archive(root: notModel.array([]))), name: "array")).contains("root object of class NSMutableArray, not NSManagedObjectModel"))
        // The entities are the model itself (a cycle through the wrong class).
        let cyclic = KeyedArchiveWriter()
        let root = cyclic.reserve()
        cyclic.add("NSManagedObjectModel", [("NSEntities", .uid(cyclic.dictionary([("Loop", root)])))], at: root)
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(cyclic.archive(root: root)), name: "cyclic")).contains("entity 'Loop' of class NSManagedObjectModel, not NSEntityDescription"))
        // A reference past the end of $objects.
        let dangling = KeyedArchiveWriter()
        let model = dangling.reserve()
        dangling.add("NSManagedObjectModel", [("NSEntities", .uid(99_999))], at: model)
        XCTAssertTrue(refusal(try store(cache: RawDeflate.deflate(dangling.archive(root: model)), name: "dangling")).contains("refers to object 99999"))
        // An entity whose parent is itself: Core Data's model would not load; the suite says so.
        let selfParent = KeyedArchiveWriter()
        let top = selfParent.reserve()
        let entity = selfParent.reserve()
        selfParent.add("NSEntityDescription", [("NSEntityName", .uid(selfParent.string("Node"))), ("NSSuperentity", .uid(entity))], at: entity)
        selfParent.add("NSManagedObjectModel", [("NSEntities", .uid(selfParent.dictionary([("Node", entity)])))], at: top)
        let path = try store(cache: RawDeflate.deflate(selfParent.archive(root: top)), name: "selfParent")
        XCTAssertThrowsError(try Model(CoreDataStoreFile.read(path: path).description))
    }

    /// Arrays nested 2,000 deep in an entity's user info (which the reader never opens) and a
    /// self-containing array: read without recursion.
    func testDeepNestingCostsNoStack() throws {
        var nested = PropertyListNode.array([])
        for _ in 0 ..< 2_000 { nested = .array([nested]) }
        let writer = KeyedArchiveWriter()
        let top = writer.reserve()
        let entity = writer.reserve()
        let info = writer.reserve()
        writer.replace(info, with: nested)
        let loop = writer.reserve()
        writer.add("NSMutableArray", [("NS.objects", .array([.uid(loop)]))], at: loop)
        writer.add("NSEntityDescription", [("NSEntityName", .uid(writer.string("Note"))), ("NSUserInfo", .uid(info)), ("NSSubentities", .uid(loop)),
                                           ("NSProperties", .uid(writer.dictionary([("title", writer.add("NSAttributeDescription", [
                                               ("NSPropertyName", .uid(writer.string("title"))), ("NSAttributeType", .integer(700)), ("_P", .integer(0xF3)),
                                           ]))])))], at: entity)
        writer.add("NSManagedObjectModel", [("NSEntities", .uid(writer.knownKeysDictionary([("Note", entity)])))], at: top)
        let store = try CoreDataStoreFile.read(path: try store(cache: RawDeflate.deflate(writer.archive(root: top)), name: "deep"))
        XCTAssertEqual(Self.archived(store.description), ["Note< [title:string?] [] unique [] indexes []"])
    }
}

extension Model {
    /// The model with every concrete entity's own rows (at most 50 each), for small stores.
    func scaled() throws -> Model {
        var description = self.description
        for position in description.entities.indices where !description.entities[position].abstract {
            description.entities[position].rows = min(entity(description.entities[position].name)?.rows ?? 0, 50)
        }
        return try Model(description)
    }
}
