import Foundation
import Generation
import Models

extension FetchSpec {
    /// Objects of the fetched entity's subtree a `%@` draws its values from (spread over the stream).
    static let drawnObjects = 500
    /// Values an `IN %@` draws.
    static let listLength = 3

    /// The requests a repetition runs: the fetch once when it has no `%@`; else once per draw,
    /// `draws` of them, each `%@` a value of its attribute drawn (with `seed`) from objects of the
    /// fetched entity's subtree that have one: as it is for a comparison, LIKE and an `IN %@`
    /// (three values), the two ordered for BETWEEN, its first three characters for BEGINSWITH, its
    /// last three for ENDSWITH and three from its middle for CONTAINS. An attribute no such object
    /// has a value of is drawn as nil (and matches nothing).
    public func requests(_ dataset: any Dataset, seed: UInt64, draws: Int) -> [FetchRequest] {
        var pool = DrawPool(dataset, entity: entity)
        // A key path through a to-many draws from its destination's objects.
        for name in predicate.heldRelationships {
            guard let relationship = dataset.model.entities[entity].relationship(name), pool.destinations[relationship.destination] == nil else { continue }
            pool.destinations[relationship.destination] = DrawPool(dataset, entity: relationship.destination)
        }
        for name in predicate.names {
            guard let path = dataset.model.keyPath(name, from: entity, throughToMany: true), path.throughToMany, pool.destinations[path.entity] == nil else { continue }
            pool.destinations[path.entity] = DrawPool(dataset, entity: path.entity)
        }
        var random = SplitMix64(seed: seed ^ Self.stableHash(name ?? text))
        return (0 ..< (hasPlaceholders ? max(1, draws) : 1)).map { _ in
            FetchRequest(entity: entity, includesSubentities: includesSubentities, predicate: predicate.drawn(pool, &random), sort: sort, limit: limit, offset: offset,
                         mode: batch.map { .batched(size: $0.size, objects: $0.read ?? .max) } ?? dictionary.map { .dictionary($0) } ?? properties.map { .partial($0) }
                             ?? prefetch.map { .prefetching($0) } ?? .plain)
        }
    }

    /// FNV-1a of the text's bytes: the same on every machine and in every run.
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// The non-nil values of each attribute among objects of an entity's subtree (of a key path's
/// attribute, among the objects their to-ones reach); for an object (`self`, a to-one), the keys
/// of those objects, or of the objects their to-ones name.
struct DrawPool {
    let entity: Int
    let objects: [ModelObject]
    let model: Model
    let dataset: any Dataset
    /// The pools of the entities a key path through a to-many relationship ends at: its `%@` is a
    /// value of the attribute among those objects.
    var destinations: [Int: DrawPool] = [:]

    init(_ dataset: any Dataset, entity: Int) {
        self.entity = entity
        self.dataset = dataset
        model = dataset.model
        let root = model.entities[entity].root
        objects = Self.positions(dataset, of: entity, wanted: FetchSpec.drawnObjects).map { dataset.object(root: root, at: $0) }
    }

    /// Positions in its hierarchy of `wanted` objects of `entity`'s subtree (where it has them),
    /// spread over the stream; a rare sub-entity's objects looked for one by one.
    static func positions(_ dataset: any Dataset, of entity: Int, wanted: Int) -> [Int] {
        let info = dataset.model.entities[entity], root = info.root, total = dataset.count(root: root)
        func sample(_ step: Int) -> [Int] {
            Array(stride(from: 0, to: total, by: step).lazy.filter { info.subtree.contains(dataset.entity(root: root, at: $0)) }.prefix(wanted))
        }
        let spread = sample(max(1, total / (wanted * 4)))
        return spread.count < wanted && total > wanted * 4 ? sample(1) : spread
    }

    func draw(_ name: String, _ random: inout SplitMix64) -> Value {
        if let path = model.keyPath(name, from: entity, throughToMany: true), path.throughToMany, let pool = destinations[path.entity] {
            return pool.draw(path.name, &random)
        }
        let steps = name.split(separator: ".").map(String.init), attribute = steps.last ?? name
        let values = objects.compactMap { start -> Value? in
            var object = start
            for step in steps.dropLast() {
                let toOnes = model.entities[object.id.entity].toOneRelationships
                guard let position = toOnes.firstIndex(where: { $0.name == step }), let next = object.toOne[position] else { return nil }
                object = dataset.object(next)
            }
            if name == FetchPredicate.selfKey { return .integer(object.id.key) }
            if name == FetchPredicate.entityKey, model.entities[object.id.entity].attribute(name) == nil { return .integer(Int64(object.id.entity + 1)) }
            if let position = model.entities[object.id.entity].toOneRelationships.firstIndex(where: { $0.name == attribute }) {
                return object.toOne[position].map { .integer($0.key) }
            }
            guard let position = model.entities[object.id.entity].attributeIndex(attribute), !object.values[position].isNull else { return nil }
            return object.values[position]
        }
        return values.isEmpty ? .null : values[Int(random.next() % UInt64(values.count))]
    }
}

extension DrawPool {
    /// A count of to-many `name` for `relationship.@count <op> %@`: the links of an object drawn
    /// from the data where its side makes them (a many-to-many's), else a whole number from 0 to
    /// twice the destination's objects per object of the entity (its mean fan-out, rounded up).
    func drawCount(_ name: String, _ random: inout SplitMix64) -> Value {
        let counts = objects.compactMap { object -> Int? in
            let linked = model.entities[object.id.entity].linkedRelationships
            guard let position = linked.firstIndex(where: { $0.name == name }), position < object.links.count else { return nil }
            return object.links[position].count
        }
        if !counts.isEmpty { return .integer(Int64(counts[Int(random.next() % UInt64(counts.count))])) }
        guard let relationship = model.entities[entity].relationship(name) else { return .integer(0) }
        let owners = max(1, dataset.count(root: model.entities[entity].root)), destinations = dataset.count(root: model.entities[relationship.destination].root)
        let most = 2 * ((destinations + owners - 1) / owners)
        return .integer(Int64(random.next() % UInt64(most + 1)))
    }
}

extension FetchTemplate {
    func drawn(_ pool: DrawPool, _ random: inout SplitMix64) -> FetchPredicate {
        func value(_ operand: FetchOperand, _ name: String) -> Value {
            if case let .value(value) = operand { return value }
            return pool.draw(name, &random)
        }
        switch self {
        case .all: return .all
        case let .compare(name, comparison, operand): return .compare(name, comparison, value(operand, name))
        case let .isNil(name, negated): return .isNil(name, negated: negated)
        case let .among(name, operands): return .among(name, operands.map { value($0, name) })
        case let .amongDrawn(name): return .among(name, (0 ..< FetchSpec.listLength).map { _ in pool.draw(name, &random) })
        case let .between(name, lower, upper):
            let (a, b) = (value(lower, name), value(upper, name))
            return lower == .drawn && upper == .drawn && Value.sqliteLess(b, a) ? .between(name, b, a) : .between(name, a, b)
        case let .string(name, op, operand, options):
            guard operand == .drawn, case let .text(text) = pool.draw(name, &random) else { return .string(name, op, value(operand, name), options) }
            let characters = Array(text), middle = max(0, (characters.count - 3) / 2)
            let part = switch op {
            case .beginsWith: String(characters.prefix(3))
            case .endsWith: String(characters.suffix(3))
            case .contains: String(characters[middle ..< min(characters.count, middle + 3)])
            case .like: text.reduce(into: "") { pattern, character in pattern += "*?\\".contains(character) ? "\\\(character)" : String(character) }
            // The value itself, as a regular expression: its first three characters, then anything.
            case .matches: NSRegularExpression.escapedPattern(for: String(characters.prefix(3))) + ".*"
            }
            return .string(name, op, .text(part), options)
        case let .countOf(name, comparison, operand):
            guard operand == .drawn else { return .countOf(name, comparison, value(operand, name)) }
            return .countOf(name, comparison, pool.drawCount(name, &random))
        case let .stringCompare(name, comparison, operand, options): return .stringCompare(name, comparison, value(operand, name), options)
        case let .compareKeys(name, comparison, other): return .compareKeys(name, comparison, other)
        case let .any(part): return .any(part.drawn(pool, &random))
        case let .subquery(name, part, comparison, count): return .subquery(name, part.drawn(pool, &random), comparison, .integer(count))
        case let .bitwise(name, mask, comparison, operand): return .bitwise(name, value(mask, name), comparison, value(operand, name))
        case let .holds(name):
            // An object of the relationship's destination.
            let destination = pool.model.entities[pool.entity].relationship(name)?.destination
            return .holds(name, destination.flatMap { pool.destinations[$0] }?.draw(FetchPredicate.selfKey, &random) ?? .null)
        case let .and(parts): return .and(parts.map { $0.drawn(pool, &random) })
        case let .or(parts): return .or(parts.map { $0.drawn(pool, &random) })
        case let .not(part): return .not(part.drawn(pool, &random))
        }
    }
}

extension FetchTemplate {
    /// The names its comparisons compare.
    var names: [String] {
        switch self {
        case .all: []
        case let .compare(name, _, _), let .isNil(name, _), let .among(name, _), let .amongDrawn(name), let .between(name, _, _), let .string(name, _, _, _),
             let .countOf(name, _, _), let .stringCompare(name, _, _, _), let .bitwise(name, _, _, _): [name]
        case let .compareKeys(name, _, other): [name, other]
        case let .and(parts), let .or(parts): parts.flatMap(\.names)
        case let .not(part), let .any(part), let .subquery(_, part, _, _): part.names
        case .holds: []
        }
    }

    /// The to-many relationships it asks to hold an object.
    var heldRelationships: [String] {
        switch self {
        case let .holds(name): [name]
        case let .and(parts), let .or(parts): parts.flatMap(\.heldRelationships)
        case let .not(part), let .any(part): part.heldRelationships
        default: []
        }
    }
}
