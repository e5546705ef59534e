import Foundation
import Generation
import Models
import SQLite

/// An app's own objects, read from its Core Data or SwiftData store: what `--data store` fills
/// every layout with. The store is opened read-only and immutable (a private copy when a `-wal`
/// holds commits) and read as Core Data lays out the model; only each object's key and entity
/// are kept in memory (per root, in key order): values, to-ones and links are read from the store
/// when asked for, batch by batch. Opening reads every row once: each is checked against the model
/// (`StoreRowProblems`) and digested (`digest`), and the links counted.
public struct StoreDataset: Dataset {
    public let model: Model
    public let seed: UInt64
    public let path: String
    /// Per root entity (by entity index): its objects' keys in order and their concrete entities.
    let hierarchies: [Int: StoreKeys]
    let plan: StoreReadPlan
    let connection: StoreConnection
    /// The model entity of each of the store's entity numbers (`Z_ENT`), and the reverse.
    let entityOfNumber: [Int64: Int]
    let numbers: [Int: Int64]
    /// Every object (values and to-ones), unordered, as opening read it.
    var objectDigest = AnswerDigest(.unordered)
    /// Links per many-to-many relationship that generates them, by "Owner.name".
    var linkCountsByName: [String: Int] = [:]
    /// Objects left out because their own values break the model (`--skip-bad-rows`), and what
    /// opening found wrong in the store's rows; `nil` when nothing was.
    public internal(set) var leftOut = 0
    public internal(set) var skipped: StoreRowProblems?

    public var isPrivate: Bool { true }
    public var origin: String { "store" }
    public var digest: AnswerDigest? { objectDigest }

    public func count(root: Int) -> Int { hierarchies[root]?.keys.count ?? 0 }
    public func entity(root: Int, at position: Int) -> Int { hierarchies[root].map { Int($0.entities[position]) } ?? root }
    public func key(root: Int, at position: Int) -> Int64 { hierarchies[root]?.keys[position] ?? 0 }

    public func object(root: Int, at position: Int) -> ModelObject {
        let key = self.key(root: root, at: position)
        let found = connection.read { database in try read(database, root: root, keys: key ... key).objects.first }
        return (found ?? nil) ?? placeholder(ObjectID(entity: entity(root: root, at: position), key: key))
    }

    public func object(_ id: ObjectID) -> ModelObject {
        let root = model.entities[id.entity].root
        guard let position = hierarchies[root]?.position(of: id.key) else { return placeholder(id) }
        return object(root: root, at: position)
    }

    /// An object whose read failed (`checkReads` then throws): no values, no destinations.
    private func placeholder(_ id: ObjectID) -> ModelObject {
        let entity = model.entities[id.entity]
        return ModelObject(id: id, values: entity.attributes.map { _ in .null }, toOne: entity.toOneRelationships.map { _ in nil })
    }

    public func batches(of size: Int) -> AnySequence<[ModelObject]> {
        precondition(size > 0)
        var ranges: [(root: Int, positions: Range<Int>)] = []
        for root in model.roots {
            let count = self.count(root: root)
            for start in stride(from: 0, to: count, by: size) { ranges.append((root, start ..< min(start + size, count))) }
        }
        return AnySequence(ranges.lazy.map { batch in self.objects(root: batch.root, batch.positions) })
    }

    /// The objects at `positions` of the hierarchy of `root`, read in one step.
    public func objects(root: Int, _ positions: Range<Int>) -> [ModelObject] {
        guard !positions.isEmpty else { return [] }
        let keys = key(root: root, at: positions.lowerBound) ... key(root: root, at: positions.upperBound - 1)
        if let read = connection.read({ database in try read(database, root: root, keys: keys).objects }) {
            if read.count == positions.count { return read }
            connection.fail(ModelError("\(path) changed while it was read: \(read.count) objects where there were \(positions.count); measure it again"))
        }
        return positions.map { placeholder(ObjectID(entity: entity(root: root, at: $0), key: key(root: root, at: $0))) }
    }

    public func linkCounts(_ relationships: [Model.Relationship]) -> [Int]? {
        relationships.map { linkCountsByName["\(model.entities[$0.owner].name).\($0.name)"] ?? 0 }
    }

    public func checkReads() throws { try connection.checkReads() }
}

/// One hierarchy's objects in a store: their keys in order, and each one's concrete entity.
struct StoreKeys: Sendable {
    var keys: [Int64] = []
    var entities: [Int32] = []

    /// The position of `key`, if an object has it.
    func position(of key: Int64) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    func entity(of key: Int64) -> Int? { position(of: key).map { Int(entities[$0]) } }
}
