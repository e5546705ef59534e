import Foundation

/// The steps `Model.init` takes, in order: the entities' names, their parents, their numbers,
/// their attributes (inherited first), their relationships (resolved and checked), and the main
/// root. Each mistake is one `ModelError` sentence that says what to change.
extension Model {
    /// Checks the entities' count and names; returns each name's position in `declared`.
    static func checkEntities(_ declared: [EntityDescription], of model: String) throws -> [String: Int] {
        guard !declared.isEmpty else { throw ModelError("the model '\(model)' has no entities; describe at least one") }
        guard declared.count <= maximumEntities else {
            throw ModelError("the model has \(declared.count) entities, more than the \(maximumEntities) the suite supports")
        }
        var byName: [String: Int] = [:]
        var upperNames: [String: String] = [:]
        for (position, entity) in declared.enumerated() {
            try checkEntityName(entity.name)
            if let other = upperNames[entity.name.uppercased()] {
                throw ModelError(other == entity.name
                    ? "entity '\(entity.name)' is declared twice"
                    : "entities '\(other)' and '\(entity.name)' differ only in case; Core Data's table names (Z + upper case) would collide")
            }
            upperNames[entity.name.uppercased()] = entity.name
            byName[entity.name] = position
        }
        return byName
    }

    /// Parents exist, form no cycle and nest at most `maximumDepth` levels.
    static func checkParents(_ declared: [EntityDescription], _ byName: [String: Int]) throws {
        for entity in declared {
            guard let parent = entity.parent else { continue }
            guard byName[parent] != nil else {
                throw ModelError("entity '\(entity.name)' names parent '\(parent)', which the model does not declare")
            }
            var seen: Set<String> = [entity.name]
            var current: String? = parent
            while let name = current, let position = byName[name] {
                guard seen.insert(name).inserted else {
                    throw ModelError("entity '\(entity.name)' is its own ancestor (parents \(seen.sorted().joined(separator: ", ")) form a cycle); give the hierarchy a root")
                }
                guard seen.count <= maximumDepth + 1 else {
                    throw ModelError("entity '\(entity.name)' is more than \(maximumDepth) levels deep; the suite supports at most \(maximumDepth)")
                }
                current = declared[position].parent
            }
        }
    }

    /// Entity numbers: roots in name order, each followed depth-first by its sub-entities in name
    /// order. Returns the names in that order, and each entity's children by name.
    static func numbering(_ declared: [EntityDescription]) -> (order: [String], children: [String: [String]]) {
        var children: [String: [String]] = [:]
        for entity in declared { if let parent = entity.parent { children[parent, default: []].append(entity.name) } }
        var order: [String] = []
        func visit(_ name: String) {
            order.append(name)
            for child in (children[name] ?? []).sorted(by: nameOrder) { visit(child) }
        }
        for root in declared.filter({ $0.parent == nil }).map(\.name).sorted(by: nameOrder) { visit(root) }
        return (order, children)
    }

    /// The entities in number order with their place in the tree and their attributes, inherited
    /// first; relationships come in `resolveRelationships`.
    static func entitiesWithAttributes(_ ordered: [EntityDescription], _ indexByName: [String: Int],
                                       _ childrenByName: [String: [String]]) throws -> [Entity] {
        func children(_ name: String) -> [Int] { (childrenByName[name] ?? []).compactMap { indexByName[$0] }.sorted() }
        var subtreeEnds = Array(ordered.indices)
        for index in ordered.indices.reversed() {
            for child in children(ordered[index].name) { subtreeEnds[index] = max(subtreeEnds[index], subtreeEnds[child]) }
        }
        var built: [Entity] = []
        for (index, entity) in ordered.enumerated() {
            let parent = entity.parent.flatMap { indexByName[$0] }
            let inherited = parent.map { built[$0] }
            let rows = try checkRowsAndNames(entity, inherited: inherited)
            built.append(Entity(
                name: entity.name, index: index, parent: parent, children: children(entity.name), subtreeEnd: subtreeEnds[index],
                root: inherited?.root ?? index, depth: (inherited?.depth ?? -1) + 1, isAbstract: entity.abstract, rows: rows,
                attributes: (inherited?.attributes ?? []) + entity.attributes,
                attributeOwners: (inherited?.attributeOwners ?? []) + entity.attributes.map { _ in index },
                relationships: inherited?.relationships ?? [], uniquenessConstraints: entity.uniquenessConstraints,
                fetchIndexes: entity.fetchIndexes, nullShares: entity.nullShares))
        }
        return built
    }

    /// An entity's rows (0 when abstract) after checking them, and its properties' names and
    /// attributes against its own and its ancestors'.
    private static func checkRowsAndNames(_ entity: EntityDescription, inherited: Entity?) throws -> Int {
        if entity.abstract, let rows = entity.rows, rows != 0 {
            throw ModelError("entity '\(entity.name)' is abstract but has \(rows) rows; drop \"rows\" or make it concrete")
        }
        try entity.checkRows()
        let rows = entity.rows ?? 0
        var names = Set((inherited?.attributes.map { $0.name.uppercased() } ?? []) + (inherited?.relationships.map { $0.name.uppercased() } ?? []))
        for attribute in entity.attributes {
            if !attribute.isOrderKey { try checkPropertyName(attribute.name, of: entity.name) }
            guard names.insert(attribute.name.uppercased()).inserted else {
                throw ModelError("entity '\(entity.name)' declares '\(attribute.name)' twice, or again after an ancestor (names are compared without case, as Core Data's columns are)")
            }
            try check(attribute, of: entity.name)
        }
        for relationship in entity.relationships {
            if !relationship.hidden { try checkPropertyName(relationship.name, of: entity.name) }
            guard names.insert(relationship.name.uppercased()).inserted else {
                throw ModelError("entity '\(entity.name)' declares '\(relationship.name)' twice, or again after an ancestor")
            }
        }
        return entity.abstract ? 0 : rows
    }

    /// Every entity's relationships, own and inherited (in declaration order, not yet sorted),
    /// each resolved to entity numbers and checked.
    static func resolveRelationships(_ ordered: [EntityDescription], _ built: [Entity], _ indexByName: [String: Int]) throws -> [[Relationship]] {
        var resolved: [[Relationship]] = Array(repeating: [], count: ordered.count)
        for (index, entity) in ordered.enumerated() {
            for relationship in entity.relationships {
                let resolvedRelationship = try resolve(relationship, of: index, ordered, built, indexByName)
                for descendant in built[index].subtree { resolved[descendant].append(resolvedRelationship) }
            }
        }
        return resolved
    }

    /// The relationship declared on the entity numbered `entity` or on an ancestor.
    private static func declared(_ name: String, on entity: Int, _ ordered: [EntityDescription], _ built: [Entity]) -> (RelationshipDescription, owner: Int)? {
        var current: Int? = entity
        while let index = current {
            if let found = ordered[index].relationships.first(where: { $0.name == name }) { return (found, index) }
            current = built[index].parent
        }
        return nil
    }

    private static func resolve(_ relationship: RelationshipDescription, of index: Int, _ ordered: [EntityDescription], _ built: [Entity],
                                _ indexByName: [String: Int]) throws -> Relationship {
        let what = "relationship '\(ordered[index].name).\(relationship.name)'"
        guard let destination = indexByName[relationship.destination] else {
            throw ModelError("\(what) has destination '\(relationship.destination)', which the model does not declare")
        }
        var inverse: (description: RelationshipDescription, owner: Int)?
        if let inverseName = relationship.inverse {
            guard let found = declared(inverseName, on: destination, ordered, built) else {
                throw ModelError("\(what) names inverse '\(inverseName)', which '\(relationship.destination)' does not have")
            }
            guard let back = indexByName[found.0.destination], built[back].subtree.contains(index) || built[index].subtree.contains(back) else {
                throw ModelError("\(what) and its inverse '\(relationship.destination).\(inverseName)' do not point at each other's entities")
            }
            if let twice = found.0.inverse, twice != relationship.name {
                throw ModelError("\(what) names inverse '\(inverseName)', whose own inverse is '\(twice)'; make the two name each other")
            }
            inverse = (found.0, found.owner)
        }
        try checkSettings(relationship, what, inverseIsToMany: inverse?.description.toMany)
        return Relationship(
            name: relationship.name, owner: index, destination: destination, inverse: relationship.inverse, toMany: relationship.toMany,
            inverseIsToMany: inverse?.description.toMany, ordered: relationship.ordered, deleteRule: relationship.deleteRule,
            nullShare: relationship.effectiveNullShare, count: relationship.count ?? .default,
            popularity: relationship.popularity ?? 0, generatesLinks: generatesLinks(relationship, of: index, inverse: inverse),
            isHidden: relationship.hidden, fanOut: relationship.fanOut)
    }

    /// A relationship's order, count, popularity and share of NULLs.
    private static func checkSettings(_ relationship: RelationshipDescription, _ what: String, inverseIsToMany: Bool?) throws {
        if relationship.ordered, !relationship.toMany {
            throw ModelError("\(what) is ordered, but it is to-one; only a to-many relationship has an order")
        }
        if let count = relationship.count {
            guard relationship.toMany, inverseIsToMany == true else {
                throw ModelError("\(what) gives \"count\", which applies to many-to-many relationships only; a to-one side decides its own links")
            }
            guard count.min >= 0, count.min <= count.max, count.max <= maximumFanOut else {
                throw ModelError("\(what): count must satisfy 0 <= min <= max <= \(maximumFanOut); got \(count.min) ... \(count.max)")
            }
        }
        if let fanOut = relationship.fanOut {
            guard relationship.toMany else { throw ModelError("\(what) gives \"fanOut\", which applies to to-many relationships only") }
            guard fanOut.isValid else {
                throw ModelError("\(what): fanOut must give \(Quantiles.steps + 1) ascending quantiles of at least 0 and a mean between the first and the last")
            }
        }
        if let popularity = relationship.popularity, !(popularity.isFinite && popularity >= 0 && popularity <= 10) {
            throw ModelError("\(what): popularity must be a Zipf exponent between 0 and 10; got \(popularity)")
        }
        if let share = relationship.nullShare, !(share >= 0 && share <= 1) {
            throw ModelError("\(what): nullShare must be between 0 and 1; got \(share)")
        }
    }

    /// Of a many-to-many pair, the side with a count generates, else the lower-numbered declaring
    /// entity; of a one-to-one pair, the lower-numbered one (a relationship that is its own inverse
    /// generates for itself). Any other relationship's links come from its to-one side.
    private static func generatesLinks(_ relationship: RelationshipDescription, of index: Int,
                                       inverse: (description: RelationshipDescription, owner: Int)?) -> Bool {
        guard let inverse, let inverseName = relationship.inverse, relationship.toMany == inverse.description.toMany else { return false }
        let other = inverse.owner
        if !relationship.toMany { return index < other || (index == other && relationship.name <= inverseName) }
        if (relationship.count != nil) != (inverse.description.count != nil) { return relationship.count != nil }
        return index < other || (index == other && relationship.name < inverseName)
    }

    /// The root whose hierarchy the workloads read: `named`, else of the roots with sub-entities
    /// and objects the one with the most objects (the first by number on a tie), else the largest.
    static func mainRoot(_ entities: [Entity], roots: [Int], objects: [Int], named: String?, _ indexByName: [String: Int]) throws -> Int {
        let populated = roots.filter { objects[$0] > 0 }
        let inheriting = populated.filter { entities[$0].hasSubentities }
        let candidates = inheriting.isEmpty ? (populated.isEmpty ? roots : populated) : inheriting
        guard let name = named else {
            return candidates.max { a, b in (objects[a], -a) < (objects[b], -b) } ?? 0
        }
        let listed = candidates.map { entities[$0].name }.joined(separator: ", ")
        guard let chosen = indexByName[name] else {
            throw ModelError("root '\(name)' is not an entity of the model; its hierarchies: \(listed)")
        }
        guard entities[chosen].isRoot else {
            throw ModelError("root '\(name)' has a parent; give the root of its hierarchy, '\(entities[entities[chosen].root].name)'")
        }
        guard objects[chosen] > 0 else { throw ModelError("root '\(name)' has no objects in its hierarchy; pick one of: \(listed)") }
        return chosen
    }
}

extension Model.Entity {
    /// This entity with `relationships` in place of its own list.
    func with(relationships: [Model.Relationship]) -> Model.Entity {
        Model.Entity(name: name, index: index, parent: parent, children: children, subtreeEnd: subtreeEnd, root: root, depth: depth,
                     isAbstract: isAbstract, rows: rows, attributes: attributes, attributeOwners: attributeOwners,
                     relationships: relationships, uniquenessConstraints: uniquenessConstraints, fetchIndexes: fetchIndexes, nullShares: nullShares)
    }
}

extension EntityDescription {
    /// Refuses described rows out of range (`Model.maximumRows`).
    func checkRows() throws {
        guard let rows, !(0 ... Model.maximumRows).contains(rows) else { return }
        throw ModelError("entity '\(name)' rows must be between 0 and \(Model.maximumRows); got \(rows)")
    }
}

extension ModelDescription {
    /// Refuses an entity's described rows out of range before anything replaces them (`scaled(to:)`,
    /// `sharing`), so that a description's mistake is one whatever the command's flags.
    public func checkDescribedRows() throws {
        for entity in entities { try entity.checkRows() }
    }
}
