import Foundation
import Generation
import Models
import SQLite
import Strategies
import TestSupport
@testable import Workloads
import XCTest

/// Every strategy against the reference answers (computed from the generator alone) on one model,
/// through the workloads: the store check, every read workload's requests, then on the same stores
/// an update and a delete with everything the store holds after them. The reference-answer tests and
/// the generated-model tests share it; its stores and comparisons are `StrategyAgreement`'s, whose
/// hand-written batteries the strategies' own tests ask.
enum Agreement {
    /// One model's objects, generated once, with the reference and the workloads' inputs built
    /// from them: every strategy's store is filled from `batches`.
    struct Dataset {
        let model: Model
        let generator: ObjectGenerator
        let batches: [[ModelObject]]
        let reference: ReferenceStore
        let inputs: WorkloadInputs

        init(_ model: Model, seed: UInt64) {
            self.model = model
            generator = ObjectGenerator(model, seed: seed)
            batches = Array(generator.batches(of: 250))
            reference = ReferenceStore(generator)
            inputs = WorkloadInputs(model: model, generator: generator)
        }

        /// A new in-memory store of `type` holding the objects.
        func open(_ type: any StorageStrategy.Type) throws -> any StorageStrategy {
            try StrategyAgreement.open(type, model, batches: batches)
        }
    }

    /// The store check of `Store.populate`: integrity, foreign keys, objects per entity, link rows.
    static func checkStore(_ model: Model, _ generator: ObjectGenerator, folder: URL, label: String,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let census = Census(generator)
        for type in Strategies.all {
            let path = folder.appendingPathComponent("\(type.name)-\(UUID().uuidString).sqlite").path
            let store = try Store(type, model, path: path)
            defer { store.remove() }
            XCTAssertNoThrow(try store.populate(generator, batchSize: 97, census: census), "\(type.name) on \(label)", file: file, line: line)
        }
    }

    /// Every strategy answers every read workload that applies as the reference does, and then,
    /// on the same store, writes as the reference says (`checkWrites`).
    static func check(_ model: Model, seed: UInt64, label: String, requestsPerCase: Int = 40, reads: Bool = true, writes: Bool = true,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let dataset = Dataset(model, seed: seed)
        let answers = reads ? expectedAnswers(dataset, requestsPerCase: requestsPerCase, file: file, line: line) : []
        for type in Strategies.all {
            let strategy = try dataset.open(type)
            let label = "\(type.name) on \(label)"
            for answer in answers { try answer.check(strategy, label: label, file: file, line: line) }
            if writes { try checkWrites(strategy, dataset: dataset, label: label, file: file, line: line) }
        }
    }

    /// One read request and the reference's answer to it, computed once for every strategy.
    struct ExpectedAnswer {
        let what: String
        let request: FetchRequest
        let counts: Bool
        let ordered: Bool
        let objects: [ModelObject]

        func check(_ strategy: any StorageStrategy, label: String, file: StaticString, line: UInt) throws {
            if counts {
                XCTAssertEqual(try strategy.count(request), objects.count, "\(label): \(what) \(request)", file: file, line: line)
            } else {
                var answer = try strategy.fetch(request)
                if !ordered { answer.sort { $0.id < $1.id } }
                XCTAssertNil(StrategyAgreement.difference(answer, objects), "\(label): \(what) \(request)", file: file, line: line)
            }
        }
    }

    /// The first `requestsPerCase` requests of every case of every read workload that applies, with the reference's answers.
    static func expectedAnswers(_ dataset: Dataset, requestsPerCase: Int, file: StaticString, line: UInt) -> [ExpectedAnswer] {
        let model = dataset.model
        var answers: [ExpectedAnswer] = []
        for workload in Workloads.applicable(to: model) where workload.kind == .read {
            let cases = workload.cases(dataset.inputs)
            XCTAssertFalse(cases.isEmpty, "\(workload.name) applies to \(model.name) but has no case", file: file, line: line)
            for workloadCase in cases {
                XCTAssertFalse(workloadCase.requests.isEmpty, "\(workload.name) on \(model.name)", file: file, line: line)
                for request in workloadCase.requests.prefix(requestsPerCase) {
                    answers.append(ExpectedAnswer(what: workload.name + (workloadCase.counts ? "" : workloadCase.variant), request: request,
                                                  counts: workloadCase.counts, ordered: workloadCase.ordered,
                                                  objects: dataset.reference.fetch(request)))
                }
            }
        }
        return answers
    }

    /// An update (and a stale one), then a delete, and every object, count and link left after them.
    static func checkWrites(_ strategy: any StorageStrategy, dataset: Dataset, label: String, file: StaticString, line: UInt) throws {
        let (model, reference, inputs) = (dataset.model, dataset.reference, dataset.inputs)
        let deleted = reference.deletionClosure(inputs.deleteIDs)
        if let attribute = model.updateAttribute {
            let ids = inputs.updateIDs
            XCTAssertEqual(try strategy.update(ids.map { ObjectVersion(id: $0, version: 1) }, attribute: attribute, value: inputs.updateValue(round: 3)),
                           ids.count, label, file: file, line: line)
            XCTAssertEqual(try strategy.update(ids.map { ObjectVersion(id: $0, version: 1) }, attribute: attribute, value: .null), 0,
                           "\(label): a stale version changes nothing", file: file, line: line)
            XCTAssertEqual(try strategy.versions(ids), ids.map { _ in 2 }, label, file: file, line: line)
            for id in ids.prefix(5) {
                let object = try strategy.fetch(FetchRequest(entity: id.entity, includesSubentities: false, predicate: .key(id.key)))
                XCTAssertEqual(object.first.map { reference.value($0, attribute) }, inputs.updateValue(round: 3), label, file: file, line: line)
            }
        }
        if model.denyRule == nil {
            XCTAssertEqual(try strategy.delete(inputs.deleteIDs), deleted.count, label, file: file, line: line)
        }
        let gone = model.denyRule == nil ? deleted : []
        // Every object left, as the reference says: the updated values, the deleted objects gone,
        // the references to them cleared as the delete rules say.
        var expected = reference.remaining(after: gone)
        if let attribute = model.updateAttribute {
            for id in inputs.updateIDs where expected[id] != nil {
                expected[id]!.values[model.entities[id.entity].attributeIndex(attribute)!] = inputs.updateValue(round: 3)
            }
        }
        for root in model.roots {
            let stored = try strategy.fetch(FetchRequest(entity: root)).sorted { $0.id < $1.id }
            let wanted = expected.values.filter { model.entities[root].subtree.contains($0.id.entity) }.sorted { $0.id < $1.id }
            XCTAssertNil(StrategyAgreement.difference(stored, wanted), "\(label): the objects of \(model.entities[root].name) after the update and the delete",
                         file: file, line: line)
        }
        for entity in model.entities where entity.isConcrete {
            let expected = reference.objects.keys.filter { $0.entity == entity.index && !gone.contains($0) }.count
            XCTAssertEqual(try strategy.count(FetchRequest(entity: entity.index, includesSubentities: false)), expected,
                           "\(label): \(entity.name)", file: file, line: line)
        }
        for relationship in Census.relationships(model) {
            XCTAssertEqual(try strategy.countLinks(relationship), reference.links(relationship, without: gone),
                           "\(label): \(relationship.name)", file: file, line: line)
        }
        XCTAssertEqual(try strategy.database.strings("PRAGMA integrity_check"), ["ok"], label, file: file, line: line)
    }
}
