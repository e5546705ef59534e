import ArgumentParser
import CoreDataStores
import Foundation
import ModelSources
import Models
import Workloads

/// The model a command measures: a preset, a JSON model description, an Xcode model or SwiftData
/// `@Model` sources, scaled by `--scale`.
struct ModelOptions: ParsableArguments {
    /// Objects an Xcode model or Swift source (which have no rows) gets without `--scale`.
    static let defaultScaleWithoutRows = 10_000

    @Option(help: "The model to measure: \(ModelPresets.names.joined(separator: ", ")) (default: publications, 50,000 publications in a Publication entity and its 4 sub-entities, and 200 tags). See `bench list`.")
    var preset: String?

    @Option(help: ArgumentHelp("A model to measure instead of a preset: a JSON description (see docs/model.md, \"The model language\"), an Xcode Core Data model (an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file), SwiftData "
        + "@Model classes (a .swift file or a folder of them; see docs/model.md, \"Measure your SwiftData model\"), or a Core Data / SwiftData store file (App.sqlite, read-only; see docs/model.md, \"Measure your store\")."))
    var model: String?

    @Option(name: .customLong("model-version"), help: "With an .xcdatamodeld bundle: the version to read (default: the current one).")
    var modelVersion: String?

    @Option(help: "Entity=weight,…: share --scale among these concrete entities in proportion to the weights (others get no objects); default for an Xcode model: evenly among every concrete entity.")
    var mix: String?

    @Option(name: .customLong("fan-out"), help: "MIN-MAX: destinations each object of every generating many-to-many side links to (default: the model's own; 0-5 for an Xcode model or Swift source).")
    var fanOut: String?

    @Option(help: "The root entity whose hierarchy the workloads read, for a model with several (default: the one with the most objects; `bench model` lists them).")
    var root: String?

    func validate() throws {
        if preset != nil, model != nil { throw ValidationError("--preset and --model conflict: give one model") }
        if let preset, ModelPresets.named(preset) == nil {
            throw ValidationError(NameList.unknown(preset, valid: ModelPresets.names, what: "preset").description)
        }
        if modelVersion != nil {
            guard case .xcode = try source() else { throw ValidationError("--model-version applies to an Xcode model bundle (--model NAME.xcdatamodeld)") }
        }
        _ = try mixWeights()
        _ = try fanOutRange()
    }

    /// A model's mistakes (a file's, or a `--mix` or `--root` the preset does not have) are usage
    /// errors of every command that reads it: each command reads and checks its model in its own
    /// `validate()` (`load`), at the scale it runs, and keeps what it read for its run
    /// (`ValidatedModel`), so that the model is read and validated once.
    ///
    /// The model the command's `validate()` kept, or, when it kept none, the model read now.
    func model(_ kept: ValidatedModel, scale: Int?) throws -> LoadedModel {
        try kept.value ?? load(scale: scale)
    }

    /// `--mix` as weights by entity name; each mistake one sentence.
    func mixWeights() throws -> [String: Double]? {
        guard let mix else { return nil }
        var weights: [String: Double] = [:]
        let entries = mix.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard entries.contains(where: { !$0.isEmpty }) else { throw ValidationError("--mix is empty; give Entity=weight pairs separated by commas, such as Book=3,Film=1") }
        for entry in entries {
            let parts = entry.split(separator: "=", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--mix entry '\(entry)' must be Entity=weight, such as Book=3")
            }
            guard let weight = Double(parts[1]), weight.isFinite, weight > 0 else {
                throw ValidationError("--mix weight of '\(parts[0])' must be a positive number; got '\(parts[1])'")
            }
            guard weights.updateValue(weight, forKey: parts[0]) == nil else { throw ValidationError("--mix names '\(parts[0])' twice") }
        }
        guard weights.values.reduce(0, +).isFinite else {
            throw ValidationError("--mix weights add up to more than the largest number (about 1.8e308); give smaller weights, such as Book=3,Film=1; got '\(mix)'")
        }
        return weights
    }

    /// `--fan-out MIN-MAX` (or `N`).
    func fanOutRange() throws -> FanOut? {
        guard let fanOut else { return nil }
        let parts = fanOut.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1 ... 2).contains(parts.count), let min = parts.first ?? nil, let max = parts.last ?? nil,
              min >= 0, min <= max, max <= Model.maximumFanOut else {
            throw ValidationError("--fan-out must be MIN-MAX with 0 <= MIN <= MAX <= \(Model.maximumFanOut), such as 0-5; got '\(fanOut)'")
        }
        return FanOut(min: min, max: max)
    }

    /// Where the model comes from (`ModelSource.choose`); its mistakes are usage errors.
    func source() throws -> ModelSource {
        do { return try ModelSource.choose(preset: preset, model: model, version: modelVersion) }
        catch { throw ValidationError("\(error)") }
    }

    /// The model, read from its source and validated, with what reading it warned about (an Xcode
    /// model's constructs the suite does not store as Core Data would); every problem is a usage error.
    func load(scale: Int?) throws -> LoadedModel {
        let source = try source()
        let read: ModelSource.Read
        do { read = try source.read(root: root, readStore: ModelSource.readStore) } catch { throw ValidationError("\(error)") }
        return LoadedModel(source: source, model: try build(scale, from: read.description), warnings: read.warnings, store: read.store)
    }

    private func build(_ scale: Int?, from read: ModelDescription) throws -> Model {
        var description = read
        // An Xcode model or Swift source has no object counts, nor a store whose entities have none.
        let withoutRows = !description.entities.contains { $0.rows != nil }
        let prefix = model.map { "\($0.escapingControlCharacters): " } ?? ""
        do {
            try description.checkDescribedRows()
            let weights = try mixWeights()
            if withoutRows || weights != nil {
                let total = scale ?? (withoutRows ? Self.defaultScaleWithoutRows : description.entities.reduce(0) { $0 + ($1.abstract ? 0 : $1.rows ?? 0) })
                do { description = try description.sharing(total, weights: weights) }
                catch { throw ValidationError("\(error)") } // --mix's own mistakes name no file
            } else if let scale {
                description = description.scaled(to: scale)
            }
            if let fanOut = try fanOutRange() { description = try description.withFanOut(fanOut) }
            if let root { description.root = root }
            return try Model(description)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(prefix)\(error)")
        }
    }
}

/// A command's model, read from its source and validated once, passed on as a value: the model,
/// what reading it warned about, and where it came from.
struct LoadedModel {
    let source: ModelSource
    let model: Model
    let warnings: [String]
    /// The store file `--model` names, as the model was read from it; nil for any other source.
    let store: CoreDataStoreFile?

    /// The model, after printing what reading it warned about and, when it has no inheritance,
    /// a note: for the commands that go on to measure or describe it.
    func announced() -> Model {
        for warning in warnings { printError("warning: \(warning)") }
        if !model.hasInheritance {
            printError("note: no entity of \(model.name) has sub-entities: no inheritance to compare; every strategy stores it alike")
        }
        return model
    }
}

/// The model a command's `validate()` read, kept in the command for its run. Not an argument:
/// parsing leaves it empty.
struct ValidatedModel: Decodable {
    var value: LoadedModel?

    init() {}

    init(from decoder: Decoder) {}
}
