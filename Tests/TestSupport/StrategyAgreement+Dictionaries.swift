import FetchRequests
import Generation
import Models
import Strategies
import XCTest

/// Random fetches of dictionaries: distinct values of one or two attributes, or aggregates
/// (`count:`, `sum:`, `average:`, `min:`, `max:`) of the whole selection or of groups of one or two
/// attributes, some kept by HAVING; predicates as the object fetches' (none through a to-many
/// beside aggregates), sorted by every key of the rows and paged now and then. Every store's rows
/// must be the reference's: in order when sorted so, else as the same rows in any order.
extension StrategyAgreement {
    public func checkDictionaries(seed: UInt64, perEntity: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        var random = SplitMix64(seed: seed)
        for entity in model.entities where entity.attributes.contains(where: { $0.type.storage != .blob }) {
            let objects = samples(of: entity.index, 16)
            for number in 0 ..< perEntity {
                let fetch = randomDictionary(entity, &random)
                var predicate = random.next() % 2 == 0 ? FetchPredicate.all : randomPredicate(entity, objects, depth: 2, &random)
                if !fetch.distinct, Self.throughToMany(predicate) { predicate = .all }
                var request = FetchRequest(entity: entity.index, includesSubentities: random.next() % 4 != 0, predicate: predicate, mode: .dictionary(fetch))
                let keys = fetch.distinct ? fetch.items.map(\.key) : fetch.groupBy
                let sorted = !keys.isEmpty && random.next() % 2 == 0
                if sorted {
                    request.sort = keys.shuffled(using: &random).map { SortKey($0, ascending: random.next() % 2 == 0) }
                    if random.next() % 2 == 0 { (request.limit, request.offset) = (1 + Int(random.next() % 6), random.next() % 2 == 0 ? Int(random.next() % 3) : nil) }
                }
                let expected = try self.expected(request).map(\.values)
                checks += 1
                if !expected.isEmpty { nonEmpty += 1 }
                for subject in subjects {
                    let rows = try subject.fetch(request).map(\.values)
                    XCTAssertEqual(sorted ? rows : rows.sorted(by: ReferenceStore.valuesLess), expected,
                                   "\(subject.name) on \(model.name): \(entity.name) \(fetch) where \(predicate) (dictionary seed \(seed), request \(number)): \(request)", file: file, line: line)
                }
            }
        }
    }

    /// A random dictionary fetch of `entity`'s attributes (binary ones not among its keys).
    func randomDictionary(_ entity: Model.Entity, _ random: inout SplitMix64) -> DictionaryFetch {
        let keys = entity.attributes.filter { $0.type.storage != .blob }
        func key() -> Attribute { keys[Int(random.next() % UInt64(keys.count))] }
        if random.next() % 3 == 0 {
            let first = key(), second = key()
            return DictionaryFetch(items: first.name == second.name || random.next() % 2 == 0 ? [.key(first.name)] : [.key(first.name), .key(second.name)], distinct: true)
        }
        var groupBy: [String] = []
        for _ in 0 ..< Int(random.next() % 3) where groupBy.count < keys.count {
            let name = key().name
            if !groupBy.contains(name) { groupBy.append(name) }
        }
        var items = groupBy.map { DictionaryFetch.Item.key($0) }
        items.append(.aggregate(.count, key().name, name: "n"))
        for index in 0 ..< Int(random.next() % 3) {
            let attribute = entity.attributes[Int(random.next() % UInt64(entity.attributes.count))]
            let numeric = attribute.type.storage == .integer && attribute.type != .date
            let functions: [DictionaryFetch.Function] = numeric ? DictionaryFetch.Function.allCases : attribute.type.storage == .blob ? [.count] : [.count, .min, .max]
            items.append(.aggregate(functions[Int(random.next() % UInt64(functions.count))], attribute.name, name: "a\(index)"))
        }
        let having: DictionaryFetch.Having? = groupBy.isEmpty || random.next() % 2 == 0 ? nil
            : random.next() % 3 == 0 ? .or([.compare("n", .greater, .integer(Int64(random.next() % 4))), .not(.compare("n", .lessOrEqual, .integer(1)))])
            : .compare("n", FetchPredicate.Comparison.allCases[Int(random.next() % 6)], .integer(Int64(random.next() % 4)))
        return DictionaryFetch(items: items, groupBy: groupBy, having: having)
    }

    /// Whether a predicate compares through a to-many (`ANY`): beside aggregates, Core Data's join
    /// would count an object once per related object, which the suite's fetches refuse.
    static func throughToMany(_ predicate: FetchPredicate) -> Bool {
        switch predicate {
        case .any, .anyRelated: true
        case let .and(parts), let .or(parts): parts.contains(where: throughToMany)
        case let .not(part): throughToMany(part)
        default: false
        }
    }
}
