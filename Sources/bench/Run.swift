import ArgumentParser
import Generation
import Dispatch
import Foundation
import Models
import Reporting
import SQLite
import Strategies
import Workloads

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs workloads against strategies on one model and writes a results CSV.",
        discussion: """
            Each strategy gets fresh stores for the insert workloads and one populated store for the read \
            workloads, in a temporary folder that is removed afterwards. Every answer is digested, and the run \
            stops if two strategies disagree. Workloads that do not apply to the model are skipped (see `bench model`).
            """
    )

    @OptionGroup var dataset: DatasetOptions

    @OptionGroup var model: ModelOptions

    @OptionGroup var strategies: StrategyOptions

    @Option(help: "Comma-separated workloads to run (default: every one that applies to the model). See `bench list`.")
    var workloads: String?

    @OptionGroup var timing: TimingOptions

    @OptionGroup var output: ResultsOutputOptions

    @OptionGroup var storeFolder: StoreFolderOptions

    func validate() throws {
        _ = try selectedWorkloads(try model.load(scale: dataset.scale))
    }

    private func selectedWorkloads(_ model: Model) throws -> [Workload] {
        guard let workloads else { return Workloads.applicable(to: model) }
        do { return try Workloads.parseList(workloads, for: model) }
        catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let started = Date()
        let names = try strategies.names()
        let model = try self.model.loadAnnounced(scale: dataset.scale)
        let workloads = try selectedWorkloads(model)
        storeFolder.removeLeftovers(quiet: output.quiet)
        let folder = storeFolder.forTiming(storeBytes: model.estimatedStoreBytes, strategies: names.count)
        let stores = PrivateStoreFolder(command: "run", in: folder.url)
        let plan = timing.plan(strategies: names, workloads: workloads, seed: dataset.seed, batchSize: dataset.batch,
                               temporaryParent: stores.url, defaultRunTime: RunPlan.defaultRunTime)
        let inputs = WorkloadInputs(model: model, generator: ObjectGenerator(model, seed: dataset.seed))
        let cases = workloads.reduce(0) { $0 + ($1.kind == .read ? $1.cases(inputs).count : 1) }
        try Execution(plan: plan, started: started, cases: cases, output: output, stores: folder, privateFolder: stores).run { onEvent in
            Runner(plan: plan, model: model, onEvent: onEvent).run
        }
    }
}

/// How long each case runs: until its medians are precise enough (the default), a fixed count, or
/// a time budget. Shared by `run` and `sweep`.
struct TimingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Percent: repeat each case until every strategy's ratio to single-table (every median, without it) has a 95 % interval within ± this much of it, or the case's time is spent (default \(RunPlan.defaultPrecision * 100); 0.1 to 50).",
        valueName: "percent"))
    var precision: Double?

    @Option(name: .customLong("case-time"), help: ArgumentHelp(
        "Seconds: under the default rule, the most wall-clock time per strategy any case may take before it stops short of --precision (default: its share of --run-time in run, its workload's own time in a sweep; 1 to 3600).",
        valueName: "seconds"))
    var caseTime: Double?

    @Option(name: .customLong("run-time"), help: ArgumentHelp(
        "Seconds: under the default rule, the time the whole run aims at; each case gets a share of the time left, weighted by its workload (run default: \(Int(RunPlan.defaultRunTime)); sweep default: none, each workload's own time; in a sweep, per point; 10 to 86400).",
        valueName: "seconds"))
    var runTime: Double?

    @Option(help: "Timed repetitions of every workload (1 to 100000), instead of repeating until precise.")
    var repetitions: Int?

    @Option(name: .customLong("time-budget"), help: "Seconds each strategy spends on each workload: repetitions go on until then (instead of fixed counts).")
    var timeBudget: Double?

    @Option(help: "With --time-budget: at least this many timed repetitions (default \(RunPlan.defaultMinRepetitions)).")
    var minRepetitions: Int = RunPlan.defaultMinRepetitions

    @Option(help: "With --time-budget: at most this many timed repetitions (default \(RunPlan.defaultMaxRepetitions)).")
    var maxRepetitions: Int = RunPlan.defaultMaxRepetitions

    func validate() throws {
        if let precision {
            guard precision.isFinite, (0.1 ... 50).contains(precision) else {
                throw ValidationError("--precision must be a percentage from 0.1 to 50 (e.g. 2.5); got \(precision)")
            }
            if repetitions != nil || timeBudget != nil {
                throw ValidationError("--precision conflicts with --\(repetitions != nil ? "repetitions" : "time-budget"): it sets the default rule, which a fixed count or a time budget replaces; give one of them")
            }
        }
        if let caseTime {
            guard caseTime.isFinite, (1 ... 3_600).contains(caseTime) else {
                throw ValidationError("--case-time must be a number of seconds from 1 to 3600; got \(caseTime)")
            }
            if repetitions != nil || timeBudget != nil {
                throw ValidationError("--case-time conflicts with --\(repetitions != nil ? "repetitions" : "time-budget"): it bounds the default rule, which a fixed count or a time budget replaces; give one of them")
            }
        }
        if let runTime {
            guard runTime.isFinite, (10 ... 86_400).contains(runTime) else {
                throw ValidationError("--run-time must be a number of seconds from 10 to 86400; got \(runTime)")
            }
            if let other = caseTime != nil ? "case-time" : repetitions != nil ? "repetitions" : timeBudget != nil ? "time-budget" : nil {
                throw ValidationError("--run-time conflicts with --\(other): a run time shares itself among the cases, which --\(other) times otherwise; give one of them")
            }
        }
        if let repetitions, !(1 ... 100_000).contains(repetitions) {
            throw ValidationError("--repetitions must be between 1 and 100000; got \(repetitions)")
        }
        if let timeBudget {
            guard timeBudget.isFinite, timeBudget > 0, timeBudget <= 3_600 else {
                throw ValidationError("--time-budget must be a number of seconds above 0 and at most 3600; got \(timeBudget)")
            }
            if repetitions != nil {
                throw ValidationError("--repetitions and --time-budget conflict: give a fixed count or a time budget, not both")
            }
        }
        guard (1 ... 100_000).contains(minRepetitions), (1 ... 100_000).contains(maxRepetitions) else {
            throw ValidationError("--min-repetitions and --max-repetitions must be between 1 and 100000")
        }
        guard minRepetitions <= maxRepetitions else {
            throw ValidationError("--min-repetitions (\(minRepetitions)) must not exceed --max-repetitions (\(maxRepetitions))")
        }
    }

    /// - parameter defaultRunTime: the run time when none is given and the default rule applies.
    func plan(strategies: [String], workloads: [Workload], seed: UInt64, batchSize: Int, temporaryParent: URL,
              defaultRunTime: Double? = nil) -> RunPlan {
        let ruleIsDefault = caseTime == nil && repetitions == nil && timeBudget == nil
        return RunPlan(strategies: strategies, workloads: workloads, seed: seed, batchSize: batchSize, repetitions: repetitions,
                       timeBudget: timeBudget, minRepetitions: minRepetitions, maxRepetitions: maxRepetitions,
                       precision: precision.map { $0 / 100 } ?? RunPlan.defaultPrecision, caseTime: caseTime,
                       runTime: runTime ?? (ruleIsDefault ? defaultRunTime : nil), temporaryParent: temporaryParent)
    }
}

/// Where the results go, and how much is printed. Shared by `run` and `sweep`.
struct ResultsOutputOptions: ParsableArguments {
    @Option(help: "Path of the results CSV (default: results/<timestamp>.csv). Its folder must exist.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Flag(help: "Print only the final table and the path of the CSV (no progress, no noise warning).")
    var quiet = false

    func validate() throws {
        if force, output == nil {
            throw ValidationError("--force only applies with --output; the default output never replaces a file")
        }
        if let output { try Self.checkExportsDiffer(from: URL(fileURLWithPath: output)) }
    }

    /// The run writes `X.json` and `X.md` beside `X.csv`: a CSV named like one of them would be
    /// overwritten by it (compared without case, as a Mac's disk does).
    static func checkExportsDiffer(from csv: URL) throws {
        let exports = [("JSON export", ResultsJSON.url(besides: csv)), ("Markdown summary", SummaryMarkdown.url(besides: csv))]
        for (what, url) in exports where url.path.lowercased() == csv.path.lowercased() {
            let suggestion = csv.deletingPathExtension().appendingPathExtension("csv").lastPathComponent
            throw ValidationError("--output \(csv.lastPathComponent) is the name of the run's \(what), which it writes beside the CSV under the CSV's name; give the CSV a name ending in .csv, such as \(suggestion)")
        }
    }

    func url(stamp: String) throws -> URL {
        if let output { return URL(fileURLWithPath: output) }
        let folder = URL(fileURLWithPath: "results", isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        catch { throw CommandFailure(description: "could not create the results folder \(folder.path) (\(FileProblem.reason(for: error))); choose an --output in a writable folder") }
        return ResultsWriter.defaultURL(stamp: stamp, folder: folder)
    }
}

/// The results file and its claim, once made (read by the interruption handler's thread).
final class MadeFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var made: (results: String, claim: String)?
    var output: (results: String, claim: String)? {
        get { lock.withLock { made } }
        set { lock.withLock { made = newValue } }
    }
}

/// One measuring command from start to end: the results files written after every case, progress
/// on a terminal, Ctrl-C handled, the table and the summary printed. `run` and `sweep` share it.
struct Execution {
    let plan: RunPlan
    let started: Date
    /// Cases in all, for the progress line's estimate.
    let cases: Int
    let output: ResultsOutputOptions
    /// Where the stores go (`plan.temporaryParent` is in it).
    let stores: StoreFolder
    /// The command's own folder in `stores`, `plan.temporaryParent`.
    let privateFolder: PrivateStoreFolder

    /// - parameter makeRunner: given the event handler, the work; its stores go in
    ///   `plan.temporaryParent`, a private folder this makes in `stores` and removes afterwards.
    func run(_ makeRunner: (@escaping (RunEvent) throws -> Void) -> () throws -> [WorkloadResult]) throws {
        warnIfDebugBuild()
        warnIfStoresAreCapped()
        // Held while the results files are written and while a failure is reported. An interruption
        // takes it for good: it never cuts a write short (leaving a .tmp file), and the main thread
        // never reports a failure caused by the interruption's own cleanup.
        let exclusive = NSRecursiveLock()
        // Handled from the first file made (the private folder) to the last: what exists by the
        // time of an interruption is removed, and what does not yet is not reported.
        let made = MadeFiles()
        let temporaryFolder = privateFolder
        let interruption = InterruptionHandler(exclusive: exclusive) {
            temporaryFolder.remove()
            guard let (resultsPath, claimPath) = made.output else { return "temporary stores removed; no CSV was written" }
            unlink(claimPath)
            let kept = FileManager.default.fileExists(atPath: resultsPath)
                ? "the rows completed so far are in \(resultsPath)" : "no workload had completed, so no CSV was written"
            return "\(kept); temporary stores removed"
        }
        defer { interruption.cancel() }
        let writer: ResultsWriter
        let exports: ResultsExports
        let context: RunContext
        do {
            try stores.check()
            try temporaryFolder.make()
            context = RunContext.current(date: started, storeFolder: stores.url, probeIn: temporaryFolder.url)
            writer = try ResultsWriter(url: try output.url(stamp: RunContext.fileStamp(started)), runID: context.runID, force: output.force)
            made.output = (writer.url.path, writer.claimPath)
            exports = try ResultsExports(besides: writer.url, plan: plan, context: context, force: output.force)
        } catch {
            exclusive.lock()
            temporaryFolder.remove()
            throw reportFailure(error)
        }
        defer { temporaryFolder.remove() }
        if let passedOver = stores.passedOver, !output.quiet { printError("note: the stores go in \(stores.url.path): \(passedOver)") }
        // The claim on the output ends with the run (on a signal, the handler removes its lock file).
        defer { writer.finish() }
        let progress = Progress(plan: plan, started: started, cases: cases, enabled: !output.quiet && standardErrorIsTerminal)
        let plan = plan
        let work = makeRunner { event in
            progress.show(event)
            if case let .measured(result) = event {
                // Both files stay complete after every row; a failure here stops the run (and the
                // runner removes its temporary stores).
                exclusive.lock()
                defer { exclusive.unlock() }
                try exports.append(result) { try writer.append([result], plan: plan, context: context) }
            }
        }

        let results: [WorkloadResult]
        do {
            results = try work()
            progress.finish()
        } catch {
            // An interruption under way holds the lock and ends the process with 128 + signal; this
            // error is then a consequence of its cleanup (the stores vanished) and is not reported.
            exclusive.lock()
            progress.finish()
            let reported: Error
            if let sqlite = error as? SQLiteError, sqlite.isFull {
                reported = reportFailure(CommandFailure(description: storeFullMessage(sqlite, store: nil, folder: stores.url.path, fix: stores.whenFull)))
            } else {
                reported = reportFailure(error)
            }
            // After the error it refers to, and only what is true on disk: the file may never have been
            // written (a name the file system refuses) or may hold fewer rows than were measured (the
            // last write failed).
            if let rows = writer.rowsOnDisk(), rows > 0 {
                printError("note: the \(rows) row\(rows == 1 ? "" : "s") completed before the failure \(rows == 1 ? "is" : "are") in \(writer.url.path)")
            }
            throw reported
        }
        print(ConsoleTable.render(results, baseline: Strategies.baseline.name), terminator: "")
        let noisy = results.filter { Statistics($0.samples).isNoisy }
        if !noisy.isEmpty, !output.quiet {
            printError("noisy: \(noisy.count) of \(results.count) medians have a confidence interval wider than 5 % (marked ! in the table); "
                + "each ratio pairs the strategies round by round, so a drifting machine moves the medians more than the ratios: read the ratios")
        }
        let ratios = results.compactMap { RatioInterval($0, among: results) }
        if ratios.contains(where: \.isUncertain), !output.quiet {
            printError("uncertain: \(ratios.filter(\.isUncertain).count) of \(ratios.count) ratios to \(Strategies.baseline.name) are too uncertain to call (marked ? in the table): "
                + "rerun on a quieter machine, or give the cases more time with --case-time")
        }
        if plan.sharesRunTime, let runTime = plan.runTime, Date().timeIntervalSince(started) > runTime * 1.25, !output.quiet {
            printError("note: the run took \(elapsed(since: started).replacingOccurrences(of: " elapsed", with: "")), well past its --run-time of \(Int(runTime)) s: "
                + "the cases left when it ran out had only their minimum rounds; give a larger --run-time (or --case-time) for this scale")
        }
        let once = results.filter { $0.samples.count == 1 }
        if !once.isEmpty, !output.quiet {
            let cases = once.map(\.caseName).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            printError("once: \(once.count) of \(results.count) medians rest on one repetition, so they have no interval (– in the table): "
                + "\(cases.joined(separator: ", ")) took longer per round than \(cases.count == 1 ? "its" : "their") share of the time; --case-time 30 gives every case up to 30 s per strategy")
        }
        // The path as the user would type it: relative for the default results folder.
        let shownPath = output.output ?? "results/" + writer.url.lastPathComponent
        print("\nresults: \(shownPath)  (\(results.count) rows, samples in \(writer.samplesURL.lastPathComponent), \(elapsed(since: started)))")
        print("also: \(exports.jsonURL.lastPathComponent) (every statistic and repetition), \(exports.markdownURL.lastPathComponent) (a summary for a pull request)")
        warnIfDebugBuild()
    }
}

private func elapsed(since start: Date) -> String {
    clock(Date().timeIntervalSince(start)) + " elapsed"
}

private func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return String(format: "%d:%02d", whole / 60, whole % 60)
}

/// The progress line on a terminal: case, strategy, round, elapsed and estimated time left,
/// rewritten in place. Prints nothing when disabled (a pipe, or --quiet).
final class Progress {
    private let plan: RunPlan
    private let started: Date
    private let enabled: Bool
    private let totalCases: Int
    private var caseNumber = 0
    private var caseStarted = Date()
    private var caseSeconds: Double?
    private var shown = false
    private var lastDraw = Date.distantPast

    init(plan: RunPlan, started: Date, cases: Int, enabled: Bool) {
        self.plan = plan
        self.started = started
        self.enabled = enabled
        totalCases = max(1, cases)
    }

    func show(_ event: RunEvent) {
        guard enabled else { return }
        switch event {
        case let .populating(strategy, scale):
            draw("populating the \(strategy) store with \(scale) objects")
        case let .measuring(_, names, _, rule):
            caseNumber += 1
            caseStarted = Date()
            caseSeconds = rule.caseSeconds(strategies: names.count)
        case let .repetition(caseName, strategy, round, rounds):
            // At most five redraws a second, so that drawing stays negligible between repetitions.
            guard Date().timeIntervalSince(lastDraw) >= 0.2 else { return }
            lastDraw = Date()
            // The share of this case done: by rounds when they are fixed, else by time against the
            // case's budget (a case that becomes precise sooner ends early).
            let withinCase: Double = if let rounds {
                Double(round - 1) / Double(rounds)
            } else {
                min(1, Date().timeIntervalSince(caseStarted) / max(caseSeconds ?? 1, 1e-3))
            }
            let done = (Double(caseNumber - 1) + withinCase) / Double(totalCases)
            let spent = Date().timeIntervalSince(started)
            let left = done > 0.02 ? " · ~" + clock(spent * (1 - done) / done) + " left" : ""
            let roundText = rounds.map { "round \(round)/\($0)" } ?? "round \(round)"
            draw("[\(caseNumber)/\(totalCases)] \(caseName) · \(strategy) · \(roundText) · \(clock(spent)) elapsed\(left)")
        case .measured:
            break
        }
    }

    /// Clears the line so that what follows starts clean.
    func finish() {
        guard enabled, shown else { return }
        writeToStandardError("\r\u{1B}[K")
        shown = false
    }

    private func draw(_ text: String) {
        writeToStandardError("\r\u{1B}[K" + text)
        shown = true
    }
}
