import Dataset
import Foundation
import SQLite
import Strategies

/// What one run measures.
public struct RunPlan: Sendable {
    public var strategies: [String]
    public var workloads: [Workload]
    public var dataset: DatasetConfiguration
    /// Objects per transaction in `insert-bulk` and when populating the read stores.
    public var batchSize: Int
    /// Timed repetitions for every workload; `nil` uses each workload's default.
    public var repetitions: Int?
    /// Where the run's temporary folder of stores is made.
    public var temporaryParent: URL

    public static let defaultBatchSize = 1_000

    public init(
        strategies: [String] = Strategies.names, workloads: [Workload] = Workload.allCases,
        dataset: DatasetConfiguration = DatasetConfiguration(), batchSize: Int = defaultBatchSize,
        repetitions: Int? = nil, temporaryParent: URL = FileManager.default.temporaryDirectory
    ) {
        self.strategies = strategies
        self.workloads = workloads
        self.dataset = dataset
        self.batchSize = batchSize
        self.repetitions = repetitions
        self.temporaryParent = temporaryParent
    }

    public func repetitions(for workload: Workload) -> Int { repetitions ?? workload.defaultRepetitions }
}

/// The result of one (strategy, workload, variant): every timed sample and the checked answer.
public struct WorkloadResult: Sendable {
    public var strategy: String
    public var workload: Workload
    /// "" or the workload's case (`popular`, `rare`).
    public var variant: String
    /// Rows in the answer (objects inserted, for insert workloads).
    public var rows: Int
    /// Nanoseconds of each timed repetition, in the order they ran.
    public var samples: [UInt64]
    public var warmups: Int
    public var digest: AnswerDigest
    /// The store's size in bytes (after a WAL checkpoint).
    public var dbBytes: Int64

    public init(strategy: String, workload: Workload, variant: String, rows: Int, samples: [UInt64], warmups: Int, digest: AnswerDigest, dbBytes: Int64) {
        self.strategy = strategy
        self.workload = workload
        self.variant = variant
        self.rows = rows
        self.samples = samples
        self.warmups = warmups
        self.digest = digest
        self.dbBytes = dbBytes
    }

    /// "fetch-by-tag/popular", or just the workload name.
    public var caseName: String { variant.isEmpty ? workload.rawValue : "\(workload.rawValue)/\(variant)" }
}

/// What the run is doing now, for progress display.
public enum RunEvent: Sendable {
    case populating(strategy: String, scale: Int)
    case measuring(strategy: String, caseName: String, repetitions: Int)
    case measured(WorkloadResult)
}

/// A run that could not produce honest numbers.
public enum BenchmarkFailure: Error, CustomStringConvertible, Equatable {
    /// Two strategies gave different answers to the same workload.
    case disagreement(caseName: String, first: String, firstDigest: String, firstRows: Int,
                      second: String, secondDigest: String, secondRows: Int)
    /// One strategy's answer changed between repetitions.
    case unstableAnswer(strategy: String, caseName: String)
    /// A store does not hold what the generator produced.
    case wrongContents(strategy: String, expected: [Int], found: [Int])

    public var description: String {
        switch self {
        case let .disagreement(caseName, first, firstDigest, firstRows, second, secondDigest, secondRows):
            "strategies disagree on \(caseName): \(first) answered \(firstRows) rows (digest \(firstDigest)), "
                + "\(second) answered \(secondRows) rows (digest \(secondDigest)); the run stopped because the numbers would not compare like with like"
        case let .unstableAnswer(strategy, caseName):
            "\(strategy) gave different answers to \(caseName) in different repetitions"
        case let .wrongContents(strategy, expected, found):
            "the \(strategy) store holds \(found) publications per type, but the generator produced \(expected)"
        }
    }
}

/// Runs every selected workload against every selected strategy, checks that all strategies
/// agree on every answer, and reports each result as it completes.
///
/// Setup (creating stores, generating objects, checkpointing, digesting answers) happens outside
/// the timed regions; a timed region holds only the strategy calls that do the work.
public final class Runner {
    public let plan: RunPlan
    public let generator: DatasetGenerator
    public let parameters: WorkloadParameters
    /// The run's folder of temporary stores; removed when the run ends.
    public let temporaryFolder: URL
    private let onEvent: (RunEvent) -> Void
    private var census: DatasetGenerator.Census?
    /// The first answer seen for each case, to compare later strategies against.
    private var referenceAnswers: [String: (strategy: String, digest: AnswerDigest)] = [:]

    /// The strategies `plan.strategies` names are looked up in.
    private let registry: [any StorageStrategy.Type]

    public init(plan: RunPlan, registry: [any StorageStrategy.Type] = Strategies.all, onEvent: @escaping (RunEvent) -> Void = { _ in }) {
        self.plan = plan
        self.registry = registry
        generator = DatasetGenerator(plan.dataset)
        parameters = WorkloadParameters(generator: generator)
        temporaryFolder = plan.temporaryParent.appendingPathComponent("inheritance-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.onEvent = onEvent
    }

    /// Runs the plan; returns every result in the order it was taken.
    public func run() throws -> [WorkloadResult] {
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        var results: [WorkloadResult] = []
        for name in plan.strategies {
            guard let type = registry.first(where: { $0.name == name }) else {
                throw NameList.unknown(name, valid: registry.map { $0.name }, what: "strategy")
            }
            try measure(type) { result in
                try self.checkAgreement(result)
                results.append(result)
                self.onEvent(.measured(result))
            }
        }
        return results
    }

    private func checkAgreement(_ result: WorkloadResult) throws {
        let key = result.caseName
        guard let reference = referenceAnswers[key] else {
            referenceAnswers[key] = (result.strategy, result.digest)
            return
        }
        guard reference.digest == result.digest else {
            throw BenchmarkFailure.disagreement(
                caseName: key, first: reference.strategy, firstDigest: reference.digest.description, firstRows: reference.digest.count,
                second: result.strategy, secondDigest: result.digest.description, secondRows: result.digest.count)
        }
    }

    // MARK: Per strategy

    private func measure<S: StorageStrategy>(_: S.Type, report: (WorkloadResult) throws -> Void) throws {
        let reads = plan.workloads.filter { !$0.isInsert }
        // The last timed insert-bulk repetition builds exactly the store the reads need; keep it.
        var readStore: (strategy: S, path: String)?
        defer { if let readStore { removeStore(readStore.path) } }
        for workload in plan.workloads where workload.isInsert {
            let (result, kept) = try measureInsert(S.self, workload, keepLastStore: workload == .insertBulk && !reads.isEmpty)
            if let kept { readStore = kept }
            try report(result)
        }
        guard !reads.isEmpty else { return }
        if readStore == nil {
            onEvent(.populating(strategy: S.name, scale: plan.dataset.scale))
            let path = storePath(S.self, "read")
            readStore = (S(database: try StoreFile.open(path)), path)
            try StoreBuilder.populate(readStore!.strategy, generator: generator, batchSize: plan.batchSize, expected: wholeDatasetCensus())
        }
        let (strategy, path) = readStore!
        let bytes = fileSize(path)
        for workload in reads {
            for variant in workload.variants {
                try report(measureRead(strategy, workload, variant, dbBytes: bytes))
            }
        }
    }

    private func measureRead<S: StorageStrategy>(_ strategy: S, _ workload: Workload, _ variant: String, dbBytes: Int64) throws -> WorkloadResult {
        let caseName = variant.isEmpty ? workload.rawValue : "\(workload.rawValue)/\(variant)"
        let repetitions = plan.repetitions(for: workload)
        onEvent(.measuring(strategy: S.name, caseName: caseName, repetitions: repetitions))
        var samples: [UInt64] = []
        samples.reserveCapacity(repetitions)
        var answer: Sample?
        for repetition in 0 ..< workload.warmups + repetitions {
            let sample = try runRead(strategy, workload, variant)
            if let answer, answer.digest != sample.digest {
                throw BenchmarkFailure.unstableAnswer(strategy: S.name, caseName: caseName)
            }
            answer = sample
            if repetition >= workload.warmups { samples.append(sample.nanoseconds) }
        }
        return WorkloadResult(strategy: S.name, workload: workload, variant: variant, rows: answer!.rows, samples: samples,
                           warmups: workload.warmups, digest: answer!.digest, dbBytes: dbBytes)
    }

    /// One repetition of a read workload: the timed strategy call, then (untimed) its digest.
    private func runRead<S: StorageStrategy>(_ strategy: S, _ workload: Workload, _ variant: String) throws -> Sample {
        let order = workload.digestOrder
        switch workload {
        case .fetchPolymorphic: return try Sample.timed(order) { try strategy.fetchAll() }
        case .fetchPage: return try Sample.timed(order) { try strategy.fetchNewest(limit: Workload.pageSize) }
        case .fetchLeaf: return try Sample.timed(order) { try strategy.fetchBooks() }
        case .fetchByTag:
            let tag = variant == "rare" ? parameters.rareTag : parameters.popularTag
            return try Sample.timed(order) { try strategy.fetchPublications(taggedWith: tag) }
        case .countAll: return try Sample.timed(order) { [try strategy.countAll()] }
        case .countLeaf: return try Sample.timed(order) { [try strategy.countBooks()] }
        case .countByType: return try Sample.timed(order) { try strategy.countByType() }
        case .lookupComposite: return try Sample.timed(order) { try strategy.books(publishedIn: parameters.window) }
        case .lookupAttribute:
            let isbns = parameters.isbns
            return try Sample.timed(order) {
                var found: [S.Object] = []
                found.reserveCapacity(isbns.count)
                for isbn in isbns { if let book = try strategy.book(isbn: isbn) { found.append(book) } }
                return found
            }
        case .insertBulk, .insertSingle:
            preconditionFailure("\(workload) is an insert workload")
        }
    }

    /// Times an insert workload on fresh stores; with `keepLastStore`, hands back the last
    /// repetition's store (checked and checkpointed) instead of removing it.
    private func measureInsert<S: StorageStrategy>(
        _: S.Type, _ workload: Workload, keepLastStore: Bool
    ) throws -> (WorkloadResult, (strategy: S, path: String)?) {
        let repetitions = plan.repetitions(for: workload)
        onEvent(.measuring(strategy: S.name, caseName: workload.rawValue, repetitions: repetitions))
        let range = workload == .insertBulk ? 0 ..< plan.dataset.scale : 0 ..< Workload.singleInsertCount
        let expected = workload == .insertBulk ? wholeDatasetCensus() : generator.census(range)
        var samples: [UInt64] = []
        var answer: Sample?
        var bytes: Int64 = 0
        var kept: (strategy: S, path: String)?
        let total = workload.warmups + repetitions
        for repetition in 0 ..< total {
            let path = storePath(S.self, "\(workload.rawValue)-\(repetition)")
            let keep = keepLastStore && repetition == total - 1
            defer { if !keep { removeStore(path) } }
            let strategy = S(database: try StoreFile.open(path))
            do {
                try strategy.createSchema(tags: generator.tags)
                var elapsed: UInt64 = 0
                if workload == .insertBulk {
                    for batch in generator.batches(of: plan.batchSize) {
                        elapsed += try Sample.nanoseconds { try strategy.insert(batch) }
                    }
                } else {
                    for index in range {
                        let one = [generator.publication(at: index)]
                        elapsed += try Sample.nanoseconds { try strategy.insert(one) }
                    }
                }
                try verifyContents(strategy, expected: expected.countsByKind)
                let sample = Sample(nanoseconds: elapsed, rows: range.count, digest: AnswerDigest(.ordered, of: try strategy.fetchAll()))
                if let answer, answer.digest != sample.digest {
                    throw BenchmarkFailure.unstableAnswer(strategy: S.name, caseName: workload.rawValue)
                }
                answer = sample
                try StoreFile.checkpoint(strategy.database)
                bytes = fileSize(path)
                if repetition >= workload.warmups { samples.append(elapsed) }
            } catch {
                removeStore(path)
                throw error
            }
            if keep { kept = (strategy, path) }
        }
        let result = WorkloadResult(strategy: S.name, workload: workload, variant: "", rows: range.count, samples: samples,
                                    warmups: workload.warmups, digest: answer!.digest, dbBytes: bytes)
        return (result, kept)
    }

    // MARK: Helpers

    private func wholeDatasetCensus() -> DatasetGenerator.Census {
        if let census { return census }
        let computed = generator.census()
        census = computed
        return computed
    }

    private func verifyContents<S: StorageStrategy>(_ strategy: S, expected: [Int]) throws {
        let found = try strategy.countByType()
        guard found == expected else { throw BenchmarkFailure.wrongContents(strategy: S.name, expected: expected, found: found) }
    }

    private func storePath<S: StorageStrategy>(_: S.Type, _ purpose: String) -> String {
        temporaryFolder.appendingPathComponent("\(S.name)-\(purpose).sqlite").path
    }

    private func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}

/// One timed repetition: its duration and its (untimed) answer digest.
struct Sample {
    var nanoseconds: UInt64
    var rows: Int
    var digest: AnswerDigest

    /// Times `body` alone; the answer is digested after the clock stops, which also keeps it alive.
    static func timed<T: Digestible>(_ order: AnswerDigest.Order, _ body: () throws -> [T]) throws -> Sample {
        let start = DispatchTime.now().uptimeNanoseconds
        let rows = try body()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        return Sample(nanoseconds: elapsed, rows: rows.count, digest: AnswerDigest(order, of: rows))
    }

    static func nanoseconds(_ body: () throws -> Void) throws -> UInt64 {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return DispatchTime.now().uptimeNanoseconds - start
    }
}
