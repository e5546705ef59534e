import Foundation
import Generation
import Models
import SQLite

/// The store-level machinery every Core Data layout shares: schema creation, the bookkeeping rows
/// (`Z_PRIMARYKEY` with one row per entity, `Z_METADATA` with its property list, `Z_MODELCACHE`)
/// and primary-key reservation, as Core Data does them.
public struct CoreDataBookkeeping {
    public let database: Database
    /// The model whose entities `Z_PRIMARYKEY` lists (the stored model: flattened, or one enum entity, …).
    public let model: Model

    public init(database: Database, model: Model) { self.database = database; self.model = model }

    /// Runs `schemaSQL` (it must create `CoreDataSchema.bookkeepingSQL`'s tables) and writes the
    /// bookkeeping rows, in one transaction. The SQL is derived from names the model validated.
    public func createSchema(_ schemaSQL: [String], strategyName: String) throws {
        try database.transaction {
            for statement in schemaSQL { try database.execute(statement) }
            let insert = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for entity in model.entities {
                try insert.bind([entity.number, entity.name, entity.parent.map { $0 + 1 } ?? 0])
                try insert.run()
            }
            let metadata = try database.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            let storeUUID = UUID().uuidString
            try metadata.bind([storeUUID, Self.metadataPlist(storeUUID: storeUUID, strategyName: strategyName, model: model.name)])
            try metadata.run()
            // Core Data caches its compiled model here; the suite has none, so the row holds an empty blob.
            try database.execute("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (x'')")
        }
    }

    /// The binary property list Core Data keeps in `Z_METADATA.Z_PLIST`.
    static func metadataPlist(storeUUID: String, strategyName: String, model: String) -> [UInt8] {
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreUUID": storeUUID,
            "NSPersistenceFrameworkVersion": 1,
            "NSStoreModelVersionIdentifiers": [model, strategyName],
            "NSStoreModelVersionHashesVersion": 3,
        ]
        let data = (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)) ?? Data()
        return [UInt8](data)
    }

    public static let readMaxSQL = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"
    /// Core Data's optimistic reservation: the new `Z_MAX`, guarded by the old one.
    public static let reserveSQL = "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"

    /// Reserves the keys of a save's objects: for each stored entity (0-based, as
    /// `storedEntity` maps an object's entity to it), up to the highest key among its objects.
    public func reserveKeys(for objects: [ModelObject], storedEntity: (Int) throws -> Int) throws {
        var highest: [Int: Int64] = [:]
        for object in objects {
            let stored = try storedEntity(object.id.entity)
            highest[stored] = max(highest[stored] ?? 0, object.id.key)
        }
        for (stored, key) in highest.sorted(by: { $0.key < $1.key }) { try reserveKeys(entityNumber: stored + 1, upTo: key) }
    }

    /// Reserves the keys up to `highest` on the `Z_PRIMARYKEY` row of entity number `number` (a
    /// root's, for a hierarchy: one `Z_PK` counter for all of it), inside the save's transaction.
    /// Objects come with their keys (the same in every strategy), so the reservation moves `Z_MAX`
    /// to the highest key saved, as Core Data's moves it past the keys it hands out.
    public func reserveKeys(entityNumber number: Int, upTo highest: Int64) throws {
        let current = try database.scalarInt(Self.readMaxSQL, [number]) ?? 0
        guard highest > current else { return }
        let update = try database.cachedStatement(Self.reserveSQL)
        try update.bind([highest, number, current])
        try update.run()
    }
}
