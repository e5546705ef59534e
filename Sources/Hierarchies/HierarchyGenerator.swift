import Dataset
import Foundation

/// An attribute value as SQLite stores it: integers and booleans as INTEGER, doubles and dates as
/// REAL (dates in seconds since 2001, as Core Data stores them), strings as TEXT.
public enum DescribedValue: Equatable, Hashable, Sendable {
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One object of a described hierarchy, as every described strategy materialises it: its concrete
/// entity, its uid, its owner (when the hierarchy has one) and its attribute values.
public struct DescribedObject: Equatable, Sendable, Digestible {
    /// Index in `HierarchyDescription.concreteEntities`.
    public var entity: Int
    public var uid: UUID
    /// The owner's number, 1 … owner rows (its `Z_PK` in every store); 0 without an owner relationship.
    public var owner: Int64
    /// The base's attributes, then the entity's own, in declaration order.
    public var values: [DescribedValue]

    public init(entity: Int, uid: UUID, owner: Int64, values: [DescribedValue]) {
        self.entity = entity; self.uid = uid; self.owner = owner; self.values = values
    }

    public func digest(into hasher: inout StableHasher) {
        hasher.combine(entity)
        hasher.combine(uid)
        hasher.combine(Int(owner))
        for value in values {
            switch value {
            case let .integer(number): hasher.combine(0); hasher.combine(Int(number))
            case let .real(number): hasher.combine(1); hasher.combine(number)
            case let .text(text): hasher.combine(2); hasher.combine(text)
            }
        }
    }
}

/// Generates a described hierarchy's objects as a stream: object `i` depends only on the seed, the
/// description and `i`. Entities are interleaved (object `i` is slot `(a·i + c) mod n` of the
/// concatenated per-entity ranges, `a` coprime with `n`), so every prefix mixes the types while
/// the counts are exactly the described rows.
public struct HierarchyGenerator: Sendable {
    public let description: HierarchyDescription
    public let seed: UInt64
    public let entities: [HierarchyDescription.Concrete]
    /// `starts[e]` is the first slot of entity `e`; the last element is the total.
    private let starts: [Int]
    private let multiplier: Int
    private let offset: Int
    /// Each entity's attribute types: the base's, then its own.
    private let types: [[HierarchyDescription.AttributeType]]

    public init(_ description: HierarchyDescription, seed: UInt64) {
        self.description = description
        self.seed = seed
        entities = description.concreteEntities
        var starts = [0]
        for entity in entities { starts.append(starts.last! + entity.rows) }
        self.starts = starts
        let total = starts.last!
        var multiplier = max(1, Int(Double(total) * 0.618_033_988_75))
        while Self.gcd(multiplier, max(total, 1)) != 1 { multiplier += 1 }
        self.multiplier = multiplier
        offset = total > 0 ? Int(seed % UInt64(total)) : 0
        types = entities.map { entity in description.base.attributes.map(\.type) + entity.ownAttributes.map(\.type) }
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    public var count: Int { starts.last! }

    /// Rows of each concrete entity, in `entities` order.
    public var counts: [Int] { entities.map(\.rows) }

    /// The concrete entity of object `index`.
    public func entity(at index: Int) -> Int {
        // Both factors are below 10 million, so the product fits comfortably in 64 bits.
        let slot = (multiplier * index % count + offset) % count
        var low = 0, high = entities.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= slot { low = middle } else { high = middle - 1 }
        }
        return low
    }

    public func object(at index: Int) -> DescribedObject {
        precondition((0 ..< count).contains(index), "object \(index) is outside 0..<\(count)")
        let entity = entity(at: index)
        var rng = SplitMix64(seed: seed, stream: 0xD35C_0000_0000 &+ UInt64(index))
        var uuid = (0 ..< 2).flatMap { _ in withUnsafeBytes(of: rng.next()) { Array($0) } }
        uuid[6] = uuid[6] & 0x0F | 0x40
        uuid[8] = uuid[8] & 0x3F | 0x80
        let uid = uuid.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        let owner = description.owner.map { Int64(rng.next() % UInt64($0.rows)) + 1 } ?? 0
        let values = types[entity].map { Self.value(of: $0, &rng) }
        return DescribedObject(entity: entity, uid: uid, owner: owner, values: values)
    }

    public func objects(_ range: Range<Int>) -> [DescribedObject] { range.map(object(at:)) }

    /// The owner entity's rows: owner `n` (1-based) is named "owner-n".
    public static func ownerName(_ number: Int) -> String { "owner-\(number)" }

    static let letters = Array("abcdefghijklmnopqrstuvwxyz     ".utf8)

    /// Values in the ranges an app would hold. Doubles have two decimals and dates millisecond
    /// resolution, so that every strategy, JSON's text form included, stores them exactly.
    static func value(of type: HierarchyDescription.AttributeType, _ rng: inout SplitMix64) -> DescribedValue {
        switch type {
        case .integer: return .integer(Int64(rng.next() % 1_000_000))
        case .boolean: return .integer(Int64(rng.next() & 1))
        case .double: return .real(Double(Int64(rng.next() % 100_000_000)) / 100)
        // One division of whole milliseconds: the double nearest a three-decimal number, which
        // SQLite's 15-digit text form (JSON) gives back exactly.
        case .date: return .real(Double(126_230_400_000 + Int64(rng.next() % 631_152_000_000)) / 1_000)
        case .string:
            let length = 6 + Int(rng.next() % 19)
            var bytes = (0 ..< length).map { _ in letters[Int(rng.next() % UInt64(letters.count))] }
            bytes[0] = letters[Int(rng.next() % 26)]
            return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// The fixed parameters of the described workloads, derived from the seed.
public struct DescribedParameters: Sendable {
    /// `lookup-id`: the uids looked up one by one, in order (drawn with replacement).
    public var lookupUIDs: [UUID]
    /// `filter-fk`: the owner whose objects are fetched (the owner of object 0), 0 without owners.
    public var owner: Int64
    /// The deep page of `page-offset` and `page-keyset`: its offset in uid order (half the objects)
    /// and the uid of the object just before it.
    public var deepPageOffset: Int
    public var deepPageCursor: UUID

    public static let lookupCount = 1_000
    public static let pageSize = 50

    public init(generator: HierarchyGenerator) {
        var rng = SplitMix64(seed: generator.seed, stream: 0x10_0C0F)
        let total = generator.count
        lookupUIDs = total == 0 ? [] : (0 ..< Self.lookupCount).map { _ in generator.object(at: Int(rng.next() % UInt64(total))).uid }
        owner = total > 0 ? generator.object(at: 0).owner : 0
        deepPageOffset = total / 2
        if deepPageOffset > 0 {
            // SQLite orders uid blobs byte by byte (memcmp).
            var uids = (0 ..< total).map { index in withUnsafeBytes(of: generator.object(at: index).uid.uuid) { Array($0) } }
            uids.sort { $0.lexicographicallyPrecedes($1) }
            deepPageCursor = uids[deepPageOffset - 1].withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        } else {
            deepPageCursor = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        }
    }
}
