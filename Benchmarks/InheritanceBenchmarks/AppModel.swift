import Models

/// A 250-entity model shaped like a large real app's, for the layout benchmarks (`layout.<strategy>.app250`):
/// 190 root entities, 25 of which head hierarchies with 60 sub-entities in all (10 with one level of
/// one or two sub-entities, 10 with two levels, 5 with three); 8 attributes of mixed types per
/// entity (a string and a date, then 6 of 13 types in turn, 2 optional); 141 to-one/to-many pairs
/// (126 standalone roots owned, 15 sub-entities linked) and 10 many-to-many pairs; 15 uniqueness
/// constraints (5 compound with a to-one); 80 fetch indexes (`entity` first in each hierarchy's root).
/// Built from the public initialisers only; rows shared evenly by `sharing(_:)`.
enum AppModel {
    static let hierarchyRoots = 25
    static let roots = 190
    static let attributeTypes: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean, .date, .binary, .uri, .string, .transformable, .uuid,
    ]

    static func make(objects: Int = 100_000) -> ModelDescription {
        var entities: [EntityDescription] = []

        /// An entity with 8 attributes (a string `…name`, a date `…createdAt`, then 6 of types
        /// rotating with its number), names prefixed for a sub-entity so none repeats an ancestor's.
        func entity(_ name: String, parent: String? = nil, abstract: Bool = false) -> EntityDescription {
            let prefix = parent == nil ? "" : name.prefix(1).lowercased() + name.dropFirst()
            func attributeName(_ base: String) -> String { prefix.isEmpty ? base : prefix + base.prefix(1).uppercased() + base.dropFirst() }
            let number = entities.count
            var attributes = [Attribute(attributeName("name"), .string), Attribute(attributeName("createdAt"), .date)]
            for slot in 0 ..< 6 {
                let type = attributeTypes[(number + slot * 2) % attributeTypes.count]
                attributes.append(Attribute(attributeName("field\(slot + 1)"), type, optional: slot >= 4))
            }
            var description = EntityDescription(name, parent: parent, abstract: abstract, attributes: attributes)
            if number % 5 == 0 {
                description.fetchIndexes.append(FetchIndex("by\(name)Created", attributeName("createdAt") + " desc", attributeName("name")))
            }
            return description
        }

        // Roots: the first 25 head hierarchies (every third of them abstract), the rest stand alone.
        let rootNames = (0 ..< roots).map { $0 < hierarchyRoots ? "Kind\($0 + 1)" : "Record\($0 + 1)" }
        for (position, name) in rootNames.enumerated() {
            var root = entity(name, abstract: position < hierarchyRoots && position % 3 == 0)
            if position % 20 == 0 { root.uniquenessConstraints.append(["name"]) }
            if position < hierarchyRoots { root.fetchIndexes.append(FetchIndex("byEntityAndName", "entity", "name")) }
            entities.append(root)
        }
        // Sub-entities: 5 hierarchies 3 levels deep (a chain), 10 with 2 levels (two children, one
        // grandchild), 5 with two children, 5 with one: 15 + 30 + 10 + 5 = 60.
        var subEntities: [String] = []
        func add(_ name: String, under parent: String) {
            entities.append(entity(name, parent: parent))
            subEntities.append(name)
        }
        for position in 0 ..< hierarchyRoots {
            let root = rootNames[position]
            switch position {
            case 0 ..< 5:
                add("\(root)A", under: root); add("\(root)AA", under: "\(root)A"); add("\(root)AAA", under: "\(root)AA")
            case 5 ..< 15:
                add("\(root)A", under: root); add("\(root)B", under: root); add("\(root)AA", under: "\(root)A")
            case 15 ..< 20:
                add("\(root)A", under: root); add("\(root)B", under: root)
            default:
                add("\(root)A", under: root)
            }
        }

        func addRelationship(_ relationship: RelationshipDescription, to name: String) {
            entities[entities.firstIndex { $0.name == name }!].relationships.append(relationship)
        }
        // To-one/to-many pairs: 126 standalone roots point at an owner (a hierarchy's root, a
        // sub-entity or another standalone root), which lists them; 15 sub-entities at a standalone root.
        let standalone = Array(rootNames[hierarchyRoots...])
        let owners = Array(rootNames[..<hierarchyRoots]) + subEntities
        var pairs = 0
        for (position, source) in standalone.enumerated() where position % 4 != 3 || position < 8 {
            let destination = position % 3 == 2 && position > 0 ? standalone[position / 2] : owners[(position * 7) % owners.count]
            pairs += 1
            addRelationship(RelationshipDescription("owner", destination: destination, inverse: "items\(pairs)", optional: position % 2 == 0), to: source)
            addRelationship(RelationshipDescription("items\(pairs)", destination: source, inverse: "owner", toMany: true,
                                                    deleteRule: position % 5 == 0 ? .cascade : .nullify), to: destination)
            if position % 36 == 0 {
                let index = entities.firstIndex { $0.name == source }!
                entities[index].uniquenessConstraints.append(["name", "owner"])
                entities[index].fetchIndexes.append(FetchIndex("byOwner", "owner", "createdAt desc"))
            }
        }
        for (position, source) in subEntities.enumerated() where position % 4 == 0 {
            let destination = standalone[(position * 11) % standalone.count]
            pairs += 1
            addRelationship(RelationshipDescription("link\(pairs)", destination: destination, inverse: "linked\(pairs)", optional: true), to: source)
            addRelationship(RelationshipDescription("linked\(pairs)", destination: source, inverse: "link\(pairs)", toMany: true), to: destination)
        }
        // Many-to-many pairs, between standalone roots and into hierarchies.
        for pair in 1 ... 10 {
            let source = standalone[pair * 13 % standalone.count]
            let destination = pair % 2 == 0 ? rootNames[pair] : standalone[(pair * 29 + 5) % standalone.count]
            addRelationship(RelationshipDescription("tags\(pair)", destination: destination, inverse: "taggedBy\(pair)", toMany: true,
                                                    count: FanOut(min: 0, max: 4)), to: source)
            addRelationship(RelationshipDescription("taggedBy\(pair)", destination: source, inverse: "tags\(pair)", toMany: true), to: destination)
        }
        let model = ModelDescription(name: "app250", summary: "a large app's model: 250 entities, 25 hierarchies", entities: entities)
        return try! model.sharing(objects)
    }
}
