import CoreDataLayout
import Foundation
import Models
import SQLite
import StoreFiles
import Strategies

/// A Core Data (or SwiftData) store file read as a model: its compiled model (`Z_MODELCACHE`),
/// its entities' numbers (`Z_PRIMARYKEY`), its schema (`sqlite_master`) and its objects per entity.
/// The one entry point is `read(path:)`.
///
/// The store is never written: it is opened `mode=ro&immutable=1` (SQLite takes no lock, replays
/// no journal and creates no `-wal` or `-shm` file beside it). When a `-wal` file beside it holds
/// committed transactions that are not yet in the store file, the store and its `-wal` are copied
/// into a private temporary folder first and the copy is read, so that what is read is what the
/// app last committed; the copy is removed before `read` returns. The folder is a
/// `PrivateStoreFolder` (`inheritance-bench-store-<pid>-<8 hex digits>`, with its marker), so that
/// one a killed or interrupted process leaves is removed by `bench clean` and by the next run,
/// sweep, storage or explain (`LeftoverStores`).
public struct CoreDataStoreFile: Sendable {
    /// A row of `sqlite_master`.
    public struct SchemaEntry: Sendable, Equatable {
        public let type: String
        public let name: String
        public let table: String
        public let sql: String?
    }

    /// A row of `Z_PRIMARYKEY`.
    public struct PrimaryKeyRow: Sendable, Equatable {
        public let entity: Int
        public let name: String
        public let parent: Int
        public let max: Int64
    }

    public let path: String
    /// The model, each entity's `rows` its objects in the store (`nil` everywhere when the store
    /// holds none), each optional attribute's and to-one's `nullShare` its share of NULLs there.
    /// The store's model; `legacyIndexes` set when the store's indexes are an earlier framework's
    /// (its layout proof finds them under the earlier names), so that a store generated from it is
    /// laid out as its framework did.
    public private(set) var description: ModelDescription
    public let warnings: [String]
    public let schema: [SchemaEntry]
    public let primaryKeys: [PrimaryKeyRow]
    /// `NSPersistenceFrameworkVersion` from the store's metadata, when it has one.
    public let frameworkVersion: String?
    /// The model predates fetch indexes, and so do the store's index names (see `ModelCache.Decoded`).
    public let legacyIndexes: Bool
    /// Each entity a migration renamed: its name before, by its name now (`ModelCache.Decoded.renamings`).
    public let renamings: [String: String]
    /// The optional attributes and to-ones whose NULL share was measured from the rows (`StoreShape`).
    public let nullSharesMeasured: Int
    /// The fan-outs, lengths and distinct shares measured (`StoreShape.measureDistributions`).
    public let distributions: StoreShape.Distributions
    /// How long reading the model and the data's shape took, the private copy included (seconds).
    public let readSeconds: Double

    /// The compressed model cache may be at most this large.
    public static let cacheLimit = 16 << 20

    /// Whether `path` is a regular file that starts like an SQLite database (the format a store
    /// has, whatever its extension: `.sqlite`, `.store`, `.storedata`, …). A pipe or a device is
    /// never opened here (reading it would take what the model's reader needs).
    public static func isStore(_ path: String) -> Bool {
        guard (try? FileManager.default.attributesOfItem(atPath: resolvingLinks(path))[.type] as? FileAttributeType) == .typeRegular,
              let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    /// The extensions Core Data and SwiftData stores go by.
    public static let extensions: Set<String> = ["sqlite", "store", "storedata", "db", "sqlite3"]

    /// Whether `--model path` means a store: a file that starts like an SQLite database, or any
    /// path with a store's extension (so that a damaged store is refused as a store).
    public static func isStoreArgument(_ path: String) -> Bool {
        isStore(path) || extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// A store at least this large tells `progress` what its shape's pass is reading.
    public static let progressSize = 32 << 20

    /// Reads the store at `path`; every problem is one `ModelError` sentence naming the file.
    /// `progress` hears each step of reading the data's shape when the store is large; a hierarchy
    /// of more than `sampleLimit` objects has its shape read from a sample (`StoreShape.Sample`).
    /// A store in use (with a `-wal` beside it) is read from a private copy, which `privateCopy`
    /// shares with an interruption handler (`StorePrivateCopy.cancel`).
    public static func read(path: String, sampleLimit: Int = StoreShape.sampleLimit, privateCopy: StorePrivateCopy = StorePrivateCopy(),
                            progress: @escaping (String) -> Void = { _ in }) throws -> CoreDataStoreFile {
        let started = DispatchTime.now().uptimeNanoseconds
        let say = { (what: String) in ModelError("\(path) \(what)") }
        guard FileManager.default.fileExists(atPath: path) else { throw say("does not exist; give the path of a Core Data or SwiftData store (App.sqlite)") }
        // A symbolic link is read as the store it leads to, with the -wal beside that store, where
        // SQLite keeps it; messages name the path given.
        let file = resolvingLinks(path)
        guard isStore(file) else {
            throw say(FileManager.default.isReadableFile(atPath: path) ? "is not an SQLite database; give a Core Data or SwiftData store (App.sqlite)"
                                                                       : "cannot be read; give a readable Core Data or SwiftData store (App.sqlite)")
        }
        defer { privateCopy.remove() }
        do {
            let database = try openReadOnly(file, path: path, privateCopy: privateCopy)
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            return try read(database, path: path, sampleLimit: sampleLimit, progress: size >= progressSize ? progress : { _ in }, started: started)
        } catch let error as ModelError {
            throw error
        } catch let error as SQLiteError {
            throw say("cannot be read as a store: \(error.message)")
        }
    }

    /// Opens the store at `file` (its links resolved) read-only and immutable; when a `-wal` beside
    /// it holds transactions, a copy of both made in `privateCopy`'s folder (which the caller
    /// removes) is opened instead, so that what is read is what the app last committed.
    static func openReadOnly(_ file: String, path: String, privateCopy: StorePrivateCopy) throws -> Database {
        let say = { (what: String) in ModelError("\(path) \(what)") }
        let wal = file + "-wal"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        var opened = file
        if walSize > 0 {
            let folder = PrivateStoreFolder(command: "store", in: FileManager.default.temporaryDirectory)
            do {
                guard try privateCopy.make(folder) else { throw say("was not read: interrupted") }
                let copy = folder.url.appendingPathComponent("store.sqlite").path
                try FileManager.default.copyItem(atPath: file, toPath: copy)
                try FileManager.default.copyItem(atPath: wal, toPath: copy + "-wal")
                opened = copy
            } catch let error as ModelError {
                throw error
            } catch {
                throw say("has a -wal file beside it, and copying both to read them failed: \(error.localizedDescription)")
            }
        }
        return try Database(path: uri(opened, immutable: opened == file), readOnly: true, uri: true)
    }

    /// `path` with every symbolic link in it resolved (as is when it cannot be).
    static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A `file:` URI for `path`, read-only (and immutable: no lock, no journal, no -shm).
    static func uri(_ path: String, immutable: Bool) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(encoded)?mode=ro" + (immutable ? "&immutable=1" : "")
    }

    private static func read(_ database: Database, path: String, sampleLimit: Int, progress: (String) -> Void, started: UInt64) throws -> CoreDataStoreFile {
        let say = { (what: String) in ModelError("\(path) \(what)") }
        let schema = try entries(database)
        let tables = Set(schema.filter { $0.type == "table" }.map(\.name))
        if tables.contains("Z_PRIMARYKEY"), !tables.contains("Z_MODELCACHE") {
            throw say("is a Core Data store written before model caches (macOS 10.11, iOS 9): it has no Z_MODELCACHE to read its model from; give the app's Xcode model (.xcdatamodeld) instead")
        }
        let missing = ["Z_PRIMARYKEY", "Z_MODELCACHE"].filter { !tables.contains($0) }
        guard missing.isEmpty else {
            throw say("is an SQLite database but not a Core Data store (it has no \(missing.joined(separator: " or ")) table); give a Core Data or SwiftData store")
        }
        guard let size = try database.scalarInt("SELECT length(Z_CONTENT) FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1") else {
            throw say("has no model cache (Z_MODELCACHE is empty: a framework older than macOS 10.11/iOS 9 wrote it, or it was cleared); give the app's Xcode model instead")
        }
        if size == 0 {
            if let (model, strategy) = try? generated(database) {
                let source = ModelPresets.named(model) != nil ? "--preset \(model)" : "the --model it was generated from"
                throw say("is a store bench generate wrote (the \(strategy) layout of the model \(model.escapingControlCharacters)), which keeps no compiled model (its Z_MODELCACHE is empty); measure the model it was made from instead (\(source))")
            }
            throw say("has an empty model cache (Z_MODELCACHE holds no bytes: it was cleared, or a tool other than Core Data wrote the store); give the app's Xcode model (.xcdatamodeld) instead")
        }
        guard size <= cacheLimit else { throw say("has a model cache of \(size) bytes, more than the \(cacheLimit) a model needs; is it a Core Data store?") }
        let blob = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE WHERE Z_CONTENT IS NOT NULL LIMIT 1")
        _ = try blob.step()
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var decoded: ModelCache.Decoded
        do { decoded = try ModelCache.decode(blob.bytes(at: 0), name: name) }
        catch let failure as ModelCache.Failure { throw say("\(failure); the store may be damaged: give the app's Xcode model (.xcdatamodeld) instead") }
        let keys = try primaryKeys(database)
        try count(database, into: &decoded.description, keys: keys, tables: tables)
        let measured = try StoreShape.measureNullShares(database, &decoded.description, schema: schema, sampleLimit: sampleLimit)
        let distributions = try StoreShape.measureDistributions(database, &decoded.description, schema: schema, sampleLimit: sampleLimit, progress: progress)
        var file = CoreDataStoreFile(path: path, description: decoded.description, warnings: decoded.warnings.map(\.escapingControlCharacters),
                                     schema: schema, primaryKeys: keys, frameworkVersion: try frameworkVersion(database), legacyIndexes: decoded.legacyIndexes,
                                     renamings: decoded.renamings, nullSharesMeasured: measured, distributions: distributions,
                                     readSeconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        // A model the suite cannot validate is left as it is (its refusal comes later).
        if decoded.legacyIndexes, let model = try? Model(file.description), LayoutProof(model: model, store: file).earlierIndexNames {
            file.description.legacyIndexes = true
        }
        return file
    }

    private static func entries(_ database: Database) throws -> [SchemaEntry] {
        let statement = try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")
        var entries: [SchemaEntry] = []
        while try statement.step() {
            entries.append(SchemaEntry(type: statement.string(at: 0), name: statement.string(at: 1), table: statement.string(at: 2), sql: statement.optionalString(at: 3)))
        }
        return entries
    }

    private static func primaryKeys(_ database: Database) throws -> [PrimaryKeyRow] {
        let statement = try database.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var rows: [PrimaryKeyRow] = []
        while try statement.step() {
            rows.append(PrimaryKeyRow(entity: statement.int(at: 0), name: statement.string(at: 1), parent: statement.int(at: 2), max: statement.int64(at: 3)))
        }
        return rows
    }

    /// Each entity's objects: one `GROUP BY Z_ENT` per root entity's table (aggregates only).
    private static func count(_ database: Database, into description: inout ModelDescription, keys: [PrimaryKeyRow], tables: Set<String>) throws {
        let names = Dictionary(keys.map { ($0.entity, $0.name) }, uniquingKeysWith: { first, _ in first })
        var rows: [String: Int] = [:]
        for root in description.entities where root.parent == nil {
            let table = "Z" + root.name.uppercased()
            guard tables.contains(table) else { continue }
            let statement = try database.prepare("SELECT Z_ENT, COUNT(*) FROM \"\(table)\" GROUP BY Z_ENT")
            while try statement.step() {
                if let name = names[statement.int(at: 0)] { rows[name, default: 0] += statement.int(at: 1) }
            }
        }
        guard rows.values.contains(where: { $0 > 0 }) else { return }
        for index in description.entities.indices where !description.entities[index].abstract {
            description.entities[index].rows = rows[description.entities[index].name] ?? 0
        }
        // A required to-one whose destination has no objects in the store (a store whose entities
        // are empty, as a new one's are) is made optional: it has no object to point at, and the
        // store holds nothing the suite may refuse.
        var parents: [String: String] = [:]
        for entity in description.entities { if let parent = entity.parent { parents[entity.name] = parent } }
        func objects(under name: String) -> Int {
            description.entities.filter { entity in
                var current: String? = entity.name
                var steps = 0
                while let at = current, steps <= description.entities.count { if at == name { return true }; current = parents[at]; steps += 1 }
                return false
            }.reduce(0) { $0 + ($1.rows ?? 0) }
        }
        for entity in description.entities.indices {
            for index in description.entities[entity].relationships.indices {
                let relationship = description.entities[entity].relationships[index]
                if !relationship.toMany, !relationship.optional, objects(under: relationship.destination) == 0 {
                    description.entities[entity].relationships[index].optional = true
                    description.entities[entity].relationships[index].nullShare = 1
                }
            }
        }
    }

    /// The value of `key` in `Z_METADATA.Z_PLIST` (a binary property list), if readable.
    private static func metadata(_ database: Database, _ key: String) throws -> (plist: BinaryPropertyList, value: BinaryPropertyList.Value)? {
        let statement = try database.prepare("SELECT Z_PLIST FROM Z_METADATA WHERE Z_PLIST IS NOT NULL LIMIT 1")
        guard try statement.step(), let plist = try? BinaryPropertyList(statement.bytes(at: 0)),
              case let .dictionary(keys, values)? = try? plist.value(plist.top) else { return nil }
        for (name, value) in zip(keys, values) {
            if case .string(key)? = try? plist.value(name) { return (try? plist.value(value)).map { (plist, $0) } }
        }
        return nil
    }

    /// `NSPersistenceFrameworkVersion` in `Z_METADATA.Z_PLIST`, if readable.
    private static func frameworkVersion(_ database: Database) throws -> String? {
        switch try metadata(database, "NSPersistenceFrameworkVersion")?.value {
        case let .integer(number)?: String(number)
        case let .real(number)?: String(number)
        case let .string(text)?: text
        default: nil
        }
    }

    /// The model and the strategy a store `bench generate` wrote names in its metadata
    /// (`NSStoreModelVersionIdentifiers`, `CoreDataStore.metadataPlist`).
    private static func generated(_ database: Database) throws -> (model: String, strategy: String)? {
        guard let (plist, value) = try metadata(database, "NSStoreModelVersionIdentifiers"), case let .array(members) = value, members.count == 2,
              case let .string(model)? = try? plist.value(members[0]), case let .string(strategy)? = try? plist.value(members[1]),
              Strategies.all.contains(where: { $0.name == strategy }) else { return nil }
        return (model, strategy)
    }
}
