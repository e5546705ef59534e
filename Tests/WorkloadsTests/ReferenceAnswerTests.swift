import Generation
import Models
import SQLite
import Strategies
import SwiftDataModels
import TestSupport
import Workloads
import Foundation
import XCTest

/// Every strategy against the reference (answers computed from the generator alone), for every
/// workload that applies, on every preset, on generated models of depth 1 to 4, and on the Xcode
/// and SwiftData model fixtures (their objects shared evenly, as `--scale` shares them).
final class ReferenceAnswerTests: XCTestCase {
    /// Every preset, generated models of depth 1 to 4, and the model files under Tests/Fixtures.
    static var models: [ModelDescription] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return ModelPresets.all.map { $0.scaled(to: 600) } + (1 ... 4).map { depth in
            SyntheticModel.make(leaves: 6, attributes: 3, skew: 1, rows: 450, depth: depth)
        } + files.map { try! ModelDescription.load(path: fixtures.appendingPathComponent($0).path) } + xcodeFixtures + swiftDataFixtures
    }

    static var swiftDataFixtures: [ModelDescription] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        return swiftDataFixtureNames.map { name in
            // A fixture that does not read fails the test that lists the models, with the reader's sentence.
            try! SwiftDataModelReader.read(path: fixtures.appendingPathComponent(name).path).description.sharing(600)
        }
    }

    /// The SwiftData source folders under Tests/Fixtures: the two models, then one folder per
    /// construct apps write (aliases, inferred types, versioned schemas, a shared inverse, a
    /// unique to-one and `let`, framework types, nested types of one name).
    static let swiftDataFixtureNames = [
        "SwiftDataPublications", "SwiftDataStudio", "SwiftDataAliases", "SwiftDataInferredTypes", "SwiftDataVersionedSchema",
        "SwiftDataSharedInverse", "SwiftDataUniqueToOne", "SwiftDataFrameworkTypes", "SwiftDataNestedTypes",
    ]

    static var xcodeFixtures: [ModelDescription] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        return ["Library.xcdatamodeld", "Notebook.xcdatamodeld", "Publications.xcdatamodel"].map { name in
            // A fixture that does not read fails the test that lists the models, with the reader's sentence.
            try! XcodeModelReader.read(path: fixtures.appendingPathComponent(name).path).description.sharing(600)
        }
    }

    func testTheFixturesAreAmongTheModels() {
        XCTAssertTrue(Self.models.contains { $0.name == "shop" })
        for name in Self.swiftDataFixtureNames { XCTAssertTrue(Self.models.contains { $0.name == name }, name) }
    }

    /// `prefetch` is among the workloads the agreement asks: of the presets, the publications'
    /// many-to-many `tags` (the others have no to-many on their main root, or no order).
    func testPrefetchIsAskedOfTheModelsWithAToMany() throws {
        let prefetch = try XCTUnwrap(Workloads.named("prefetch"))
        var asked: [String: [String]] = [:]
        for description in Self.models {
            let model = try Model(description)
            if prefetch.applies(to: model) { asked[model.name] = model.prefetchedRelationships }
        }
        XCTAssertEqual(asked[ModelPresets.publications.name], ["tags"])
        for preset in [ModelPresets.efcoreAnimals, ModelPresets.efcoreDocs, ModelPresets.codingMilitia, ModelPresets.timestamps] { XCTAssertNil(asked[preset.name], preset.name) }
        XCTAssertGreaterThan(asked.count, 1, "\(asked)")
    }

    func testEveryStrategyAnswersEveryWorkloadAsTheReferenceDoes() throws {
        let findings = Findings()
        for description in Self.models {
            try Agreement.check(try Model(description), seed: 11, label: description.name, writes: false, findings: findings)
        }
        findings.report()
    }

    func testEveryStrategyUpdatesAndDeletesAsTheReferenceSays() throws {
        let findings = Findings()
        for description in Self.models {
            try Agreement.check(try Model(description), seed: 5, label: description.name, reads: false, findings: findings)
        }
        findings.report()
    }
}
