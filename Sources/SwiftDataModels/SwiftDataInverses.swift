import Models

/// The inverses of a SwiftData model's relationships. `@Relationship(inverse: \Tag.items)` on
/// either side pairs the two. Where neither side names one, SwiftData infers the pairing when it
/// is safe: here, when the destination has exactly one relationship back to the class (or an
/// ancestor) that is itself unpaired, and at least one of the two is optional (a required to-one
/// paired with a to-many would break when an object leaves the collection; SwiftData infers no
/// inverse then, as its documentation's examples show). Where several could pair, the first
/// declared is chosen, with a warning naming it.
struct SwiftDataInverses {
    let models: [SwiftModelClass]
    let byClass: [String: SwiftModelClass]
    private(set) var warnings: [String] = []
    /// The one-way pairs already warned about, so that each is named once.
    private var warned = Set<[String]>()

    let resolver: SwiftTypeResolver

    init(models: [SwiftModelClass], byClass: [String: SwiftModelClass], resolver: SwiftTypeResolver) {
        self.models = models; self.byClass = byClass; self.resolver = resolver
    }

    /// A relationship by entity position and relationship position.
    private struct Place: Equatable { var entity: Int; var relationship: Int }

    mutating func resolve(_ entities: inout [EntityDescription]) throws {
        let position = Dictionary(entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        try explicit(&entities, position)
        for (e, entity) in entities.enumerated() {
            for r in entity.relationships.indices where entities[e].relationships[r].inverse == nil {
                infer(Place(entity: e, relationship: r), &entities, position)
            }
        }
    }

    /// The `inverse:` key paths, applied to both sides.
    private mutating func explicit(_ entities: inout [EntityDescription], _ position: [String: Int]) throws {
        for (e, model) in models.enumerated() {
            for property in model.properties {
                guard let inverse = property.relationship?.inverse,
                      let r = entities[e].relationships.firstIndex(where: { $0.name == property.name }) else { continue }
                let relationship = entities[e].relationships[r]
                let what = "\(property.location): '\(model.name).\(property.name)'"
                guard let d = position[relationship.destination] else { continue }
                if let written = inverse.type, resolver.qualified(written, in: model.qualifiedName).flatMap({ byClass[$0] })?.entityName != relationship.destination {
                    throw ModelError("\(what) names the inverse \\\(written).\(inverse.property), but it points at '\(relationship.destination)'; name a property of '\(relationship.destination)'")
                }
                guard let back = owner(of: inverse.property, from: d, entities, position) else {
                    throw ModelError("\(what) names the inverse \\\(relationship.destination).\(inverse.property), which '\(relationship.destination)' does not have as a relationship; name one of its @Model-typed properties")
                }
                let other = entities[back.entity].relationships[back.relationship]
                if let paired = other.inverse, paired != property.name, relationship.toMany, !other.toMany,
                   entities[e].relationships.contains(where: { $0.name == paired && $0.inverse == inverse.property }) {
                    // Two to-many relationships name one to-one as their inverse (as in
                    // `leadingPlants` and `trailingPlants`, both `inverse: \Plant.yard`): a
                    // Core Data relationship has one inverse, so the first declared is paired
                    // and this one is kept one-way.
                    warnings.append("\(model.name).\(paired) and \(model.name).\(property.name) both name \(relationship.destination).\(inverse.property) as their inverse, which can pair with one; paired with "
                        + "\(model.name).\(paired), the first declared, and \(model.name).\(property.name) is stored one-way")
                    continue
                }
                entities[e].relationships[r].inverse = inverse.property
                if other.inverse == nil {
                    entities[back.entity].relationships[back.relationship].inverse = property.name
                }
            }
        }
    }

    /// The relationship `name` on entity `entity` or its nearest ancestor that declares it.
    private func owner(of name: String, from entity: Int, _ entities: [EntityDescription], _ position: [String: Int]) -> Place? {
        var current: Int? = entity
        var seen = Set<Int>()
        while let e = current, seen.insert(e).inserted {
            if let r = entities[e].relationships.firstIndex(where: { $0.name == name }) { return Place(entity: e, relationship: r) }
            current = entities[e].parent.flatMap { position[$0] }
        }
        return nil
    }

    /// The entity and its ancestors.
    private func lineage(_ entity: Int, _ entities: [EntityDescription], _ position: [String: Int]) -> [Int] {
        var found: [Int] = []
        var current: Int? = entity
        while let e = current, !found.contains(e) {
            found.append(e)
            current = entities[e].parent.flatMap { position[$0] }
        }
        return found
    }

    /// The unpaired relationships declared on `entities`' lineage that point at one of `targets`, but not `except`.
    private func unpaired(on owners: [Int], pointingAt targets: Set<String>, except: Place, _ entities: [EntityDescription]) -> [Place] {
        owners.flatMap { e in
            entities[e].relationships.indices.filter { r in
                entities[e].relationships[r].inverse == nil && targets.contains(entities[e].relationships[r].destination)
                    && Place(entity: e, relationship: r) != except
            }.map { Place(entity: e, relationship: $0) }
        }
    }

    private func name(_ place: Place, _ entities: [EntityDescription]) -> String {
        "\(entities[place.entity].name).\(entities[place.entity].relationships[place.relationship].name)"
    }

    private mutating func infer(_ place: Place, _ entities: inout [EntityDescription], _ position: [String: Int]) {
        let relationship = entities[place.entity].relationships[place.relationship]
        guard let destination = position[relationship.destination] else { return }
        let own = lineage(place.entity, entities, position)
        let candidates = unpaired(on: lineage(destination, entities, position), pointingAt: Set(own.map { entities[$0].name }), except: place, entities)
        guard let chosen = candidates.first else { return }
        let other = entities[chosen.entity].relationships[chosen.relationship]
        let chosenLineage = Set(lineage(chosen.entity, entities, position).map { entities[$0].name })
        let rivals = unpaired(on: own, pointingAt: chosenLineage, except: place, entities)
        guard relationship.optional || other.optional else {
            if warned.insert([name(place, entities), name(chosen, entities)].sorted()).inserted {
                warnings.append("\(name(place, entities)) and \(name(chosen, entities)) point at each other, but neither is optional, so SwiftData infers no inverse; they are stored as two one-way relationships (give "
                    + "@Relationship(inverse:) to pair them)")
            }
            return
        }
        if candidates.count > 1 || !rivals.isEmpty {
            let others = (candidates.dropFirst() + rivals).map { name($0, entities) }.joined(separator: ", ")
            warnings.append("\(name(place, entities)) and \(name(chosen, entities)) are paired as inverses, the first declared of several that could be (also: \(others)); give @Relationship(inverse:) to choose")
        }
        entities[place.entity].relationships[place.relationship].inverse = other.name
        entities[chosen.entity].relationships[chosen.relationship].inverse = relationship.name
    }
}
