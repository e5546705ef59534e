import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import TestSupport
import XCTest

/// An app's store read as the dataset every layout is filled with: a store written from generated
/// objects reads back as exactly those objects (values, to-ones, links), with the digest of what
/// it holds; rows that break the model are counted by kind and the store refused in one line; the
/// store is never written.
final class StoreDatasetTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-dataset-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Every preset, the Xcode fixtures and random models (fixed seeds), at a few hundred objects.
    func models() throws -> [Model] {
        let fixtures = CoreDataStoreFileTests.fixtures
        let xcode = try ["Library.xcdatamodeld", "Notebook.xcdatamodeld"].map {
            try Model(XcodeModelReader.read(path: fixtures.appendingPathComponent($0).path).description.sharing(300))
        }
        let random = try (1 ... 6).map { try Model(RandomModel.make(seed: $0)) }
        return try ModelPresets.all.map { try Model($0.scaled(to: 600)) } + xcode + random
    }

    /// Writes `model`'s generated objects as a Core Data store; returns the store's path and the model read from it.
    func store(_ model: Model, seed: UInt64 = 5) throws -> (path: String, read: Model) {
        let path = folder.appendingPathComponent("\(model.name)-\(UUID().uuidString.prefix(4)).sqlite").path
        try CoreDataStoreFixture.writeGenerated(model, seed: seed, to: path)
        return (path, try Model(CoreDataStoreFile.read(path: path).description))
    }

    func open(_ path: String, _ model: Model) throws -> StoreDataset {
        try StoreDataset.open(path: path, model: model, seed: 1, privateCopy: StorePrivateCopy())
    }

    /// How `got` (of the model read from the store) differs from `expected` (of the model it was
    /// written from), property by property by name (links are compared apart); `nil` when it does not. A model
    /// read from a store orders attributes as its model cache does.
    static func difference(_ got: ModelObject, _ read: Model, _ expected: ModelObject, _ model: Model) -> String? {
        let entity = read.entities[got.id.entity], original = model.entities[expected.id.entity]
        guard entity.name == original.name, got.id.key == expected.id.key else { return "\(entity.name) \(got.id.key) where \(original.name) \(expected.id.key)" }
        let place = "\(entity.name) \(got.id.key)"
        for (position, attribute) in original.attributes.enumerated() {
            guard let index = entity.attributeIndex(attribute.name) else { return "\(place) has no \(attribute.name)" }
            if got.values[index] != expected.values[position] { return "\(place).\(attribute.name): \(got.values[index]) where \(expected.values[position])" }
        }
        func named(_ id: ObjectID?, _ in: Model) -> String { id.map { "\(`in`.entities[$0.entity].name) \($0.key)" } ?? "nil" }
        for (position, relationship) in original.toOneRelationships.enumerated() {
            guard let index = entity.toOneRelationships.firstIndex(where: { $0.name == relationship.name }) else { return "\(place) has no \(relationship.name)" }
            if named(got.toOne[index], read) != named(expected.toOne[position], model) { return "\(place).\(relationship.name)" }
        }
        return nil
    }

    /// Every link as both ends and both relationship names, whichever side holds it (a model read
    /// from a store may hold a many-to-many's links on the other side than the one written).
    static func links(_ objects: [ModelObject], _ model: Model) -> [String] {
        objects.flatMap { object in
            zip(model.entities[object.id.entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }, object.links).flatMap { relationship, destinations in
                destinations.map { destination in
                    let ends = ["\(model.entities[object.id.entity].name) \(object.id.key)", "\(model.entities[destination.entity].name) \(destination.key)"]
                    let names = [relationship.name, relationship.inverse ?? ""]
                    return (ends[0] < ends[1] ? ends + names : ends.reversed() + names.reversed()).joined(separator: "|")
                }
            }
        }.sorted()
    }

    func testAStoreReadsBackAsTheObjectsWrittenIntoIt() throws {
        for model in try models() {
            let (path, read) = try store(model)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let dataset = try open(path, read)
            let generator = ObjectGenerator(model, seed: 5)
            var objects = AnswerDigest(.unordered), links = 0
            for root in read.roots {
                let original = try XCTUnwrap(model.index(of: read.entities[root].name))
                XCTAssertEqual(dataset.count(root: root), generator.count(root: original), "\(model.name) \(read.entities[root].name)")
                let expected = generator.objects(root: original, 0 ..< generator.count(root: original))
                let got = dataset.objects(root: root, 0 ..< dataset.count(root: root))
                let differences = zip(got, expected).compactMap { Self.difference($0, read, $1, model) }
                XCTAssertEqual(differences.first, nil, "\(model.name): \(differences.count) objects differ")
                for (position, object) in got.enumerated() {
                    XCTAssertEqual(dataset.key(root: root, at: position), object.id.key)
                    XCTAssertEqual(dataset.entity(root: root, at: position), object.id.entity)
                    objects.add(object)
                    links += object.links.reduce(0) { $0 + $1.count }
                }
            }
            let generated = model.roots.flatMap { generator.objects(root: $0, 0 ..< generator.count(root: $0)) }
            let held = read.roots.flatMap { dataset.objects(root: $0, 0 ..< dataset.count(root: $0)) }
            XCTAssertTrue(Self.links(held, read) == Self.links(generated, model), "\(model.name): the links differ")
            XCTAssertEqual(dataset.digest, objects, model.name)
            XCTAssertEqual(links, generated.reduce(0) { $0 + $1.links.reduce(0) { $0 + $1.count } }, model.name)
            XCTAssertEqual(Array(dataset.batches(of: 37)).joined().map(\.id), read.roots.flatMap { root in dataset.objects(root: root, 0 ..< dataset.count(root: root)).map(\.id) })
            try dataset.checkReads()
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "\(model.name): the store was written")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"))
        }
    }

    /// A folder-and-notes model: notes name their folder (a to-one with a to-many inverse).
    static let notebook = ModelDescription(name: "Gaps", entities: [
        EntityDescription("Folder", rows: 30, attributes: [Attribute("name", .string)],
                          relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true)]),
        EntityDescription("Note", rows: 120, attributes: [Attribute("title", .string), Attribute("size", .integer64, optional: true)],
                          relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes")]),
    ])

    /// Keys need not be 1…n: a store whose objects were deleted (gaps) and whose keys start high
    /// reads its objects under their own keys, to-ones and lookups by key included.
    func testKeysWithGapsAreTheStoresOwn() throws {
        let (path, _) = try store(try Model(Self.notebook))
        let database = try Database(path: path)
        try database.execute("UPDATE ZNOTE SET ZFOLDER = NULL WHERE ZFOLDER % 3 = 0; UPDATE ZNOTE SET ZFOLDER = ZFOLDER + 1000000")
        try database.execute("DELETE FROM ZFOLDER WHERE Z_PK % 3 = 0; UPDATE ZFOLDER SET Z_PK = Z_PK + 1000000; DELETE FROM ZNOTE WHERE Z_PK % 2 = 0")
        let read = try Model(CoreDataStoreFile.read(path: path).description)
        let dataset = try open(path, read)
        let folder = try XCTUnwrap(read.index(of: "Folder")), note = try XCTUnwrap(read.index(of: "Note"))
        XCTAssertEqual(dataset.count(root: folder), 20)
        XCTAssertEqual(dataset.count(root: note), 60)
        XCTAssertEqual(dataset.key(root: folder, at: 0), 1_000_001)
        XCTAssertEqual(dataset.key(root: note, at: 1), 3)
        let id = ObjectID(entity: folder, key: dataset.key(root: folder, at: 5))
        XCTAssertEqual(dataset.object(id).id, id)
        let folderOfNote = try XCTUnwrap(read.entities[note].toOneRelationships.first)
        let popular = try XCTUnwrap(dataset.popularDestination(folderOfNote))
        let rare = try XCTUnwrap(dataset.rareDestination(folderOfNote))
        let counts = try database.strings("SELECT COUNT(*) FROM ZNOTE WHERE ZFOLDER IS NOT NULL GROUP BY ZFOLDER ORDER BY 1").compactMap(Int.init)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZNOTE WHERE ZFOLDER = ?", [popular.key]).map(Int.init), counts.last)
        XCTAssertEqual(try database.scalarInt("SELECT COUNT(*) FROM ZNOTE WHERE ZFOLDER = ?", [rare.key]).map(Int.init), counts.first)
        for object in dataset.objects(root: note, 0 ..< 60) {
            if let destination = object.toOne[0] { XCTAssertEqual(dataset.object(destination).id, destination) }
        }
        try dataset.checkReads()
    }

    /// Rows that break the store's own model are counted by kind, the first of each named by
    /// entity, key and property, never by value, and the store refused in one line; the store is
    /// never written.
    func testRowsThatBreakTheModelAreRefusedInOneLine() throws {
        let cases: [(sql: String, expected: String)] = [
            ("UPDATE ZNOTE SET Z_ENT = 99 WHERE Z_PK = 5", "1 row of an entity number no concrete entity of the table has (first: ZNOTE Z_PK 5)"),
            ("UPDATE ZNOTE SET ZSIZE = 'many' WHERE Z_PK = 6", "1 value of the wrong type for the attribute's column (or text that is not UTF-8) (first: Note.size of Note 6)"),
            ("UPDATE ZNOTE SET ZTITLE = CAST(x'C328' AS TEXT) WHERE Z_PK = 9", "1 value of the wrong type for the attribute's column (or text that is not UTF-8) (first: Note.title of Note 9)"),
            ("UPDATE ZNOTE SET ZTITLE = NULL WHERE Z_PK IN (7, 8)", "2 NULLs in a required attribute (first: Note.title of Note 7)"),
            ("UPDATE ZNOTE SET ZFOLDER = 999 WHERE Z_PK = 8", "1 to-one to an object the store does not have (first: Note.folder of Note 8)"),
            ("UPDATE ZNOTE SET ZFOLDER = 'x' WHERE Z_PK = 10", "1 to-one to an object the store does not have (first: Note.folder of Note 10)"),
        ]
        for (sql, expected) in cases {
            let (path, read) = try store(try Model(Self.notebook))
            try Database(path: path).execute(sql)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try open(path, try Model(CoreDataStoreFile.read(path: path).description)), sql) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected), "\(sql): \(message)")
                XCTAssertTrue(message.hasPrefix(path), message)
                XCTAssertFalse(message.contains("\n"), message)
                XCTAssertFalse(message.contains("many"), "a value appears in \(message)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
            _ = read
        }
        // A join row of an object the store does not have, wherever its key falls.
        let model = try Model(ModelPresets.named("publications")!.scaled(to: 300))
        for owner in [-5, 150, 999_999] {
            let (path, read) = try store(model)
            let join = try XCTUnwrap(try Database(path: path).strings("SELECT name FROM sqlite_master WHERE name LIKE 'Z\\_%TAGS' ESCAPE '\\' AND type = 'table'").first)
            let columns = try Database(path: path).strings("SELECT name FROM pragma_table_info('\(join)')")
            try Database(path: path).execute("DELETE FROM ZPUBLICATION WHERE Z_PK = 150")
            try Database(path: path).execute("INSERT OR IGNORE INTO \(join) (\(columns[0]), \(columns[1])) VALUES (\(owner), 1)")
            let reread = try Model(CoreDataStoreFile.read(path: path).description)
            XCTAssertThrowsError(try open(path, reread)) { error in
                XCTAssertTrue("\(error)".contains("join-table row"), "\(owner): \(error)")
            }
            _ = read
        }
    }

    /// With `skippingBadRows`, an object whose own values break the model is left out (and the
    /// model's counts with it), a to-one naming an object the store lacks or one left out is
    /// dropped, a row of no entity is no object; what was found is named.
    func testSkippingLeavesOutWhatBreaksTheModel() throws {
        let (path, _) = try store(try Model(Self.notebook))
        try Database(path: path).execute("""
            UPDATE ZNOTE SET ZSIZE = 'many' WHERE Z_PK = 6; UPDATE ZNOTE SET ZTITLE = NULL WHERE Z_PK IN (7, 8);
            UPDATE ZNOTE SET ZFOLDER = 999 WHERE Z_PK = 9; UPDATE ZFOLDER SET ZNAME = NULL WHERE Z_PK = 2; UPDATE ZNOTE SET Z_ENT = 99 WHERE Z_PK = 10
            """)
        let read = try Model(CoreDataStoreFile.read(path: path).description)
        XCTAssertThrowsError(try open(path, read)) { XCTAssertTrue("\($0)".contains("(--skip-bad-rows leaves them out;"), "\($0)") }
        let dataset = try StoreDataset.open(path: path, model: read, seed: 1, privateCopy: StorePrivateCopy(), skippingBadRows: true)
        let folder = try XCTUnwrap(read.index(of: "Folder")), note = try XCTUnwrap(read.index(of: "Note"))
        XCTAssertEqual(dataset.leftOut, 4)
        XCTAssertEqual(dataset.count(root: note), 116, "120 notes but the 3 left out and the one of no entity")
        XCTAssertEqual(dataset.count(root: folder), 29)
        XCTAssertEqual(dataset.model.entities[note].rows, 116)
        XCTAssertEqual(dataset.model.entities[folder].rows, 29)
        let notes = dataset.objects(root: note, 0 ..< 116)
        XCTAssertFalse(notes.contains { [6, 7, 8, 10].contains($0.id.key) })
        XCTAssertNil(try XCTUnwrap(notes.first { $0.id.key == 9 }).toOne[0])
        XCTAssertFalse(notes.contains { $0.toOne[0]?.key == 2 }, "a to-one to a folder left out is dropped")
        let folders = try Database(path: path).strings("SELECT Z_PK FROM ZNOTE WHERE ZFOLDER = 2")
        XCTAssertFalse(folders.isEmpty, "the store still names folder 2: nothing was written")
        let summary = try XCTUnwrap(dataset.skipped).summary
        for found in ["1 row of an entity number no concrete entity", "1 value of the wrong type", "3 NULLs in a required attribute", "1 to-one to an object the store does not have"] {
            XCTAssertTrue(summary.contains(found), summary)
        }
        try dataset.checkReads()
    }
}
