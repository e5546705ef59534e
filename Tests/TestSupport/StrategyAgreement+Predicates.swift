import FetchRequests
import Foundation
import Generation
import Models
import Strategies
import XCTest

/// Random requests of every predicate form on an entity's own attributes, on key paths through
/// its to-ones (one or two steps) and, after `ANY`, through a to-many: comparisons (`==`, `!=`,
/// `<`, `<=`, `>`, `>=`), nil tests (of to-ones too), `IN`, `BETWEEN`, string operators, objects
/// compared (a to-one's, `self`), a to-many's `@count`, a `SUBQUERY`'s count of a to-many's objects
/// its comparisons select, and `AND`, `OR`, `NOT` nested to a depth;
/// values drawn from the entity's generated objects (so that most requests find some) and
/// NULL-valued attributes among them (so that three-valued logic is asked). Each is fetched and
/// counted in every store and must be the reference's. One in three is sorted by keys that may tie
/// (attributes, a to-one's destination's, a string's comparator), and paged now and then.
extension StrategyAgreement {
    /// `perEntity` random requests of each entity with attributes, from `seed`; a failure names the
    /// seed and the request's number.
    public func checkPredicates(seed: UInt64, perEntity: Int, depth: Int = 4, file: StaticString = #filePath, line: UInt = #line) throws {
        for (request, number) in randomRequests(seed: seed, perEntity: perEntity, depth: depth) {
            let what = "\(model.entities[request.entity].name) where \(request.predicate) (predicate seed \(seed), request \(number))"
            guard !request.sort.isEmpty else { try check(request, what, file: file, line: line); continue }
            try checkSorted(request, what + " sorted by \(request.sort.map { "\($0.attribute) \($0.comparator)\($0.ascending ? "" : " desc")" })", file: file, line: line)
        }
    }

    /// The random requests `checkPredicates` checks, from `seed`, each with its number among its
    /// entity's: `perEntity` of each entity with attributes, one in three sorted by keys that may
    /// tie and then paged now and then.
    public func randomRequests(seed: UInt64, perEntity: Int, depth: Int = 4) -> [(request: FetchRequest, number: Int)] {
        var random = SplitMix64(seed: seed)
        var requests: [(request: FetchRequest, number: Int)] = []
        for entity in model.entities where !entity.attributes.isEmpty {
            let objects = samples(of: entity.index, 16)
            for number in 0 ..< perEntity {
                let predicate = randomPredicate(entity, objects, depth: depth, &random)
                var request = FetchRequest(entity: entity.index, includesSubentities: random.next() % 4 != 0, predicate: predicate)
                request.sort = random.next() % 3 == 0 ? randomSort(entity, &random) : []
                if !request.sort.isEmpty, random.next() % 2 == 0 { (request.limit, request.offset) = (1 + Int(random.next() % 12), random.next() % 2 == 0 ? Int(random.next() % 5) : nil) }
                requests.append((request, number))
            }
        }
        return requests
    }

    /// One or two random sort keys of `entity`: its attributes or a to-one's destination's (a key
    /// path of one step), either direction, a string's with a random comparator.
    func randomSort(_ entity: Model.Entity, _ random: inout SplitMix64) -> [SortKey] {
        var keys: [SortKey] = []
        for _ in 0 ..< 1 + Int(random.next() % 2) {
            var (target, prefix) = (entity, "")
            if random.next() % 3 == 0, let step = entity.toOneRelationships.randomElement(using: &random), !model.entities[step.destination].attributes.isEmpty {
                (target, prefix) = (model.entities[step.destination], step.name + ".")
            }
            guard let attribute = target.attributes.filter({ $0.type.storage != .blob }).randomElement(using: &random) else { continue }
            let name = prefix + attribute.name
            guard !keys.contains(where: { $0.attribute == name }) else { continue }
            let comparators = SortKey.Comparator.allCases
            let comparator = attribute.type.storage == .text ? comparators[Int(random.next() % UInt64(comparators.count))] : .binary
            keys.append(SortKey(name, ascending: random.next() % 2 == 0, comparator: comparator))
        }
        return keys
    }

    /// Checks a sorted request whose keys may tie: each store's answer holds the reference's sort
    /// values in the reference's order (tied objects in any order), the same objects unless it is
    /// paged (a page of ties may take any of them), and the same count.
    func checkSorted(_ request: FetchRequest, _ what: @autoclosure () -> String, file: StaticString, line: UInt) throws {
        guard case let .generated(store) = reference else { return XCTFail("\(model.name): a sorted request is checked against the generated answers", file: file, line: line) }
        let expected = store.fetch(request)
        func tuples(_ objects: [ModelObject]) -> [[Value]] {
            objects.map { object in request.sort.map { store.value(store.objects[object.id] ?? object, $0.attribute) } }
        }
        let values = tuples(expected)
        checks += 1
        if !expected.isEmpty { nonEmpty += 1 }
        for subject in subjects {
            let answer = try subject.fetch(request), label = "\(subject.name) on \(model.name): \(what())"
            let same = answer.count == expected.count && zip(tuples(answer), values).allSatisfy { request.sort.order($0, $1) == .orderedSame }
            XCTAssertTrue(same, "\(label): sort values \(tuples(answer).prefix(6)) where the reference has \(values.prefix(6)): \(request)", file: file, line: line)
            if request.limit == nil, request.offset == nil {
                XCTAssertEqual(Set(answer.map(\.id)), Set(expected.map(\.id)), "\(label): the objects of \(request)", file: file, line: line)
            }
        }
    }

    /// A random predicate of `entity`'s attributes: a comparison at depth 0 (or by chance), else an
    /// AND or OR of two or three, or a NOT of one, a level less deep.
    func randomPredicate(_ entity: Model.Entity, _ objects: [ModelObject], depth: Int, _ random: inout SplitMix64) -> FetchPredicate {
        if depth > 0, random.next() % 5 < 2 {
            switch random.next() % 3 {
            case 0: return .and((0 ..< 2 + Int(random.next() % 2)).map { _ in randomPredicate(entity, objects, depth: depth - 1, &random) })
            case 1: return .or((0 ..< 2 + Int(random.next() % 2)).map { _ in randomPredicate(entity, objects, depth: depth - 1, &random) })
            default: return .not(randomPredicate(entity, objects, depth: depth - 1, &random))
            }
        }
        // An ANY through a to-many now and then: a comparison of its destination's objects.
        if random.next() % 7 == 0, let step = entity.relationships.filter(\.toMany).randomElement(using: &random) {
            let destination = model.entities[step.destination]
            return .any(Self.prefixed(randomComparison(destination, samples(of: destination.index, 16), ofObject: false, &random), step.name + "."))
        }
        // A SUBQUERY now and then: how many of a to-many's objects one or two comparisons of theirs select.
        if random.next() % 9 == 0, let step = entity.relationships.filter(\.toMany).randomElement(using: &random) {
            let destination = model.entities[step.destination], reached = samples(of: destination.index, 16)
            let parts = (0 ..< 1 + Int(random.next() % 2)).map { _ in randomComparison(destination, reached, ofObject: false, &random) }
            let inner: FetchPredicate = parts.count == 1 ? (random.next() % 4 == 0 ? .not(parts[0]) : parts[0]) : random.next() % 2 == 0 ? .and(parts) : .or(parts)
            let comparisons = FetchPredicate.Comparison.allCases
            return .subquery(step.name, inner.renamingKeys { step.name + "." + $0 }, comparisons[Int(random.next() % UInt64(comparisons.count))], .integer(Int64(random.next() % 3)))
        }
        return randomComparison(entity, objects, ofObject: true, &random)
    }

    /// `predicate` with every name it compares prefixed (a comparison of a to-many's destination
    /// made one of the key path through it).
    static func prefixed(_ predicate: FetchPredicate, _ prefix: String) -> FetchPredicate {
        switch predicate {
        case let .compare(name, comparison, value): .compare(prefix + name, comparison, value)
        case let .isNil(name, negated): .isNil(prefix + name, negated: negated)
        case let .among(name, values): .among(prefix + name, values)
        case let .between(name, lower, upper): .between(prefix + name, lower, upper)
        case let .string(name, op, value, options): .string(prefix + name, op, value, options)
        case let .stringCompare(name, comparison, value, options): .stringCompare(prefix + name, comparison, value, options)
        case let .compareKeys(name, comparison, other): .compareKeys(prefix + name, comparison, prefix + other)
        case let .bitwise(name, mask, comparison, value): .bitwise(prefix + name, mask, comparison, value)
        default: predicate
        }
    }

    /// A random comparison of `entity`'s attributes or of a key path through its to-ones; with
    /// `ofObject`, also of the object itself (`self`) or a to-many's count.
    func randomComparison(_ entity: Model.Entity, _ objects: [ModelObject], ofObject: Bool, _ random: inout SplitMix64) -> FetchPredicate {
        // One comparison in four through a key path of one or two to-one steps, when the entity has a to-one.
        var (target, reached, prefix) = (entity, objects, "")
        for _ in 0 ..< 2 where random.next() % (prefix.isEmpty ? 4 : 3) == 0 {
            let toOnes = target.toOneRelationships
            guard !toOnes.isEmpty else { break }
            let step = toOnes[Int(random.next() % UInt64(toOnes.count))]
            // The to-one itself now and then: a nil test (`author == nil`), or its destination's
            // key compared (`author == %@`, `!=`, `IN`).
            if random.next() % 6 == 0 {
                let keys = reached.compactMap { object in
                    model.entities[object.id.entity].toOneRelationships.firstIndex { $0.name == step.name }.flatMap { object.toOne[$0] }.map { Value.integer($0.key) }
                }
                return objectComparison(prefix + step.name, keys, &random)
            }
            prefix += step.name + "."
            reached = reached.compactMap { object in
                model.entities[object.id.entity].toOneRelationships.first { $0.name == step.name }.flatMap { relationship in
                    object.toOne[model.entities[object.id.entity].toOneRelationships.firstIndex(of: relationship)!].map(generator.object)
                }
            }
            target = model.entities[step.destination]
        }
        guard !target.attributes.isEmpty else { return .isNil(String(prefix.dropLast()), negated: random.next() % 2 == 0) }
        if ofObject, prefix.isEmpty, random.next() % 12 == 0 { return objectComparison(FetchPredicate.selfKey, objects.map { .integer($0.id.key) }, &random) }
        // The object's entity now and then (`entity == %@`, `!=`, `IN`): its entity number.
        if ofObject, prefix.isEmpty, random.next() % 12 == 0, entity.attribute(FetchPredicate.entityKey) == nil, entity.relationship(FetchPredicate.entityKey) == nil {
            return objectComparison(FetchPredicate.entityKey, objects.map { .integer(Int64($0.id.entity + 1)) }, &random)
        }
        // A to-many holding an object (`tags CONTAINS %@`) now and then: a destination's key (0,
        // no object's, when it has none: key 1 may be another entity's row of a shared table).
        if ofObject, prefix.isEmpty, random.next() % 10 == 0, let relationship = entity.relationships.filter(\.toMany).randomElement(using: &random) {
            let keys = samples(of: relationship.destination, 8).map(\.id.key)
            return .holds(relationship.name, .integer(keys.isEmpty ? 0 : keys[Int(random.next() % UInt64(keys.count))]))
        }
        // A to-many's count (`tags.@count > 1`) now and then.
        if ofObject, prefix.isEmpty, random.next() % 8 == 0, let relationship = entity.relationships.filter(\.toMany).randomElement(using: &random) {
            let comparisons = FetchPredicate.Comparison.allCases
            return .countOf(relationship.name, comparisons[Int(random.next() % UInt64(comparisons.count))], .integer(Int64(random.next() % 4)))
        }
        let position = Int(random.next() % UInt64(target.attributes.count))
        let name = prefix + target.attributes[position].name
        let values = reached.compactMap { object -> Value? in
            let value = object.values[model.entities[object.id.entity].attributeIndex(target.attributes[position].name) ?? position]
            return value.isNull ? nil : value
        }
        guard !values.isEmpty, random.next() % 6 != 0 else { return .isNil(name, negated: random.next() % 2 == 0) }
        // An integer's bits now and then (`(flags & 4) == 4`).
        if target.attributes[position].type.storage == .integer, target.attributes[position].type != .date, random.next() % 8 == 0 {
            let mask = Int64(1) << Int64(random.next() % 4)
            return .bitwise(name, .integer(mask), random.next() % 2 == 0 ? .equal : .notEqual, .integer(random.next() % 2 == 0 ? mask : 0))
        }
        func pick() -> Value { values[Int(random.next() % UInt64(values.count))] }
        if target.attributes[position].type == .string, random.next() % 3 == 0, case let .text(text) = pick() {
            // A comparison with options now and then (`==[c]`), its value re-cased.
            if random.next() % 4 == 0 {
                let options = FetchPredicate.StringOptions(caseInsensitive: random.next() % 3 != 0, diacriticInsensitive: random.next() % 3 == 0, normalized: random.next() % 5 == 0)
                let comparisons = FetchPredicate.Comparison.allCases
                return .stringCompare(name, comparisons[Int(random.next() % UInt64(comparisons.count))], .text(random.next() % 2 == 0 ? text.uppercased() : text), options)
            }
            return randomString(name, Array(text), &random)
        }
        // Two attributes of one storage compared now and then (`duration > currentTime`).
        if random.next() % 10 == 0, let other = target.attributes.first(where: { $0.name != target.attributes[position].name && $0.type.storage == target.attributes[position].type.storage && $0.type.storage != .blob }) {
            let comparisons = FetchPredicate.Comparison.allCases
            return .compareKeys(name, comparisons[Int(random.next() % UInt64(comparisons.count))], prefix + other.name)
        }
        switch random.next() % 4 {
        case 0, 1:
            let comparisons = FetchPredicate.Comparison.allCases
            return .compare(name, comparisons[Int(random.next() % UInt64(comparisons.count))], pick())
        case 2:
            return .among(name, (0 ..< 1 + Int(random.next() % 4)).map { _ in pick() })
        default:
            let (a, b) = (pick(), pick())
            return Value.sqliteLess(b, a) ? .between(name, b, a) : .between(name, a, b)
        }
    }

    /// A comparison of the object a to-one (or `self`) names with objects' keys from `keys`:
    /// `== nil`, `!= nil`, `==`, `!=`, `IN`.
    func objectComparison(_ name: String, _ keys: [Value], _ random: inout SplitMix64) -> FetchPredicate {
        guard !keys.isEmpty, random.next() % 4 != 0 else { return .isNil(name, negated: random.next() % 2 == 0) }
        func pick() -> Value { keys[Int(random.next() % UInt64(keys.count))] }
        switch random.next() % 3 {
        case 0: return .compare(name, .equal, pick())
        case 1: return .compare(name, .notEqual, pick())
        default: return .among(name, (0 ..< 1 + Int(random.next() % 3)).map { _ in pick() })
        }
    }

    /// A string form on `name` whose operand comes from `text`, a value an object has: a prefix for
    /// BEGINSWITH, a suffix for ENDSWITH, a middle part for CONTAINS (upper-cased with `[c]`), a
    /// pattern of it with `*` and `?` for LIKE; with each option at random.
    func randomString(_ name: String, _ text: [Character], _ random: inout SplitMix64) -> FetchPredicate {
        let options = FetchPredicate.StringOptions(caseInsensitive: random.next() % 2 == 0, diacriticInsensitive: random.next() % 3 == 0, localized: random.next() % 5 == 0,
                                                   normalized: random.next() % 6 == 0)
        let cut = text.isEmpty ? 0 : Int(random.next() % UInt64(text.count)), length = 1 + Int(random.next() % 4)
        func cased(_ part: ArraySlice<Character>) -> Value { .text(options.caseInsensitive ? String(part).uppercased() : String(part)) }
        let operators = FetchPredicate.StringOperator.allCases
        switch operators[Int(random.next() % UInt64(operators.count))] {
        case .beginsWith: return .string(name, .beginsWith, cased(text.prefix(max(1, cut))), options)
        case .endsWith: return .string(name, .endsWith, cased(text.suffix(max(1, text.count - cut))), options)
        case .contains: return .string(name, .contains, cased(text[cut ..< min(text.count, cut + length)]), options)
        case .like:
            var pattern = text.map(String.init)
            if !pattern.isEmpty { pattern[cut] = "?" }
            if pattern.count > 2 { pattern.replaceSubrange(1 ..< min(pattern.count - 1, 1 + length), with: ["*"]) }
            return .string(name, .like, .text(pattern.joined()), options)
        case .matches:
            // A piece of the value, then any characters, a character class now and then.
            let piece = NSRegularExpression.escapedPattern(for: String(text.prefix(max(1, cut))))
            return .string(name, .matches, .text(piece + (random.next() % 2 == 0 ? ".*" : "[a-z ]*.?")), options)
        }
    }
}
