import ArgumentParser
import CoreDataStores
import Foundation
import Generation
import Models
import SQLite
import Strategies
import Workloads

struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Prints what a model is: its entity tree with entity numbers, each strategy's tables, and which workloads apply and why not.")

    @OptionGroup var model: ModelOptions
    @Option(help: "Objects in the model's inheritance hierarchies (1 to \(DatasetOptions.maximumScale); default: the model's own rows).")
    var scale: Int?
    @OptionGroup var strategies: StrategyOptions
    /// The model `validate()` read, for the run.
    var validated = ValidatedModel()

    mutating func validate() throws {
        try DatasetOptions.check(scale: scale)
        validated.value = try model.load(scale: scale)
    }

    func run() throws {
        let loaded = try self.model.model(validated, scale: scale)
        let (model, warnings) = (loaded.model, loaded.warnings)
        for warning in warnings { printError("warning: \(warning)") }
        print("Model \(model.name): \(model.entities.count) entities, main hierarchy \(model.entities[model.mainRoot].name)")
        if case let .xcode(path, version) = loaded.source, let bundle = try? XcodeModelBundle(path: path, version: version) {
            let version = bundle.version.map { ", version '\($0)' of \(bundle.versions.count)" } ?? ""
            print("Read \(bundle.contents)\(version): \(model.concreteEntities.count) concrete entities sharing \(model.roots.reduce(0) { $0 + model.objectCount($1) }) objects; \(warnings.count) "
                + "warning\(warnings.count == 1 ? "" : "s")\(warnings.isEmpty ? "" : " (on standard error)")")
        }
        if let store = loaded.store {
            let path = store.path.escapingControlCharacters
            let version = store.frameworkVersion.map { " (Core Data framework version \($0))" } ?? ""
            print("Read the store \(path)\(version): \(store.description.entities.count) entities, \(store.description.entities.reduce(0) { $0 + ($1.rows ?? 0) }) objects; "
                + "\(warnings.count) warning\(warnings.count == 1 ? "" : "s")\(warnings.isEmpty ? "" : " (on standard error)")")
            print(Self.shapeSummary(of: store))
            let proof = LayoutProof(model: model, store: store)
            print(proof.summary)
            for difference in proof.differences { print("  \(difference.escapingControlCharacters)") }
            for line in proof.explained { print("  not a difference: \(line.escapingControlCharacters)") }
        }
        if !model.hasInheritance { print("note: no entity has sub-entities, so there is no inheritance to compare; every strategy stores it alike") }
        if model.hierarchies.count > 1 {
            let list = model.hierarchies.map { root in
                "\(model.entities[root].name) (\(model.entities[root].subtree.count) entities, \(model.objectCount(root)) objects\(root == model.mainRoot ? "; the workloads read it" : ""))"
            }
            print("Hierarchies: \(list.joined(separator: ", ")); pick another with --root NAME")
        }
        for entity in model.entities {
            let kind = entity.isAbstract ? "abstract" : "\(entity.rows) objects"
            print(String(repeating: "  ", count: entity.depth + 1) + "\(entity.number) \(entity.name) (\(kind); \(entity.ownAttributes.count) attributes, \(entity.ownRelationships.count) relationships)")
            for line in Self.shapeLines(of: entity) { print(String(repeating: "  ", count: entity.depth + 3) + line.escapingControlCharacters) }
        }
        for type in try strategies.layouts() {
            do {
                let strategy = try type.init(model: model)
                print("\n\(type.name):")
                for statement in strategy.schemaSQL { print("  \(statement);") }
            } catch {
                print("\n\(type.name): cannot store this model: \(error)")
            }
        }
        print("\nWorkloads:")
        let width = Workloads.names.map(\.count).max() ?? 0
        for workload in Workloads.all {
            let applies = workload.inDefaultRun ? "applies" : "applies (not in the default run: name it in --workloads)"
            print("  " + workload.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + (workload.needs(model).map { "does not apply: \($0)" } ?? applies))
        }
        let inputs = WorkloadInputs(dataset: ObjectGenerator(model, seed: RunPlan.defaultSeed))
        let defaultRun = Workloads.defaultRun(on: model)
        let several = defaultRun.compactMap { workload -> String? in
            let variants = workload.variants(on: inputs)
            return variants.count > 1 ? "\(workload.name)'s \(variants.count): \(variants.joined(separator: ", "))" : nil
        }
        print("\nCases a run measures: \(Workload.caseCount(defaultRun, on: inputs)) (one per workload of the default run that applies"
              + several.map { ", but " + $0 }.joined() + "), each one result row per strategy")
    }
}
