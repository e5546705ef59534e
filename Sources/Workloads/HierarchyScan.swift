import FetchRequests
import Generation
import Models
import Strategies

/// One pass over the main hierarchy's objects for `WorkloadInputs`: every object's sort values
/// (for the deep page's cursor), the first foreign key's destination (`filter-fk`), and how many
/// titles share each length of prefix with a sampled title (`search-title`).
struct HierarchyScan {
    /// Each object's values of the order's attributes, in object order (empty without an order).
    var keys: [[Value]] = []
    var destination: ObjectID?
    /// A title drawn from the objects that have one (an optional title is NULL in some).
    var title: [Unicode.Scalar] = []
    /// `shared[n]`: titles sharing exactly their first `n` scalars with `title`.
    var shared: [Int] = [0]

    init(_ model: Model, _ dataset: any Dataset, sort: [SortKey]) {
        let root = model.mainRoot
        let rootEntity = model.entities[root]
        let count = dataset.count(root: root)
        let sortPositions = sort.compactMap { rootEntity.attributeIndex($0.attribute) }
        let titlePosition = model.titleAttribute.flatMap { rootEntity.attributeIndex($0) }
        let foreignKeyPosition = model.foreignKey.flatMap { name in rootEntity.toOneRelationships.firstIndex { $0.name == name } }
        title = Self.sampleTitle(dataset, root: root, at: titlePosition)
        shared = [Int](repeating: 0, count: title.count + 1)
        guard !sortPositions.isEmpty || titlePosition != nil || foreignKeyPosition != nil else { return }
        keys.reserveCapacity(sortPositions.isEmpty ? 0 : count)
        // In steps of a thousand: a store's objects are read a range of keys at a time.
        for start in stride(from: 0, to: count, by: 1_000) {
            for object in dataset.objects(root: root, start ..< min(start + 1_000, count)) {
                if !sortPositions.isEmpty { keys.append(sortPositions.map { object.values[$0] }) }
                if let foreignKeyPosition, destination == nil { destination = object.toOne[foreignKeyPosition] }
                if let titlePosition, case let .text(text) = object.values[titlePosition] {
                    var length = 0
                    for scalar in text.unicodeScalars {
                        guard length < title.count, scalar == title[length] else { break }
                        length += 1
                    }
                    shared[length] += 1
                }
            }
        }
    }

    private static func sampleTitle(_ dataset: any Dataset, root: Int, at position: Int?) -> [Unicode.Scalar] {
        let count = dataset.count(root: root)
        guard let position, count > 0 else { return [] }
        var rng = SplitMix64(seed: dataset.seed, stream: 0x717_1E5EED)
        for _ in 0 ..< 1_000 {
            if case let .text(text) = dataset.object(root: root, at: Int(rng.next() % UInt64(count))).values[position] {
                return Array(text.unicodeScalars)
            }
        }
        return []
    }
}
