import FetchRequests
import Foundation
import Generation
import Models
import SQLite
import Strategies
@testable import Workloads
import XCTest

final class RunnerTests: XCTestCase {
    /// SQLite's work counts do not depend on the machine or the run: two runs of one seed, one
    /// with twice the repetitions (so other loop counts and timings), count the same work in every
    /// case and strategy; and the counts tell the layouts apart where they should.
    func testWorkCountsAreTheSameInEveryRunOfOneSeed() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 200))
        func work(repetitions: Int) throws -> [String: WorkCounts] {
            let results = try Runner(plan: RunPlan(seed: 5, batchSize: 100, repetitions: repetitions), model: model).run()
            return Dictionary(uniqueKeysWithValues: results.map { ("\($0.strategy) \($0.caseName)", $0.work ?? WorkCounts()) })
        }
        let first = try work(repetitions: 1), second = try work(repetitions: 2)
        // Every workload that applies (the plan's default, `prefetch` and `fetch-sectioned` included): 26 cases.
        XCTAssertEqual(first.count, Strategies.all.count * 26)
        for (key, counts) in first.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(counts, second[key], key)
            XCTAssertGreaterThan(counts.vmSteps, 0, key)
            XCTAssertGreaterThan(counts.runs, 0, key)
        }
        // Counting the whole hierarchy: one table's count reads no table row by row; the union of
        // a table per entity scans each one.
        XCTAssertEqual(first["single-table count-all"]?.fullScanSteps, 0)
        XCTAssertGreaterThan(first["table-per-entity count-all"]?.vmSteps ?? 0, first["single-table count-all"]?.vmSteps ?? .max)
        XCTAssertGreaterThan(first["single-table insert-bulk"]?.cacheWrites ?? 0, 0, "inserts write pages")
    }

    func testEveryStrategyAgreesOnEveryWorkloadThatApplies() throws {
        for description in [ModelPresets.publications.scaled(to: 400), ModelPresets.efcoreAnimals.scaled(to: 400)] {
            let model = try Model(description)
            let plan = RunPlan(seed: 77, batchSize: 64, repetitions: 2)
            var events: [String] = []
            let runner = Runner(plan: plan, model: model) { event in
                if case let .measured(group) = event { events += group.map { "\($0.strategy) \($0.caseName)" } }
            }
            let results = try runner.run()
            let inputs = WorkloadInputs(dataset: ObjectGenerator(model, seed: 77))
            let cases = Workloads.applicable(to: model).reduce(0) { $0 + ($1.kind == .read ? $1.cases(inputs).count : 1) }
            XCTAssertEqual(results.count, Strategies.all.count * cases, model.name)
            XCTAssertEqual(events.count, results.count, "every result is reported as it completes")
            for (caseName, group) in Dictionary(grouping: results, by: \.caseName) {
                XCTAssertEqual(Set(group.map(\.digest.value)).count, 1, "\(model.name) \(caseName): digests differ")
                XCTAssertEqual(Set(group.map(\.rows)).count, 1, "\(model.name) \(caseName): row counts differ")
                XCTAssertEqual(group.map(\.strategy), Strategies.names)
            }
            for result in results {
                XCTAssertEqual(result.samples.count, 2)
                XCTAssertTrue(result.samples.allSatisfy { $0 > 0 })
                XCTAssertGreaterThan(result.dbBytes, 0)
                XCTAssertEqual(result.setting.hierarchy, model.name)
            }
            let rows = Dictionary(grouping: results, by: \.caseName).mapValues { $0[0].rows }
            XCTAssertEqual(rows["fetch-polymorphic"], 400)
            XCTAssertEqual(rows["count-by-type"], model.mainConcreteEntities.count)
            XCTAssertEqual(results.last?.workload, "update", "update runs after every other read")
            XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path), "temporary stores are removed")
        }
    }

    func testADisagreementStopsTheRunNamingBothStrategies() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let plan = RunPlan(strategies: [SingleTable.self, DroppingLeafRows.self], workloads: [Workloads.named("count-all")!, Workloads.named("fetch-leaf")!],
                           seed: 1, repetitions: 1)
        let runner = Runner(plan: plan, model: model)
        XCTAssertThrowsError(try runner.run()) { error in
            guard case let .disagreement(caseName, first, _, firstRows, second, _, secondRows) = error as? BenchmarkFailure else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(caseName, "fetch-leaf")
            XCTAssertEqual(first, "single-table")
            XCTAssertEqual(second, DroppingLeafRows.name)
            XCTAssertEqual(firstRows, secondRows + 1)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path))
    }

    /// A page of an order with ties (LIMIT without a unique last sort key) may hold other objects
    /// in each layout: it is checked as a page of the whole answer, which every layout must agree
    /// on; a layout whose page holds an object its whole answer does not fails before any timing.
    func testPagesOfAnOrderWithTiesAreCheckedAgainstTheWholeAnswer() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let page = Workload.fetch(try FetchSpec.parse("Book WHERE pageCount > 100 SORT BY pageCount LIMIT 5", model: model), number: 1)
        let results = try Runner(plan: RunPlan(strategies: [SingleTable.self, Joined.self, TablePerEntity.self], workloads: [page], seed: 1, repetitions: 2), model: model).run()
        XCTAssertEqual(results.map(\.rows), [5, 5, 5])
        let broken = Runner(plan: RunPlan(strategies: [SingleTable.self, DroppingLeafRows.self], workloads: [page], seed: 1, repetitions: 2), model: model)
        XCTAssertThrowsError(try broken.run()) { error in
            XCTAssertTrue("\(error)".hasPrefix("dropping-leaf-rows pages fetch-1 wrongly"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: broken.temporaryFolder.path))
        // A layout whose pages ignore the order holds objects of the answer, as many, but not the slice.
        let unordered = Runner(plan: RunPlan(strategies: [SingleTable.self, PagingWithoutOrder.self], workloads: [page], seed: 1, repetitions: 2), model: model)
        XCTAssertThrowsError(try unordered.run()) { XCTAssertTrue("\($0)".hasPrefix("paging-without-order pages fetch-1 wrongly"), "\($0)") }
    }

    /// A logged fetch whose values are drawn keeps, of `candidateDraws` times as many draws, the
    /// ones whose answers come closest to the rows the log says it returned: the fewest rows for a
    /// log of none, the most for a log of more than any draw returns.
    func testDrawnValuesOfALoggedFetchReturnAboutTheRowsItLogged() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        var spec = try FetchSpec.parse("Book WHERE pageCount > %@", model: model)
        spec.name = "line-1"
        func rows(_ target: Double?) throws -> Int {
            let workload = Workload.fetch(spec, number: 1, logged: [], rows: target)
            return try XCTUnwrap(try Runner(plan: RunPlan(strategies: [SingleTable.self, Joined.self], workloads: [workload], seed: 1, repetitions: 1), model: model).run().first).rows
        }
        // Every candidate's answer, counted on a store of the same objects.
        let dataset = ObjectGenerator(model, seed: 1)
        let store = LayoutStore(try SingleTable(model: model), database: try Database(path: ":memory:"))
        try store.createSchema()
        for batch in dataset.batches(of: 100) { try store.insert(batch) }
        let counts = try spec.requests(dataset, seed: dataset.seed, draws: Workload.fetchDraws * Workload.candidateDraws).map { try store.fetch($0).count }.sorted()
        XCTAssertEqual(try rows(0), counts.prefix(Workload.fetchDraws).reduce(0, +))
        XCTAssertEqual(try rows(10_000), counts.suffix(Workload.fetchDraws).reduce(0, +))
        XCTAssertLessThan(counts.first ?? 0, counts.last ?? 0, "the candidates differ")
        let plain = try rows(nil), middle = Double(counts[counts.count / 2])
        XCTAssertLessThanOrEqual(abs(Double(try rows(middle)) / 10 - middle), abs(Double(plain) / 10 - middle), "closer than the draws alone")
    }

    func testATimeBudgetRepeatsUntilSpentWithinBounds() {
        let rule = RunPlan(timeBudget: 0.001, minRepetitions: 3, maxRepetitions: 7).stoppingRule(for: Workloads.all[0])
        let long = { (rounds: Int) in [Array(repeating: UInt64(10_000_000_000), count: rounds)] }
        let short = { (rounds: Int) in [Array(repeating: UInt64(1), count: rounds)] }
        XCTAssertEqual(rule.decide(long(2), elapsed: 0), .another, "at least the minimum")
        XCTAssertEqual(rule.decide(long(3), elapsed: 0), .budget, "the budget is spent")
        XCTAssertEqual(rule.decide(short(3), elapsed: 0), .another)
        XCTAssertEqual(rule.decide(short(7), elapsed: 0), .count, "at most the maximum")
        XCTAssertNil(RunPlan(timeBudget: 0.001).repetitions(for: Workloads.all[0]))
    }

    func testAFailingEventHandlerStopsTheRunAndRemovesTheStores() throws {
        let model = try Model(ModelPresets.timestamps.scaled(to: 200))
        struct Refused: Error {}
        let runner = Runner(plan: RunPlan(repetitions: 1), model: model) { event in
            if case .measured = event { throw Refused() }
        }
        XCTAssertThrowsError(try runner.run()) { XCTAssertTrue($0 is Refused) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path))
    }

    /// A run whose parent folder is gone (a command's interruption removed its private folder as
    /// the run started) fails rather than making the folder again, which the interrupted command
    /// would then leave behind.
    func testARunWhoseFolderWasRemovedDoesNotMakeItAgain() throws {
        let model = try Model(ModelPresets.timestamps.scaled(to: 200))
        let removed = FileManager.default.temporaryDirectory.appendingPathComponent("removed-\(UUID().uuidString)")
        let runner = Runner(plan: RunPlan(repetitions: 1, temporaryParent: removed), model: model)
        XCTAssertThrowsError(try runner.run())
        XCTAssertFalse(FileManager.default.fileExists(atPath: removed.path))
    }

    /// A sweep's model may lack what a workload needs at some points: those points skip it.
    func testWorkloadsThatDoNotApplyAreSkipped() throws {
        let model = try Model(SyntheticModel.make(leaves: 3, attributes: 1, skew: 0, rows: 90, depth: 1))
        let results = try Runner(plan: RunPlan(workloads: [Workloads.named("fetch-branch")!, Workloads.named("count-all")!], repetitions: 1),
                                 model: model).run()
        XCTAssertEqual(Set(results.map(\.workload)), ["count-all"])
    }

    func testNameListsRejectMistakesWithOneClearSentence() throws {
        let model = try Model(ModelPresets.timestamps)
        XCTAssertThrowsError(try Workloads.parseList("count-all,,fetch-leaf", for: model)) { XCTAssertTrue("\($0)".contains("has an empty name")) }
        XCTAssertThrowsError(try Workloads.parseList("filter-fk", for: model)) { XCTAssertTrue("\($0)".contains("does not apply to the model timestamps")) }
        XCTAssertEqual(try Workloads.parseList("count-all, fetch-leaf", for: model).map(\.name), ["count-all", "fetch-leaf"])
    }
}

/// single-table with its fetches changed by a broken strategy of the tests: everything else forwarded.
protocol ChangedSingleTable: StorageLayout {
    var inner: SingleTable { get }
    init(inner: SingleTable)
}

extension ChangedSingleTable {
    static var summary: String { "a broken strategy for the tests" }
    init(model: Model) throws { self.init(inner: try SingleTable(model: model)) }
    var model: Model { inner.model }
    var schemaSQL: [String] { inner.schemaSQL }
    func insertPlan(_ entity: Int) -> InsertPlan? { inner.insertPlan(entity) }
    func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try inner.countQuery(request) }
    func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery { try inner.partialQuery(request, properties: properties) }
    func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery { try inner.linkedQuery(relationship) }
    func updatePlan(_ entity: Int, changes: [AttributeChange], toOnes: [ToOneChange]) throws -> [UpdateStep] { try inner.updatePlan(entity, changes: changes, toOnes: toOnes) }
    func unlinkSQL(_ relationship: Model.Relationship, owner: Int, destination: Int) throws -> String { try inner.unlinkSQL(relationship, owner: owner, destination: destination) }
    func versionSQL(_ entity: Int) -> String? { inner.versionSQL(entity) }
    func deleteStatements(_ entity: Int) throws -> DeleteStatements { try inner.deleteStatements(entity) }
    func linkCountSQL(_ relationship: Model.Relationship) throws -> [String] { try inner.linkCountSQL(relationship) }
}

/// single-table that loses the first row of every fetch of a leaf entity: a wrong answer the runner must catch.
struct DroppingLeafRows: ChangedSingleTable {
    static let name = "dropping-leaf-rows"
    let inner: SingleTable
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var query = try inner.fetchQuery(request)
        if !model.entities[request.entity].hasSubentities, request.limit == nil { query.sql += " LIMIT -1 OFFSET 1" }
        return query
    }
}

/// single-table whose pages ignore the request's order: the right number of objects of the answer,
/// but not the ones the order puts on the page.
struct PagingWithoutOrder: ChangedSingleTable {
    static let name = "paging-without-order"
    let inner: SingleTable
    func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        guard request.limit != nil else { return try inner.fetchQuery(request) }
        var unsorted = request
        unsorted.sort = []
        var query = try inner.fetchQuery(unsorted)
        query.sql = query.sql.replacingOccurrences(of: " LIMIT ?", with: " ORDER BY t0.Z_PK DESC LIMIT ?")
        return query
    }
}
