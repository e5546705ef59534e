import Foundation
import Generation
import Models
import SQLite

extension StoreDataset {
    /// Objects read in one step of the opening pass.
    static let readBatch = 2_000

    /// Opens the store at `path` as the dataset of `model` (the model read from it, every entity's
    /// `rows` its objects there): its entity numbers, each hierarchy's keys, then every row once,
    /// checked and digested. Every problem is one `ModelError` sentence naming the store; rows that
    /// break the model are counted by kind, and the store refused with the first of each. A store
    /// in use is read from a private copy `privateCopy` makes (the caller removes it when done).
    /// With `skippingBadRows`, such rows are left out instead (`leavingOut`) and named in `skipped`.
    public static func open(path: String, model: Model, seed: UInt64, privateCopy: StorePrivateCopy, skippingBadRows: Bool = false,
                            progress: @escaping (String) -> Void = { _ in }) throws -> StoreDataset {
        let say = { (what: String) in ModelError("\(path) \(what)") }
        do {
            let database = try CoreDataStoreFile.openReadOnly(CoreDataStoreFile.resolvingLinks(path), path: path, privateCopy: privateCopy)
            let plan = try StoreReadPlan(model)
            var entityOfNumber: [Int64: Int] = [:], numbers: [Int: Int64] = [:]
            let names = try database.prepare("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
            while try names.step() {
                guard let index = model.index(of: names.string(at: 1)) else { continue }
                entityOfNumber[names.int64(at: 0)] = index
                numbers[index] = names.int64(at: 0)
            }
            var problems = StoreRowProblems()
            let hierarchies = try keys(database, plan, entityOfNumber, &problems)
            guard hierarchies.values.contains(where: { !$0.keys.isEmpty }) || !problems.isEmpty else {
                throw say("holds no objects: it has nothing of its own to copy; leave out --data store to measure its model with generated objects")
            }
            for entity in model.entities where entity.isConcrete {
                let found = hierarchies[entity.root]?.entities.reduce(0) { $0 + ($1 == entity.index ? 1 : 0) } ?? 0
                guard found == entity.rows else {
                    throw say("holds \(found) objects of \(entity.name) where its model, read from it a moment ago, counted \(entity.rows): was it written meanwhile? Run the command again")
                }
            }
            var dataset = StoreDataset(model: model, seed: seed, path: path, hierarchies: hierarchies, plan: plan, connection: StoreConnection(database),
                                       entityOfNumber: entityOfNumber, numbers: numbers)
            let unfit = try dataset.readEveryRow(&problems, progress: progress)
            guard !problems.isEmpty else { return dataset }
            guard skippingBadRows else {
                throw say("has \(problems.total) rows or values that break its own model: \(problems.summary); its objects cannot be copied as they are "
                    + "(--skip-bad-rows leaves them out; or measure the shape of its data: leave out --data store)")
            }
            return try dataset.leavingOut(unfit, problems, progress: progress)
        } catch let error as SQLiteError {
            throw say("cannot be read as Core Data lays out its model: \(error.message) (bench model --model \(path) shows where its tables differ)")
        }
    }

    /// Each hierarchy's keys in order with their entities; a row of an entity number that is no
    /// concrete entity of the hierarchy is counted, not kept.
    private static func keys(_ database: Database, _ plan: StoreReadPlan, _ entityOfNumber: [Int64: Int],
                             _ problems: inout StoreRowProblems) throws -> [Int: StoreKeys] {
        var hierarchies: [Int: StoreKeys] = [:]
        for (root, hierarchy) in plan.hierarchies {
            var keys = StoreKeys()
            let statement = try database.prepare("SELECT Z_PK, Z_ENT FROM \(hierarchy.table) ORDER BY Z_PK")
            while try statement.step() {
                let key = statement.int64(at: 0)
                guard let entity = entityOfNumber[statement.int64(at: 1)], hierarchy.entities[entity] != nil else {
                    problems.add(.unknownEntity, "\(hierarchy.table) Z_PK \(key)")
                    continue
                }
                keys.keys.append(key)
                keys.entities.append(Int32(entity))
            }
            hierarchies[root] = keys
        }
        return hierarchies
    }

    /// The dataset without the objects whose own values break the model (`unfit`, by root), with
    /// the model's objects per entity counted again; their rows, to-ones and join rows naming
    /// objects the store lacks or that were left out are dropped as every row is read once more.
    private func leavingOut(_ unfit: [Int: Set<Int64>], _ problems: StoreRowProblems, progress: (String) -> Void) throws -> StoreDataset {
        var kept = hierarchies
        for (root, keys) in unfit where !keys.isEmpty {
            guard let all = hierarchies[root] else { continue }
            var remaining = StoreKeys()
            for (key, entity) in zip(all.keys, all.entities) where !keys.contains(key) {
                remaining.keys.append(key)
                remaining.entities.append(entity)
            }
            kept[root] = remaining
        }
        var description = model.description
        for index in description.entities.indices where !description.entities[index].abstract {
            let entity = model.index(of: description.entities[index].name) ?? 0
            description.entities[index].rows = kept[model.entities[entity].root]?.entities.reduce(0) { $0 + ($1 == entity ? 1 : 0) } ?? 0
        }
        let keptModel: Model
        do { keptModel = try Model(description) } catch let error as ModelError {
            // The model's own advice (give rows, make it optional) is for its author: here the rows are the store's.
            throw ModelError("\(path) without the \(unfit.values.reduce(0) { $0 + $1.count }) objects --skip-bad-rows leaves out (\(problems.summary)) no longer fits its model: "
                + "\(error.description.split(separator: ";").first ?? ""); its objects cannot be copied; measure the shape of its data instead: leave out --data store")
        }
        var dataset = StoreDataset(model: keptModel, seed: seed, path: path, hierarchies: kept, plan: plan, connection: connection,
                                   entityOfNumber: entityOfNumber, numbers: numbers)
        dataset.leftOut = unfit.values.reduce(0) { $0 + $1.count }
        dataset.skipped = problems
        var ignored = StoreRowProblems()
        _ = try dataset.readEveryRow(&ignored, progress: progress)
        return dataset
    }

    /// Reads every object once, batch by batch: its row's problems, the digests, the links counted;
    /// returns, by root, the keys of the objects whose own values break the model. The first
    /// batch of a hierarchy reads from the lowest key there can be and its last to the highest,
    /// so that a join row of no object is found wherever its key falls.
    private mutating func readEveryRow(_ problems: inout StoreRowProblems, progress: (String) -> Void) throws -> [Int: Set<Int64>] {
        var unfit: [Int: Set<Int64>] = [:]
        let total = totalCount
        var done = 0, told = 0
        for root in model.roots {
            let count = self.count(root: root)
            guard let hierarchy = plan.hierarchies[root] else { continue }
            for start in stride(from: 0, to: max(count, 1), by: Self.readBatch) {
                let end = min(start + Self.readBatch, count)
                let low = start == 0 ? Int64.min : key(root: root, at: start)
                let high = end >= count ? Int64.max : key(root: root, at: end - 1)
                var (objects, found) = try connection.reading { database in try read(database, root: root, keys: low ... high) }
                unfit[root, default: []].formUnion(found.unfit)
                found.unfit = []
                problems.merge(found)
                for object in objects {
                    objectDigest.add(object)
                    guard let entity = hierarchy.entities[object.id.entity] else { continue }
                    for (index, destinations) in zip(entity.links, object.links) {
                        let link = hierarchy.links[index], name = "\(model.entities[link.owner].name).\(link.name)"
                        linkCountsByName[name, default: 0] += destinations.count
                    }
                }
                done += objects.count
                if done - told >= 100_000 {
                    told = done
                    progress("read \(done) of \(total) objects")
                }
            }
        }
        return unfit
    }
}
