import Generation
import SQLite

/// How a store runs a fetch of several statements: the same steps for every layout, each step's
/// statement the layout's own (`QueryProgram`).
extension Database {
    func objects(_ program: QueryProgram) throws -> [ModelObject] {
        switch program {
        case let .batched(ids, batches, size, objects, byEntity):
            let pairs = try rows(ids.sql, ids.values) { (entity: byEntity ? $0.int64(at: 0) : 0, key: $0.int64(at: 1)) }.prefix(objects)
            let keys = pairs.map(\.key)
            var result: [ModelObject] = []
            result.reserveCapacity(keys.count)
            for start in stride(from: 0, to: keys.count, by: size) {
                let slice = keys[start ..< min(keys.count, start + size)]
                var byKey: [Int64: ModelObject] = [:]
                for (entity, members) in Self.grouped(pairs[(pairs.startIndex + start) ..< (pairs.startIndex + start + slice.count)]) {
                    guard let query = batches[entity] else { throw CorruptRow("the ID pass lists an object of entity number \(entity), which the fetch does not read") }
                    try KeyList.bind(members, in: self)
                    for object in try self.objects(query) { byKey[object.id.key] = object }
                }
                for key in slice {
                    guard let object = byKey[key] else { throw CorruptRow("the batch of keys \(slice.first ?? 0)… has no object \(key), which the ID pass listed") }
                    result.append(object)
                }
            }
            return result
        case let .sectioned(sections):
            var result: [ModelObject] = []
            for (name, count, fetch) in sections {
                let expected = try number(count)
                let objects = try self.objects(fetch)
                guard objects.count == expected else { throw CorruptRow("the section of \(name) counts \(expected) objects but fetches \(objects.count)") }
                result += objects
            }
            return result
        case let .prefetching(page, batches):
            var result = try objects(page)
            try KeyList.bind(result.map(\.id.key), in: self)
            for batch in batches { result += try objects(batch) }
            return result
        case let .concatenated(statements):
            return try statements.flatMap { try objects($0) }
        }
    }

    /// The keys of a batch by entity number, in the order each number first appears.
    static func grouped<Pairs: Collection>(_ pairs: Pairs) -> [(Int64, [Int64])] where Pairs.Element == (entity: Int64, key: Int64) {
        var groups: [(Int64, [Int64])] = []
        for pair in pairs {
            if let index = groups.firstIndex(where: { $0.0 == pair.entity }) { groups[index].1.append(pair.key) } else { groups.append((pair.entity, [pair.key])) }
        }
        return groups
    }
}
