import Foundation

/// Generated models for sweeps: an abstract root `Item` (a unique `uid`, a `title` with a fetch
/// index, `createdate`, `rank`) over `leaves` concrete leaf entities with `attributes` attributes
/// each (names unique to each entity, types cycling string, integer, double, date, boolean),
/// `depth` levels of inheritance (abstract middle entities `Group…` with one attribute each split
/// the leaves in two at every level), and `rows` objects shared out with weights `1 / (i + 1)^skew`.
public enum SyntheticModel {
    static let types: [AttributeType] = [.string, .integer64, .double, .date, .boolean]

    public static func make(leaves: Int, attributes: Int, skew: Double, rows: Int, depth: Int = 1) -> ModelDescription {
        let weights = (0 ..< max(1, leaves)).map { 1 / pow(Double($0 + 1), skew) }
        var entities = [EntityDescription("Item", abstract: true, attributes: [
            Attribute("uid", .uuid), Attribute("title", .string), Attribute("createdate", .date), Attribute("rank", .integer64),
        ], uniquenessConstraints: [["uid"]], fetchIndexes: [FetchIndex("byTitle", "title")])]
        var nextLeaf = 1
        /// Places leaves `range` under `parent`, `levels` levels further down.
        func place(_ range: Range<Int>, under parent: String, levels: Int, path: String) {
            if levels <= 1 || range.count == 0 {
                for leaf in range {
                    let number = nextLeaf
                    nextLeaf += 1
                    entities.append(EntityDescription("Kind\(number)", parent: parent, rows: Int((weights[leaf] * 1_000_000).rounded()),
                        attributes: (1 ... max(1, attributes)).map { Attribute("k\(number)a\($0)", types[($0 - 1) % types.count]) }))
                }
                return
            }
            let groups = min(2, range.count)
            let size = (range.count + groups - 1) / groups
            for group in 0 ..< groups {
                let part = (range.lowerBound + group * size) ..< min(range.upperBound, range.lowerBound + (group + 1) * size)
                guard !part.isEmpty else { continue }
                let name = "Group\(path)\(group + 1)"
                entities.append(EntityDescription(name, parent: parent, abstract: true,
                                                  attributes: [Attribute("g\(path)\(group + 1)", types[(path.count + group) % types.count])]))
                place(part, under: name, levels: levels - 1, path: path + "\(group + 1)")
            }
        }
        place(0 ..< max(1, leaves), under: "Item", levels: max(1, depth), path: "")
        let summary = "\(leaves) leaf entities × \(attributes) attributes, depth \(depth), skew \(skew), \(rows) objects"
        return ModelDescription(name: "synthetic", summary: summary, entities: entities).scaled(to: rows)
    }
}
