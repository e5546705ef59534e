import FetchRequests
import Generation
import Models
import Strategies
import XCTest

/// The read battery every strategy answers: each shape of request on each entity the model has,
/// with values taken from generated objects so that most requests find objects.
extension StrategyAgreement {
    /// Every request of the battery, checked against the reference.
    public func checkReads(file: StaticString = #filePath, line: UInt = #line) throws {
        try checkEntities(file: file, line: line)
        try checkOrder(file: file, line: line)
        try checkToOne(file: file, line: line)
        try checkToMany(file: file, line: line)
        try checkAttributes(file: file, line: line)
    }

    /// Up to `count` objects of each concrete entity of `entity`'s subtree, from the start of its root's stream.
    public func samples(of entity: Int, _ count: Int = 8) -> [ModelObject] {
        model.entities[entity].subtree.flatMap { index in
            let root = model.entities[index].root
            return (0 ..< generator.count(root: root)).lazy.filter { self.generator.entity(root: root, at: $0) == index }.prefix(count)
                .map { self.generator.object(root: root, at: $0) }
        }
    }

    /// Every entity with and without its sub-entities; lookups by key of its first and last objects, and of a missing key.
    func checkEntities(file: StaticString, line: UInt) throws {
        for entity in model.entities {
            for includes in [true, false] {
                let found = try check(FetchRequest(entity: entity.index, includesSubentities: includes), "\(entity.name) sub-entities \(includes)", file: file, line: line)
                for object in found.count > 1 ? [found[0], found[found.count - 1]] : found {
                    try check(FetchRequest(entity: entity.index, includesSubentities: includes, predicate: .key(object.id.key)),
                              "\(entity.name) sub-entities \(includes) key \(object.id)", file: file, line: line)
                }
                try check(FetchRequest(entity: entity.index, includesSubentities: includes, predicate: .key(999_999)), "\(entity.name) missing key", file: file, line: line)
            }
        }
        // Keys spread over the main hierarchy, asked of the root, the object's entity alone and with
        // its sub-entities, and each entity below it.
        let main = model.mainRoot, total = generator.count(root: main)
        for position in stride(from: 0, to: total, by: max(1, total / 7)) {
            let id = generator.object(root: main, at: position).id
            try check(FetchRequest(entity: id.entity, includesSubentities: false, predicate: .key(id.key)), "key \(id) alone", file: file, line: line)
            for entity in [main] + Array(model.entities[id.entity].subtree) {
                try check(FetchRequest(entity: entity, predicate: .key(id.key)), "key \(id) as \(model.entities[entity].name)", file: file, line: line)
            }
        }
    }

    /// The model's order over every entity of the main hierarchy: all, the first page, a page at half
    /// (and the keyset page after the object before it, which is the same page), a page at 5, an offset without a limit.
    func checkOrder(file: StaticString, line: UInt) throws {
        guard let order = model.order else { return }
        let sort = order.map { SortKey($0.property!, ascending: $0.ascending) }
        for entity in model.entities[model.mainRoot].subtree {
            let name = model.entities[entity].name
            let all = try check(FetchRequest(entity: entity, sort: sort), "\(name) sorted", file: file, line: line)
            let half = all.count / 2
            let page = try check(FetchRequest(entity: entity, sort: sort, limit: 50, offset: half), "\(name) page at \(half)", file: file, line: line)
            try check(FetchRequest(entity: entity, sort: sort, limit: 50), "\(name) first page", file: file, line: line)
            try check(FetchRequest(entity: entity, sort: sort, limit: 20, offset: 5), "\(name) page at 5", file: file, line: line)
            try check(FetchRequest(entity: entity, sort: sort, offset: half), "\(name) offset without limit", file: file, line: line)
            guard half > 0 else { continue }
            let before = all[half - 1]
            let values = sort.map { before.values[model.entities[before.id.entity].attributeIndex($0.attribute)!] }
            let keyset = try check(FetchRequest(entity: entity, predicate: .after(values), sort: sort, limit: 50), "\(name) keyset page", file: file, line: line)
            XCTAssertEqual(keyset, page, "\(model.name) \(name): the keyset page is the offset page", file: file, line: line)
        }
    }

    /// `.toOne` through every to-one relationship, with destinations some objects reach: asked of its
    /// owner, of the main root, and of the object's entity alone; and a page sorted by a total order.
    func checkToOne(file: StaticString, line: UInt) throws {
        for entity in model.entities {
            for relationship in entity.toOneRelationships where relationship.owner == entity.index {
                let holders = samples(of: entity.index).filter { $0.toOne[model.entities[$0.id.entity].toOneRelationships.firstIndex { $0.name == relationship.name }!] != nil }
                for object in holders.prefix(4) {
                    let destination = object.toOne[model.entities[object.id.entity].toOneRelationships.firstIndex { $0.name == relationship.name }!]!
                    let what = "\(entity.name).\(relationship.name) == \(destination)"
                    for asked in Set([entity.index, entity.root]) where model.entities[asked].relationship(relationship.name) != nil {
                        try check(FetchRequest(entity: asked, predicate: .toOne(relationship.name, destination)), what + " as \(model.entities[asked].name)", file: file, line: line)
                    }
                    try check(FetchRequest(entity: object.id.entity, includesSubentities: false, predicate: .toOne(relationship.name, destination)), what + " alone", file: file, line: line)
                    let root = model.entities[entity.root]
                    if let first = entity.attributes.first, let unique = root.attributes.first(where: { model.isUnique($0.name, of: root.index) }) {
                        try check(FetchRequest(entity: entity.index, predicate: .toOne(relationship.name, destination), sort: [SortKey(first.name), SortKey(unique.name)], limit: 3),
                                  what + " page", file: file, line: line)
                    }
                }
            }
        }
    }

    /// `ANY relationship.attribute == value` through every to-many relationship: each attribute of the
    /// popular and the rare destination (else of two destinations), asked of the owner and its root,
    /// with and without its sub-entities, with a key, and a page sorted by a unique `uid`.
    func checkToMany(file: StaticString, line: UInt) throws {
        for entity in model.entities {
            for relationship in entity.relationships where relationship.toMany && relationship.owner == entity.index {
                let destination = model.entities[relationship.destination]
                let popular = [generator.popularDestination(relationship), generator.rareDestination(relationship)].compactMap { $0 }
                let targets = relationship.generatesLinks && !popular.isEmpty ? popular.map { generator.object($0) } : Array(samples(of: destination.index, 1).prefix(2))
                for object in targets {
                    for attribute in destination.attributes {
                        let value = object.values[model.entities[object.id.entity].attributeIndex(attribute.name)!]
                        guard !value.isNull else { continue }
                        let predicate = FetchPredicate.anyRelated(relationship.name, attribute.name, value)
                        let what = "ANY \(entity.name).\(relationship.name).\(attribute.name) == \(value)"
                        for asked in Set([entity.index, entity.root]) where model.entities[asked].relationship(relationship.name) != nil {
                            try check(FetchRequest(entity: asked, predicate: predicate), what + " as \(model.entities[asked].name)", file: file, line: line)
                        }
                        guard attribute.type == .string, model.isUnique(attribute.name, of: destination.index) || model.isUnique(attribute.name, of: object.id.entity) else { continue }
                        try check(FetchRequest(entity: entity.index, includesSubentities: false, predicate: predicate), what + " alone", file: file, line: line)
                        try check(FetchRequest(entity: entity.index, predicate: .and([predicate, .key(3)])), what + " and key 3", file: file, line: line)
                        if entity.attribute("uid") != nil, model.isUnique("uid", of: entity.index) {
                            try check(FetchRequest(entity: entity.index, predicate: predicate, sort: [SortKey("uid")], limit: 5), what + " first page", file: file, line: line)
                        }
                    }
                }
            }
        }
    }

    /// Per entity and attribute, with the value of an object (two for a unique attribute): equality (also of a root's objects
    /// alone), date windows (alone, with a key, sorted), string prefixes, blob ranges, and pages
    /// sorted by the attribute alone (not a total order: only their length is defined).
    func checkAttributes(file: StaticString, line: UInt) throws {
        for entity in model.entities {
            let objects = samples(of: entity.index)
            for (position, attribute) in entity.attributes.enumerated() {
                let valued = objects.map { ($0.values[model.entities[$0.id.entity].attributeIndex(attribute.name)!], $0) }.filter { !$0.0.isNull }
                let values = valued.map(\.0)
                let name = "\(entity.name).\(attribute.name)"
                for (value, object) in valued.prefix(model.isUnique(attribute.name, of: entity.attributeOwners[position]) ? 2 : 1) {
                    try check(FetchRequest(entity: entity.index, predicate: .equals(attribute.name, value)), "\(name) == \(value)", file: file, line: line)
                    if entity.isRoot { try check(FetchRequest(entity: entity.index, includesSubentities: false, predicate: .equals(attribute.name, value)), "\(name) == \(value) alone", file: file, line: line) }
                    switch (attribute.type, value) {
                    case let (.date, .real(seconds)):
                        try check(FetchRequest(entity: entity.index, predicate: .range(attribute.name, .real(seconds - 86_400 * 60), .real(seconds + 86_400 * 60))), "\(name) in a window", file: file, line: line)
                        try check(FetchRequest(entity: entity.index, includesSubentities: false,
                                               predicate: .and([.range(attribute.name, .real(seconds - 86_400 * 365), .real(seconds)), .key(object.id.key)])), "\(name) in a window and a key", file: file, line: line)
                    case let (.string, .text(text)):
                        let prefix = String(text.prefix(2))
                        try check(FetchRequest(entity: entity.index, predicate: .range(attribute.name, .text(prefix), .text(prefix + "\u{10FFFF}"))), "\(name) prefix", file: file, line: line)
                    case (.uuid, .blob), (.binary, .blob):
                        try check(FetchRequest(entity: entity.index, predicate: .range(attribute.name, value, .blob([0xFF, 0xFF]))), "\(name) blob range", file: file, line: line)
                    default: break
                    }
                }
                if attribute.type == .date, values.count >= 2 {
                    let sorted = values.sorted(by: Value.sqliteLess)
                    let (low, high) = (sorted[sorted.count / 4], sorted[sorted.count * 3 / 4])
                    try check(FetchRequest(entity: entity.index, predicate: .range(attribute.name, low, high)), "\(name) quartiles", file: file, line: line)
                    try check(FetchRequest(entity: entity.index, predicate: .range(attribute.name, .real(300_000_000), .real(400_000_000))), "\(name) fixed range", file: file, line: line)
                    try check(FetchRequest(entity: entity.index, predicate: .range(attribute.name, sorted[0], sorted[sorted.count - 1]),
                                           sort: [SortKey(attribute.name, ascending: false)], limit: 7), "\(name) range, latest first", file: file, line: line)
                    try check(FetchRequest(entity: entity.index, predicate: .and([.range(attribute.name, .real(300_000_000), .real(600_000_000)), .key(objects[0].id.key)])),
                              "\(name) fixed range and key", file: file, line: line)
                }
                try checkLength(FetchRequest(entity: entity.index, sort: [SortKey(attribute.name, ascending: false)], limit: 5), "\(name) sorted page", file: file, line: line)
            }
        }
    }
}
