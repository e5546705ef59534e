import ArgumentParser
import Models

/// Options that describe the dataset of a model: its scale, and how it is generated. Shared by
/// `run`, `storage`, `explain` and `generate`.
struct DatasetOptions: ParsableArguments {
    static let maximumScale = Model.maximumRows

    @Option(help: "Objects in the model's inheritance hierarchies (1 to \(maximumScale); default: the model's own rows, which --scale scales in proportion; entities outside them, such as tags, keep theirs).")
    var scale: Int?

    @OptionGroup var generator: GeneratorOptions

    var seed: UInt64 { generator.seed }
    var batch: Int { generator.batch }

    func validate() throws {
        try Self.check(scale: scale)
    }

    /// `--scale`, for every command that takes one.
    static func check(scale: Int?) throws {
        if let scale, !(1 ... maximumScale).contains(scale) {
            throw ValidationError("--scale must be between 1 and \(maximumScale) objects; got \(scale)")
        }
    }
}
