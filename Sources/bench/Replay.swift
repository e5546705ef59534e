import ArgumentParser
import CoreDataLogs
import Foundation
import Generation
import Models
import Reporting
import Workloads

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Times your app's Core Data SQL log in every layout: its reads and saves, read back as the fetches and saves the app made, weighted by how often the log makes each, and its session in order.",
        discussion: """
            Run the app with the launch argument -com.apple.CoreData.SQLDebug 1 (or 2, which adds the bound \
            values) and save the console's output to a file. The log is read a line at a time (any size); \
            every line Core Data printed is kept, whatever precedes it on the line (NSLog's date and process) \
            and with or without colour codes, and the app's own lines are passed over. Each statement is told \
            by kind (fetch, ID pass, batch, fault, to-many fault, prefetch, count, dictionary fetch, and a \
            save's begin, key reservation, inserts, updates, deletes and commit) from its SQL and the \
            annotations after it, or listed with its line and why it is not understood. Through the model \
            (--model, or --preset), each read is read back as the fetch the app made, in the fetch format of \
            --fetch, its values drawn from the data, or (--values logged, the default with --data store) those the log bound \
            where they fit the fetch, and each transaction as the save the app made (objects inserted, updated, deleted, \
            links added and removed; its objects drawn from the data); each distinct fetch and save is timed in every layout, \
            weighted by how many times the log makes it, and the run ends with each layout's time for \
            the whole mix; the session, every replayed fetch and save in the log's order, is timed as one more case. \
            Only counts, kinds, names and line numbers are printed: never a bound value. \
            With --dry-run it reads and prints what the log asks, times nothing. See docs/replay.md.
            """
    )

    @Argument(help: "The log file: Core Data's console output.")
    var log: String

    @Flag(help: "Read the log and print what it asks (with a model: the fetches it makes), without timing anything.")
    var dryRun = false

    @Flag(help: "Exit with status 1 when any statement is not understood.")
    var strict = false

    /// Whose values a replayed fetch is given.
    enum ValueSource: String, ExpressibleByArgument, CaseIterable {
        case logged, drawn
    }

    @Option(help: ArgumentHelp("The values of each fetch with a %@ and each save's new values: logged (those a level-2 log bound, in the order the log makes them, where they fit the fetch or the attribute; drawn where the log has none) "
        + "or drawn from the data (where the log gives the rows a fetch returned, the draws whose answers come closest to them). Default: logged with --data store (the app's values name the store's objects), drawn otherwise (they name none of the generated ones).", valueName: "logged|drawn"))
    var values: ValueSource?

    @Flag(inversion: .prefixedNo, help: "Also time the log's replayed fetches and saves one after another in its order, as one case (session), on a fresh copy of the store each time.")
    var session = true

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
        } catch let error as ValidationError {
            // A model that cannot be read is a bad option, as in every command (exit 64).
            throw error
        } catch {
            throw reportFailure(error)
        }
        if dryRun || !output.quiet {
            let placed = loaded.map { usesLoggedValues ? Self.placedValues(read.fetches, ObjectGenerator($0.model, seed: dataset.seed)) : [:] } ?? [:]
            print(ReplayReport.dryRun(read.summary, reader: read.reader, name: URL(fileURLWithPath: log).lastPathComponent, fetches: read.fetches, saves: read.saves, session: read.session, placed: placed,
                                        loggedSaveValues: usesLoggedValues),
                  terminator: "")
        }
        if strict, read.summary.notUnderstoodCount > 0 {
            let listed = output.quiet && !dryRun ? "listed by --dry-run" : "listed above"
            printError("error: \(read.summary.notUnderstoodCount) of the log's statements are not understood (\(listed)); --strict allows none")
            throw ExitCode.failure
        }
        guard !dryRun, let loaded, let fetches = read.fetches, let saves = read.saves else { return }
        guard !fetches.fetches.isEmpty || !saves.saves.isEmpty else {
            let first = fetches.notReplayed.merging(saves.notReplayed) { $0.count >= $1.count ? $0 : $1 }.min { $0.value.earliest < $1.value.earliest }
            throw reportFailure(CommandFailure(description: "none of the reads or saves of \(log) is replayed yet" + (first.map { " (line \($0.value.earliest): \($0.key))" } ?? "") + "; see what it asks with --dry-run"))
        }
        if !output.quiet { print("") }
        let fetchWorkloads = Self.workloads(fetches, logged: usesLoggedValues)
        var workloads = fetchWorkloads + Self.workloads(saves, model: loaded.model, logged: usesLoggedValues)
        if session, let replayed = read.session, replayed.steps.count > 1 {
            let steps = replayed.steps.map { step -> SessionPlan.Step in
                switch step {
                case let .fetch(index): .fetch(index)
                case let .save(index): .save(index)
                }
            }
            let values = usesLoggedValues ? saves.occurrenceValues : []
            workloads.append(.session(SessionPlan(fetches: fetchWorkloads, saves: saves.saves.map(\.spec), steps: steps, saveValues: values)))
        }
        let results = try Run.measure(workloads, on: loaded.model, layouts: try strategies.layouts(), source: try model.source(),
                                      dataset: dataset, timing: timing, output: output, storeFolder: storeFolder, analyze: false, started: started)
        if !output.quiet, let kinds = ReplayReport.byKind(fetches, saves, results) { print("\n" + kinds, terminator: "") }
        if !output.quiet, let device = ReplayReport.device(fetches, results) { print("\n" + device, terminator: "") }
    }

    /// Each distinct save of the log, named by its first line, weighted by how many times the log makes it.
    static func workloads(_ saves: LogSaves, model: Model, logged: Bool) -> [Workload] {
        saves.saves.map { save in
            var workload = Workload.save(save.spec, name: "line-\(save.line)", model: model, values: logged ? save.values : nil)
            workload.mixWeight = Double(save.count)
            return workload
        }
    }

    /// Whether fetches are given their logged values (`--values`).
    var usesLoggedValues: Bool { (values ?? (dataset.data == .store ? .logged : .drawn)) == .logged }

    /// For each fetch (by its line) with a `%@`, how many of its logged occurrences' values fit it
    /// (`LoggedValues`); the objects only tell each value's kind, so a generator's stand for any.
    static func placedValues(_ fetches: LogFetches?, _ dataset: any Dataset) -> [Int: Int] {
        var placed: [Int: Int] = [:]
        for fetch in fetches?.fetches ?? [] where fetch.spec.hasPlaceholders {
            placed[fetch.line] = LoggedValues.requests(fetch.spec, fetch.logged, dataset).count
        }
        return placed
    }

    /// Each distinct fetch of the log as a fetch of yours, named by its first line, weighted by how
    /// many times the log makes it.
    static func workloads(_ fetches: LogFetches, logged: Bool) -> [Workload] {
        fetches.fetches.enumerated().map { number, fetch in
            var spec = fetch.spec
            spec.name = "line-\(fetch.line)"
            var workload = Workload.fetch(spec, number: number + 1, logged: logged ? fetch.logged : [], rows: fetch.typicalRows)
            workload.mixWeight = Double(fetch.count)
            return workload
        }
    }
}
