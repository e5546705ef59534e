import FetchRequests
import Generation
import Models
import Strategies

/// The answers every strategy must give, computed from the generator alone (no SQL): a store
/// that holds a model's objects in memory and answers `FetchRequest`s by the same rules SQLite
/// applies (BINARY collation, NULL matching nothing).
public final class ReferenceStore {
    public let model: Model
    public let generator: ObjectGenerator
    /// Every object of every hierarchy, by id.
    public private(set) var objects: [ObjectID: ModelObject] = [:]
    /// Many-to-many links, both directions: (object, relationship name) → destinations.
    private(set) var links: [ObjectID: [String: Set<ObjectID>]] = [:]
    /// Each object's ids by entity, in id order.
    private var ids: [Int: [ObjectID]] = [:]
    /// Each entity's attribute positions by name.
    private let positions: [[String: Int]]
    /// The objects whose to-one points at an object, by that to-one's to-many inverse: (object, relationship name) → sources.
    private var referrers: [ObjectID: [String: [ObjectID]]] = [:]
    /// The objects of an entity (alone or with its sub-entities) in a sort's order, once asked.
    private var sorted: [FetchRequest: [ModelObject]] = [:]

    public init(_ generator: ObjectGenerator) {
        self.generator = generator
        model = generator.model
        positions = model.entities.map { entity in Dictionary(entity.attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first }) }
        for root in model.roots {
            for position in 0 ..< generator.count(root: root) {
                let object = generator.object(root: root, at: position)
                objects[object.id] = object.fetched
                ids[object.id.entity, default: []].append(object.id)
                for (relationship, destination) in zip(model.entities[object.id.entity].toOneRelationships, object.toOne) {
                    guard let destination, let inverse = model.inverse(of: relationship), inverse.toMany else { continue }
                    referrers[destination, default: [:]][inverse.name, default: []].append(object.id)
                }
                let generating = model.entities[object.id.entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }
                for (relationship, destinations) in zip(generating, object.links) {
                    let inverse = model.inverse(of: relationship)!.name
                    for destination in destinations {
                        links[object.id, default: [:]][relationship.name, default: []].insert(destination)
                        links[destination, default: [:]][inverse, default: []].insert(object.id)
                    }
                }
            }
        }
    }

    public func value(_ object: ModelObject, _ attribute: String) -> Value {
        guard attribute.contains(".") || positions[object.id.entity][attribute] == nil else { return object.values[positions[object.id.entity][attribute]!] }
        if attribute == FetchPredicate.selfKey { return .integer(object.id.key) }
        if attribute == FetchPredicate.entityKey, model.entities[object.id.entity].relationship(attribute) == nil { return .integer(Int64(object.id.entity + 1)) }
        // A key path (or a to-one itself, by its key): NULL where a step is nil.
        let path = model.keyPath(attribute, from: object.id.entity, throughToMany: true)!
        guard let reached = reach(object, path.steps.map(\.name)) else { return .null }
        guard path.isToOne else { return value(reached, path.name) }
        return toOne(reached, path.name).map { .integer($0.key) } ?? .null
    }

    /// The object `object`'s relationships `names` lead to, or nil where one is nil: a to-one's
    /// destination, a to-many's in the row being evaluated (`rows`).
    func reach(_ object: ModelObject, _ names: some Sequence<String>) -> ModelObject? {
        var reached = object, path = ""
        for name in names {
            path = path.isEmpty ? name : path + "." + name
            let next: ObjectID?
            if let row = rows[path] { next = row } else { next = toOne(reached, name) }
            guard let next else { return nil }
            reached = objects[next]!
        }
        return reached
    }

    /// While a predicate is evaluated: the object each to-many step of its key paths reached in the
    /// row of Core Data's joins being evaluated, by the step's path (nil: an outer join's NULL row).
    private var rows: [String: ObjectID?] = [:]

    /// The rows Core Data's joins make of `object` for the to-many steps `paths` (shortest first):
    /// one for each combination of the objects each step reaches, an outer step's NULL where it
    /// reaches none, none at all where an inner one does not.
    private func joinedRows(_ object: ModelObject, _ paths: ArraySlice<String>, _ outer: [String: Bool], _ row: [String: ObjectID?]) -> [[String: ObjectID?]] {
        guard let path = paths.first else { return [row] }
        let names = path.split(separator: ".").map(String.init)
        rows = row
        let parent = reach(object, names.dropLast())
        rows = [:]
        var related: [ObjectID] = []
        if let parent, let relationship = model.entities[parent.id.entity].relationship(names[names.count - 1]) {
            related = relationship.isManyToMany ? (links[parent.id]?[relationship.name] ?? []).sorted() : referrers[parent.id]?[relationship.name] ?? []
        }
        let reached: [ObjectID?] = related.isEmpty ? (outer[path] == true ? [nil] : []) : related
        return reached.flatMap { joinedRows(object, paths.dropFirst(), outer, row.merging([path: $0]) { $1 }) }
    }

    /// Whether `path` (a key path's steps) ends with a to-many relationship, from `entity`.
    private func endsToMany(_ path: String, from entity: Int) -> Bool {
        var current = entity, toMany = false
        for name in path.split(separator: ".") {
            guard let relationship = model.entities[current].relationship(String(name)) else { return false }
            (current, toMany) = (relationship.destination, relationship.toMany)
        }
        return toMany
    }

    func toOne(_ object: ModelObject, _ name: String) -> ObjectID? {
        object.toOne[model.entities[object.id.entity].toOneRelationships.firstIndex { $0.name == name }!]
    }

    /// Every object the request selects, sorted as it asks (else by id), paged.
    public func fetch(_ request: FetchRequest) -> [ModelObject] {
        if request.mode != .plain { return answer(request) }
        var selected: [ModelObject]
        if request.sort.isEmpty {
            selected = select(request)
        } else {
            // Sorted once per entity and sort, then filtered (the order is total: ties go by id).
            let all = FetchRequest(entity: request.entity, includesSubentities: request.includesSubentities, sort: request.sort)
            if sorted[all] == nil {
                // Each object's sort values, looked up once rather than in every comparison.
                let keyed = select(all).map { object in (object, request.sort.map { value(object, $0.attribute) }) }.sorted { a, b in
                    let order = request.sort.order(a.1, b.1)
                    return order == .orderedSame ? a.0.id < b.0.id : order == .orderedAscending
                }
                sorted[all] = keyed.map(\.0)
            }
            selected = request.predicate == .all ? sorted[all]! : sorted[all]!.filter { matches($0, request.predicate, request.sort) }
        }
        let start = min(selected.count, request.offset ?? 0)
        let end = request.limit.map { min(selected.count, start + $0) } ?? selected.count
        return Array(selected[start ..< end])
    }

    public func count(_ request: FetchRequest) -> Int {
        request.limit == nil && request.offset == nil ? select(request).count : fetch(request).count
    }

    /// The objects the request's entity and predicate select, by id (entities in number order, each one's keys ascending).
    private func select(_ request: FetchRequest) -> [ModelObject] {
        let entities = request.includesSubentities ? Array(model.entities[request.entity].subtree) : [request.entity]
        return entities.flatMap { ids[$0] ?? [] }.compactMap { objects[$0] }.filter { matches($0, request.predicate, request.sort) }
    }

    /// Whether the predicate selects `object`, as Core Data's joins read it: in one of the rows its
    /// key paths' to-many steps make (`joinedRows`), every step joined inner reaches an object
    /// (`FetchPredicate.keyPathJoins`) and the predicate is true.
    public func matches(_ object: ModelObject, _ predicate: FetchPredicate, _ sort: [SortKey]) -> Bool {
        let joins = predicate.keyPathJoins(sortingBy: sort)
        let many = joins.keys.filter { endsToMany($0, from: object.id.entity) }.sorted { ($0.split(separator: ".").count, $0) < ($1.split(separator: ".").count, $1) }
        defer { rows = [:] }
        return joinedRows(object, many[...], joins, [:]).contains { row in
            rows = row
            for (path, outer) in joins where !outer && reach(object, path.split(separator: ".").map(String.init)) == nil { return false }
            return truth(object, predicate, sort) == true
        }
    }

    /// The predicate's value for `object` in SQL's three-valued logic (`nil`: unknown, as a
    /// comparison with NULL is), which is what a store's WHERE computes.
    public func truth(_ object: ModelObject, _ predicate: FetchPredicate, _ sort: [SortKey]) -> Bool? {
        let info = model.entities[object.id.entity], compare = Self.compare
        switch predicate {
        case .all: return true
        case let .equals(name, wanted): return compare(value(object, name), .equal, wanted)
        case let .range(name, lower, upper):
            let found = value(object, name)
            return Self.and([compare(found, .greaterOrEqual, lower), compare(found, .less, upper)])
        case let .compare(name, comparison, wanted): return compare(value(object, name), comparison, wanted)
        case let .isNil(name, negated): return value(object, name).isNull != negated
        case let .among(name, list):
            let found = value(object, name)
            return Self.or(list.map { compare(found, .equal, $0) })
        case let .between(name, lower, upper):
            let found = value(object, name)
            return Self.and([compare(found, .greaterOrEqual, lower), compare(found, .lessOrEqual, upper)])
        case let .string(name, .beginsWith, .text(prefix), options) where options.normalized && FetchPredicate.prefixEnd(prefix) != nil:
            // `BEGINSWITH[n]`: Core Data's range of the column, unknown for NULL.
            let found = value(object, name)
            return Self.and([compare(found, .greaterOrEqual, .text(prefix)), compare(found, .less, .text(FetchPredicate.prefixEnd(prefix) ?? ""))])
        case let .stringCompare(name, comparison, wanted, options) where options.normalized:
            return compare(value(object, name), comparison, wanted)
        case let .string(name, op, wanted, options):
            // Core Data's functions answer 0, not NULL, for a NULL value.
            guard case let .text(found) = value(object, name), case let .text(needle) = wanted else { return false }
            let variant = (options.caseInsensitive ? 1 : 0) | (options.diacriticInsensitive ? 2 : 0)
            switch op {
            case .like: return CoreDataFunctions.like(found, needle, variant: variant)
            case .matches: return CoreDataFunctions.matches(found, needle, variant: variant)
            case .contains: return CoreDataFunctions.search(found, needle, flags: Self.flags(options))
            case .beginsWith: return CoreDataFunctions.search(found, needle, flags: Self.flags(options) | CoreDataFunctions.anchored)
            case .endsWith: return CoreDataFunctions.search(found, needle, flags: Self.flags(options) | CoreDataFunctions.anchored | CoreDataFunctions.backwards)
            }
        case let .or(predicates): return Self.or(predicates.map { truth(object, $0, sort) })
        case let .not(inner): return truth(object, inner, sort).map { !$0 }
        case let .after(cursor):
            for (index, key) in sort.prefix(cursor.count).enumerated() {
                let found = value(object, key.attribute)
                if found != cursor[index] { return key.ascending ? Value.sqliteLess(cursor[index], found) : Value.sqliteLess(found, cursor[index]) }
            }
            return false
        case let .key(key): return object.id.key == key
        case let .toOne(name, destination):
            let position = info.toOneRelationships.firstIndex { $0.name == name }!
            return object.toOne[position]?.key == destination.key
        case let .anyRelated(name, attribute, wanted):
            let relationship = info.relationship(name)!
            let related: [ObjectID]
            if relationship.isManyToMany {
                related = Array(links[object.id]?[name] ?? [])
            } else {
                related = referrers[object.id]?[name] ?? []
            }
            return related.contains { let found = value(objects[$0]!, attribute); return !found.isNull && found == wanted }
        case let .and(predicates): return Self.and(predicates.map { truth(object, $0, sort) })
        case let .any(inner): return truth(object, inner, sort)
        case let .stringCompare(name, comparison, wanted, options):
            // Core Data's function answers 0, not NULL, for a NULL value.
            guard case let .text(found) = value(object, name), case let .text(other) = wanted else { return false }
            return CoreDataFunctions.compare(found, other, operator: comparison.coreDataOperatorNumber, flags: Self.flags(options))
        case let .compareKeys(name, comparison, other): return compare(value(object, name), comparison, value(object, other))
        case let .bitwise(name, mask, comparison, wanted):
            guard case let .integer(found) = value(object, name), case let .integer(bits) = mask else { return nil }
            return compare(.integer(found & bits), comparison, wanted)
        case let .holds(name, wanted):
            let relationship = info.relationship(name)!
            let held = relationship.isManyToMany ? Array(links[object.id]?[name] ?? []) : referrers[object.id]?[name] ?? []
            if held.contains(where: { .integer($0.key) == wanted }) { return true }
            // Core Data's `t0.Z_PK IN (SELECT <inverse key> FROM … WHERE Z_PK = ?)` is unknown, not
            // false, when the object asked for has no inverse: its row gives the subquery a NULL.
            guard !relationship.isManyToMany, case let .integer(key) = wanted, let inverse = model.inverse(of: relationship),
                  let asked = model.entities[relationship.destination].subtree.lazy.compactMap({ self.objects[ObjectID(entity: $0, key: key)] }).first else { return false }
            return toOne(asked, inverse.name) == nil ? nil : false
        case let .countOf(name, comparison, wanted):
            let held = info.relationship(name)!.isManyToMany ? links[object.id]?[name]?.count : referrers[object.id]?[name]?.count
            return compare(.integer(Int64(held ?? 0)), comparison, wanted)
        case let .subquery(name, inner, comparison, wanted):
            // Each object held that the predicate (its keys relative to that object) selects, as its own fetch would.
            let held = info.relationship(name)!.isManyToMany ? Array(links[object.id]?[name] ?? []) : referrers[object.id]?[name] ?? []
            let relative = inner.renamingKeys { String($0.dropFirst(name.count + 1)) }, outerRows = rows
            defer { rows = outerRows }
            return compare(.integer(Int64(held.filter { matches(objects[$0]!, relative, []) }.count)), comparison, wanted)
        // A key list is bound by a store's steps (`FetchMode`); the reference answers those modes whole.
        case .keyInList, .toOneInList: return false
        }
    }

    /// The options' compare flags (the reference's own spelling of them: case, diacritics, width).
    static func flags(_ options: FetchPredicate.StringOptions) -> Int {
        if options.normalized { return CoreDataFunctions.literal }
        return (options.caseInsensitive ? CoreDataFunctions.caseInsensitive : 0) | (options.diacriticInsensitive ? CoreDataFunctions.diacriticInsensitive : 0)
            | (options.caseInsensitive || options.diacriticInsensitive ? CoreDataFunctions.widthInsensitive : 0)
    }

    /// `found <op> wanted` as SQL compares them: unknown when either is NULL.
    static func compare(_ found: Value, _ comparison: FetchPredicate.Comparison, _ wanted: Value) -> Bool? {
        guard !found.isNull, !wanted.isNull else { return nil }
        let less = Value.sqliteLess(found, wanted), greater = Value.sqliteLess(wanted, found)
        switch comparison {
        case .equal: return !less && !greater
        case .notEqual: return less || greater
        case .less: return less
        case .lessOrEqual: return !greater
        case .greater: return greater
        case .greaterOrEqual: return !less
        }
    }

    /// SQL's AND of three-valued truths: false if any is, else unknown if any is, else true.
    static func and(_ truths: [Bool?]) -> Bool? { truths.contains(false) ? false : truths.contains(nil) ? nil : true }
    /// SQL's OR: true if any is, else unknown if any is, else false.
    static func or(_ truths: [Bool?]) -> Bool? { truths.contains(true) ? true : truths.contains(nil) ? nil : false }

    /// The objects a delete of `ids` removes, following cascade rules (nullify and no-action keep the others).
    public func deletionClosure(_ ids: [ObjectID]) -> Set<ObjectID> {
        var deleted = Set<ObjectID>()
        var pending = ids
        while let id = pending.popLast() {
            guard deleted.insert(id).inserted, let object = objects[id] else { continue }
            let info = model.entities[id.entity]
            for relationship in info.relationships where relationship.deleteRule == .cascade {
                if !relationship.toMany {
                    if let destination = object.toOne[info.toOneRelationships.firstIndex { $0.name == relationship.name }!] { pending.append(destination) }
                } else if relationship.isManyToMany {
                    pending += links[id]?[relationship.name] ?? []
                } else {
                    pending += referrers[id]?[relationship.name] ?? []
                }
            }
        }
        return deleted
    }

    /// The objects left when `deleted` are gone, by id, as a store holds them: a to-one that pointed
    /// at a deleted object is cleared where its inverse's delete rule is nullify (Core Data's
    /// propagation); no action, or no inverse, leaves it pointing at the gone object.
    public func remaining(after deleted: Set<ObjectID>) -> [ObjectID: ModelObject] {
        var left = objects.filter { !deleted.contains($0.key) }
        for (id, object) in left {
            let toOnes = model.entities[id.entity].toOneRelationships
            var copy = object
            for (position, relationship) in toOnes.enumerated() {
                guard let destination = object.toOne[position], deleted.contains(destination) else { continue }
                if model.inverse(of: relationship)?.deleteRule == .nullify {
                    copy.toOne[position] = nil
                    if let key = model.orderKey(of: relationship), let index = model.entities[id.entity].attributeIndex(key) { copy.values[index] = .null }
                }
            }
            left[id] = copy
        }
        return left
    }

    /// Link rows of a generating many-to-many relationship left when `deleted` are gone.
    public func links(_ relationship: Model.Relationship, without deleted: Set<ObjectID>) -> Int {
        objects.keys.filter { model.entities[$0.entity].relationships.contains(relationship) && !deleted.contains($0) }
            .reduce(0) { total, id in total + (links[id]?[relationship.name] ?? []).filter { !deleted.contains($0) }.count }
    }
}

extension FetchPredicate.Comparison {
    /// The reference's own spelling of `NSCoreDataStringCompare`'s operator numbers.
    var coreDataOperatorNumber: Int { [.less: 1, .lessOrEqual: 2, .equal: 3, .greaterOrEqual: 4, .greater: 5, .notEqual: 6][self] ?? 0 }
}
