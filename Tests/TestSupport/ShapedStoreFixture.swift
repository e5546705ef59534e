import CoreDataLayout
import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import Strategies

/// A store with an app's kind of data shape, written row by row for the shape tests: folders whose
/// notes are skewed (a few folders hold most notes, a sixth hold none), notes (and their
/// sub-entity checklists) with 8 to 27 tags each drawn from skewed tags, optional texts and blobs
/// of skewed lengths, a title from a pool (so its distinct share is below 1); a checklist more
/// often has no body (NULL in 60 % against a plain note's 30 %) and is in no folder four times as often
/// (half of them against a plain note's 12 %): sparsity that differs by sub-entity. Every text holds
/// `marker`, so that a test can prove no value of a row reaches any output.
public enum ShapedStoreFixture {
    public static let marker = "Quokka"
    public static let folders = 300
    public static let tags = 400

    /// The model, with `notes` objects of its hierarchy (two thirds notes, one third checklists).
    public static func description(notes: Int) -> ModelDescription {
        ModelDescription(name: "Notes", entities: [
            EntityDescription("Folder", rows: folders, attributes: [Attribute("name", .string, optional: true)],
                              relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true)]),
            EntityDescription("Note", rows: notes - notes / 3,
                              attributes: [Attribute("title", .string, optional: true), Attribute("body", .string, optional: true),
                                           Attribute("thumbnail", .binary, optional: true)],
                              relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes", optional: true),
                                              RelationshipDescription("tags", destination: "Tag", inverse: "notes", toMany: true)],
                              fetchIndexes: [FetchIndex("byTitle", [FetchIndex.Element(property: "title")])]),
            EntityDescription("Checklist", parent: "Note", rows: notes / 3, attributes: [Attribute("items", .integer32, optional: true)]),
            EntityDescription("Tag", rows: tags, attributes: [Attribute("label", .string)],
                              relationships: [RelationshipDescription("notes", destination: "Note", inverse: "tags", toMany: true)]),
        ])
    }

    /// What the fixture put in the store, counted as it was written: each folder's and each tag's
    /// notes, each note's tags, the lengths of each text and blob, and the titles' distinct values.
    public struct Written {
        public var folderNotes: [Int: Int] = [:]
        public var noteTags: [Int: Int] = [:]
        public var tagNotes: [Int: Int] = [:]
        public var lengths: [String: [Int: Int]] = [:]
        public var titles = Set<String>()
        public var titled = 0
        /// Per `Entity.property` (of `body`, `folder`): the NULLs among the entity's own objects.
        public var nulls: [String: Int] = [:]
        /// Per entity (`Note`, `Checklist`): its own objects.
        public var objects: [String: Int] = [:]
    }

    /// Writes the store at `path`; returns what it holds.
    @discardableResult
    public static func write(to path: String, notes: Int) throws -> Written {
        let description = description(notes: notes)
        let model = try Model(description)
        try CoreDataStoreFixture.write(model, to: path)
        let layout = CoreDataSchema(model)
        let note = try entityIndex(model, "Note"), checklist = try entityIndex(model, "Checklist")
        let folder = try entityIndex(model, "Folder"), tag = try entityIndex(model, "Tag")
        let database = try Database(path: path)
        var written = Written()
        try database.transaction {
            // The fixture's rows hold keys alone: this fixture writes whole rows in their place.
            for root in model.roots { try database.execute("DELETE FROM \(layout.table(of: root).name)") }
            let folderTable = layout.table(of: folder).name, tagTable = layout.table(of: tag).name
            let addFolder = try database.prepare("INSERT INTO \(folderTable) (Z_PK, Z_ENT, Z_OPT, \(try layout.attributeColumn(folder, "name"))) VALUES (?, ?, 1, ?)")
            for key in 1 ... folders { addFolder.reset(); try addFolder.bind([key, folder + 1, "\(marker) folder \(key)"]); try addFolder.run() }
            let addTag = try database.prepare("INSERT INTO \(tagTable) (Z_PK, Z_ENT, Z_OPT, \(try layout.attributeColumn(tag, "label"))) VALUES (?, ?, 1, ?)")
            for key in 1 ... tags { addTag.reset(); try addTag.bind([key, tag + 1, "\(marker) tag \(key)"]); try addTag.run() }
            let columns = try ["title", "body", "thumbnail"].map { try layout.attributeColumn(note, $0) } + [try layout.attributeColumn(checklist, "items"),
                                                                                                     try layout.toOneColumns(note, "folder").key]
            let addNote = try database.prepare("INSERT INTO \(layout.table(of: note).name) (Z_PK, Z_ENT, Z_OPT, \(columns.joined(separator: ", "))) VALUES (?, ?, 1, ?, ?, ?, ?, ?)")
            let join = try layout.join(try relationship(model, note, "tags"))
            let pair = join.columns(from: note, "tags")
            let link = try database.prepare("INSERT INTO \(join.name) (\(pair.this), \(pair.other)) VALUES (?, ?)")
            let plainNotes = notes - notes / 3
            for key in 1 ... notes {
                var rng = SplitMix64(seed: 2_026, stream: UInt64(key))
                let entity = key <= plainNotes ? note : checklist
                var title: String?
                if rng.nextUnit() >= 0.2 {
                    let pooled = Int(rng.nextUnit() * Double(max(1, notes / 6)))
                    title = "\(marker) " + String(repeating: "t", count: pooled % 40) + " \(pooled)"
                    written.titled += 1
                    written.titles.insert(title!)
                }
                let bodyLength = 20 + Int(600 * pow(rng.nextUnit(), 3))
                let body: String? = rng.nextUnit() < (entity == checklist ? 0.6 : 0.3) ? nil : marker + String(repeating: "b", count: bodyLength - marker.count)
                let thumbnail: [UInt8]? = rng.nextUnit() < 0.5 ? nil : Array(repeating: 0xAB, count: 100 + Int(900 * rng.nextUnit()))
                let items: Int? = entity == checklist && rng.nextUnit() >= 0.4 ? Int(rng.next() % 50) : nil
                let owner: Int? = rng.nextUnit() < (entity == checklist ? 0.5 : 0.12) ? nil : 1 + Int(Double(folders * 5 / 6) * pow(rng.nextUnit(), 2))
                let name = entity == checklist ? "Checklist" : "Note"
                written.objects[name, default: 0] += 1
                for (property, isNull) in [("body", body == nil), ("folder", owner == nil)] where isNull { written.nulls["\(name).\(property)", default: 0] += 1 }
                addNote.reset()
                try addNote.bind([key, entity + 1, title, body, nil, items, owner])
                if let thumbnail { try thumbnail.withUnsafeBytes { try addNote.bind(bytes: $0, at: 5) } }
                try addNote.run()
                for (name, length) in [("title", title?.count), ("body", body?.count), ("thumbnail", thumbnail?.count)] {
                    if let length { written.lengths[name, default: [:]][length, default: 0] += 1 }
                }
                if let owner { written.folderNotes[owner, default: 0] += 1 }
                var chosen = Set<Int>()
                let count = 8 + Int(20 * rng.nextUnit())
                while chosen.count < count { chosen.insert(1 + Int(Double(tags) * pow(rng.nextUnit(), 1.5))) }
                written.noteTags[key] = count
                for target in chosen.sorted() {
                    link.reset(); try link.bind([key, target]); try link.run()
                    written.tagNotes[target, default: 0] += 1
                }
            }
        }
        return written
    }

    private static func entityIndex(_ model: Model, _ name: String) throws -> Int {
        guard let index = model.index(of: name) else { throw ModelError("no entity \(name)") }
        return index
    }

    private static func relationship(_ model: Model, _ entity: Int, _ name: String) throws -> Model.Relationship {
        guard let relationship = model.entities[entity].relationship(name) else { throw ModelError("no relationship \(name)") }
        return relationship
    }
}
