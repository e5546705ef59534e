import FetchRequests
import Foundation
import Generation
import Models
import Strategies

/// The fixed inputs of the workloads on one model and seed: which objects are looked up, updated
/// and deleted, the deep page and its cursor, the title prefix, the window; all drawn from the seed
/// (each from its own stream) and computed once, untimed, in one pass over the main hierarchy.
public struct WorkloadInputs: Sendable {
    public let model: Model
    /// The objects the stores hold and the inputs are drawn from.
    public let dataset: any Dataset
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

    public init(dataset: any Dataset) {
        let model = dataset.model
        self.model = model
        self.dataset = dataset
        let root = model.mainRoot
        let count = dataset.count(root: root)
        mainCount = count
        sort = model.sortKeys ?? []
        let id = { (position: Int) in ObjectID(entity: dataset.entity(root: root, at: position), key: dataset.key(root: root, at: position)) }
        func draw(_ stream: UInt64, _ n: Int, distinct: Bool) -> [ObjectID] {
            Self.positions(seed: dataset.seed, stream: stream, n, of: count, distinct: distinct).map(id)
        }
        lookupIDs = draw(0x10_0C0F, count > 0 ? Self.lookupCount : 0, distinct: false)
        updateIDs = draw(0x0DA7_E5EED, Self.writeCount(of: count), distinct: true)
        deleteIDs = draw(0xDE1E_7E5EED, Self.writeCount(of: count), distinct: true)
        lookupValues = Self.lookupValues(model, dataset)
        let scan = HierarchyScan(model, dataset, sort: sort)
        foreignKeyDestination = scan.destination
        titlePrefix = scan.title.isEmpty ? nil : Self.prefix(scan.title, shared: scan.shared, count: count)
        deepPageOffset = count / 2
        deepPageCursor = Self.cursor(before: deepPageOffset, keys: scan.keys, sort: sort)
    }

    /// `n` positions in `0 ..< count` drawn from the seed's `stream` (none of an empty hierarchy).
    private static func positions(seed: UInt64, stream: UInt64, _ n: Int, of count: Int, distinct: Bool) -> [Int] {
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

    /// `lookup-attribute`'s values: non-NULL values of the attribute, drawn from the objects of its entity.
    private static func lookupValues(_ model: Model, _ dataset: any Dataset) -> [Value] {
        let root = model.mainRoot
        let count = dataset.count(root: root)
        guard let (entity, attribute) = model.lookupAttribute, let position = model.entities[entity].attributeIndex(attribute) else { return [] }
        var rng = SplitMix64(seed: dataset.seed, stream: 0xB00C_5EED)
        let subtree = model.entities[entity].subtree
        var values: [Value] = []
        var attempts = 0
        // A small hierarchy draws the same objects again and again: each is generated once.
        var drawn: [Int: Value] = [:]
        while values.count < lookupCount, count > 0, attempts < lookupCount * 500 {
            attempts += 1
            let index = Int(rng.next() % UInt64(count))
            if subtree.contains(dataset.entity(root: root, at: index)) {
                let value = drawn[index] ?? dataset.object(root: root, at: index).values[position]
                drawn[index] = value
                if !value.isNull { values.append(value) }
            }
        }
        return values
    }

    /// The sort values of the object just before `offset` in the order, or none without an order.
    private static func cursor(before offset: Int, keys: [[Value]], sort: [SortKey]) -> [Value] {
        guard !sort.isEmpty, offset > 0, offset <= keys.count else { return [] }
        let ascending = sort.map(\.ascending)
        let sorted = keys.sorted { a, b in
            for (index, up) in ascending.enumerated() where a[index] != b[index] {
                return up ? Value.sqliteLess(a[index], b[index]) : Value.sqliteLess(b[index], a[index])
            }
            return false
        }
        return sorted[offset - 1]
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
        // The next scalar after the last (surrogates skipped): every title with the prefix sorts below it.
        guard let last = scalars.popLast(), let next = Unicode.Scalar(last.value == 0xD7FF ? 0xE000 : last.value + 1) else { return nil }
        scalars.append(next)
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
        dataset.objects(root: model.mainRoot, 0 ..< min(Workloads.singleInsertCount, dataset.count(root: model.mainRoot)))
    }

    /// The objects a round of `update` saves, each at the version the round gives it (one above
    /// the version it had).
    public func updateObjects(round: Int) -> [ObjectVersion] {
        updateIDs.map { ObjectVersion(id: $0, version: Int64(round + 1)) }
    }
}
