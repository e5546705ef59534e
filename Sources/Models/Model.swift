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

    public init(_ description: ModelDescription) throws {
        self.description = description
        try Self.checkModelName(description.name)
        let declared = description.entities
        guard !declared.isEmpty else { throw ModelError("the model '\(description.name)' has no entities; describe at least one") }
        guard declared.count <= Self.maximumEntities else {
            throw ModelError("the model has \(declared.count) entities, more than the \(Self.maximumEntities) the suite supports")
        }
        var byName: [String: Int] = [:]
        var upperNames: [String: String] = [:]
        for (position, entity) in declared.enumerated() {
            try Self.checkEntityName(entity.name)
            if let other = upperNames[entity.name.uppercased()] {
                throw ModelError(other == entity.name
                    ? "entity '\(entity.name)' is declared twice"
                    : "entities '\(other)' and '\(entity.name)' differ only in case; Core Data's table names (Z + upper case) would collide")
            }
            upperNames[entity.name.uppercased()] = entity.name
            byName[entity.name] = position
        }
        // Parents exist and form no cycle.
        for entity in declared {
            guard let parent = entity.parent else { continue }
            guard byName[parent] != nil else {
                throw ModelError("entity '\(entity.name)' names parent '\(parent)', which the model does not declare")
            }
            var seen: Set<String> = [entity.name]
            var current: String? = parent
            while let name = current {
                guard seen.insert(name).inserted else {
                    throw ModelError("entity '\(entity.name)' is its own ancestor (parents \(seen.sorted().joined(separator: ", ")) form a cycle); give the hierarchy a root")
                }
                guard seen.count <= Self.maximumDepth + 1 else {
                    throw ModelError("entity '\(entity.name)' is more than \(Self.maximumDepth) levels deep; the suite supports at most \(Self.maximumDepth)")
                }
                current = declared[byName[name]!].parent
            }
        }
        // Entity numbers: roots in name order, each followed depth-first by its sub-entities in name order.
        var childrenByName: [String: [String]] = [:]
        for entity in declared { if let parent = entity.parent { childrenByName[parent, default: []].append(entity.name) } }
        var order: [String] = []
        func visit(_ name: String) {
            order.append(name)
            for child in (childrenByName[name] ?? []).sorted(by: Self.nameOrder) { visit(child) }
        }
        for root in declared.filter({ $0.parent == nil }).map(\.name).sorted(by: Self.nameOrder) { visit(root) }
        let indexByName = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        self.indexByName = indexByName
        var ordered = order.map { declared[byName[$0]!] }
        Self.addHiddenInverses(&ordered, indexByName)
        Self.addOrderKeys(&ordered, indexByName)

        // Attributes and relationships, inherited first.
        var built: [Entity] = []
        var subtreeEnds = Array(0 ..< ordered.count)
        for index in ordered.indices.reversed() {
            for child in (childrenByName[ordered[index].name] ?? []) { subtreeEnds[index] = max(subtreeEnds[index], subtreeEnds[indexByName[child]!]) }
        }
        for (index, entity) in ordered.enumerated() {
            let parent = entity.parent.map { indexByName[$0]! }
            let inherited = parent.map { built[$0] }
            if entity.abstract, let rows = entity.rows, rows != 0 {
                throw ModelError("entity '\(entity.name)' is abstract but has \(rows) rows; drop \"rows\" or make it concrete")
            }
            let rows = entity.rows ?? 0
            guard (0 ... Self.maximumRows).contains(rows) else {
                throw ModelError("entity '\(entity.name)' rows must be between 0 and \(Self.maximumRows); got \(rows)")
            }
            var names = Set((inherited?.attributes.map { $0.name.uppercased() } ?? []) + (inherited?.relationships.map { $0.name.uppercased() } ?? []))
            for attribute in entity.attributes {
                if !attribute.isOrderKey { try Self.checkPropertyName(attribute.name, of: entity.name) }
                guard names.insert(attribute.name.uppercased()).inserted else {
                    throw ModelError("entity '\(entity.name)' declares '\(attribute.name)' twice, or again after an ancestor (names are compared without case, as Core Data's columns are)")
                }
                try Self.check(attribute, of: entity.name)
            }
            for relationship in entity.relationships {
                if !relationship.hidden { try Self.checkPropertyName(relationship.name, of: entity.name) }
                guard names.insert(relationship.name.uppercased()).inserted else {
                    throw ModelError("entity '\(entity.name)' declares '\(relationship.name)' twice, or again after an ancestor")
                }
            }
            let children = (childrenByName[entity.name] ?? []).map { indexByName[$0]! }.sorted()
            let root = inherited?.root ?? index
            built.append(Entity(
                name: entity.name, index: index, parent: parent, children: children, subtreeEnd: subtreeEnds[index], root: root,
                depth: (inherited?.depth ?? -1) + 1, isAbstract: entity.abstract, rows: entity.abstract ? 0 : rows,
                attributes: (inherited?.attributes ?? []) + entity.attributes,
                attributeOwners: (inherited?.attributeOwners ?? []) + entity.attributes.map { _ in index },
                relationships: inherited?.relationships ?? [], uniquenessConstraints: entity.uniquenessConstraints,
                fetchIndexes: entity.fetchIndexes))
        }
        // Relationships, now that every entity has a number.
        func declaredRelationship(_ entity: Int, _ name: String) -> RelationshipDescription? {
            var current: Int? = entity
            while let index = current {
                if let found = ordered[index].relationships.first(where: { $0.name == name }) { return found }
                current = built[index].parent
            }
            return nil
        }
        var resolved: [[Relationship]] = Array(repeating: [], count: ordered.count)
        for (index, entity) in ordered.enumerated() {
            for relationship in entity.relationships {
                let what = "relationship '\(entity.name).\(relationship.name)'"
                guard let destination = indexByName[relationship.destination] else {
                    throw ModelError("\(what) has destination '\(relationship.destination)', which the model does not declare")
                }
                var inverseToMany: Bool?
                if let inverseName = relationship.inverse {
                    guard let inverse = declaredRelationship(destination, inverseName) else {
                        throw ModelError("\(what) names inverse '\(inverseName)', which '\(relationship.destination)' does not have")
                    }
                    guard let back = indexByName[inverse.destination], built[back].subtree.contains(index) || built[index].subtree.contains(back) else {
                        throw ModelError("\(what) and its inverse '\(relationship.destination).\(inverseName)' do not point at each other's entities")
                    }
                    if let twice = inverse.inverse, twice != relationship.name {
                        throw ModelError("\(what) names inverse '\(inverseName)', whose own inverse is '\(twice)'; make the two name each other")
                    }
                    inverseToMany = inverse.toMany
                }
                if relationship.ordered, !relationship.toMany {
                    throw ModelError("\(what) is ordered, but it is to-one; only a to-many relationship has an order")
                }
                if let count = relationship.count {
                    guard relationship.toMany, inverseToMany == true else {
                        throw ModelError("\(what) gives \"count\", which applies to many-to-many relationships only; a to-one side decides its own links")
                    }
                    guard count.min >= 0, count.min <= count.max, count.max <= Self.maximumFanOut else {
                        throw ModelError("\(what): count must satisfy 0 <= min <= max <= \(Self.maximumFanOut); got \(count.min) ... \(count.max)")
                    }
                }
                if let popularity = relationship.popularity, !(popularity.isFinite && popularity >= 0 && popularity <= 10) {
                    throw ModelError("\(what): popularity must be a Zipf exponent between 0 and 10; got \(popularity)")
                }
                if let share = relationship.nullShare, !(share >= 0 && share <= 1) {
                    throw ModelError("\(what): nullShare must be between 0 and 1; got \(share)")
                }
                // Of a many-to-many pair, the side with a count generates, else the lower-numbered declaring
                // entity; of a one-to-one pair, the lower-numbered one (a relationship that is its own inverse
                // generates for itself).
                var generates = false
                if let inverseName = relationship.inverse, let other = declaredRelationship(destination, inverseName),
                   relationship.toMany == other.toMany {
                    let otherOwner = Self.declaringEntity(of: inverseName, from: destination, ordered, built)
                    if !relationship.toMany { generates = index < otherOwner || (index == otherOwner && relationship.name <= inverseName) }
                    else if (relationship.count != nil) != (other.count != nil) { generates = relationship.count != nil }
                    else { generates = index < otherOwner || (index == otherOwner && relationship.name < inverseName) }
                }
                let resolvedRelationship = Relationship(
                    name: relationship.name, owner: index, destination: destination, inverse: relationship.inverse, toMany: relationship.toMany,
                    inverseIsToMany: inverseToMany, ordered: relationship.ordered, deleteRule: relationship.deleteRule,
                    nullShare: relationship.effectiveNullShare, count: relationship.count ?? .default,
                    popularity: relationship.popularity ?? 0, generatesLinks: generates, isHidden: relationship.hidden)
                for descendant in built[index].subtree { resolved[descendant].append(resolvedRelationship) }
            }
        }
        // Sub-entities list inherited relationships first: an ancestor's come before the entity's own.
        let final = built.map { entity in
            let relationships = resolved[entity.index].sorted { built[$0.owner].depth < built[$1.owner].depth }
            return Entity(name: entity.name, index: entity.index, parent: entity.parent, children: entity.children,
                          subtreeEnd: entity.subtreeEnd, root: entity.root, depth: entity.depth, isAbstract: entity.isAbstract,
                          rows: entity.rows, attributes: entity.attributes, attributeOwners: entity.attributeOwners,
                          relationships: relationships, uniquenessConstraints: entity.uniquenessConstraints, fetchIndexes: entity.fetchIndexes)
        }
        entities = final
        let roots = final.filter(\.isRoot).map(\.index)
        self.roots = roots
        let objects = final.map { entity in entity.subtree.reduce(0) { $0 + final[$1].rows } }
        let populated = roots.filter { objects[$0] > 0 }
        let inheriting = populated.filter { final[$0].hasSubentities }
        let candidates = inheriting.isEmpty ? (populated.isEmpty ? roots : populated) : inheriting
        if let name = description.root {
            let roots = candidates.map { final[$0].name }.joined(separator: ", ")
            guard let chosen = indexByName[name] else {
                throw ModelError("root '\(name)' is not an entity of the model; its hierarchies: \(roots)")
            }
            guard final[chosen].isRoot else {
                throw ModelError("root '\(name)' has a parent; give the root of its hierarchy, '\(final[final[chosen].root].name)'")
            }
            guard objects[chosen] > 0 else { throw ModelError("root '\(name)' has no objects in its hierarchy; pick one of: \(roots)") }
            mainRoot = chosen
        } else {
            mainRoot = candidates.max { a, b in (objects[a], -a) < (objects[b], -b) }!
        }
        try validateProperties()
        try validateSizes(objects)
    }

    /// Core Data sorts entities by name with `caseInsensitiveCompare:` (names differ in more than case here).
    public static func nameOrder(_ a: String, _ b: String) -> Bool { a.lowercased() < b.lowercased() }

    private static func declaringEntity(of relationship: String, from entity: Int, _ ordered: [EntityDescription], _ built: [Entity]) -> Int {
        var current: Int? = entity
        while let index = current {
            if ordered[index].relationships.contains(where: { $0.name == relationship }) { return index }
            current = built[index].parent
        }
        return entity
    }

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

    // MARK: Validation

    private static func checkModelName(_ name: String) throws {
        let ok = !name.isEmpty && name.count <= 60 && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
        guard ok else { throw ModelError("model name '\(name)' must be 1 to 60 ASCII letters, digits, '-', '_' or '.'") }
    }

    private static func identifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.count <= 60 else { return false }
        return first.isASCII && CharacterSet.letters.contains(first)
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
    }

    private static func checkEntityName(_ name: String) throws {
        guard identifier(name), name.first!.isUppercase else {
            throw ModelError("entity name '\(name)' must be 1 to 60 ASCII letters, digits and '_', starting with a capital letter (Core Data's rule)")
        }
    }

    /// Names the suite's SQL gives a meaning of their own.
    static let reservedPropertyNames: Set<String> = ["entity"]

    /// Xcode's editor asks for a lower-case first letter, but Core Data reads a model whose
    /// property names start with a capital (shipping apps have them), so the suite does too.
    private static func checkPropertyName(_ name: String, of entity: String) throws {
        guard identifier(name) else {
            throw ModelError("property name '\(name)' of '\(entity)' must be 1 to 60 ASCII letters, digits and '_', starting with a letter")
        }
        guard !reservedPropertyNames.contains(name) else {
            throw ModelError("property name '\(name)' of '\(entity)' is reserved: 'entity' means the entity column in a fetch index; rename it")
        }
    }

    private static func check(_ attribute: Attribute, of entity: String) throws {
        let what = "attribute '\(entity).\(attribute.name)'"
        if let share = attribute.nullShare, !(share >= 0 && share <= 1) {
            throw ModelError("\(what): nullShare must be between 0 and 1; got \(share)")
        }
        guard let spec = attribute.values else { return }
        let textual: Set<AttributeType> = [.string, .uri]
        let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .decimal, .date, .boolean]
        switch spec.kind {
        case .words, .name, .topic, .isbn, .url, .doi, .email, .choice:
            guard textual.contains(attribute.type) else {
                throw ModelError("\(what) is \(attribute.type.rawValue); values of kind '\(spec.kind.rawValue)' are strings")
            }
        case .range:
            guard numeric.contains(attribute.type) else {
                throw ModelError("\(what) is \(attribute.type.rawValue); values of kind 'range' are numbers or dates")
            }
        case .sequence:
            guard [.integer16, .integer32, .integer64].contains(attribute.type) else {
                throw ModelError("\(what) is \(attribute.type.rawValue); values of kind 'sequence' are integers")
            }
        case .uuid:
            guard attribute.type == .uuid else { throw ModelError("\(what) is \(attribute.type.rawValue); values of kind 'uuid' are UUIDs") }
        }
        if let min = spec.min, let max = spec.max {
            guard min.isFinite, max.isFinite, min < max else { throw ModelError("\(what): values need min < max, both finite; got \(min) and \(max)") }
        } else if spec.kind == .range {
            throw ModelError("\(what): values of kind 'range' need \"min\" and \"max\"")
        }
        if spec.kind == .words, let min = spec.min, min < 1 || (spec.max ?? 0) > 64 {
            throw ModelError("\(what): words need 1 <= min < max <= 64")
        }
        if spec.kind == .choice, (spec.choices ?? []).isEmpty {
            throw ModelError("\(what): values of kind 'choice' need a non-empty \"choices\" list")
        }
    }

    private func validateProperties() throws {
        for entity in entities {
            let attributeOrToOne = Set(entity.attributes.map(\.name) + entity.toOneRelationships.map(\.name))
            for constraint in entity.uniquenessConstraints {
                guard !constraint.isEmpty else { throw ModelError("entity '\(entity.name)' has an empty uniqueness constraint") }
                for name in constraint where !attributeOrToOne.contains(name) {
                    throw ModelError("a uniqueness constraint of '\(entity.name)' names '\(name)', which is not one of its attributes or to-one relationships")
                }
                guard Set(constraint).count == constraint.count else {
                    throw ModelError("a uniqueness constraint of '\(entity.name)' names a property twice")
                }
                if distinctAttribute(of: constraint, in: entity.index) == nil, entity.subtree.contains(where: { entities[$0].rows > 1 }) {
                    throw ModelError("the uniqueness constraint (\(constraint.joined(separator: ", "))) of '\(entity.name)' has no attribute that can take a different value in each object (only booleans and relationships); the suite cannot generate objects that satisfy it: add an attribute to it")
                }
            }
            var indexNames = Set<String>()
            for index in entity.fetchIndexes {
                guard Self.identifier(index.name) else {
                    throw ModelError("fetch index name '\(index.name)' of '\(entity.name)' must be 1 to 60 ASCII letters, digits and '_', starting with a letter")
                }
                guard indexNames.insert(index.name.uppercased()).inserted else {
                    throw ModelError("entity '\(entity.name)' declares fetch index '\(index.name)' twice")
                }
                guard !index.elements.isEmpty else { throw ModelError("fetch index '\(index.name)' of '\(entity.name)' has no elements") }
                for element in index.elements {
                    if let name = element.property, !attributeOrToOne.contains(name) {
                        throw ModelError("fetch index '\(index.name)' of '\(entity.name)' names '\(name)', which is not one of its attributes or to-one relationships")
                    }
                }
            }
            for relationship in entity.ownRelationships where !relationship.toMany && relationship.nullShare == 0 && !relationship.isHidden && !relationship.isOneToOne {
                if objectCount(relationship.destination) == 0 && entity.subtree.contains(where: { entities[$0].rows > 0 }) {
                    throw ModelError("relationship '\(entity.name).\(relationship.name)' is required, but '\(entities[relationship.destination].name)' has no objects to point at; give it rows or make the relationship optional")
                }
            }
        }
    }

    private func validateSizes(_ objects: [Int]) throws {
        let total = roots.reduce(0) { $0 + objects[$1] }
        guard total > 0 else { throw ModelError("the model has no objects; give at least one concrete entity some rows") }
        guard total <= Self.maximumRows else {
            throw ModelError("the model has \(total) objects in all, more than the \(Self.maximumRows) the suite supports; describe fewer")
        }
        for root in roots {
            let subtree = entities[root].subtree
            let concrete = concreteEntities(in: subtree).count
            guard concrete <= Self.maximumConcreteEntitiesPerHierarchy else {
                throw ModelError("the hierarchy of '\(entities[root].name)' has \(concrete) concrete entities, more than the \(Self.maximumConcreteEntitiesPerHierarchy) the suite supports (SQLite allows 500 arms in one UNION ALL)")
            }
            var columns = 3
            for index in subtree {
                let entity = entities[index]
                columns += entity.ownAttributes.count
                columns += entity.ownRelationships.filter { !$0.toMany }.reduce(0) { $0 + (entities[$1.destination].hasSubentities ? 2 : 1) }
            }
            guard columns <= Self.maximumColumns else {
                throw ModelError("the hierarchy of '\(entities[root].name)' would need \(columns) columns in one table, more than the \(Self.maximumColumns) the suite allows (SQLite's limit is 2,000); describe fewer attributes")
            }
        }
        if let texts = description.order {
            let root = entities[mainRoot]
            for text in texts {
                guard let element = FetchIndex.Element(text: text), let name = element.property, root.attribute(name) != nil else {
                    throw ModelError("order element '\(text)' must be an attribute of '\(root.name)' (the main hierarchy's root), optionally followed by 'asc' or 'desc'")
                }
            }
            guard let last = texts.last.flatMap(FetchIndex.Element.init(text:))?.property, isUnique(last, of: mainRoot) else {
                throw ModelError("the order's last element must be an attribute of '\(root.name)' under a uniqueness constraint of its own, so that pages are well defined")
            }
        }
        if let key = orderKey, let attribute = entities[mainRoot].attribute(key), let share = attribute.nullShare, share > 0, attribute.optional {
            throw ModelError("attribute '\(entities[mainRoot].name).\(key)' orders the ordered reads (the last sort key), so it is never NULL there, but it gives nullShare \(share); drop nullShare, or order by another unique attribute")
        }
        if let name = description.leaf {
            guard let leaf = index(of: name) else { throw ModelError("leaf '\(name)' is not an entity of the model") }
            guard !entities[leaf].hasSubentities, entities[leaf].isConcrete else {
                throw ModelError("leaf '\(name)' must be a concrete entity without sub-entities")
            }
        }
        if let name = description.branch {
            guard let branch = index(of: name) else { throw ModelError("branch '\(name)' is not an entity of the model") }
            guard entities[branch].parent != nil, entities[branch].hasSubentities else {
                throw ModelError("branch '\(name)' must have both a parent and sub-entities")
            }
        }
    }
}
