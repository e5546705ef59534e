import Generation
import Models

/// Random valid model descriptions for property-based tests, each a function of its seed alone:
/// 1 to 40 entities in several hierarchies (depth 0 to 6, abstract entities at any level), every
/// attribute type, optional and required, names shared by siblings, to-one, one-to-many,
/// many-to-many, to-many without an inverse, one-to-one, ordered, self-referential relationships and relationships to a middle or leaf entity,
/// single, compound and optional uniqueness constraints, fetch indexes (with `entity`), and
/// Xcode's per-property `indexed` flag.
public enum RandomModel {
    /// A valid model description for `seed`, with at most `maximumObjects` objects in all.
    public static func make(seed: UInt64, maximumObjects: Int = 400) -> ModelDescription {
        var maker = Maker(seed: seed)
        return maker.make(maximumObjects: maximumObjects)
    }

    /// How large a model to make: entities, attributes per entity, relationship pairs and the
    /// chance that an entity declares fetch indexes (and how many).
    public struct Size: Sendable {
        public var entities: ClosedRange<Int>
        public var roots: ClosedRange<Int>
        public var attributes: ClosedRange<Int>
        public var relationships: ClosedRange<Int>
        public var fetchIndexes: ClosedRange<Int>
        public var fetchIndexChance: Double
        public init(entities: ClosedRange<Int>, roots: ClosedRange<Int>, attributes: ClosedRange<Int>, relationships: ClosedRange<Int>,
                    fetchIndexes: ClosedRange<Int> = 1 ... 1, fetchIndexChance: Double = 0.3) {
            self.entities = entities; self.roots = roots; self.attributes = attributes; self.relationships = relationships
            self.fetchIndexes = fetchIndexes; self.fetchIndexChance = fetchIndexChance
        }

        /// A model the size of a real Photos store's (macOS 15): 68 entities on a few levels, about
        /// 938 attributes, 230 relationships, 203 fetch indexes.
        public static let photos = Size(entities: 68 ... 68, roots: 50 ... 50, attributes: 12 ... 15, relationships: 115 ... 115,
                                        fetchIndexes: 3 ... 3, fetchIndexChance: 1)
        /// The largest real app's model tried: 90 entities, no inheritance.
        public static let flat90 = Size(entities: 90 ... 90, roots: 90 ... 90, attributes: 3 ... 12, relationships: 60 ... 60)
        /// A messenger's: 44 entities, 7 of them sub-entities.
        public static let messenger = Size(entities: 44 ... 44, roots: 37 ... 37, attributes: 2 ... 10, relationships: 40 ... 40)
    }

    /// A model of `size`, for `seed`.
    public static func make(seed: UInt64, size: Size, maximumObjects: Int) -> ModelDescription {
        var maker = Maker(seed: seed)
        maker.size = size
        return maker.make(maximumObjects: maximumObjects)
    }

    struct Maker {
        var rng: SplitMix64
        var entities: [EntityDescription] = []
        var depth: [Int] = []
        var parent: [Int?] = []
        /// Property names (upper-cased) each entity has, inherited ones included.
        var names: [Set<String>] = []
        var size: Size?

        init(seed: UInt64) { rng = SplitMix64(seed: seed, stream: 0x0DE1_5EED) }

        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(rng.next() % UInt64(range.count)) }
        mutating func chance(_ p: Double) -> Bool { rng.nextUnit() < p }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0 ... items.count - 1)] }

        static let attributeNames = ["title", "name", "url", "value", "flag", "count", "date", "note", "score", "data", "code", "kind",
                                     "width", "height", "email", "label", "rank", "size", "created", "updated", "Box", "payload"]
        static let relationshipNames = ["owner", "parent", "items", "tags", "links", "folder", "children", "target", "source", "group"]

        mutating func entityName(_ index: Int) -> String {
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            // A random first letter, so that name order (entity numbers) differs from creation order.
            return "\(letters[int(0 ... 25)])\(pick(["", "x", "Lo", "ab"]))\(index)"
        }

        func ancestors(_ index: Int) -> [Int] {
            var chain: [Int] = []
            var current = parent[index]
            while let p = current { chain.append(p); current = parent[p] }
            return chain
        }

        func descendants(_ index: Int) -> [Int] {
            entities.indices.filter { ancestors($0).contains(index) }
        }

        /// A name not taken (without case) by the entity, its ancestors or its descendants.
        mutating func freshName(_ entity: Int, from pool: [String]) -> String? {
            let family = [entity] + ancestors(entity) + descendants(entity)
            for _ in 0 ..< 8 {
                let name = pick(pool) + (chance(0.3) ? "\(int(1 ... 9))" : "")
                if family.allSatisfy({ !names[$0].contains(name.uppercased()) }) { return name }
            }
            return nil
        }

        mutating func claim(_ name: String, _ entity: Int) {
            for member in [entity] + descendants(entity) { names[member].insert(name.uppercased()) }
        }

        mutating func make(maximumObjects: Int) -> ModelDescription {
            let count = size.map { int($0.entities) } ?? (chance(0.6) ? int(1 ... 8) : int(9 ... 40))
            let roots = size.map { min(count, int($0.roots)) } ?? int(1 ... min(count, 6))
            for index in 0 ..< count {
                var parentIndex: Int?
                if index >= roots {
                    let candidates = entities.indices.filter { depth[$0] < 6 }
                    // Prefer deep chains now and then.
                    parentIndex = chance(0.4) ? candidates.max { depth[$0] < depth[$1] } : pick(candidates)
                }
                entities.append(EntityDescription(entityName(index), parent: parentIndex.map { entities[$0].name }))
                parent.append(parentIndex)
                depth.append(parentIndex.map { depth[$0] + 1 } ?? 0)
                names.append(parentIndex.map { names[$0] } ?? [])
                let attributes = size.map { int($0.attributes) } ?? int(0 ... 4)
                for _ in 0 ..< attributes {
                    guard let name = freshName(index, from: Self.attributeNames) else { continue }
                    let type = pick(AttributeType.allCases)
                    var attribute = Attribute(name, type, optional: chance(0.6))
                    if chance(0.15) { attribute.nullShare = pick([0, 0.5, 1]) }
                    entities[index].attributes.append(attribute)
                    claim(name, index)
                }
                if parentIndex == nil || chance(0.2), let name = freshName(index, from: ["uid", "identifier", "serial"]) {
                    let type = pick([AttributeType.uuid, .string, .integer64, .integer32])
                    entities[index].attributes.append(Attribute(name, type, optional: chance(0.5)))
                    entities[index].uniquenessConstraints.append([name])
                    claim(name, index)
                }
            }
            // Abstract entities: any with sub-entities, and now and then a leaf.
            for index in entities.indices where chance(descendants(index).isEmpty ? 0.05 : 0.3) { entities[index].abstract = true }
            // Rows: every concrete entity some, a few none.
            for index in entities.indices where !entities[index].abstract {
                entities[index].rows = chance(0.1) ? 0 : int(1 ... max(1, maximumObjects / count))
            }
            if !entities.contains(where: { ($0.rows ?? 0) > 0 }) {
                let concrete = entities.indices.first { !entities[$0].abstract } ?? 0
                entities[concrete].abstract = false
                entities[concrete].rows = 5
            }
            func objects(_ index: Int) -> Int { ([index] + descendants(index)).reduce(0) { $0 + (entities[$1].rows ?? 0) } }

            // Relationships.
            let relationships = size.map { int($0.relationships) } ?? int(0 ... count + 2)
            for _ in 0 ..< relationships {
                let source = int(0 ... count - 1)
                let destination = chance(0.15) ? source : int(0 ... count - 1)
                guard let name = freshName(source, from: Self.relationshipNames) else { continue }
                claim(name, source)
                guard let inverse = freshName(destination, from: Self.relationshipNames) else {
                    names[source].remove(name.uppercased())
                    for member in descendants(source) { names[member].remove(name.uppercased()) }
                    continue
                }
                claim(inverse, destination)
                let rule = { (maker: inout Maker) in maker.pick([DeleteRule.nullify, .nullify, .cascade, .noAction]) }
                let shape = int(0 ... 4)
                if shape == 3 {
                    // To-many without an inverse (Core Data keeps a hidden to-one on the destination).
                    names[destination].remove(inverse.uppercased())
                    for member in descendants(destination) { names[member].remove(inverse.uppercased()) }
                    entities[source].relationships.append(RelationshipDescription(
                        name, destination: entities[destination].name, toMany: true, ordered: chance(0.4), deleteRule: rule(&self),
                        nullShare: chance(0.3) ? pick([0, 0.5]) : nil))
                    continue
                }
                switch shape {
                case 4:
                    // One-to-one: a to-one on each side, inverses of each other.
                    entities[source].relationships.append(RelationshipDescription(
                        name, destination: entities[destination].name, inverse: inverse, deleteRule: rule(&self), optional: true,
                        nullShare: chance(0.5) ? pick([0, 0.5]) : nil))
                    entities[destination].relationships.append(RelationshipDescription(
                        inverse, destination: entities[source].name, inverse: name, deleteRule: rule(&self), optional: true))
                case 0, 1:
                    // To-one from source, to-many back.
                    let optional = objects(destination) == 0 || chance(0.6)
                    entities[source].relationships.append(RelationshipDescription(
                        name, destination: entities[destination].name, inverse: inverse, deleteRule: rule(&self), optional: optional,
                        popularity: chance(0.3) ? 1 : nil))
                    entities[destination].relationships.append(RelationshipDescription(
                        inverse, destination: entities[source].name, inverse: name, toMany: true, ordered: chance(0.4), deleteRule: rule(&self)))
                default:
                    entities[source].relationships.append(RelationshipDescription(
                        name, destination: entities[destination].name, inverse: inverse, toMany: true, deleteRule: rule(&self),
                        count: chance(0.5) ? FanOut(min: 0, max: int(1 ... 4)) : nil))
                    entities[destination].relationships.append(RelationshipDescription(
                        inverse, destination: entities[source].name, inverse: name, toMany: true, ordered: chance(0.2), deleteRule: rule(&self)))
                }
            }

            // Compound constraints and fetch indexes over an entity's own and inherited attributes.
            for index in entities.indices {
                let available = ([index] + ancestors(index)).flatMap { entities[$0].attributes }
                if available.count >= 2, chance(0.15) {
                    let first = available.filter { $0.type != .boolean }
                    if let lead = first.first, let other = available.first(where: { $0.name != lead.name }) {
                        entities[index].uniquenessConstraints.append([lead.name, other.name])
                    }
                }
                for number in 0 ..< (chance(size?.fetchIndexChance ?? 0.3) ? int(size?.fetchIndexes ?? 1 ... 1) : 0) where !available.isEmpty {
                    var elements: [FetchIndex.Element] = []
                    if chance(0.4) { elements.append(.entity(ascending: chance(0.8))) }
                    for attribute in available.shuffled(using: &rng).prefix(int(1 ... min(3, available.count))) {
                        elements.append(FetchIndex.Element(property: attribute.name, ascending: chance(0.7)))
                    }
                    entities[index].fetchIndexes.append(FetchIndex("byIndex\(index)x\(number)", elements))
                }
            }
            return ModelDescription(name: "random", entities: entities)
        }
    }
}
