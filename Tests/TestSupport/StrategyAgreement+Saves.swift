import FetchRequests
import Generation
import Models
import Strategies
import XCTest

/// Saves as an app's log sends them, for a checker against a store: each save runs on the
/// reference store and on every subject, which must make as many changes and then hold the same
/// objects.
extension StrategyAgreement {
    /// The saves checked: per hierarchy, one inserting an object of each concrete entity, updating
    /// an object of each entity with every attribute it can change (its own and inherited ones in
    /// one statement) and every to-one (but a one-to-one's) given another destination, linking,
    /// unlinking and clearing each many-to-many it declares, bumping a root object's version alone and deleting two
    /// objects; then every entity's objects compared.
    public func saves() -> [SaveSpec] {
        model.roots.map { root in
            var spec = SaveSpec()
            let subtree = model.entities[root].subtree
            for entity in subtree where model.entities[entity].isConcrete { spec.append(.insert(entity: entity)) }
            for entity in subtree {
                let info = model.entities[entity]
                let changeable = info.attributes.filter { !model.isUnique($0.name, of: entity) && !info.uniquenessConstraints.joined().contains($0.name) && $0.orderKeyOf == nil }
                // Every to-one: a one-to-one's and a constrained one's new destination is none.
                let toOnes = info.toOneRelationships.map(\.name)
                if !changeable.isEmpty || !toOnes.isEmpty { spec.append(.update(entity: entity, attributes: changeable.map(\.name), toOnes: toOnes)) }
            }
            for entity in subtree {
                for relationship in model.entities[entity].relationships where relationship.isManyToMany && relationship.owner == entity {
                    spec.append(.link(entity: entity, relationship: relationship.name))
                    spec.append(.unlink(entity: entity, relationship: relationship.name))
                    spec.append(.unlink(entity: entity, relationship: relationship.name, all: true))
                    // Links cleared from the other side are gone for the unlinks after them.
                    if let inverse = model.inverse(of: relationship) {
                        for _ in 0..<3 { spec.append(.unlink(entity: relationship.destination, relationship: inverse.name, all: true)) }
                        for _ in 0..<10 { spec.append(.unlink(entity: entity, relationship: relationship.name)) }
                    }
                }
            }
            spec.append(.update(entity: root, attributes: []))
            spec.append(.delete(entity: root))
            spec.append(.delete(entity: root))
            return spec
        }
    }

    /// Runs `saves()` twice over (their objects and values drawn from the generator as a session
    /// draws them) on every store; each must make every change the reference makes, and every
    /// entity's objects and every many-to-many's links must agree.
    public func checkSaves(file: StaticString = #filePath, line: UInt = #line) throws {
        // Drawn as a session's: each save after the others, none drawing what an earlier one removed.
        var draws = SaveDraws(generator, seed: generator.seed, atLeast: saves().reduce(0) { $0 + $1.count })
        for spec in saves() + saves() {
            let request = draws.request(spec)
            let made = try same("save \(spec.text(model))", file: file, line: line) { store in
                try store.save(try store.prepare(request, versions: try store.versions(of: request)))
            }
            XCTAssertGreaterThanOrEqual(made, request.mustWrite, "\(model.name): every change of \(spec.text(model)) made", file: file, line: line)
            try same("versions after \(spec.text(model))", file: file, line: line) { try $0.versions(request.updated + request.inserted.map(\.id) + request.deleted) }
        }
        for entity in model.entities { try check(FetchRequest(entity: entity.index), "\(entity.name) after the saves", file: file, line: line) }
        for relationship in model.entities.flatMap({ entity in entity.linkedRelationships.filter { $0.owner == entity.index } }) { try same("links of \(relationship.name) after the saves", file: file, line: line) { try $0.countLinks(relationship) } }
    }
}
