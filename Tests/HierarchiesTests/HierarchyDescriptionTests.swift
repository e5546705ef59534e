import Dataset
import Foundation
@testable import Hierarchies
import Workloads
import XCTest

final class HierarchyDescriptionTests: XCTestCase {
    func testPresetsAreValidAndShapedAsPublished() throws {
        for preset in HierarchyPresets.all { try preset.validate() }
        let efcore = HierarchyPresets.efcoreDocs
        XCTAssertEqual(efcore.concreteEntities.count, 7)
        XCTAssertEqual(Set(efcore.concreteEntities.map(\.rows)), [5_000])
        let militia = HierarchyPresets.codingMilitia
        XCTAssertTrue(militia.base.abstract)
        XCTAssertEqual(militia.base.attributes.count + 1, 5, "four attributes and the foreign key")
        XCTAssertEqual(militia.subEntities.map(\.attributes.count), Array(repeating: 5, count: 10))
        XCTAssertEqual(militia.totalRows, 1_000_000)
        XCTAssertEqual(HierarchyPresets.timestamps.base.attributes.map(\.name), ["createdate", "updatedate"])
        XCTAssertEqual(HierarchyPresets.timestamps.concreteEntities[HierarchyPresets.timestamps.leafIndex].name, "Episode")
    }

    func testScalingKeepsProportionsAndTheExactTotal() {
        let scaled = HierarchyPresets.timestamps.scaled(to: 1_001)
        XCTAssertEqual(scaled.totalRows, 1_001)
        XCTAssertEqual(scaled.subEntities.map(\.rows), [20, 400, 501, 80])
        XCTAssertEqual(HierarchyPresets.efcoreDocs.scaled(to: 10).concreteEntities.map(\.rows), [2, 2, 2, 1, 1, 1, 1])
        let skewed = HierarchyPresets.synthetic(subEntities: 4, attributes: 2, skew: 1, rows: 2_500)
        XCTAssertEqual(skewed.subEntities.map(\.rows), [1_200, 600, 400, 300])
        XCTAssertEqual(HierarchyPresets.synthetic(subEntities: 3, attributes: 7, skew: 0, rows: 9).subEntities.map(\.attributes.count), [7, 7, 7])
    }

    func testAJSONDescriptionRoundTripsAndBadOnesAreExplained() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hierarchy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ text: String) throws -> HierarchyDescription {
            let file = folder.appendingPathComponent("h.json")
            try Data(text.utf8).write(to: file)
            return try HierarchyDescription.load(path: file.path)
        }
        func problem(_ text: String) -> String {
            do { _ = try load(text); return "accepted" } catch { return "\(error)" }
        }
        XCTAssertEqual(try load(HierarchyPresets.codingMilitia.json), HierarchyPresets.codingMilitia)
        let minimal = #"{"name":"m","base":{"name":"A","abstract":true,"attributes":[]},"subEntities":[{"name":"B","attributes":[],"rows":3}]}"#
        XCTAssertEqual(try load(minimal).totalRows, 3)
        XCTAssertTrue(problem("{").contains("not valid JSON"), problem("{"))
        XCTAssertTrue(problem(#"{"name":"m"}"#).contains("lacks \"base\""), problem(#"{"name":"m"}"#))
        let cases: [(String, String)] = [
            (minimal.replacingOccurrences(of: "\"B\"", with: "\"a\""), "used twice"),
            (minimal.replacingOccurrences(of: "\"rows\":3", with: "\"rows\":0"), "has no rows"),
            (minimal.replacingOccurrences(of: "\"rows\":3", with: "\"rows\":-1"), "rows must be between 0"),
            (minimal.replacingOccurrences(of: "\"rows\":3}]", with: "\"rows\":6000000},{\"name\":\"C\",\"attributes\":[],\"rows\":6000000}]"),
             "12000000 rows in all, more than the 10000000"),
            (minimal.replacingOccurrences(of: "\"B\"", with: "\"B; DROP TABLE\""), "ASCII letters and digits"),
            (minimal.replacingOccurrences(of: "\"attributes\":[],\"rows\"", with: "\"attributes\":[{\"name\":\"uid\",\"type\":\"string\"}],\"rows\""), "reserved"),
            (minimal.replacingOccurrences(of: "\"attributes\":[],\"rows\"", with: "\"attributes\":[{\"name\":\"x\",\"type\":\"float\"}],\"rows\""), "must be one of integer"),
            (minimal.replacingOccurrences(of: "\"abstract\":true", with: "\"abstract\":true,\"rows\":5"), "is abstract but has 5 rows"),
            (minimal.replacingOccurrences(of: "\"subEntities\":[{\"name\":\"B\",\"attributes\":[],\"rows\":3}]", with: "\"subEntities\":[]"), "no sub-entities"),
        ]
        for (text, expected) in cases {
            XCTAssertTrue(problem(text).contains(expected), "\(expected): \(problem(text))")
            XCTAssertFalse(problem(text).contains("\n"))
        }
        XCTAssertThrowsError(try HierarchyDescription.load(path: folder.appendingPathComponent("missing.json").path)) {
            XCTAssertTrue("\($0)".hasPrefix("cannot read the hierarchy file"), "\($0)")
        }
    }

    func testTheGeneratorIsDeterministicExactAndMixed() {
        let description = HierarchyPresets.timestamps.scaled(to: 2_000)
        let generator = HierarchyGenerator(description, seed: 5)
        XCTAssertEqual(generator.objects(0 ..< 50), HierarchyGenerator(description, seed: 5).objects(0 ..< 50))
        XCTAssertNotEqual(generator.objects(0 ..< 50), HierarchyGenerator(description, seed: 6).objects(0 ..< 50))
        var counts = [0, 0, 0, 0]
        for index in 0 ..< generator.count { counts[generator.entity(at: index)] += 1 }
        XCTAssertEqual(counts, description.concreteEntities.map(\.rows))
        // Every prefix mixes the entities (no long run of one type, as a sorted insert would have).
        XCTAssertEqual(Set((0 ..< 100).map(generator.entity(at:))).count, 4)
        XCTAssertEqual(Set((0 ..< generator.count).map { generator.object(at: $0).uid }).count, generator.count)
        // Values take the declared types: History is position (double), watchedAt (date), finished (boolean).
        let history = generator.objects(0 ..< 200).first { $0.entity == 2 }!
        guard case .real = history.values[2], case .real = history.values[3], case let .integer(flag) = history.values[4] else {
            return XCTFail("\(history)")
        }
        XCTAssertTrue(flag == 0 || flag == 1)
    }

    func testTheDescribedRunnerMeasuresEveryWorkloadAndChecksAgreement() throws {
        let description = HierarchyPresets.codingMilitia.scaled(to: 400)
        var events: [String] = []
        let runner = DescribedRunner(
            plan: RunPlan(dataset: DatasetConfiguration(seed: 9, scale: 400), batchSize: 64, repetitions: 2),
            description: description, workloads: DescribedWorkload.available(for: description)
        ) { event in if case let .measured(result) = event { events.append(result.caseName) } }
        let results = try runner.run()
        XCTAssertEqual(results.count, 5 * DescribedWorkload.allCases.count)
        XCTAssertEqual(events.count, results.count)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runner.temporaryFolder.path))
        for workload in DescribedWorkload.allCases {
            let group = results.filter { $0.workload == workload.rawValue }
            XCTAssertEqual(Set(group.map(\.digest.description)).count, 1, workload.rawValue)
            XCTAssertEqual(Set(group.map(\.rows)).count, 1, workload.rawValue)
            XCTAssertTrue(group.allSatisfy { $0.samples.count == 2 && $0.setting == ResultSetting(hierarchy: "codingmilitia", scale: 400) })
        }
        let rows = Dictionary(uniqueKeysWithValues: results.filter { $0.strategy == "single-table" }.map { ($0.workload, $0.rows) })
        XCTAssertEqual(rows["insert-bulk"], 400)
        XCTAssertEqual(rows["fetch-polymorphic"], 400)
        XCTAssertEqual(rows["fetch-leaf"], 40)
        XCTAssertEqual(rows["count-by-type"], 10)
        XCTAssertEqual(rows["page-offset"], 50)
        XCTAssertEqual(rows["lookup-id"], 1_000)
        XCTAssertGreaterThan(rows["filter-fk"] ?? 0, 0)
    }
}
