import ArgumentParser
import Dataset
import Foundation
import Reporting
import Strategies
import Workloads

/// Options that describe the dataset, shared by `run` and `generate`.
struct DatasetOptions: ParsableArguments {
    static let maximumScale = 10_000_000

    @Option(help: "Publications in the dataset (1 to \(maximumScale)).")
    var scale: Int = DatasetConfiguration.defaultScale

    @Option(help: "Seed of the dataset generator: the same seed and scale give the same dataset.")
    var seed: UInt64 = DatasetConfiguration.defaultSeed

    @Option(help: "Objects per transaction when inserting in bulk and when populating stores (1 to 1000000).")
    var batch: Int = RunPlan.defaultBatchSize

    func validate() throws {
        guard (1 ... Self.maximumScale).contains(scale) else {
            throw ValidationError("--scale must be between 1 and \(Self.maximumScale) publications; got \(scale)")
        }
        guard (1 ... 1_000_000).contains(batch) else {
            throw ValidationError("--batch must be between 1 and 1000000 objects per transaction; got \(batch)")
        }
    }

    var configuration: DatasetConfiguration { DatasetConfiguration(seed: seed, scale: scale) }
}

/// A failure the user can act on: printed as one line on standard error, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Prints `error: …` for a failure and turns it into exit status 1; passes other exits through.
func reportFailure(_ error: Error) -> Error {
    if error is ExitCode || error is CleanExit { return error }
    printError("error: \(error)")
    return ExitCode.failure
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Whether standard error is a terminal (progress is shown only there).
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

func warnIfDebugBuild() {
    guard RunContext.isDebugBuild else { return }
    printError("""
        warning: this is a DEBUG build: its timings are not meaningful and must not be compared or published.
        warning: build and run in release mode: swift run -c release bench
        """)
}
