import FetchRequests
import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// Runs every selected workload against every selected strategy on one model, checks that all
/// strategies agree on every answer, and reports each result as it completes.
///
/// Strategies are measured side by side: repetition *r* of every strategy runs before repetition
/// *r + 1* of any, in an order shuffled each round, so that a slow phase of a shared machine falls
/// on all strategies alike. Setup (creating stores, generating objects,
/// preparing statements, checking stores, digesting answers) stays outside the timed regions.
public final class Runner {
    public let plan: RunPlan
    public let model: Model
    public let dataset: any Dataset
    public let inputs: WorkloadInputs
    public let temporaryFolder: URL
    private let setting: ResultSetting
    private let onEvent: (RunEvent) throws -> Void
    /// The run's time shared among its cases, when the plan has a run time.
    private var timeShare: TimeShare?
    /// Given each case's statements as the baseline strategy sends them, run once before the
    /// case is timed (`bench run --log-sql`).
    public var statementLog: ((LoggedCase) throws -> Void)?

    public convenience init(plan: RunPlan, model: Model, sweep: (parameter: String, value: String)? = nil, onEvent: @escaping (RunEvent) throws -> Void = { _ in }) {
        self.init(plan: plan, inputs: WorkloadInputs(dataset: ObjectGenerator(model, seed: plan.seed)), sweep: sweep, onEvent: onEvent)
    }

    /// A runner on inputs already made (`bench run` counts its cases on them first): of the model
    /// to measure, their generator seeded with `plan.seed`. They take a pass over the main
    /// hierarchy to make, so they are made once.
    public init(plan: RunPlan, inputs: WorkloadInputs, sweep: (parameter: String, value: String)? = nil, onEvent: @escaping (RunEvent) throws -> Void = { _ in }) {
        self.plan = plan
        model = inputs.model
        dataset = inputs.dataset
        self.inputs = inputs
        setting = ResultSetting(hierarchy: model.hierarchyLabel, scale: dataset.totalCount,
                                sweepParameter: sweep?.parameter ?? "", sweepValue: sweep?.value ?? "", data: inputs.dataset.origin)
        temporaryFolder = plan.temporaryParent.appendingPathComponent("inheritance-bench-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.onEvent = onEvent
    }

    /// Runs the plan; returns every result, case by case, strategies in plan order.
    public func run() throws -> [WorkloadResult] {
        // Each layout is derived once and shared by every store of the run.
        let layouts = try plan.layouts.map { try $0.init(model: model) }
        // Never the parent too: a command's interruption removes the parent (its private folder),
        // and a run starting just then must fail, not make the folder again to be left behind.
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: temporaryFolder) }
        var results: [WorkloadResult] = []
        func report(_ group: [WorkloadResult]) throws {
            results += group
            try onEvent(.measured(group))
        }
        let workloads = plan.workloads.filter { $0.applies(to: model) }
        // `update` changes the read store: it runs after every other read, whatever order the plan names.
        let reads = workloads.filter { [.read, .delete, .save, .session].contains($0.kind) } + workloads.filter { $0.kind == .update }
        let census = Census(dataset)
        if plan.sharesRunTime, let runTime = plan.runTime {
            let weights = workloads.flatMap { workload in Array(repeating: workload.budget, count: workload.variants(on: inputs).count) }
            timeShare = TimeShare(seconds: runTime, weights: weights)
        }
        var readStores: [MeasuredStore?] = Array(repeating: nil, count: layouts.count)
        defer { readStores.forEach { $0?.remove() } }
        let baseline = layouts.firstIndex { $0.name == Strategies.baseline.name }
        for workload in workloads where workload.isInsert {
            if let statementLog, let baseline { try statementLog(try loggedInsert(workload, layouts[baseline])) }
            let keep = workload.kind == .insertBulk && !reads.isEmpty
            let (group, kept) = try measureInsert(workload, layouts, census: census, keepLastStores: keep)
            if keep { readStores = kept }
            try report(group)
        }
        guard !reads.isEmpty else { return results }
        try populate(&readStores, layouts, census: census)
        let stores = readStores.compactMap { $0 }
        for workload in reads {
            if workload.kind != .read, let statementLog, let baseline { try statementLog(try loggedChange(workload, stores[baseline])) }
            switch workload.kind {
            case .delete: try report(try measureDelete(workload, layouts, stores))
            case .save: try report(try measureSave(workload, layouts, stores))
            case .session: try report(try measureSession(workload, layouts, stores))
            case .update: try report(try measureUpdate(workload, layouts, stores))
            default:
                for workloadCase in workload.cases(inputs) { try report(try measureRead(workload, workloadCase, layouts, stores)) }
            }
        }
        return results
    }

    /// Builds the read store of each strategy that has none yet (no `insert-bulk` kept one), then,
    /// with `plan.analyze`, runs `ANALYZE` on every read store.
    private func populate(_ readStores: inout [MeasuredStore?], _ layouts: [any StorageLayout], census: Census) throws {
        for (index, layout) in layouts.enumerated() where readStores[index] == nil {
            let name = layout.name
            try onEvent(.populating(strategy: name, scale: dataset.totalCount))
            let store = try MeasuredStore(layout, path: storePath(name, "read"))
            readStores[index] = store
            try store.populate(dataset, batchSize: plan.batchSize, census: census)
        }
        if plan.analyze { for store in readStores.compactMap({ $0 }) { try QueryPlan.analyze(try store.opened.database) } }
    }

    // MARK: Cases

    func caseName(_ workload: Workload, _ variant: String) -> String { variant.isEmpty ? workload.name : "\(workload.name)/\(variant)" }

    func makeResults(_ workload: Workload, _ variant: String, _ layouts: [any StorageLayout],
                         _ samples: Rounds, bytes: [Int64]) -> [WorkloadResult] {
        layouts.indices.map { index in
            var result = WorkloadResult(strategy: layouts[index].name, workload: workload.name, variant: variant, rows: samples.answers[index].rows,
                           samples: samples.timed[index], positions: samples.positions[index], loops: samples.loops[index], warmups: samples.warmups[index],
                           digest: samples.answers[index].digest,
                           dbBytes: bytes[index], setting: setting, work: samples.work[index],
                           sqliteMemoryBytes: samples.sqliteMemory[index], peakResidentBytes: peakResidentBytes())
            result.blockStarts = samples.blockStarts
            result.request = workload.request
            return result
        }
    }

    /// Times one case of a read workload on the read stores. A new block reads through
    /// connections opened afresh: SQLite's page cache empty, the statements prepared again (the
    /// queries themselves, SQL and values derived from the layout alone, are built once).
    private func measureRead(_ workload: Workload, _ workloadCase: WorkloadCase, _ layouts: [any StorageLayout],
                             _ stores: [MeasuredStore]) throws -> [WorkloadResult] {
        let workloadCase = try matchingRows(workloadCase, stores)
        let queries = try stores.map { try $0.queries(workloadCase) }
        let name = caseName(workload, workloadCase.variant)
        if workloadCase.pagesWithTies { try checkPages(workloadCase, layouts, stores, name) }
        if let statementLog, let baseline = layouts.firstIndex(where: { $0.name == Strategies.baseline.name }) {
            try statementLog(try stores[baseline].logged(workloadCase, name: name))
        }
        let reopen = { (_: Int) throws in for store in stores { try store.reopen() } }
        let samples = try interleave(name, workload, layouts, loopTarget: RunPlan.loopTarget, onBlock: reopen) { index, _, loops in
            try stores[index].read(queries[index], counts: workloadCase.counts, ordered: workloadCase.ordered, pagesWithTies: workloadCase.pagesWithTies,
                                   loops: loops, caseName: name)
        }
        var results = makeResults(workload, workloadCase.variant, layouts, samples, bytes: stores.map(\.bytes))
        if let weight = workload.mixWeight {
            for index in results.indices { results[index].mix = MixShare(weight: weight, fetches: max(1, workloadCase.requests.count)) }
        }
        return results
    }

    /// Pages of an order with ties: each layout's pages are of its whole answer, and the whole
    /// answers agree (as sets) across layouts.
    private func checkPages(_ workloadCase: WorkloadCase, _ layouts: [any StorageLayout], _ stores: [MeasuredStore], _ name: String) throws {
        let answers = try stores.map { try $0.checkPages(workloadCase.requests, caseName: name) }
        for index in answers.indices.dropFirst() {
            guard let (first, second) = zip(answers[0], answers[index]).first(where: { $0 != $1 }) else { continue }
            throw BenchmarkFailure.disagreement(caseName: name, first: layouts[0].name, firstDigest: first.description, firstRows: first.count,
                                                second: layouts[index].name, secondDigest: second.description, secondRows: second.count)
        }
    }

    /// Times an insert workload on a fresh store per repetition; with `keepLastStores`, hands back
    /// each strategy's last store (checked and checkpointed) instead of removing it.
    private func measureInsert(_ workload: Workload, _ layouts: [any StorageLayout], census: Census,
                               keepLastStores: Bool) throws -> ([WorkloadResult], [MeasuredStore?]) {
        // Generated once, untimed; every repetition of every strategy inserts the same arrays.
        let transactions: AnySequence<[ModelObject]>
        let expected: Census
        var proving: (any Dataset)?
        if workload.kind == .insertBulk {
            // Up to a million objects are made once, and every repetition of every strategy inserts
            // the same arrays; above, each repetition makes them as it goes (between the timed
            // transactions), so that memory does not grow with the scale.
            let batches = dataset.batches(of: plan.batchSize)
            transactions = dataset.totalCount <= Self.generateOnceLimit && !dataset.isPrivate ? AnySequence(Array(batches)) : batches
            expected = census
            proving = dataset
        } else {
            let objects = inputs.singleInsertObjects
            transactions = AnySequence(objects.map { [$0] })
            expected = Census(model, objects: objects)
        }
        var kept: [MeasuredStore?] = Array(repeating: nil, count: layouts.count)
        var bytes = Array(repeating: Int64(0), count: layouts.count)
        let samples = try interleave(workload.name, workload, layouts) { index, repetition, _ in
            let store = try MeasuredStore(layouts[index], path: storePath(layouts[index].name, "\(workload.name)-\(repetition)"))
            do {
                let sample = try store.timedInsert(transactions, census: expected, thorough: repetition == 0, proving: proving)
                bytes[index] = store.bytes
                if keepLastStores { kept[index]?.remove(); kept[index] = store } else { store.remove() }
                return sample
            } catch {
                store.remove()
                throw error
            }
        }
        return (makeResults(workload, "", layouts, samples, bytes: bytes), kept)
    }

    /// Each repetition sets the attribute on the same objects; their versions go up by one per round.
    /// The store is checkpointed (untimed) before each repetition, so that every repetition writes
    /// into an empty WAL: otherwise SQLite's automatic checkpoint (at 1,000 WAL pages) lands in
    /// every other repetition or so, and the median falls between two modes.
    private func measureUpdate(_ workload: Workload, _ layouts: [any StorageLayout], _ stores: [MeasuredStore]) throws -> [WorkloadResult] {
        guard let attribute = model.updateAttribute else { throw NameList.Error(description: "update does not apply to \(model.name)") }
        let ids = inputs.updateIDs
        let samples = try interleave(workload.name, workload, layouts) { index, round, _ in
            let strategy = (try stores[index].opened)
            let objects = inputs.updateObjects(round: round)
            let value = inputs.updateValue(round: round)
            try StoreFile.checkpoint(strategy.database)
            var changed = 0
            strategy.database.startCountingWork()
            let elapsed = try Sample.nanoseconds { changed = try strategy.update(objects, attribute: attribute, value: value) }
            let work = strategy.database.stopCountingWork()
            // Untimed: every object changed exactly once, and nothing else.
            let versions = try strategy.versions(ids)
            guard changed == ids.count, versions.allSatisfy({ $0 == Int64(round + 2) }) else {
                throw StoreCheckFailure(description: "\(stores[index].name): update changed \(changed) of \(ids.count) objects, or left versions other than \(round + 2)")
            }
            return Sample(nanoseconds: elapsed, rows: changed, digest: AnswerDigest(.ordered, of: [changed] + ids.map { Int($0.key) }), work: work)
        }
        return makeResults(workload, "", layouts, samples, bytes: stores.map(\.bytes))
    }

    /// Each repetition deletes from a fresh copy of the read store (copied untimed). The first then
    /// checks the whole store (objects per entity, link rows, `quick_check`) and its answer is that
    /// digest; later ones, deleting the same objects from the same copy, are checked on the count
    /// deleted, so that a round costs little more than its deletes.
    private func measureDelete(_ workload: Workload, _ layouts: [any StorageLayout], _ stores: [MeasuredStore]) throws -> [WorkloadResult] {
        let ids = inputs.deleteIDs
        var bytes = stores.map(\.bytes)
        let samples = try interleave(workload.name, workload, layouts) { index, repetition, _ in
            let path = storePath(stores[index].name, "delete-\(repetition)")
            let copy = try stores[index].copy(to: path)
            defer { copy.remove() }
            let strategy = (try copy.opened)
            var deleted = 0
            strategy.database.startCountingWork()
            let elapsed = try Sample.nanoseconds { deleted = try strategy.delete(ids) }
            let work = strategy.database.stopCountingWork()
            guard repetition == 0 else { return Sample(nanoseconds: elapsed, rows: deleted, digest: AnswerDigest(.ordered, of: [deleted]), digestIsFull: false, work: work) }
            let held = try Census(counting: strategy)
            let verdict = try strategy.database.strings("PRAGMA quick_check")
            guard verdict == ["ok"] else { throw StoreCheckFailure(description: "\(stores[index].name): the store failed quick_check after delete-cascade") }
            try StoreFile.checkpoint(strategy.database)
            bytes[index] = fileSize(path)
            return Sample(nanoseconds: elapsed, rows: deleted, digest: AnswerDigest(.ordered, of: [deleted] + held.numbers), work: work)
        }
        return makeResults(workload, "", layouts, samples, bytes: bytes)
    }

    /// Each repetition runs the save on a fresh copy of the read store (copied untimed, its
    /// statements made untimed from the objects' versions there). Every repetition must make every
    /// change (clearing an object's links aside: it may have none); its statements are prepared
    /// before it is timed. The first reads back each concrete entity's objects, each many-to-many's
    /// links and every object the save inserted or updated, and its answer is their digest.
    private func measureSave(_ workload: Workload, _ layouts: [any StorageLayout], _ stores: [MeasuredStore]) throws -> [WorkloadResult] {
        guard let spec = workload.save else { throw NameList.Error(description: "\(workload.name) is a save without one") }
        let request = spec.request(dataset, seed: dataset.seed, values: workload.saveValues)
        try request.checkWhole("\(workload.name) (\(workload.request ?? "a save"))")
        var bytes = stores.map(\.bytes)
        let samples = try interleave(caseName(workload, Workload.saveVariant), workload, layouts) { index, repetition, _ in
            let path = storePath(stores[index].name, "save-\(repetition)")
            let copy = try stores[index].copy(to: path)
            defer { copy.remove() }
            let strategy = (try copy.opened)
            let prepared = try strategy.prepare(request, versions: try strategy.versions(of: request))
            try strategy.warm(prepared)
            var made = 0
            strategy.database.startCountingWork()
            let elapsed = try Sample.nanoseconds { made = try strategy.save(prepared) }
            let work = strategy.database.stopCountingWork()
            guard made >= request.mustWrite else {
                throw StoreCheckFailure(description: "\(stores[index].name): \(workload.name) made \(made) of its \(request.mustWrite) changes")
            }
            guard repetition == 0 else { return Sample(nanoseconds: elapsed, rows: made, digest: AnswerDigest(.ordered, of: [made]), digestIsFull: false, work: work) }
            let held = try Census(counting: strategy)
            let objects = try (request.inserted.map(\.id) + request.updated).flatMap { try strategy.fetch(.fault($0)) }
            try StoreFile.checkpoint(strategy.database)
            bytes[index] = fileSize(path)
            var digest = AnswerDigest(.ordered, of: [made] + held.numbers)
            for object in objects { digest.add(object) }
            return Sample(nanoseconds: elapsed, rows: made, digest: digest, work: work)
        }
        var results = makeResults(workload, Workload.saveVariant, layouts, samples, bytes: bytes)
        if let weight = workload.mixWeight {
            for index in results.indices { results[index].mix = MixShare(weight: weight, fetches: 1) }
        }
        return results
    }

    func interleave(_ caseName: String, _ workload: Workload, _ layouts: [any StorageLayout], loopTarget: UInt64? = nil,
                            onBlock: (Int) throws -> Void = { _ in },
                            _ repetition: (_ strategy: Int, _ repetition: Int, _ loops: Int) throws -> Sample) throws -> Rounds {
        let names = layouts.map { $0.name }
        let share = timeShare?.next(weight: workload.budget, strategies: names.count)
        let rule = plan.stoppingRule(for: workload, share: share)
        return try interleaveRounds(caseName, names, warmups: workload.warmups, rule: rule,
                             seed: plan.seed, baseline: names.firstIndex { $0 == Strategies.baseline.name },
                             loopTarget: loopTarget, blocks: rule.blocks(for: workload, plan: plan), onBlock: onBlock, onEvent: onEvent, repetition)
    }

    static let generateOnceLimit = 1_000_000

    /// The process's peak resident set size so far (`getrusage`'s `ru_maxrss`, KiB on Linux and
    /// bytes on macOS), in bytes; nil when the system does not say.
    private func peakResidentBytes() -> Int64? {
        var usage = rusage()
        #if os(Linux)
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0, usage.ru_maxrss > 0 else { return nil }
        return Int64(usage.ru_maxrss) * 1024
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0, usage.ru_maxrss > 0 else { return nil }
        return Int64(usage.ru_maxrss)
        #endif
    }

    func storePath(_ strategy: String, _ purpose: String) -> String {
        temporaryFolder.appendingPathComponent("\(strategy)-\(purpose).sqlite").path
    }
}
