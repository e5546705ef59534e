import Models

extension TablePerEntity {
    /// `BlogPost` → `blogPosts`, `Category` → `categories`.
    static func plural(_ name: String) -> String {
        let lower = name.prefix(1).lowercased() + name.dropFirst()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return lower.dropLast() + "ies" }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return lower + "es" }
        return lower + "s"
    }

    /// The flattened description: one root per concrete entity (its name, every attribute, every
    /// to-one, constraints and indexes of it and its ancestors), many-to-many relationships split
    /// per pair of concrete entities; and the name each relationship held by a concrete entity took
    /// on it, by partner.
    static func flatten(_ model: Model, _ concrete: [[Int]]) -> (ModelDescription, [Held: [Int: String]]) {
        let (manyToMany, names) = splitManyToMany(model, concrete)
        let flattened = model.concreteEntities.map { flatEntity($0, model, concrete, manyToMany: manyToMany[$0] ?? []) }
        return (ModelDescription(name: model.name, summary: model.description.summary, entities: flattened), names)
    }

    /// Many-to-many pairs, each from one side: the generating one (else the lower-named); per
    /// concrete entity, the relationships it declares in the flattened model; and the name each
    /// relationship held by a concrete entity took, by partner (`FlatNames.assigned`).
    private static func splitManyToMany(_ model: Model, _ concrete: [[Int]]) -> ([Int: [RelationshipDescription]], [Held: [Int: String]]) {
        let entities = model.entities
        var names = FlatNames(model, concrete)
        var manyToMany: [Int: [RelationshipDescription]] = [:]
        var declared: Set<PropertyKey> = []
        for entity in entities {
            for relationship in entity.ownRelationships where relationship.isManyToMany {
                guard let inverse = model.inverse(of: relationship) else { continue }
                let canonical = relationship.generatesLinks
                    || (!inverse.generatesLinks && (relationship.owner, relationship.name) <= (inverse.owner, inverse.name))
                guard canonical else { continue }
                for source in concrete[relationship.owner] {
                    for target in concrete[relationship.destination] {
                        let there = names.name(on: source, relationship, partner: target)
                        let back = names.name(on: target, inverse, partner: source)
                        for (side, flatName, destination, inverseName, held) in [
                            (source, there, target, back, relationship), (target, back, source, there, inverse),
                        ] where declared.insert(PropertyKey(owner: side, name: flatName)).inserted {
                            manyToMany[side, default: []].append(RelationshipDescription(
                                flatName, destination: entities[destination].name, inverse: inverseName, toMany: true,
                                deleteRule: held.deleteRule))
                        }
                    }
                }
            }
        }
        return (manyToMany, names.assigned)
    }

    /// A concrete entity as a root of the flattened model: its attributes, its to-ones, its split
    /// many-to-many relationships, and the constraints and fetch indexes of it and its ancestors.
    private static func flatEntity(_ index: Int, _ model: Model, _ concrete: [[Int]], manyToMany: [RelationshipDescription]) -> EntityDescription {
        let entities = model.entities
        let entity = entities[index]
        var lineage: [Int] = []
        var current: Int? = index
        while let ancestor = current { lineage.insert(ancestor, at: 0); current = entities[ancestor].parent }
        let (constraints, indexes) = inheritedIndexes(lineage, model)
        // To-ones keep their names; the destination is a table of the subtree (or the entity
        // itself when none), without an inverse: the flattened model only lays out the columns.
        let toOne = entity.toOneRelationships.map { relationship in
            RelationshipDescription(relationship.name, destination: entities[concrete[relationship.destination].first ?? index].name,
                                    deleteRule: relationship.deleteRule, optional: true, hidden: relationship.isHidden)
        }
        return EntityDescription(entity.name, rows: entity.rows, attributes: entity.attributes, relationships: toOne + manyToMany,
                                 uniquenessConstraints: constraints, fetchIndexes: indexes)
    }

    /// The uniqueness constraints and fetch indexes of the entities of `lineage`, root first, each
    /// once (an `entity` element dropped, an index left empty dropped, a name taken given a counter).
    private static func inheritedIndexes(_ lineage: [Int], _ model: Model) -> (constraints: [[String]], indexes: [FetchIndex]) {
        var constraints: [[String]] = []
        var indexes: [FetchIndex] = []
        var indexNames = Set<String>()
        for ancestor in lineage {
            for constraint in model.entities[ancestor].uniquenessConstraints where !constraints.contains(constraint) { constraints.append(constraint) }
            for fetchIndex in model.entities[ancestor].fetchIndexes {
                let elements = fetchIndex.elements.filter { $0.property != nil }
                guard !elements.isEmpty, !indexes.contains(where: { $0.elements == elements && $0.rtree == fetchIndex.rtree }) else { continue }
                var name = fetchIndex.name
                var counter = 2
                while indexNames.contains(name.uppercased()) { name = String(fetchIndex.name.prefix(55)) + String(counter); counter += 1 }
                indexNames.insert(name.uppercased())
                indexes.append(FetchIndex(name, elements, rtree: fetchIndex.rtree))
            }
        }
        return (constraints, indexes)
    }
}
