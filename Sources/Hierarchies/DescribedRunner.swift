import Dataset
import Foundation
import SQLite
import Strategies
import Workloads

/// The workloads of a described hierarchy: the publication suite's where they make sense for any
/// hierarchy (same names, same meaning), plus lookups by id and by foreign key.
public enum DescribedWorkload: String, CaseIterable, Sendable {
    case insertBulk = "insert-bulk"
    case insertSingle = "insert-single"
    case fetchPolymorphic = "fetch-polymorphic"
    case fetchLeaf = "fetch-leaf"
    case countAll = "count-all"
    case countLeaf = "count-leaf"
    case countByType = "count-by-type"
    case pageOffset = "page-offset"
    case pageKeyset = "page-keyset"
    case lookupID = "lookup-id"
    case filterFK = "filter-fk"

    public var summary: String {
        switch self {
        case .insertBulk: "every object, in transactions of --batch objects, into a fresh store"
        case .insertSingle: "\(Self.singleInsertCount) objects, one transaction (one save) each, into a fresh store"
        case .fetchPolymorphic: "every object of every entity, each materialised as its concrete entity (\"load everything\")"
        case .fetchLeaf: "every object of one entity (the description's leaf, else its first sub-entity)"
        case .countAll: "count of all objects"
        case .countLeaf: "count of the leaf entity's objects"
        case .countByType: "one count per concrete entity"
        case .pageOffset: "a deep page: \(DescribedParameters.pageSize) objects from the middle of uid order, skipped to with OFFSET"
        case .pageKeyset: "the same page by keyset pagination (uid > the previous page's last uid)"
        case .lookupID: "\(DescribedParameters.lookupCount) objects looked up one by one by uid (\"single by id\")"
        case .filterFK: "every object of one owner, through the foreign key (hierarchies with an owner)"
        }
    }

    public static let singleInsertCount = 1_000

    public var isInsert: Bool { self == .insertBulk || self == .insertSingle }

    var warmups: Int {
        switch self {
        case .insertBulk: 0
        case .insertSingle, .fetchPolymorphic, .fetchLeaf, .pageOffset, .lookupID: 1
        default: 5
        }
    }

    var defaultRepetitions: Int {
        switch self {
        case .insertBulk: 2
        case .insertSingle: 5
        case .fetchPolymorphic, .fetchLeaf: 7
        case .pageOffset, .lookupID: 10
        case .countAll, .countLeaf, .countByType, .pageKeyset, .filterFK: 50
        }
    }

    var digestOrder: AnswerDigest.Order {
        switch self {
        case .countAll, .countLeaf, .countByType, .pageOffset, .pageKeyset, .lookupID: .ordered
        default: .unordered
        }
    }

    /// The workloads that apply to `description` (`filter-fk` needs an owner).
    public static func available(for description: HierarchyDescription) -> [DescribedWorkload] {
        allCases.filter { $0 != .filterFK || description.owner != nil }
    }

    public static func parseList(_ text: String, for description: HierarchyDescription) throws -> [DescribedWorkload] {
        let workloads = try NameList.parse(text, valid: allCases.map(\.rawValue), what: "workload").map { DescribedWorkload(rawValue: $0)! }
        if workloads.contains(.filterFK), description.owner == nil {
            throw DescribedStoreError(description: "filter-fk needs an owner (a foreign key) in the hierarchy, and \(description.name) has none; leave it out")
        }
        return workloads
    }
}

/// A failed check of a described store's contents.
public struct DescribedStoreError: Error, CustomStringConvertible {
    public let description: String
}

/// Runs described workloads against described strategies, interleaved and checked for agreement
/// exactly as `Runner` does for the publication model, and reports `WorkloadResult`s.
public final class DescribedRunner {
    public let plan: RunPlan
    public let generator: HierarchyGenerator
    public let parameters: DescribedParameters
    public let workloads: [DescribedWorkload]
    public let temporaryFolder: URL
    private let setting: ResultSetting
    private let onEvent: (RunEvent) throws -> Void

    /// - parameter plan: strategies, repetitions, time budget, batch size, seed and temporary folder
    ///   (its dataset scale and workloads are not used: the description says the rows).
    public init(plan: RunPlan, description: HierarchyDescription, workloads: [DescribedWorkload],
                sweep: (parameter: String, value: String)? = nil, onEvent: @escaping (RunEvent) throws -> Void = { _ in }) {
        self.plan = plan
        generator = HierarchyGenerator(description, seed: plan.dataset.seed)
        parameters = DescribedParameters(generator: generator)
        self.workloads = workloads
        setting = ResultSetting(hierarchy: description.name, scale: description.totalRows,
                                sweepParameter: sweep?.parameter ?? "", sweepValue: sweep?.value ?? "")
        temporaryFolder = plan.temporaryParent.appendingPathComponent("inheritance-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.onEvent = onEvent
    }

    public func run() throws -> [WorkloadResult] {
        let types = try plan.strategies.map { name in
            guard let type = DescribedStrategies.all.first(where: { $0.name == name }) else {
                throw NameList.unknown(name, valid: DescribedStrategies.names, what: "strategy")
            }
            return type
        }
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        var results: [WorkloadResult] = []
        func report(_ group: [WorkloadResult]) throws {
            for result in group {
                results.append(result)
                try onEvent(.measured(result))
            }
        }
        let reads = workloads.filter { !$0.isInsert }
        var readStores: [DescribedStore?] = Array(repeating: nil, count: types.count)
        defer { readStores.forEach { $0?.remove() } }
        for workload in workloads where workload.isInsert {
            let keep = workload == .insertBulk && !reads.isEmpty
            let (group, kept) = try measureInsert(workload, types, keepLastStores: keep)
            if keep { readStores = kept }
            try report(group)
        }
        guard !reads.isEmpty else { return results }
        for (index, type) in types.enumerated() where readStores[index] == nil {
            try onEvent(.populating(strategy: type.name, scale: generator.count))
            let store = try DescribedStore(type, generator.description, path: storePath(type.name, "read"))
            try store.populate(generator, batchSize: plan.batchSize)
            readStores[index] = store
        }
        let stores = readStores.map { $0! }
        for workload in reads {
            let samples = try interleaveRounds(workload.rawValue, types.map { $0.name }, warmups: workload.warmups,
                                               fixed: fixedRepetitions(workload), plan: plan, onEvent: onEvent) { index, _ in
                try stores[index].read(workload, parameters)
            }
            try report(types.indices.map { index in
                WorkloadResult(strategy: types[index].name, workload: workload.rawValue, variant: "", rows: samples.answers[index].rows,
                               samples: samples.timed[index], warmups: workload.warmups, digest: samples.answers[index].digest,
                               dbBytes: stores[index].bytes, setting: setting)
            })
        }
        return results
    }

    private func fixedRepetitions(_ workload: DescribedWorkload) -> Int? {
        plan.timeBudget == nil ? plan.repetitions ?? workload.defaultRepetitions : nil
    }

    private func measureInsert(_ workload: DescribedWorkload, _ types: [any DescribedStrategy.Type], keepLastStores: Bool) throws
        -> ([WorkloadResult], [DescribedStore?]) {
        let range = workload == .insertBulk ? 0 ..< generator.count : 0 ..< min(DescribedWorkload.singleInsertCount, generator.count)
        let size = workload == .insertBulk ? plan.batchSize : 1
        // Generated once, untimed; every repetition of every strategy inserts the same arrays.
        let transactions = stride(from: range.lowerBound, to: range.upperBound, by: size).map { start in
            generator.objects(start ..< min(start + size, range.upperBound))
        }
        var expected = Array(repeating: 0, count: generator.entities.count)
        for transaction in transactions { for object in transaction { expected[object.entity] += 1 } }
        var kept: [DescribedStore?] = Array(repeating: nil, count: types.count)
        var bytes = Array(repeating: Int64(0), count: types.count)
        let samples = try interleaveRounds(workload.rawValue, types.map { $0.name }, warmups: workload.warmups,
                                           fixed: fixedRepetitions(workload), plan: plan, onEvent: onEvent) { index, repetition in
            let store = try DescribedStore(types[index], generator.description, path: storePath(types[index].name, "\(workload.rawValue)-\(repetition)"))
            do {
                let sample = try store.timedInsert(transactions, owners: generator.description.owner?.rows ?? 0, expected: expected,
                                                   thorough: repetition == 0)
                bytes[index] = store.bytes
                if keepLastStores { kept[index]?.remove(); kept[index] = store } else { store.remove() }
                return sample
            } catch {
                store.remove()
                throw error
            }
        }
        let results = types.indices.map { index in
            WorkloadResult(strategy: types[index].name, workload: workload.rawValue, variant: "", rows: range.count,
                           samples: samples.timed[index], warmups: workload.warmups, digest: samples.answers[index].digest,
                           dbBytes: bytes[index], setting: setting)
        }
        return (results, kept)
    }

    private func storePath(_ strategy: String, _ purpose: String) -> String {
        temporaryFolder.appendingPathComponent("\(strategy)-\(purpose).sqlite").path
    }
}

/// One store of a described strategy, and what the runner does with it.
final class DescribedStore {
    let path: String
    private var strategy: (any DescribedStrategy)?
    private(set) var bytes: Int64 = 0

    init(_ type: any DescribedStrategy.Type, _ description: HierarchyDescription, path: String) throws {
        self.path = path
        strategy = type.init(database: try StoreFile.open(path), description: description)
    }

    deinit { remove() }

    func remove() {
        strategy = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Creates the schema and owners (untimed), inserts every transaction (each timed alone), then,
    /// untimed, checks the store and digests it: every object on the first repetition, the counts after.
    func timedInsert(_ transactions: [[DescribedObject]], owners: Int, expected: [Int], thorough: Bool) throws -> Sample {
        let strategy = strategy!
        try strategy.createSchema(owners: owners)
        var elapsed: UInt64 = 0
        for transaction in transactions { elapsed += try Sample.nanoseconds { try strategy.insert(transaction) } }
        try Self.check(strategy, expected: expected, thorough: thorough)
        let rows = expected.reduce(0, +)
        let digest = thorough ? AnswerDigest(.unordered, of: try strategy.fetchAll()) : AnswerDigest(.ordered, of: expected)
        try StoreFile.checkpoint(strategy.database)
        bytes = fileSize(path)
        return Sample(nanoseconds: elapsed, rows: rows, digest: digest, digestIsFull: thorough)
    }

    func populate(_ generator: HierarchyGenerator, batchSize: Int) throws {
        let strategy = strategy!
        try strategy.createSchema(owners: generator.description.owner?.rows ?? 0)
        for start in stride(from: 0, to: generator.count, by: batchSize) {
            try strategy.insert(generator.objects(start ..< min(start + batchSize, generator.count)))
        }
        try Self.check(strategy, expected: generator.counts, thorough: true)
        try StoreFile.checkpoint(strategy.database)
        bytes = fileSize(path)
    }

    /// SQLite's integrity check (`quick_check` unless `thorough`), the foreign keys, and the number of objects of each entity.
    static func check(_ strategy: any DescribedStrategy, expected: [Int], thorough: Bool) throws {
        let database = strategy.database
        let verdict = try database.strings(thorough ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        guard verdict == ["ok"] else {
            throw DescribedStoreError(description: "\(type(of: strategy).name): the store failed SQLite's integrity check: \(verdict.prefix(3).joined(separator: "; "))")
        }
        let counts = try expected.indices.map { try strategy.count(entity: $0) }
        let total = try strategy.countAll()
        guard counts == expected, total == expected.reduce(0, +) else {
            throw DescribedStoreError(description: "\(type(of: strategy).name) holds \(counts) objects per entity (\(total) in all) where \(expected) were inserted")
        }
    }

    /// One repetition of a read workload: the strategy call timed alone, then (untimed) its digest.
    func read(_ workload: DescribedWorkload, _ parameters: DescribedParameters) throws -> Sample {
        let strategy = strategy!
        let order = workload.digestOrder
        let leaf = strategy.descriptionLeaf
        switch workload {
        case .fetchPolymorphic: return try Sample.timed(order) { try strategy.fetchAll() }
        case .fetchLeaf: return try Sample.timed(order) { try strategy.fetchEntity(leaf) }
        case .countAll: return try Sample.timed(order) { [try strategy.countAll()] }
        case .countLeaf: return try Sample.timed(order) { [try strategy.count(entity: leaf)] }
        case .countByType:
            let entities = strategy.entityCount
            return try Sample.timed(order) { try (0 ..< entities).map { try strategy.count(entity: $0) } }
        case .pageOffset:
            let offset = parameters.deepPageOffset
            return try Sample.timed(order) { try strategy.fetchPage(offset: offset, limit: DescribedParameters.pageSize) }
        case .pageKeyset:
            let cursor = parameters.deepPageCursor
            return try Sample.timed(order) { try strategy.fetchPage(after: cursor, limit: DescribedParameters.pageSize) }
        case .lookupID:
            let uids = parameters.lookupUIDs
            return try Sample.timed(order) {
                var found: [DescribedObject] = []
                found.reserveCapacity(uids.count)
                for uid in uids { if let object = try strategy.object(uid: uid) { found.append(object) } }
                return found
            }
        case .filterFK:
            let owner = parameters.owner
            return try Sample.timed(order) { try strategy.objects(owner: owner) }
        case .insertBulk, .insertSingle:
            preconditionFailure("\(workload) is an insert workload")
        }
    }
}

extension DescribedStrategy {
    var descriptionLeaf: Int { hierarchy.leafIndex }
    var entityCount: Int { hierarchy.concreteEntities.count }
}
