import ArgumentParser
import Workloads

/// How the dataset is generated and written: `--seed` and `--batch`, shared by every command that
/// builds stores (`run`, `sweep`, `storage`, `explain`, `generate`).
struct GeneratorOptions: ParsableArguments {
    @Option(help: "Seed of the dataset generator: the same model, seed and scale give the same dataset.")
    var seed: UInt64 = RunPlan.defaultSeed

    @Option(help: "Objects per transaction when inserting in bulk and when populating stores (1 to 1000000).")
    var batch: Int = RunPlan.defaultBatchSize

    func validate() throws {
        guard (1 ... 1_000_000).contains(batch) else {
            throw ValidationError("--batch must be between 1 and 1000000 objects per transaction; got \(batch)")
        }
    }
}
