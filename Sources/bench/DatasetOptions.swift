import ArgumentParser
import CoreDataStores
import Foundation
import Generation
import ModelSources
import Models

/// Options that describe the dataset of a model: where its objects come from, its scale, and how
/// it is generated. Shared by `run`, `storage`, `explain` and `generate`.
struct DatasetOptions: ParsableArguments {
    static let maximumScale = Model.maximumRows

    /// Where a command's objects come from.
    enum DataSource: String, ExpressibleByArgument, CaseIterable {
        case generated, store
    }

    @Option(help: "Where the objects come from: generated (made from the model and --seed), or store: the objects of the store --model names (App.sqlite), every one copied into every layout; the store is only read.")
    var data: DataSource = .generated

    @Flag(help: ArgumentHelp("With --data store: leave out the rows that break the store's own model (an object with a value of the wrong kind or a NULL in a required attribute; "
        + "a to-one or join row naming an object the store lacks or one left out), naming them in a warning, rather than refusing the store."))
    var skipBadRows = false

    @Option(help: "Objects in the model's inheritance hierarchies (1 to \(maximumScale); default: the model's own rows, which --scale scales in proportion; entities outside them, such as tags, keep theirs).")
    var scale: Int?

    @OptionGroup var generator: GeneratorOptions

    var seed: UInt64 { generator.seed }
    var batch: Int { generator.batch }

    func validate() throws {
        try Self.check(scale: scale)
        if data == .store, scale != nil {
            throw ValidationError("--scale does not apply with --data store: the store's own objects are measured, as many as it holds; leave out --scale")
        }
        if skipBadRows, data != .store { throw ValidationError("--skip-bad-rows applies with --data store (the store's own rows)") }
    }

    /// `--scale`, for every command that takes one.
    static func check(scale: Int?) throws {
        if let scale, !(1 ... maximumScale).contains(scale) {
            throw ValidationError("--scale must be between 1 and \(maximumScale) objects; got \(scale)")
        }
    }

    /// `--data store` needs `--model` to name a store, whose model is its own: neither `--mix` nor `--fan-out` apply.
    func check(_ model: ModelOptions) throws {
        guard data == .store else { return }
        guard case .store = try model.source() else {
            throw ValidationError("--data store copies the objects of a Core Data or SwiftData store: give the store as --model (App.sqlite)")
        }
        if model.mix != nil { throw ValidationError("--mix does not apply with --data store: the store's own objects are measured; leave out --mix") }
        if model.fanOut != nil { throw ValidationError("--fan-out does not apply with --data store: the store's own links are measured; leave out --fan-out") }
    }

    /// The objects the command fills its stores with: generated, or the store's own, read through a
    /// private copy when it is in use (removed by `close()`, or on an interruption).
    func open(_ model: Model, source: ModelSource) throws -> OpenedDataset {
        guard data == .store, case let .store(path) = source else { return OpenedDataset(dataset: ObjectGenerator(model, seed: seed)) }
        let copy = StorePrivateCopy()
        let token = InterruptionHandler.removeOnInterruption { copy.cancel() }
        let close = { copy.remove(); InterruptionHandler.endRemoval(token) }
        do {
            let dataset = try StoreDataset.open(path: path, model: model, seed: seed, privateCopy: copy, skippingBadRows: skipBadRows, progress: { printError($0) })
            if let skipped = dataset.skipped {
                printError("warning: \(path.escapingControlCharacters): --skip-bad-rows left out \(dataset.leftOut) object\(dataset.leftOut == 1 ? "" : "s") whose values break its model, "
                    + "and every to-one and link naming an object it lacks or one left out; found: \(skipped.summary)")
            }
            return OpenedDataset(dataset: dataset, close: close)
        } catch {
            close()
            throw CommandFailure(description: "\(error)")
        }
    }
}

/// A command's dataset, and what ends its use (a store's private copy removed).
struct OpenedDataset {
    let dataset: any Dataset
    var close: () -> Void = {}
}
