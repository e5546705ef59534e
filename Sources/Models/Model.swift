import Foundation

/// A validated model and what Core Data derives from it, computed once: entity numbers (roots in
/// name order, each followed depth-first by its sub-entities in name order, so that every
/// subtree is a contiguous range of numbers), inherited attributes and relationships, and
/// resolved destinations and inverses. Every strategy derives its layout from this value, and
/// every workload asks it what the model offers.
public struct Model: Sendable {
    public let description: ModelDescription
    public var name: String { description.name }
    /// In entity-number order: `entities[i]` has `Z_ENT` `i + 1`.
    public let entities: [Entity]
    /// Root entities, in entity-number order.
    public let roots: [Int]
    /// The root whose hierarchy the workloads read: the description's `root`, else of the roots
    /// with sub-entities and objects, the one with the most objects (the first by number on a tie);
    /// without inheritance, the largest root.
    public let mainRoot: Int
    private let indexByName: [String: Int]

    public static let maximumRows = 10_000_000
    public static let maximumEntities = 1_000
    /// Concrete entities in one hierarchy: table-per-entity reads a hierarchy as one `UNION ALL`
    /// of its tables, and SQLite allows 500 arms in one compound SELECT.
    public static let maximumConcreteEntitiesPerHierarchy = 250
    /// SQLite's default limit is 2,000 columns per table; the single table holds every column of a hierarchy.
    public static let maximumColumns = 1_900
    public static let maximumDepth = 32
    public static let maximumFanOut = 1_000
    /// The longest text or binary value (characters, bytes) a shape's `lengths` may ask the generator for.
    public static let maximumLength = 1 << 20

    public init(_ description: ModelDescription) throws {
        self.description = description
        try Self.checkModelName(description.name)
        let declared = description.entities
        let byName = try Self.checkEntities(declared, of: description.name)
        try Self.checkParents(declared, byName)
        let (order, childrenByName) = Self.numbering(declared)
        let indexByName = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        self.indexByName = indexByName
        var ordered = order.compactMap { byName[$0].map { declared[$0] } }
        Self.addHiddenInverses(&ordered, indexByName)
        Self.addOrderKeys(&ordered, indexByName)
        let built = try Self.entitiesWithAttributes(ordered, indexByName, childrenByName)
        let resolved = try Self.resolveRelationships(ordered, built, indexByName)
        // Sub-entities list inherited relationships first: an ancestor's come before the entity's own.
        let final = built.map { entity in
            entity.with(relationships: resolved[entity.index].sorted { built[$0.owner].depth < built[$1.owner].depth })
        }
        entities = final
        let roots = final.filter(\.isRoot).map(\.index)
        self.roots = roots
        let objects = final.map { entity in entity.subtree.reduce(0) { $0 + final[$1].rows } }
        mainRoot = try Self.mainRoot(final, roots: roots, objects: objects, named: description.root, indexByName)
        try validateProperties()
        try validateSizes(objects)
    }

    /// Core Data sorts entities by name with `caseInsensitiveCompare:` (names differ in more than case here).
    public static func nameOrder(_ a: String, _ b: String) -> Bool { a.lowercased() < b.lowercased() }

    // MARK: Lookups

    public func index(of name: String) -> Int? { indexByName[name] }
    public func entity(_ name: String) -> Entity? { indexByName[name].map { entities[$0] } }

    /// The concrete entities of a subtree, in entity-number order.
    public func concreteEntities(in subtree: ClosedRange<Int>) -> [Int] { subtree.filter { entities[$0].isConcrete } }
    /// Every concrete entity of the model.
    public var concreteEntities: [Int] { entities.indices.filter { entities[$0].isConcrete } }

    /// Objects in an entity's subtree (its own and every descendant's).
    public func objectCount(_ entity: Int) -> Int { entities[entity].subtree.reduce(0) { $0 + entities[$1].rows } }

    /// The roots with sub-entities and objects: the hierarchies the workloads can read, in entity-number order.
    public var hierarchies: [Int] { roots.filter { entities[$0].hasSubentities && objectCount($0) > 0 } }

    /// The model's name as results carry it: followed by `/` and the main root's name when the
    /// model has several hierarchies or the description picks its root, so that results of two
    /// hierarchies of one model never pass for the same measurement.
    public var hierarchyLabel: String {
        hierarchies.count > 1 || description.root != nil ? "\(name)/\(entities[mainRoot].name)" : name
    }

    /// Whether any entity has sub-entities: without, there is no inheritance to compare.
    public var hasInheritance: Bool { entities.contains(where: \.hasSubentities) }

    /// The relationship's inverse, resolved on the destination (`nil` without an inverse).
    public func inverse(of relationship: Relationship) -> Relationship? {
        relationship.inverse.flatMap { entities[relationship.destination].relationship($0) }
    }

    /// The leaf `fetch-leaf` reads: the description's, else the concrete leaf of the main hierarchy
    /// with the most objects (the first by number on a tie); `nil` when the main root has no sub-entities.
    public var leaf: Int? {
        if let name = description.leaf { return index(of: name) }
        let leaves = entities[mainRoot].subtree.dropFirst().filter { !entities[$0].hasSubentities && entities[$0].isConcrete }
        return leaves.max { (entities[$0].rows, -$0) < (entities[$1].rows, -$1) }
    }

    /// The middle entity `fetch-branch` reads: the description's, else the first entity of the main
    /// hierarchy with both a parent and sub-entities.
    public var branch: Int? {
        if let name = description.branch { return index(of: name) }
        return entities[mainRoot].subtree.first { entities[$0].parent != nil && entities[$0].hasSubentities }
    }

    /// The sort of the main hierarchy's ordered reads (see `ModelDescription.order`), each element
    /// an attribute of the main root; `nil` when the model gives none and the root has no unique attribute.
    public var order: [FetchIndex.Element]? {
        if let texts = description.order { return texts.compactMap(FetchIndex.Element.init(text:)) }
        let root = entities[mainRoot]
        guard let unique = root.uniquenessConstraints.first(where: { $0.count == 1 && root.attribute($0[0]) != nil }) else { return nil }
        return [FetchIndex.Element(property: unique[0])]
    }
}
