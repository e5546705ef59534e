import Generation
import Models
import SQLite
import Strategies
import TestSupport
import Workloads
import Foundation
import XCTest

/// Every strategy against the reference (answers computed from the generator alone), for every
/// workload that applies, on every preset, on generated models of depth 1 to 4, and on the Xcode
/// model fixtures (their objects shared evenly, as `--scale` shares them).
final class ReferenceAnswerTests: XCTestCase {
    /// Every preset, generated models of depth 1 to 4, and the model files under Tests/Fixtures.
    static var models: [ModelDescription] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return ModelPresets.all.map { $0.scaled(to: 1_200) } + (1 ... 4).map { depth in
            SyntheticModel.make(leaves: 6, attributes: 3, skew: 1, rows: 900, depth: depth)
        } + files.map { try! ModelDescription.load(path: fixtures.appendingPathComponent($0).path) } + xcodeFixtures
    }

    static var xcodeFixtures: [ModelDescription] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        return ["Library.xcdatamodeld", "Publications.xcdatamodel"].map { name in
            // A fixture that does not read fails the test that lists the models, with the reader's sentence.
            try! XcodeModelReader.read(path: fixtures.appendingPathComponent(name).path).description.sharing(1_200)
        }
    }

    func testTheFixturesAreAmongTheModels() {
        XCTAssertTrue(Self.models.contains { $0.name == "shop" })
    }

    func open(_ type: any StorageStrategy.Type, _ model: Model, _ generator: ObjectGenerator) throws -> any StorageStrategy {
        let strategy = try type.init(model: model, database: try Database(path: ":memory:"))
        try strategy.createSchema()
        for batch in generator.batches(of: 250) { try strategy.insert(batch) }
        return strategy
    }

    func testEveryStrategyAnswersEveryWorkloadAsTheReferenceDoes() throws {
        for description in Self.models {
            let model = try Model(description)
            let generator = ObjectGenerator(model, seed: 11)
            let reference = ReferenceStore(generator)
            let inputs = WorkloadInputs(model: model, generator: generator)
            for type in Strategies.all {
                let strategy = try open(type, model, generator)
                let label = "\(type.name) on \(model.name)"
                for workload in Workloads.applicable(to: model) where workload.kind == .read {
                    let cases = workload.cases(inputs)
                    XCTAssertFalse(cases.isEmpty, "\(workload.name) applies to \(model.name) but has no case")
                    for workloadCase in cases {
                        XCTAssertFalse(workloadCase.requests.isEmpty, "\(workload.name) on \(model.name)")
                        for request in workloadCase.requests.prefix(40) {
                            if workloadCase.counts {
                                XCTAssertEqual(try strategy.count(request), reference.count(request), "\(label): \(workload.name) \(request)")
                            } else {
                                var answer = try strategy.fetch(request)
                                if !workloadCase.ordered { answer.sort { $0.id < $1.id } }
                                let expected = reference.fetch(request)
                                XCTAssertEqual(answer.count, expected.count, "\(label): \(workload.name)\(workloadCase.variant) \(request)")
                                XCTAssertEqual(answer, expected, "\(label): \(workload.name)\(workloadCase.variant)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testEveryStrategyUpdatesAndDeletesAsTheReferenceSays() throws {
        for description in Self.models {
            let model = try Model(description)
            let generator = ObjectGenerator(model, seed: 5)
            let reference = ReferenceStore(generator)
            let inputs = WorkloadInputs(model: model, generator: generator)
            let deleted = reference.deletionClosure(inputs.deleteIDs)
            for type in Strategies.all {
                let strategy = try open(type, model, generator)
                let label = "\(type.name) on \(model.name)"
                if let attribute = model.updateAttribute {
                    let ids = inputs.updateIDs
                    XCTAssertEqual(try strategy.update(ids.map { ObjectVersion(id: $0, version: 1) }, attribute: attribute, value: inputs.updateValue(round: 3)),
                                   ids.count, label)
                    XCTAssertEqual(try strategy.update(ids.map { ObjectVersion(id: $0, version: 1) }, attribute: attribute, value: .null), 0,
                                   "\(label): a stale version changes nothing")
                    XCTAssertEqual(try strategy.versions(ids), ids.map { _ in 2 }, label)
                    for id in ids.prefix(5) {
                        let object = try strategy.fetch(FetchRequest(entity: id.entity, includesSubentities: false, predicate: .key(id.key)))
                        XCTAssertEqual(object.first.map { reference.value($0, attribute) }, inputs.updateValue(round: 3), label)
                    }
                }
                XCTAssertEqual(try strategy.delete(inputs.deleteIDs), deleted.count, label)
                for entity in model.entities where entity.isConcrete {
                    let expected = reference.objects.keys.filter { $0.entity == entity.index && !deleted.contains($0) }.count
                    XCTAssertEqual(try strategy.count(FetchRequest(entity: entity.index, includesSubentities: false)), expected, "\(label): \(entity.name)")
                }
                for relationship in Census.relationships(model) {
                    XCTAssertEqual(try strategy.countLinks(relationship), reference.links(relationship, without: deleted), "\(label): \(relationship.name)")
                }
                XCTAssertEqual(try strategy.database.strings("PRAGMA integrity_check"), ["ok"], label)
            }
        }
    }
}
