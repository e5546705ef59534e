import ArgumentParser
import CoreDataLogs
import Foundation
import Models
import Reporting
import Workloads

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Times your app's Core Data SQL log in every layout: its reads, read back as the fetches the app made, weighted by how often the log makes each.",
        discussion: """
            Run the app with the launch argument -com.apple.CoreData.SQLDebug 1 (or 2, which adds the bound \
            values) and save the console's output to a file. The log is read a line at a time (any size); \
            every line Core Data printed is kept, whatever precedes it on the line (NSLog's date and process) \
            and with or without colour codes, and the app's own lines are passed over. Each statement is told \
            by kind (fetch, ID pass, batch, fault, to-many fault, prefetch, count, dictionary fetch, and a \
            save's begin, key reservation, inserts, updates, deletes and commit) from its SQL and the \
            annotations after it, or listed with its line and why it is not understood. Through the model \
            (--model, or --preset), each read is read back as the fetch the app made, in the fetch format of \
            --fetch, its values drawn from the data; each distinct fetch is timed in every layout as a fetch of \
            yours is, weighted by how many times the log makes it, and the run ends with each layout's time for \
            the whole mix. Only counts, kinds, names and line numbers are printed: never a bound value. \
            With --dry-run it reads and prints what the log asks, times nothing. See docs/replay.md.
            """
    )

    @Argument(help: "The log file: Core Data's console output.")
    var log: String

    @Flag(help: "Read the log and print what it asks (with a model: the fetches it makes), without timing anything.")
    var dryRun = false

    @Flag(help: "Exit with status 1 when any statement is not understood.")
    var strict = false

    @OptionGroup var dataset: DatasetOptions

    /// The app's model: with it, each statement is read through the model's Core Data layout.
    @OptionGroup var model: ModelOptions

    @OptionGroup var strategies: StrategyOptions

    @OptionGroup var timing: TimingOptions

    @OptionGroup var output: ResultsOutputOptions

    @OptionGroup var storeFolder: StoreFolderOptions

    mutating func validate() throws {
        try output.checkForce()
        guard !dryRun else { return }
        guard model.model != nil || model.preset != nil else {
            throw ValidationError("timing a log needs the app's model: give it with --model (its store, Xcode model or SwiftData sources), or use --dry-run")
        }
        try output.checkNoneIsRead(model.source().inputs + [InputFile(log, "the log bench replay reads")])
        try dataset.check(model)
    }

    func run() throws {
        let started = Date()
        let loaded: LoadedModel?, read: LogRead
        do {
            loaded = model.model != nil || model.preset != nil ? try model.load(scale: dataset.scale) : nil
            read = try LogRead.read(log, schema: (loaded?.announced()).map { LogSchema(model: $0) }, model: model)
        } catch {
            throw reportFailure(error)
        }
        if dryRun || !output.quiet {
            print(ReplayReport.dryRun(read.summary, reader: read.reader, name: URL(fileURLWithPath: log).lastPathComponent, fetches: read.fetches), terminator: "")
        }
        if strict, read.summary.notUnderstoodCount > 0 {
            let listed = output.quiet && !dryRun ? "listed by --dry-run" : "listed above"
            printError("error: \(read.summary.notUnderstoodCount) of the log's statements are not understood (\(listed)); --strict allows none")
            throw ExitCode.failure
        }
        guard !dryRun, let loaded, let fetches = read.fetches else { return }
        guard !fetches.fetches.isEmpty else {
            let first = fetches.notReplayed.min { $0.value.earliest < $1.value.earliest }
            throw reportFailure(CommandFailure(description: "none of the reads of \(log) is replayed yet" + (first.map { " (line \($0.value.earliest): \($0.key))" } ?? "") + "; see what it asks with --dry-run"))
        }
        if !output.quiet { print("") }
        try Run.measure(Self.workloads(fetches), on: loaded.model, layouts: try strategies.layouts(), source: try model.source(), dataset: dataset, timing: timing,
                        output: output, storeFolder: storeFolder, analyze: false, started: started)
    }

    /// Each distinct fetch of the log as a fetch of yours, named by its first line, weighted by how
    /// many times the log makes it.
    static func workloads(_ fetches: LogFetches) -> [Workload] {
        fetches.fetches.enumerated().map { number, fetch in
            var spec = fetch.spec
            spec.name = "line-\(fetch.line)"
            var workload = Workload.fetch(spec, number: number + 1)
            workload.mixWeight = Double(fetch.count)
            return workload
        }
    }
}
