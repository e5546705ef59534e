import FetchRequests
import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// One strategy × workload case driven by an outside harness (the package-benchmark suite in
/// `Benchmarks/`): set up untimed, then repetitions whose measured region holds exactly what
/// `bench run` times. Answers are not digested here; use `bench run` for checked figures.
public final class HarnessCase {
    public let workload: Workload
    private let model: Model
    private let generator: ObjectGenerator
    private let inputs: WorkloadInputs
    private let layout: any StorageLayout
    private let privateFolder: PrivateStoreFolder
    private let folder: URL
    private var populated: MeasuredStore?
    private var fresh: MeasuredStore?
    private var queries: [PreparedQuery] = []
    private var workloadCase: WorkloadCase?
    private var transactions: [[ModelObject]] = []
    private var round = 0
    private var repetition = 0

    /// Builds what the case needs (a populated store for reads, the objects for inserts), untimed.
    public init(strategy type: any StorageLayout.Type, workload: Workload, variant: String, model: Model, seed: UInt64, batchSize: Int = RunPlan.defaultBatchSize) throws {
        if let reason = workload.needs(model) { throw NameList.Error(description: "\(workload.name) does not apply to \(model.name): \(reason)") }
        layout = try type.init(model: model)
        self.workload = workload
        self.model = model
        generator = ObjectGenerator(model, seed: seed)
        inputs = WorkloadInputs(dataset: generator)
        privateFolder = PrivateStoreFolder(command: "harness", in: FileManager.default.temporaryDirectory)
        try privateFolder.make()
        folder = privateFolder.url
        switch workload.kind {
        case .insertBulk:
            transactions = Array(generator.batches(of: batchSize))
        case .insertSingle:
            transactions = inputs.singleInsertObjects.map { [$0] }
        case .session:
            throw NameList.Error(description: "\(workload.name): a replayed session is timed by bench replay, not by the harness")
        case .read, .update, .delete, .save:
            let store = try MeasuredStore(layout, path: folder.appendingPathComponent("read.sqlite").path)
            try store.populate(generator, batchSize: batchSize, census: Census(generator))
            populated = store
            if workload.kind == .read {
                guard let found = workload.cases(inputs).first(where: { $0.variant == variant }) else {
                    throw NameList.Error(description: "\(workload.name) has no case '\(variant)' on \(model.name)")
                }
                workloadCase = found
                queries = try store.queries(found)
            }
        }
    }

    deinit {
        fresh?.remove()
        populated?.remove()
        privateFolder.remove()
    }

    /// The variants of a workload on a model ("" for a workload with one case).
    public static func variants(_ workload: Workload, model: Model, seed: UInt64) -> [String] {
        workload.variants(on: WorkloadInputs(dataset: ObjectGenerator(model, seed: seed)))
    }

    /// Untimed work before a repetition: a fresh store for an insert, a fresh copy for a delete.
    public func prepareRepetition() throws {
        repetition += 1
        switch workload.kind {
        case .insertBulk, .insertSingle:
            fresh?.remove()
            let store = try MeasuredStore(layout, path: folder.appendingPathComponent("insert-\(repetition).sqlite").path)
            try (try store.opened).createSchema()
            fresh = store
        case .delete, .save, .session:
            fresh?.remove()
            fresh = try prepared(populated).copy(to: folder.appendingPathComponent("\(workload.kind)-\(repetition).sqlite").path)
        case .update:
            // As the runner does: SQLite's automatic checkpoint then never falls inside the measured save.
            try StoreFile.checkpoint(try prepared(populated).opened.database)
        case .read:
            break
        }
    }

    /// SQLite's work in the last repetition (`run`), counted around its measured region at no
    /// cost to it: the same for every repetition of a read, and in every run of the same seed.
    public private(set) var lastWork: WorkCounts?

    /// One repetition; the measured region is between the two calls. Returns the rows handled.
    public func run(startMeasurement: () -> Void, stopMeasurement: () -> Void) throws -> Int {
        let database = try prepared(workload.isInsert || workload.kind == .delete || workload.kind == .save ? fresh : populated).opened.database
        database.startCountingWork()
        defer { lastWork = database.stopCountingWork() }
        return try measured(startMeasurement: startMeasurement, stopMeasurement: stopMeasurement)
    }

    private func measured(startMeasurement: () -> Void, stopMeasurement: () -> Void) throws -> Int {
        switch workload.kind {
        case .insertBulk, .insertSingle:
            let strategy = try prepared(fresh).opened
            startMeasurement()
            for transaction in transactions { try strategy.insert(transaction) }
            stopMeasurement()
            return transactions.reduce(0) { $0 + $1.count }
        case .read:
            let database = try prepared(populated).opened.database
            let counts = workloadCase?.counts ?? false
            var rows = 0
            startMeasurement()
            if counts {
                for query in queries { rows += try database.number(query) }
            } else {
                for query in queries { rows += try database.objects(query).count }
            }
            stopMeasurement()
            return rows
        case .update:
            let strategy = try prepared(populated).opened
            guard let attribute = model.updateAttribute else { throw NameList.Error(description: "update does not apply to \(model.name)") }
            let objects = inputs.updateObjects(round: round)
            let value = inputs.updateValue(round: round)
            round += 1
            startMeasurement()
            let changed = try strategy.update(objects, attribute: attribute, value: value)
            stopMeasurement()
            return changed
        case .delete:
            let strategy = try prepared(fresh).opened
            startMeasurement()
            let deleted = try strategy.delete(inputs.deleteIDs)
            stopMeasurement()
            return deleted
        case .session:
            throw NameList.Error(description: "\(workload.name): a replayed session is timed by bench replay, not by the harness")
        case .save:
            let strategy = try prepared(fresh).opened
            let request = try saveRequest()
            let save = try strategy.prepare(request, versions: try strategy.versions(of: request))
            try strategy.warm(save)
            startMeasurement()
            let made = try strategy.save(save)
            stopMeasurement()
            return made
        }
    }

    /// The objects and values of a `.save` workload's save, drawn from the case's data once.
    private lazy var drawnSave: SaveRequest? = workload.save.map { $0.request(generator, seed: generator.seed) }

    private func saveRequest() throws -> SaveRequest {
        guard let request = drawnSave else { throw NameList.Error(description: "\(workload.name) is a save without one") }
        return request
    }

    /// A store the case made, or an error saying the repetition was not prepared.
    private func prepared(_ store: MeasuredStore?) throws -> MeasuredStore {
        guard let store else {
            throw NameList.Error(description: "\(workload.name): the case has no store; call prepareRepetition() before each repetition")
        }
        return store
    }
}
