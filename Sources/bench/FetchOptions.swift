import ArgumentParser
import FetchFormat
import Models
import Workloads

/// `--fetch`: an app's own fetches, each read against the model into a workload (`run`, `explain`).
struct FetchOptions: ParsableArguments {
    @Option(name: .customLong("fetch"), help: ArgumentHelp("A fetch of your app's: '[name =] Entity [WHERE predicate] [SORT BY key [ASC|DESC], …] [LIMIT n] [OFFSET n]', "
        + "the predicate in NSPredicate's format as your app writes it, each %@ a value drawn from the data. Repeatable. See docs/workloads.md, \"Your own fetches\".", valueName: "fetch"))
    var fetches: [String] = []

    /// Each fetch read against the model, as a workload named as given or `fetch-N`; a mistake is
    /// a usage error quoting the fetch with a caret.
    func workloads(_ model: Model) throws -> [Workload] {
        var names = Set(Workloads.names)
        return try fetches.enumerated().map { offset, text in
            let workload: Workload
            do { workload = Workload.fetch(try FetchSpec.parse(text, model: model), number: offset + 1) }
            catch { throw ValidationError("--fetch: \(error)") }
            guard names.insert(workload.name).inserted else {
                throw ValidationError("--fetch: the name '\(workload.name)' is taken (by a workload, or another fetch); give the fetch another, such as 'my-fetch = Entity WHERE …'")
            }
            return workload
        }
    }
}
