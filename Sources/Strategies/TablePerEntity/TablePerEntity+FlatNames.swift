import Models

extension TablePerEntity {
    /// The names the flattened entities give the many-to-many relationships split per pair of
    /// concrete entities: the original name when the relationship reaches one table (or its
    /// original destination), else the partner's plural (`books`, `blogPosts`), then the name
    /// followed by the partner's, then a counter; never a name the entity's own properties take.
    struct FlatNames {
        let model: Model
        let concrete: [[Int]]
        /// Names a flattened entity may not take for a split relationship: its original properties'.
        private var reserved: [Int: Set<String>] = [:]
        private var used: [Int: Set<String>] = [:]
        /// The name chosen for each relationship as held by a concrete entity, by partner.
        private(set) var assigned: [Held: [Int: String]] = [:]

        init(_ model: Model, _ concrete: [[Int]]) {
            self.model = model
            self.concrete = concrete
            for index in model.concreteEntities {
                let entity = model.entities[index]
                reserved[index] = Set(entity.attributes.map { $0.name.uppercased() } + entity.relationships.map { $0.name.uppercased() })
            }
        }

        /// The flattened name of `relationship` on concrete `entity` reaching concrete `partner`, chosen once.
        mutating func name(on entity: Int, _ relationship: Model.Relationship, partner: Int) -> String {
            let held = Held(entity: entity, relationship: PropertyKey(relationship))
            if let known = assigned[held]?[partner] { return known }
            var candidates: [String] = []
            if concrete[relationship.destination].count == 1 || partner == relationship.destination { candidates.append(relationship.name) }
            candidates += [TablePerEntity.plural(model.entities[partner].name), relationship.name + model.entities[partner].name]
            let (used, reserved) = (used[entity], reserved[entity])
            func free(_ candidate: String) -> Bool {
                let upper = candidate.uppercased()
                guard candidate.count <= Model.longestName, used?.contains(upper) != true else { return false }
                return upper == relationship.name.uppercased() || reserved?.contains(upper) != true
            }
            var counter = 2
            while !candidates.contains(where: free) {
                candidates.append(String(relationship.name.prefix(Model.longestName - 10)) + String(counter))
                counter += 1
            }
            let chosen = candidates.first(where: free) ?? relationship.name
            self.used[entity, default: []].insert(chosen.uppercased())
            assigned[held, default: [:]][partner] = chosen
            return chosen
        }
    }
}
