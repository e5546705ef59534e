import Dataset
import Foundation
import Strategies
import TestSupport
@testable import Workloads
import XCTest

final class RunnerTests: XCTestCase {
    func testAllStrategiesAgreeOnEveryWorkloadAtSmallScale() throws {
        let plan = RunPlan(dataset: DatasetConfiguration(seed: 77, scale: 400), batchSize: 64, repetitions: 2, includeRaw: true)
        var events: [String] = []
        let runner = Runner(plan: plan) { event in
            if case let .measured(result) = event { events.append("\(result.strategy) \(result.caseName)") }
        }
        let results = try runner.run()
        let cases = Workload.allCases.reduce(0) { $0 + $1.variants.count }
        XCTAssertEqual(results.count, Strategies.all.count * cases + 2, "every strategy and case, plus raw's two")
        XCTAssertEqual(events.count, results.count, "every result is reported as it completes")
        let raw = results.filter { $0.strategy == "raw" }
        XCTAssertEqual(raw.map(\.caseName), ["insert-bulk", "fetch-polymorphic"])
        let strategies = results.filter { $0.strategy != "raw" }
        for (caseName, group) in Dictionary(grouping: strategies, by: \.caseName) {
            XCTAssertEqual(Set(group.map(\.digest.value)).count, 1, "\(caseName): digests differ")
            XCTAssertEqual(Set(group.map(\.rows)).count, 1, "\(caseName): row counts differ")
            XCTAssertEqual(group.count, Strategies.all.count)
        }
        // The raw insert builds the very store single-table builds; the raw fetch returns as many rows.
        let insert = results.filter { $0.caseName == "insert-bulk" }
        XCTAssertEqual(Set(insert.map(\.digest.value)).count, 1)
        XCTAssertEqual(raw[1].rows, 400)
        for result in results {
            XCTAssertEqual(result.samples.count, 2)
            XCTAssertTrue(result.samples.allSatisfy { $0 > 0 }, "\(result.strategy) \(result.caseName) has a zero sample")
            XCTAssertGreaterThan(result.dbBytes, 0)
        }
        let byCase = Dictionary(grouping: strategies, by: \.caseName).mapValues { $0[0].rows }
        XCTAssertEqual(byCase["insert-bulk"], 400)
        XCTAssertEqual(byCase["insert-single"], Workload.singleInsertCount)
        XCTAssertEqual(byCase["fetch-polymorphic"], 400)
        XCTAssertEqual(byCase["fetch-page"], Workload.pageSize)
        XCTAssertEqual(byCase["count-by-type"], 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path), "temporary stores are removed")
    }

    func testADisagreementStopsTheRunNamingBothStrategies() throws {
        let plan = RunPlan(
            strategies: ["single-table", DroppingBooksStrategy.name], workloads: [.countAll, .fetchLeaf],
            dataset: DatasetConfiguration(seed: 1, scale: 300), repetitions: 1
        )
        let runner = Runner(plan: plan, registry: Strategies.all + [DroppingBooksStrategy.self])
        XCTAssertThrowsError(try runner.run()) { error in
            guard case let .disagreement(caseName, first, _, firstRows, second, _, secondRows) = error as? BenchmarkFailure else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(caseName, "fetch-leaf")
            XCTAssertEqual(first, "single-table")
            XCTAssertEqual(second, DroppingBooksStrategy.name)
            XCTAssertEqual(firstRows, secondRows + 1)
            XCTAssertTrue("\(error)".contains("single-table") && "\(error)".contains(DroppingBooksStrategy.name))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path), "temporary stores are removed after a failure")
    }

    func testRawRunsOnlyWhenAskedAndWithSingleTable() throws {
        let dataset = DatasetConfiguration(seed: 3, scale: 100)
        let withoutSingleTable = RunPlan(strategies: ["enum-entity"], workloads: [.fetchPolymorphic], dataset: dataset, repetitions: 1, includeRaw: true)
        XCTAssertEqual(try Runner(plan: withoutSingleTable).run().map(\.strategy), ["enum-entity"])
        let noRaw = RunPlan(strategies: ["single-table"], workloads: [.fetchPolymorphic], dataset: dataset, repetitions: 1)
        XCTAssertEqual(try Runner(plan: noRaw).run().map(\.strategy), ["single-table"])
    }

    func testATimeBudgetRepeatsUntilSpentWithinBounds() throws {
        let dataset = DatasetConfiguration(seed: 3, scale: 200)
        let tiny = RunPlan(strategies: ["single-table"], workloads: [.countAll], dataset: dataset, timeBudget: 0.05, minRepetitions: 3, maxRepetitions: 40)
        XCTAssertEqual(try Runner(plan: tiny).run()[0].samples.count, 40, "a fast case stops at the maximum")
        let slow = RunPlan(strategies: ["single-table"], workloads: [.fetchPolymorphic], dataset: dataset, timeBudget: 0.000_001,
                           minRepetitions: 7, maxRepetitions: 40, includeRaw: false)
        XCTAssertEqual(try Runner(plan: slow).run()[0].samples.count, 7, "an exhausted budget still gives the minimum")
    }

    func testAFailingEventHandlerStopsTheRunAndRemovesTheStores() throws {
        struct DiskFull: Error {}
        let plan = RunPlan(strategies: ["single-table", "enum-entity"], workloads: [.insertBulk, .countAll],
                           dataset: DatasetConfiguration(seed: 2, scale: 150), repetitions: 1)
        var measured = 0
        let runner = Runner(plan: plan) { event in
            if case .measured = event {
                measured += 1
                throw DiskFull()
            }
        }
        XCTAssertThrowsError(try runner.run()) { XCTAssertTrue($0 is DiskFull) }
        XCTAssertEqual(measured, 1, "the run stops at the first failure")
        XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path), "temporary stores are removed")
    }

    func testReadsWithoutInsertBulkPopulateTheirOwnStore() throws {
        let plan = RunPlan(strategies: ["enum-entity"], workloads: [.countByType], dataset: DatasetConfiguration(seed: 2, scale: 123), repetitions: 1)
        let results = try Runner(plan: plan).run()
        XCTAssertEqual(results.map(\.caseName), ["count-by-type"])
        XCTAssertEqual(results[0].digest, AnswerDigest(.ordered, of: DatasetGenerator(plan.dataset).census().countsByKind))
    }

    func testLookupParametersAreBooksOfTheDataset() {
        let generator = DatasetGenerator(DatasetConfiguration(seed: 8, scale: 3_000))
        let parameters = WorkloadParameters(generator: generator)
        XCTAssertEqual(parameters.isbns.count, Workload.lookupCount)
        let isbns = Set(generator.publications(0 ..< 3_000).compactMap { p -> String? in
            if case let .book(isbn, _) = p.item.content { isbn } else { nil }
        })
        XCTAssertTrue(parameters.isbns.allSatisfy(isbns.contains))
        XCTAssertEqual(parameters.popularTag, DatasetGenerator.tagName(0))
        XCTAssertEqual(parameters.rareTag, DatasetGenerator.tagName(199))
    }

    func testWriteAndSearchParametersComeFromTheDataset() {
        let generator = DatasetGenerator(DatasetConfiguration(seed: 8, scale: 3_000))
        let parameters = WorkloadParameters(generator: generator)
        let items = generator.publications(0 ..< 3_000).map(\.item)
        for uids in [parameters.updateUIDs, parameters.deleteUIDs] {
            XCTAssertEqual(uids.count, 300, "a tenth of a dataset under 10,000 publications")
            XCTAssertEqual(Set(uids).count, uids.count, "without replacement")
            XCTAssertTrue(Set(uids).isSubset(of: Set(items.map(\.uid))))
        }
        XCTAssertNotEqual(parameters.updateUIDs, parameters.deleteUIDs)
        XCTAssertEqual(parameters.census, generator.census())
        // The longest prefix of a dataset title that at least scale / 250 titles start with.
        let matching = items.filter { parameters.titlePrefix.matches($0.title) }.count
        XCTAssertGreaterThanOrEqual(matching, 3_000 / 250)
        let longer = TitlePrefix(parameters.titlePrefix.prefix + " ")!
        XCTAssertTrue(items.contains { $0.title.hasPrefix(parameters.titlePrefix.prefix) })
        XCTAssertLessThanOrEqual(items.filter { longer.matches($0.title) }.count, matching)
        XCTAssertEqual(Workload.writeCount(scale: 100_000), 1_000)
        XCTAssertEqual(Workload.writeCount(scale: 60), 6)
        XCTAssertEqual(Workload.writeCount(scale: 5), 1)
        XCTAssertEqual(Workload.writeCount(scale: 0), 0)
        XCTAssertEqual(TitlePrefix("Ab")?.upper, "Ac")
        XCTAssertEqual(TitlePrefix("a\u{10FFFF}")?.upper, "b")
        XCTAssertEqual(TitlePrefix("\u{D7FF}")?.upper, "\u{E000}")
        XCTAssertNil(TitlePrefix(""))
    }

    /// `update` changes the read store, so the runner runs it after every other read, whatever
    /// order the plan names them in, and the other answers are those of a run without it.
    func testUpdateRunsLastAndChangesNoOtherAnswer() throws {
        let dataset = DatasetConfiguration(seed: 4, scale: 300)
        let withUpdate = RunPlan(strategies: ["single-table", "joined"], workloads: [.update, .fetchPage, .deleteCascade],
                                 dataset: dataset, repetitions: 2)
        let results = try Runner(plan: withUpdate).run()
        XCTAssertEqual(results.map(\.caseName), ["fetch-page", "fetch-page", "delete-cascade", "delete-cascade", "update", "update"])
        let alone = try Runner(plan: RunPlan(strategies: ["single-table"], workloads: [.fetchPage, .deleteCascade], dataset: dataset, repetitions: 1)).run()
        XCTAssertEqual(results[0].digest, alone[0].digest)
        XCTAssertEqual(results[2].digest, alone[1].digest)
        XCTAssertEqual(results[4].rows, 30)
        XCTAssertEqual(results[2].rows, 30)
    }

    func testNameListsRejectMistakesWithOneClearSentence() {
        let valid = ["a", "b"]
        XCTAssertEqual(try NameList.parse("b, a", valid: valid, what: "strategy"), ["b", "a"])
        for (text, expected) in [
            ("", "the strategy list is empty; give one or more of: a, b"),
            ("a,,b", "the strategy list 'a,,b' has an empty name; separate names with single commas"),
            ("a,c", "unknown strategy 'c'; choose from: a, b"),
            ("a,a", "strategy 'a' is listed twice"),
        ] {
            XCTAssertThrowsError(try NameList.parse(text, valid: valid, what: "strategy")) { XCTAssertEqual("\($0)", expected) }
        }
        XCTAssertEqual(try Workload.parseList("count-all,fetch-page"), [.countAll, .fetchPage])
    }
}
