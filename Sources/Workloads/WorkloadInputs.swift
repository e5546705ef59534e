import Foundation
import Generation
import Models
import Strategies

/// The fixed inputs of the workloads on one model and seed: which objects are looked up, updated
/// and deleted, the deep page and its cursor, the title prefix, the window; all drawn from the seed
/// (each from its own stream) and computed once, untimed, in one pass over the main hierarchy.
public struct WorkloadInputs: Sendable {
    public let model: Model
    public let generator: ObjectGenerator
    /// The main hierarchy's objects, and its sort as request sort keys (empty without an order).
    public let mainCount: Int
    public let sort: [SortKey]
    /// The deep page: half the main hierarchy into the order, and the sort values of the object before it.
    public let deepPageOffset: Int
    public let deepPageCursor: [Value]
    /// `lookup-id`: objects looked up one by one by object ID (drawn with replacement).
    public let lookupIDs: [ObjectID]
    /// `lookup-attribute`: the values looked up, one by one.
    public let lookupValues: [Value]
    /// `search-title`: the prefix as a range, `lower <= title < upper`.
    public let titlePrefix: (lower: String, upper: String)?
    /// `filter-fk`: the destination whose objects are fetched.
    public let foreignKeyDestination: ObjectID?
    /// `update` and `delete-cascade`: distinct objects of the main hierarchy.
    public let updateIDs: [ObjectID]
    public let deleteIDs: [ObjectID]

    public static let pageSize = 50
    public static let lookupCount = 1_000
    public static let writeCount = 1_000

    /// Objects `update` and `delete-cascade` write in a hierarchy of `count`: `writeCount`, or a
    /// tenth of the hierarchy when that is fewer (at least one of a non-empty one).
    public static func writeCount(of count: Int) -> Int { min(writeCount, max(count / 10, min(count, 1))) }

    public init(model: Model, generator: ObjectGenerator) {
        self.model = model
        self.generator = generator
        let root = model.mainRoot
        let count = generator.count(root: root)
        mainCount = count
        let seed = generator.seed
        sort = model.sortKeys ?? []
        let rootEntity = model.entities[root]

        func draw(_ stream: UInt64, _ n: Int, distinct: Bool) -> [Int] {
            guard count > 0 else { return [] }
            var rng = SplitMix64(seed: seed, stream: stream)
            var seen = Set<Int>()
            var drawn: [Int] = []
            while drawn.count < n {
                let position = Int(rng.next() % UInt64(count))
                if !distinct || seen.insert(position).inserted { drawn.append(position) }
            }
            return drawn
        }
        let id = { (position: Int) in ObjectID(entity: generator.entity(root: root, at: position), key: Int64(position + 1)) }
        lookupIDs = draw(0x10_0C0F, count > 0 ? Self.lookupCount : 0, distinct: false).map(id)
        updateIDs = draw(0x0DA7_E5EED, Self.writeCount(of: count), distinct: true).map(id)
        deleteIDs = draw(0xDE1E_7E5EED, Self.writeCount(of: count), distinct: true).map(id)

        if let (entity, attribute) = model.lookupAttribute {
            var rng = SplitMix64(seed: seed, stream: 0xB00C_5EED)
            let subtree = model.entities[entity].subtree
            let position = model.entities[entity].attributeIndex(attribute)!
            var values: [Value] = []
            var attempts = 0
            while values.count < Self.lookupCount, count > 0, attempts < Self.lookupCount * 500 {
                attempts += 1
                let index = Int(rng.next() % UInt64(count))
                if subtree.contains(generator.entity(root: root, at: index)) {
                    let value = generator.object(root: root, at: index).values[position]
                    if !value.isNull { values.append(value) }
                }
            }
            lookupValues = values
        } else {
            lookupValues = []
        }

        // One pass: the order's keys (for the deep page), a foreign key's destination, the titles.
        let sortPositions = sort.map { rootEntity.attributeIndex($0.attribute)! }
        let titlePosition = model.titleAttribute.flatMap { rootEntity.attributeIndex($0) }
        let foreignKeyPosition = model.foreignKey.flatMap { name in rootEntity.toOneRelationships.firstIndex { $0.name == name } }
        var rng = SplitMix64(seed: seed, stream: 0x717_1E5EED)
        // A title drawn from the objects that have one (an optional title is NULL in some).
        let sampleTitle: [Unicode.Scalar] = {
            guard let titlePosition, count > 0 else { return [] }
            for _ in 0 ..< 1_000 {
                if case let .text(text) = generator.object(root: root, at: Int(rng.next() % UInt64(count))).values[titlePosition] {
                    return Array(text.unicodeScalars)
                }
            }
            return []
        }()
        var shared = [Int](repeating: 0, count: sampleTitle.count + 1)
        var keys: [[Value]] = []
        var destination: ObjectID?
        if !sortPositions.isEmpty || titlePosition != nil || foreignKeyPosition != nil {
            keys.reserveCapacity(sortPositions.isEmpty ? 0 : count)
            for position in 0 ..< count {
                let object = generator.object(root: root, at: position)
                if !sortPositions.isEmpty { keys.append(sortPositions.map { object.values[$0] }) }
                if let foreignKeyPosition, destination == nil { destination = object.toOne[foreignKeyPosition] }
                if let titlePosition, case let .text(title) = object.values[titlePosition] {
                    var length = 0
                    for scalar in title.unicodeScalars {
                        guard length < sampleTitle.count, scalar == sampleTitle[length] else { break }
                        length += 1
                    }
                    shared[length] += 1
                }
            }
        }
        foreignKeyDestination = destination
        titlePrefix = sampleTitle.isEmpty ? nil : Self.prefix(sampleTitle, shared: shared, count: count)
        deepPageOffset = count / 2
        if !sort.isEmpty, deepPageOffset > 0 {
            let ascending = sort.map(\.ascending)
            keys.sort { a, b in
                for (index, up) in ascending.enumerated() where a[index] != b[index] {
                    return up ? Value.sqliteLess(a[index], b[index]) : Value.sqliteLess(b[index], a[index])
                }
                return false
            }
            deepPageCursor = keys[deepPageOffset - 1]
        } else {
            deepPageCursor = []
        }
    }

    /// The longest prefix of a sampled title that at least `max(1, count / 250)` titles start with
    /// (`shared[n]`: titles sharing exactly their first `n` scalars with it), as a range.
    static func prefix(_ title: [Unicode.Scalar], shared: [Int], count: Int) -> (lower: String, upper: String)? {
        let target = max(1, count / 250)
        var length = 1
        var startingWith = shared.dropFirst(1).reduce(0, +)
        while length < title.count, startingWith - shared[length] >= target {
            startingWith -= shared[length]
            length += 1
        }
        var scalars = Array(title.prefix(length))
        var lower = String.UnicodeScalarView()
        lower.append(contentsOf: scalars)
        while let last = scalars.last, last.value == 0x10FFFF { scalars.removeLast() }
        guard let last = scalars.popLast() else { return nil }
        scalars.append(Unicode.Scalar(last.value == 0xD7FF ? 0xE000 : last.value + 1)!)
        var upper = String.UnicodeScalarView()
        upper.append(contentsOf: scalars)
        return (String(lower), String(upper))
    }

    /// The value a round of `update` writes: a different one each round (warm-ups included).
    public func updateValue(round: Int) -> Value {
        guard let name = model.updateAttribute, let attribute = model.entities[model.mainRoot].attribute(name) else { return .null }
        switch attribute.type.storage {
        case .real: return .real(800_000_000 + Double(round))
        case .integer: return .integer(attribute.type == .boolean ? Int64(round % 2) : Int64(round))
        case .text: return .text("updated \(round)")
        case .blob: return .blob([UInt8(truncatingIfNeeded: round)])
        }
    }

    /// The objects `insert-single` saves, one transaction each: the first of the main hierarchy,
    /// up to `Workloads.singleInsertCount`.
    public var singleInsertObjects: [ModelObject] {
        generator.objects(root: model.mainRoot, 0 ..< min(Workloads.singleInsertCount, generator.count(root: model.mainRoot)))
    }

    /// The objects a round of `update` saves, each at the version the round gives it (one above
    /// the version it had).
    public func updateObjects(round: Int) -> [ObjectVersion] {
        updateIDs.map { ObjectVersion(id: $0, version: Int64(round + 1)) }
    }
}
