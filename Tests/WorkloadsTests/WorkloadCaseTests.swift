import Dataset
import Foundation
import Strategies
import Workloads
import XCTest

final class WorkloadCaseTests: XCTestCase {
    private let dataset = DatasetConfiguration(seed: 5, scale: 300)

    func testRunAnswersWithTheWorkloadsRowCounts() throws {
        let page = try WorkloadCase(strategy: "single-table", workload: .fetchPage, dataset: dataset, batchSize: 64)
        XCTAssertEqual(try page.run(), Workload.pageSize)
        XCTAssertEqual(try page.run(), Workload.pageSize, "a read case repeats on the same store")
        let counts = try WorkloadCase(strategy: "enum-entity", workload: .countByType, dataset: dataset)
        XCTAssertEqual(try counts.run(), 5)
        let all = try WorkloadCase(strategy: "table-per-entity", workload: .fetchPolymorphic, dataset: dataset)
        XCTAssertEqual(try all.run(), dataset.scale)
    }

    func testEveryStrategyGivesTheSameRowCountForEveryReadCase() throws {
        for workload in Workload.allCases where !workload.isInsert {
            for variant in workload.variants {
                let rows = try Strategies.names.map { name in
                    try WorkloadCase(strategy: name, workload: workload, variant: variant, dataset: dataset, batchSize: 100).run()
                }
                XCTAssertEqual(Set(rows).count, 1, "\(workload.rawValue)/\(variant): \(zip(Strategies.names, rows).map { "\($0) \($1)" })")
            }
        }
    }

    func testInsertCasesUseAFreshCheckedStorePerRepetition() throws {
        let single = try WorkloadCase(strategy: "table-per-entity", workload: .insertSingle, dataset: dataset)
        XCTAssertEqual(try single.run(), Workload.singleInsertCount, "run prepares a repetition itself when none is")
        try single.prepareRepetition() // checks the first repetition's store, then starts a fresh one
        XCTAssertEqual(try single.run(), Workload.singleInsertCount, "a second repetition inserts into a fresh store")
        try single.prepareRepetition()
        try single.prepareRepetition() // preparing twice without a run is allowed
        XCTAssertEqual(try single.run(), Workload.singleInsertCount)

        let bulk = try WorkloadCase(strategy: "enum-entity", workload: .insertBulk, dataset: dataset, batchSize: 64)
        for _ in 0 ..< 2 {
            try bulk.prepareRepetition()
            XCTAssertEqual(try bulk.run(), dataset.scale)
        }
        try bulk.prepareRepetition()
        let stores = try FileManager.default.contentsOfDirectory(atPath: bulk.temporaryFolder.path).filter { $0.hasSuffix(".sqlite") }
        XCTAssertEqual(stores.count, 1, "earlier repetitions' stores are removed: \(stores)")
    }

    func testTheMeasuredRegionIsMarkedOncePerRepetitionAroundTheWork() throws {
        for workload in [Workload.countAll, .insertSingle] {
            let workloadCase = try WorkloadCase(strategy: "single-table", workload: workload, dataset: dataset)
            try workloadCase.prepareRepetition()
            var marks: [String] = []
            let rows = try workloadCase.run(startMeasurement: { marks.append("start") }, stopMeasurement: { marks.append("stop") })
            XCTAssertEqual(marks, ["start", "stop"], workload.rawValue)
            XCTAssertGreaterThan(rows, 0)
        }
    }

    func testTheFolderIsRemovedOnDeinitAndOnClose() throws {
        var workloadCase: WorkloadCase? = try WorkloadCase(strategy: "single-table", workload: .countAll, dataset: dataset)
        let folder = workloadCase!.temporaryFolder
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path))
        XCTAssertEqual(try workloadCase!.run(), 1)
        workloadCase = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path), "deinit removes the stores")

        let insert = try WorkloadCase(strategy: "enum-entity", workload: .insertSingle, dataset: dataset)
        try insert.prepareRepetition()
        insert.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: insert.temporaryFolder.path), "close removes the stores")
        XCTAssertThrowsError(try insert.run())
    }

    func testUnknownStrategiesAndVariantsAreRejected() {
        XCTAssertThrowsError(try WorkloadCase(strategy: "wide", workload: .countAll, dataset: dataset)) {
            XCTAssertEqual("\($0)", "unknown strategy 'wide'; choose from: \(Strategies.names.joined(separator: ", "))")
        }
        XCTAssertThrowsError(try WorkloadCase(strategy: "single-table", workload: .fetchByTag, dataset: dataset)) {
            XCTAssertEqual("\($0)", "unknown variant of fetch-by-tag ''; choose from: popular, rare")
        }
        XCTAssertThrowsError(try WorkloadCase(strategy: "single-table", workload: .countAll, variant: "rare", dataset: dataset))
    }
}
