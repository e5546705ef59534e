import Dataset
import Foundation
import RawReference
import SQLite
import Strategies

// The stores the runner measures and how one repetition is timed: a strategy's store
// (`StrategyStore`), the raw reference's (`RawStore`), and the timing of a repetition.

/// A strategy type, held beside other strategy types so that the runner can interleave them.
struct Contender {
    let name: String
    let open: (_ path: String) throws -> any ContenderStore
    /// A strategy's store as a harness drives it; `nil` for the raw reference.
    let openForHarness: ((_ path: String) throws -> any HarnessStore)?

    init<S: StorageStrategy>(_: S.Type, parameters: WorkloadParameters) {
        name = S.name
        let open = { (path: String) throws -> any HarnessStore in try StrategyStore<S>(path: path, parameters: parameters) }
        self.open = open
        openForHarness = open
    }

    private init(name: String, open: @escaping (String) throws -> any ContenderStore) {
        self.name = name
        self.open = open
        openForHarness = nil
    }

    /// The `raw` reference: single-table's insert-bulk and fetch-polymorphic in direct SQLite calls.
    static func raw(parameters: WorkloadParameters) -> Contender {
        Contender(name: RawStore.name) { path in RawStore(path: path, parameters: parameters) }
    }
}

/// What an insert workload inserts: publications `range`, in transactions (saves) of
/// `transactionSize` objects: the whole dataset in batches of `--batch` for `insert-bulk`, the
/// first `Workload.singleInsertCount` publications one per transaction for `insert-single`.
struct InsertPlan {
    let range: Range<Int>
    let transactionSize: Int
    /// The transactions generated once, when `generatedOnce` made them (see there).
    private var generated: [[GeneratedPublication]]?

    /// Up to this many objects, an insert case generates its objects once and every repetition of
    /// every strategy inserts the same arrays; above it, each repetition generates them as it goes.
    static let generateOnceLimit = 1_000_000

    init(_ workload: Workload, scale: Int, batchSize: Int) {
        precondition(workload.isInsert, "\(workload) is not an insert workload")
        precondition(batchSize > 0)
        if workload == .insertBulk {
            range = 0 ..< scale
            transactionSize = batchSize
        } else {
            range = 0 ..< Workload.singleInsertCount
            transactionSize = 1
        }
    }

    /// The transactions in order: the arrays generated once, or generated lazily as they are
    /// consumed, so that memory does not grow with the scale. Generation is never timed.
    func transactions(_ generator: DatasetGenerator) -> AnySequence<[GeneratedPublication]> {
        if let generated { return AnySequence(generated) }
        let (range, size) = (range, transactionSize)
        return AnySequence(stride(from: range.lowerBound, to: range.upperBound, by: size).lazy.map { start in
            generator.publications(start ..< min(start + size, range.upperBound))
        })
    }

    /// This plan with its transactions generated up front when there are at most
    /// `generateOnceLimit` objects: the same objects, made once for a case instead of once per
    /// repetition and strategy (the dataset is deterministic, so the objects are identical).
    func generatedOnce(_ generator: DatasetGenerator) -> InsertPlan {
        guard range.count <= Self.generateOnceLimit else { return self }
        var plan = self
        plan.generated = Array(transactions(generator))
        return plan
    }
}

/// How the strategy call of one repetition is timed. The runner reads the monotonic clock around
/// it (`ClockTiming`); `WorkloadCase` lets a benchmark harness mark the same region
/// (`HarnessTiming`). Either way the timed region holds only the strategy call, and the answer is
/// released after the region ends.
protocol RepetitionTiming {
    associatedtype Outcome
    func time<T: Digestible>(_ order: AnswerDigest.Order, _ body: () throws -> [T]) throws -> Outcome
    /// A write: `body` returns the rows it changed; `answer`, untimed, checks the store and digests
    /// what the write left in it (a harness skips it: it does not digest answers).
    func timeWrite(_ body: () throws -> Int, answer: (_ rows: Int) throws -> AnswerDigest) throws -> Outcome
}

/// The runner's timing: the monotonic clock, then (untimed) the answer's digest.
struct ClockTiming: RepetitionTiming {
    func time<T: Digestible>(_ order: AnswerDigest.Order, _ body: () throws -> [T]) throws -> Sample {
        try Sample.timed(order, body)
    }

    func timeWrite(_ body: () throws -> Int, answer: (Int) throws -> AnswerDigest) throws -> Sample {
        var rows = 0
        let elapsed = try Sample.nanoseconds { rows = try body() }
        return Sample(nanoseconds: elapsed, rows: rows, digest: try answer(rows))
    }
}

/// A harness's timing: `start` right before the strategy call, `stop` right after it; the outcome
/// is the answer's row count.
struct HarnessTiming: RepetitionTiming {
    let start: () -> Void
    let stop: () -> Void

    func time<T: Digestible>(_: AnswerDigest.Order, _ body: () throws -> [T]) throws -> Int {
        start()
        let rows = try body()
        stop()
        return rows.count
    }

    func timeWrite(_ body: () throws -> Int, answer _: (Int) throws -> AnswerDigest) throws -> Int {
        start()
        let rows = try body()
        stop()
        return rows
    }
}

/// One open store, and what the runner does with it.
protocol ContenderStore: AnyObject {
    var path: String { get }
    /// The store's size after its last checkpoint.
    var bytes: Int64 { get }
    /// One repetition of a read workload (or of `update` and `delete-cascade`, which run on the
    /// read store), timed with the monotonic clock, then digested untimed. `repetition` counts
    /// from 0, warm-ups included.
    func read(_ workload: Workload, _ variant: String, repetition: Int) throws -> Sample
    /// One repetition of an insert workload as the runner measures it: the schema and tags created
    /// untimed, each transaction timed alone (the objects are generated between them, untimed),
    /// then, untimed, the contents checked (`thorough`: `integrity_check`, else `quick_check`),
    /// digested and checkpointed.
    func timedInsert(_ generator: DatasetGenerator, _ plan: InsertPlan, _ expected: DatasetGenerator.Census, thorough: Bool) throws -> Sample
    /// Fills an empty store with the whole dataset (untimed).
    func populate(_ generator: DatasetGenerator, _ batchSize: Int, _ expected: DatasetGenerator.Census) throws
    /// Closes the connection and deletes the store's files.
    func remove()
}

/// A strategy's store as a benchmark harness drives it (`WorkloadCase`): the same timed calls as
/// the runner's, with the measured region marked by the harness.
protocol HarnessStore: ContenderStore {
    /// One repetition of a read workload, its strategy call timed by `timing`.
    func read<Timing: RepetitionTiming>(_ workload: Workload, _ variant: String, repetition: Int, _ timing: Timing) throws -> Timing.Outcome
    /// The untimed setup of an insert repetition: creates the schema and the tags in this empty store.
    func prepareInsert(_ generator: DatasetGenerator) throws
    /// The timed part of an insert repetition: one `insert` (one save) per transaction, in order,
    /// each call wrapped in `time`.
    func insert<Transactions: Sequence<[GeneratedPublication]>>(
        _ transactions: Transactions, timingEach time: (() throws -> Void) throws -> Void
    ) throws
    /// Checks (untimed) that the store holds `expected` publications per type.
    func verify(_ expected: DatasetGenerator.Census) throws
}

final class StrategyStore<S: StorageStrategy>: HarnessStore {
    let path: String
    let parameters: WorkloadParameters
    private var strategy: S?
    private(set) var bytes: Int64 = 0

    init(path: String, parameters: WorkloadParameters) throws {
        self.path = path
        self.parameters = parameters
        strategy = S(database: try StoreFile.open(path))
    }

    deinit { remove() }

    func remove() {
        strategy = nil
        removeStoreFiles(path)
    }

    func read<Timing: RepetitionTiming>(_ workload: Workload, _ variant: String, repetition: Int, _ timing: Timing) throws -> Timing.Outcome {
        switch workload {
        case .update: try touch(repetition: repetition, timing)
        case .deleteCascade: try deleteFromCopy(repetition: repetition, timing)
        default: try Self.runRead(strategy!, workload, variant, parameters, timing)
        }
    }

    func read(_ workload: Workload, _ variant: String, repetition: Int) throws -> Sample {
        try read(workload, variant, repetition: repetition, ClockTiming())
    }

    /// One repetition of `update`: `touch` on the read store with this repetition's `updatedate`.
    /// The answer, read back untimed, is every row that now has that `updatedate`, by uid, with how
    /// many times more than once per earlier repetition its `Z_OPT` went up (1 when the save bumped
    /// it once): the same for every repetition and every strategy that updates exactly those rows.
    private func touch<Timing: RepetitionTiming>(repetition: Int, _ timing: Timing) throws -> Timing.Outcome {
        let strategy = strategy!
        let uids = parameters.updateUIDs
        let updatedate = Workload.updateDate(round: repetition)
        return try timing.timeWrite({ try strategy.touch(uids: uids, updatedate: updatedate) }) { _ in
            // Every row starts at Z_OPT 1 and every repetition bumps the same rows once.
            AnswerDigest(.unordered, of: try strategy.versions(updatedAt: updatedate).map {
                TouchedRow(uid: $0.uid, bumps: $0.opt - 1 - Int64(repetition))
            })
        }
    }

    /// One repetition of `delete-cascade`, in a copy of the read store so that every repetition
    /// deletes from the same, complete store. Untimed: the checkpoint and the file copy before,
    /// and after, the copy's check (`StoreBuilder.checkIntegrity` with `quick_check`: the
    /// publications per type and the tag links left must be the dataset's less the deleted ones,
    /// and `foreign_key_check` must find no row pointing nowhere), the count of tags (all still
    /// there), and the copy's removal. Timed: the one `delete` save.
    private func deleteFromCopy<Timing: RepetitionTiming>(repetition: Int, _ timing: Timing) throws -> Timing.Outcome {
        try StoreFile.checkpoint(strategy!.database)
        let scratch = path + ".delete-\(repetition)"
        removeStoreFiles(scratch)
        defer { removeStoreFiles(scratch) }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: scratch + suffix)
        }
        let uids = parameters.deleteUIDs
        let (expected, tags) = (parameters.censusAfterDelete, parameters.tagCount)
        // The copy's connection is closed at the end of this block, before its files are removed.
        do {
            let copy = S(database: try StoreFile.open(scratch))
            return try timing.timeWrite({ try copy.delete(uids: uids) }) { _ in
                try StoreBuilder.checkIntegrity(copy, expected: expected, thorough: false)
                let found = try copy.countTags()
                guard found == tags else {
                    throw IntegrityFailure(strategy: S.name, check: .tags, description:
                        "the \(S.name) store holds \(found) tags after delete-cascade, but the delete must leave all \(tags)")
                }
                return AnswerDigest(.ordered, of: expected.countsByKind + [expected.tagLinks, found])
            }
        }
    }

    func populate(_ generator: DatasetGenerator, _ batchSize: Int, _ expected: DatasetGenerator.Census) throws {
        try StoreBuilder.populate(strategy!, generator: generator, batchSize: batchSize, expected: expected)
        bytes = fileSize(path)
    }

    func prepareInsert(_ generator: DatasetGenerator) throws {
        try strategy!.createSchema(tags: generator.tags)
    }

    func insert<Transactions: Sequence<[GeneratedPublication]>>(
        _ transactions: Transactions, timingEach time: (() throws -> Void) throws -> Void
    ) throws {
        let strategy = strategy!
        for transaction in transactions {
            try time { try strategy.insert(transaction) }
        }
    }

    func verify(_ expected: DatasetGenerator.Census) throws {
        try StoreBuilder.checkIntegrity(strategy!, expected: expected)
    }

    func timedInsert(_ generator: DatasetGenerator, _ plan: InsertPlan, _ expected: DatasetGenerator.Census, thorough: Bool) throws -> Sample {
        try prepareInsert(generator)
        var elapsed: UInt64 = 0
        try insert(plan.transactions(generator)) { save in elapsed += try Sample.nanoseconds(save) }
        let strategy = strategy!
        try StoreBuilder.checkIntegrity(strategy, expected: expected, thorough: thorough)
        // The whole content is digested for the thorough check; later repetitions are held to the counts.
        let digest = thorough ? AnswerDigest(.ordered, of: try strategy.fetchAll()) : Sample.countsDigest(expected)
        try StoreFile.checkpoint(strategy.database)
        bytes = fileSize(path)
        return Sample(nanoseconds: elapsed, rows: plan.range.count, digest: digest, digestIsFull: thorough)
    }

    /// One repetition of a read workload: the strategy call, timed by `timing` (for the runner:
    /// the clock, then, untimed, the answer's digest).
    static func runRead<Timing: RepetitionTiming>(
        _ strategy: S, _ workload: Workload, _ variant: String, _ parameters: WorkloadParameters, _ timing: Timing
    ) throws -> Timing.Outcome {
        let order = workload.digestOrder
        switch workload {
        case .fetchPolymorphic: return try timing.time(order) { try strategy.fetchAll() }
        case .fetchPage: return try timing.time(order) { try strategy.fetchNewest(limit: Workload.pageSize) }
        case .pageOffset:
            let offset = parameters.deepPageOffset
            return try timing.time(order) { try strategy.fetchPage(offset: offset, limit: Workload.pageSize) }
        case .pageKeyset:
            let cursor = parameters.deepPageCursor
            return try timing.time(order) { try strategy.fetchPage(after: cursor, limit: Workload.pageSize) }
        case .fetchLeaf: return try timing.time(order) { try strategy.fetchBooks() }
        case .fetchByTag:
            let tag = variant == "rare" ? parameters.rareTag : parameters.popularTag
            return try timing.time(order) { try strategy.fetchPublications(taggedWith: tag) }
        case .countAll: return try timing.time(order) { [try strategy.countAll()] }
        case .countLeaf: return try timing.time(order) { [try strategy.countBooks()] }
        case .countByType: return try timing.time(order) { try strategy.countByType() }
        case .lookupComposite: return try timing.time(order) { try strategy.books(publishedIn: parameters.window) }
        case .lookupAttribute:
            let isbns = parameters.isbns
            return try timing.time(order) {
                var found: [S.Object] = []
                found.reserveCapacity(isbns.count)
                for isbn in isbns { if let book = try strategy.book(isbn: isbn) { found.append(book) } }
                return found
            }
        case .searchTitle:
            let prefix = parameters.titlePrefix
            return try timing.time(order) { try strategy.publications(titlePrefix: prefix) }
        case .update, .deleteCascade:
            preconditionFailure("\(workload) writes: StrategyStore.read runs it")
        case .insertBulk, .insertSingle:
            preconditionFailure("\(workload) is an insert workload")
        }
    }
}

/// The raw reference's store: a single-table store written and read with `RawSingleTable`.
/// Setup and checks go through the single-table strategy, untimed; only the raw calls are timed.
final class RawStore: ContenderStore {
    static let name = "raw"
    let path: String
    private(set) var bytes: Int64 = 0
    private let parameters: WorkloadParameters
    private var raw: RawSingleTable?

    init(path: String, parameters: WorkloadParameters) {
        self.path = path
        self.parameters = parameters
        bytes = fileSize(path)
    }

    private func connection() throws -> RawSingleTable {
        if let raw { return raw }
        let opened = try RawSingleTable(path: path)
        raw = opened
        return opened
    }

    func read(_ workload: Workload, _ variant: String, repetition _: Int) throws -> Sample {
        precondition(workload == .fetchPolymorphic, "the raw reference only fetches everything")
        let raw = try connection()
        let start = DispatchTime.now().uptimeNanoseconds
        let answer = try raw.fetchAll()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        // No objects to digest: the row count and the checksum of every column stand in for the answer.
        return Sample(nanoseconds: elapsed, rows: answer.rows, digest: AnswerDigest(.ordered, of: [answer.rows, Int(truncatingIfNeeded: answer.checksum)]),
                      digestIsFull: false)
    }

    func timedInsert(_ generator: DatasetGenerator, _ plan: InsertPlan, _ expected: DatasetGenerator.Census, thorough: Bool) throws -> Sample {
        let checker = SingleTableStrategy(database: try StoreFile.open(path))
        try checker.createSchema(tags: generator.tags)
        let raw = try connection()
        var elapsed: UInt64 = 0
        for transaction in plan.transactions(generator) {
            elapsed += try Sample.nanoseconds { try raw.insert(transaction) }
        }
        self.raw = nil
        // The raw insert must build exactly the store the single-table strategy builds.
        try StoreBuilder.checkIntegrity(checker, expected: expected, thorough: thorough)
        let digest = thorough ? AnswerDigest(.ordered, of: try checker.fetchAll()) : Sample.countsDigest(expected)
        try StoreFile.checkpoint(checker.database)
        bytes = fileSize(path)
        return Sample(nanoseconds: elapsed, rows: plan.range.count, digest: digest, digestIsFull: thorough)
    }

    func populate(_ generator: DatasetGenerator, _ batchSize: Int, _ expected: DatasetGenerator.Census) throws {
        preconditionFailure("the raw reference reads the single-table store; it never populates one")
    }

    func remove() {
        raw = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// Removes a store's file and its WAL and shared-memory files, if there.
func removeStoreFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// A row `update` left behind (see `StrategyStore.touch`).
struct TouchedRow: Digestible {
    var uid: UUID
    var bumps: Int64
    func digest(into hasher: inout StableHasher) {
        hasher.combine(uid)
        hasher.combine(Int(bumps))
    }
}

package func fileSize(_ path: String) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
}

/// One timed repetition: its duration and its (untimed) answer digest.
package struct Sample {
    package var nanoseconds: UInt64
    package var rows: Int
    package var digest: AnswerDigest
    /// Whether `digest` covers every field of the answer (false: it stands for the row count only).
    package var digestIsFull = true

    package init(nanoseconds: UInt64, rows: Int, digest: AnswerDigest, digestIsFull: Bool = true) {
        self.nanoseconds = nanoseconds; self.rows = rows; self.digest = digest; self.digestIsFull = digestIsFull
    }

    /// Times `body` alone; the answer is digested after the clock stops, which also keeps it alive.
    package static func timed<T: Digestible>(_ order: AnswerDigest.Order, _ body: () throws -> [T]) throws -> Sample {
        let start = DispatchTime.now().uptimeNanoseconds
        let rows = try body()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        return Sample(nanoseconds: elapsed, rows: rows.count, digest: AnswerDigest(order, of: rows))
    }

    /// What an insert repetition that was not digested in full answers: the counts it was checked against.
    static func countsDigest(_ census: DatasetGenerator.Census) -> AnswerDigest {
        AnswerDigest(.ordered, of: census.countsByKind + [census.tagLinks])
    }

    package static func nanoseconds(_ body: () throws -> Void) throws -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return DispatchTime.now().uptimeNanoseconds - start
    }
}
