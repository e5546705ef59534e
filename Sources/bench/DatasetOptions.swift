import ArgumentParser
import Models
import Workloads

/// Options that describe the dataset, shared by `run` and `generate`.
struct DatasetOptions: ParsableArguments {
    static let maximumScale = Model.maximumRows

    @Option(help: "Objects in the model's inheritance hierarchies (1 to \(maximumScale); default: the model's own rows, which --scale scales in proportion; entities outside them, such as tags, keep theirs).")
    var scale: Int?

    @Option(help: "Seed of the dataset generator: the same model, seed and scale give the same dataset.")
    var seed: UInt64 = RunPlan.defaultSeed

    @Option(help: "Objects per transaction when inserting in bulk and when populating stores (1 to 1000000).")
    var batch: Int = RunPlan.defaultBatchSize

    func validate() throws {
        try Self.check(scale: scale)
        guard (1 ... 1_000_000).contains(batch) else {
            throw ValidationError("--batch must be between 1 and 1000000 objects per transaction; got \(batch)")
        }
    }

    /// `--scale`, for every command that takes one.
    static func check(scale: Int?) throws {
        if let scale, !(1 ... maximumScale).contains(scale) {
            throw ValidationError("--scale must be between 1 and \(maximumScale) objects; got \(scale)")
        }
    }
}
