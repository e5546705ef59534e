import ArgumentParser
import Dispatch
import Foundation
import Generation
import Models
import Reporting
import SQLite
import StoreFiles
import Strategies
import Workloads

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
    /// Added to the default results file's timestamp (`.analyzed` for `run --analyze`).
    var fileSuffix = ""

    /// - parameter makeRunner: given the event handler, the work; its stores go in
    ///   `plan.temporaryParent`, a private folder this makes in `stores` and removes afterwards.
    /// - returns: every result, as the results files hold them.
    @discardableResult
    func run(_ makeRunner: (@escaping (RunEvent) throws -> Void) -> () throws -> [WorkloadResult]) throws -> [WorkloadResult] {
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
        let interruption = handleInterruption(exclusive, made)
        defer { interruption.cancel() }
        let writer: ResultsWriter
        let exports: ResultsExports
        let context: RunContext
        do {
            try stores.check()
            try temporaryFolder.make()
            context = RunContext.current(date: started, storeFolder: stores.url, probeIn: temporaryFolder.url)
            writer = try ResultsWriter(url: try output.url(stamp: RunContext.fileStamp(started) + fileSuffix), runID: context.runID, force: output.force)
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
            if case let .measured(results) = event {
                // Every file stays complete after every case; a failure here stops the run (and the
                // runner removes its temporary stores).
                exclusive.lock()
                defer { exclusive.unlock() }
                try exports.append(results) { try writer.append(results, plan: plan, context: context) }
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
            throw reportStop(error, writer)
        }
        printSummary(results, writer, exports)
        warnIfDebugBuild()
        return results
    }

    /// On Ctrl-C, SIGTERM or SIGHUP: the stores removed, the claim on the output released, and
    /// the CSV named if it holds rows.
    private func handleInterruption(_ exclusive: NSRecursiveLock, _ made: MadeFiles) -> InterruptionHandler {
        let temporaryFolder = privateFolder
        return InterruptionHandler(exclusive: exclusive) {
            temporaryFolder.remove()
            guard let (resultsPath, claimPath) = made.output else { return "temporary stores removed; no CSV was written" }
            unlink(claimPath)
            let kept = FileManager.default.fileExists(atPath: resultsPath)
                ? "the rows completed so far are in \(resultsPath)" : "no workload had completed, so no CSV was written"
            return "\(kept); temporary stores removed"
        }
    }

    /// Reports the failure that stopped the run, then, only if true on disk, how many rows its CSV
    /// holds: the file may never have been written (a name the file system refuses) or may hold
    /// fewer rows than were measured (the last write failed).
    private func reportStop(_ error: Error, _ writer: ResultsWriter) -> Error {
        let reported: Error
        if let sqlite = error as? SQLiteError, sqlite.isFull {
            reported = reportFailure(CommandFailure(description: storeFullMessage(sqlite, store: nil, folder: stores.url.path, fix: stores.whenFull)))
        } else {
            reported = reportFailure(error)
        }
        // Only rows this run wrote: a file replaced with --force holds the earlier run's until then.
        if writer.rowCount > 0, let rows = writer.rowsOnDisk(), rows > 0 {
            printError("note: the \(rows) row\(rows == 1 ? "" : "s") completed before the failure \(rows == 1 ? "is" : "are") in \(writer.url.path)")
        }
        return reported
    }

    /// The table, what the run could not measure well, and where its files are.
    private func printSummary(_ results: [WorkloadResult], _ writer: ResultsWriter, _ exports: ResultsExports) {
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
        printAnswer(writer.url)
    }

    /// The run's answer last, as the report opens with it: where the baseline wins, where it
    /// loses, the rest, and an app's fetch mix (read back from the results file just written).
    private func printAnswer(_ results: URL) {
        guard let rows = try? ResultsFile(url: results).rows else { return }
        let moving = StoreCopySummary.lines(rows, baseline: Strategies.baseline.name)
        if !moving.isEmpty { print("\n" + moving.joined(separator: "\n")) }
        let lines = CaseGrid(rows, baseline: Strategies.baseline.name).answer().lines
        guard rows.contains(where: { $0.strategy != Strategies.baseline.name }) else { return }
        print("\nthe answer:\n" + lines.map { "- " + $0.replacingOccurrences(of: "`", with: "") }.joined(separator: "\n"))
    }
}

func elapsed(since start: Date) -> String {
    clock(Date().timeIntervalSince(start)) + " elapsed"
}

func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return String(format: "%d:%02d", whole / 60, whole % 60)
}
