import Foundation
import Generation
import Models
import Strategies
import TestSupport
@testable import Workloads
import XCTest

/// The property the suite promises for any model Core Data accepts: it validates, every strategy
/// lays it out, stores it (the store check passes) and answers every workload as the reference
/// does, updates and deletes included. Over `RandomModel`'s models for fixed seeds, checked by two
/// workers at once (odd and even seeds); a failing model is reported as JSON with its seed, and the
/// model each worker is checking is always written to
/// `TMPDIR/inheritance-bench-generated-model-<worker>.json` first, so that a crash leaves it behind.
final class GeneratedModelTests: XCTestCase {
    static let seeds: ClosedRange<UInt64> = 1 ... 250

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testEveryGeneratedModelIsStoredAndAnsweredAlikeByEveryStrategy() throws {
        let seeds = Array(Self.seeds), folder = folder!
        let findings = Findings()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            let last = FileManager.default.temporaryDirectory.appendingPathComponent("inheritance-bench-generated-model-\(worker).json")
            for seed in stride(from: worker, to: seeds.count, by: 2).map({ seeds[$0] }) {
                let description = RandomModel.make(seed: seed)
                try? Data(description.json.utf8).write(to: last)
                let seedFindings = Findings()
                do {
                    let model = try Model(description)
                    let label = "generated model, seed \(seed)"
                    // The on-disk store check (SQLite's integrity and foreign-key checks) on every eighth model: it is the slowest
                    // part, and every model's in-memory stores pass the integrity check after their writes.
                    if seed % 8 == 0 { try Agreement.checkStore(model, ObjectGenerator(model, seed: seed), folder: folder, label: label, findings: seedFindings) }
                    try Agreement.check(model, seed: seed, label: label, requestsPerCase: 5, findings: seedFindings)
                } catch {
                    seedFindings.record("seed \(seed): \(error)")
                }
                let found = seedFindings.messages
                guard found.isEmpty else {
                    found.forEach(findings.record)
                    findings.record("generated model, seed \(seed), failed:\n\(description.json)")
                    return
                }
            }
            try? FileManager.default.removeItem(at: last)
        }
        findings.report()
    }

    /// Models the size of real ones are laid out, stored and answered alike by every strategy: a
    /// Photos store's (68 entities, about 938 attributes, 230 relationships, 203 fetch indexes), a
    /// shop back-end's (90 entities, no inheritance) and a messenger's (44 entities, 7 sub-entities).
    func testModelsOfRealSizesAreStoredAndAnsweredAlike() throws {
        let photos = try Model(RandomModel.make(seed: 68, size: .photos, maximumObjects: 2_000))
        XCTAssertEqual(photos.entities.count, 68)
        XCTAssertGreaterThan(photos.entities.reduce(0) { $0 + $1.ownAttributes.count }, 850)
        XCTAssertGreaterThan(photos.entities.reduce(0) { $0 + $1.ownRelationships.count }, 210, "about 230, as Photos has")
        XCTAssertEqual(photos.entities.reduce(0) { $0 + $1.fetchIndexes.count }, 204)
        let flat = try Model(RandomModel.make(seed: 90, size: .flat90, maximumObjects: 2_000))
        XCTAssertEqual(flat.entities.count, 90)
        XCTAssertFalse(flat.hasInheritance)
        let messenger = try Model(RandomModel.make(seed: 44, size: .messenger, maximumObjects: 2_000))
        XCTAssertEqual(messenger.entities.filter { !$0.isRoot }.count, 7)
        let findings = Findings()
        for (label, model) in [("Photos-sized", photos), ("90 entities", flat), ("44 entities", messenger)] {
            try Agreement.checkStore(model, ObjectGenerator(model, seed: 2), folder: folder, label: label, findings: findings)
            try Agreement.check(model, seed: 2, label: label, requestsPerCase: 5, findings: findings)
        }
        findings.report()
    }

    func testTheGeneratorCoversWhatItPromises() throws {
        var features = Set<String>()
        for seed in Self.seeds {
            let model = try Model(RandomModel.make(seed: seed))
            if model.entities.count >= 30 { features.insert("30+ entities") }
            if model.roots.filter({ model.entities[$0].hasSubentities }).count >= 2 { features.insert("several hierarchies") }
            if model.entities.contains(where: { $0.depth >= 5 }) { features.insert("depth 5+") }
            if model.entities.contains(where: { $0.isAbstract && $0.parent != nil && $0.hasSubentities }) { features.insert("abstract middle") }
            // `prefetch` asked of both kinds of to-many the agreement checks read.
            if Workloads.named("prefetch")?.applies(to: model) == true {
                let root = model.entities[model.mainRoot]
                for name in model.prefetchedRelationships { features.insert(root.relationship(name)?.isManyToMany == true ? "prefetch many-to-many" : "prefetch to-one inverse") }
            }
            for entity in model.entities {
                for relationship in entity.ownRelationships {
                    if relationship.isManyToMany { features.insert("many-to-many") }
                    if relationship.isHidden { features.insert("to-many without inverse") }
                    if relationship.isOneToOne { features.insert("one-to-one") }
                    if relationship.ordered, !relationship.isManyToMany { features.insert("ordered to-many") }
                    if relationship.destination == entity.index { features.insert("self-referential") }
                    let destination = model.entities[relationship.destination]
                    if destination.parent != nil && destination.hasSubentities { features.insert("to a middle entity") }
                    if destination.parent != nil && !destination.hasSubentities { features.insert("to a leaf") }
                }
                if entity.uniquenessConstraints.contains(where: { $0.count > 1 }) { features.insert("compound constraint") }
                if entity.fetchIndexes.contains(where: { $0.elements.contains { $0.property == nil } }) { features.insert("entity index element") }
                for type in AttributeType.allCases where entity.attributes.contains(where: { $0.type == type }) { features.insert(type.rawValue) }
            }
        }
        let promised: Set<String> = Set(["30+ entities", "several hierarchies", "depth 5+", "abstract middle", "many-to-many", "to-many without inverse", "one-to-one", "ordered to-many", "self-referential",
                                         "to a middle entity", "to a leaf", "compound constraint", "entity index element", "prefetch many-to-many", "prefetch to-one inverse"]
            + AttributeType.allCases.map(\.rawValue))
        XCTAssertEqual(promised.subtracting(features), [])
    }
}
