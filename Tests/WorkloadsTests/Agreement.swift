import FetchRequests
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
            inputs = WorkloadInputs(dataset: generator)
        }

        /// A new in-memory store of `type` holding the objects.
        func open(_ type: any StorageLayout.Type) throws -> LayoutStore {
            try StrategyAgreement.open(type, model, batches: batches)
        }
    }

    /// The store check of `MeasuredStore.populate`: integrity, foreign keys, objects per entity, link rows.
    static func checkStore(_ model: Model, _ generator: ObjectGenerator, folder: URL, label: String, findings: Findings) throws {
        let census = Census(generator)
        for type in Strategies.all {
            let path = folder.appendingPathComponent("\(type.name)-\(UUID().uuidString).sqlite").path
            let store = try MeasuredStore(try type.init(model: model), path: path)
            defer { store.remove() }
            do { try store.populate(generator, batchSize: 97, census: census) } catch { findings.record("\(type.name) on \(label): \(error)") }
        }
    }

    /// Every strategy answers every read workload that applies as the reference does, and then,
    /// on the same store, writes as the reference says (`checkWrites`).
    static func check(_ model: Model, seed: UInt64, label: String, requestsPerCase: Int = 40, reads: Bool = true, writes: Bool = true,
                      findings: Findings) throws {
        let dataset = Dataset(model, seed: seed)
        let answers = reads ? expectedAnswers(dataset, requestsPerCase: requestsPerCase, findings: findings) : []
        for type in Strategies.all {
            let strategy = try dataset.open(type)
            let label = "\(type.name) on \(label)"
            for answer in answers { try answer.check(strategy, label: label, findings: findings) }
            if writes { try checkWrites(strategy, dataset: dataset, label: label, findings: findings) }
        }
    }

    /// One read request and the reference's answer to it, computed once for every strategy.
    struct ExpectedAnswer {
        let what: String
        let request: FetchRequest
        let counts: Bool
        let ordered: Bool
        let objects: [ModelObject]

        func check(_ strategy: LayoutStore, label: String, findings: Findings) throws {
            if counts {
                findings.expectEqual(try strategy.count(request), objects.count, "\(label): \(what) \(request)")
            } else {
                var answer = try strategy.fetch(request)
                if !ordered { answer.sort(by: ModelObject.answerOrder) }
                if let difference = StrategyAgreement.difference(answer, objects) { findings.record("\(difference) - \(label): \(what) \(request)") }
            }
        }
    }

    /// The first `requestsPerCase` requests of every case of every read workload that applies, with the reference's answers.
    static func expectedAnswers(_ dataset: Dataset, requestsPerCase: Int, findings: Findings) -> [ExpectedAnswer] {
        let model = dataset.model
        var answers: [ExpectedAnswer] = []
        for workload in Workloads.applicable(to: model) where workload.kind == .read {
            let cases = workload.cases(dataset.inputs)
            findings.expect(!cases.isEmpty, "\(workload.name) applies to \(model.name) but has no case")
            for workloadCase in cases {
                findings.expect(!workloadCase.requests.isEmpty, "\(workload.name) on \(model.name) has a case without requests")
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
    static func checkWrites(_ strategy: LayoutStore, dataset: Dataset, label: String, findings: Findings) throws {
        let (model, reference, inputs) = (dataset.model, dataset.reference, dataset.inputs)
        let deleted = reference.deletionClosure(inputs.deleteIDs)
        if let attribute = model.updateAttribute {
            let ids = inputs.updateIDs
            findings.expectEqual(try strategy.update(ids.map { ObjectVersion(id: $0, version: 1) }, attribute: attribute, value: inputs.updateValue(round: 3)),
                           ids.count, label)
            findings.expectEqual(try strategy.update(ids.map { ObjectVersion(id: $0, version: 1) }, attribute: attribute, value: .null), 0,
                           "\(label): a stale version changes nothing")
            findings.expectEqual(try strategy.versions(ids), ids.map { _ in 2 }, label)
            for id in ids.prefix(5) {
                let object = try strategy.fetch(FetchRequest(entity: id.entity, includesSubentities: false, predicate: .key(id.key)))
                findings.expectEqual(object.first.map { reference.value($0, attribute) }, inputs.updateValue(round: 3), label)
            }
        }
        if model.denyRule == nil {
            findings.expectEqual(try strategy.delete(inputs.deleteIDs), deleted.count, label)
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
            if let difference = StrategyAgreement.difference(stored, wanted) {
                findings.record("\(difference) - \(label): the objects of \(model.entities[root].name) after the update and the delete")
            }
        }
        for entity in model.entities where entity.isConcrete {
            let expected = reference.objects.keys.filter { $0.entity == entity.index && !gone.contains($0) }.count
            findings.expectEqual(try strategy.count(FetchRequest(entity: entity.index, includesSubentities: false)), expected,
                           "\(label): \(entity.name)")
        }
        for relationship in Census.relationships(model) {
            findings.expectEqual(try strategy.countLinks(relationship), reference.links(relationship, without: gone),
                           "\(label): \(relationship.name)")
        }
        findings.expectEqual(try strategy.database.strings("PRAGMA integrity_check"), ["ok"], label)
    }
}
