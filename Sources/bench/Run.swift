import ArgumentParser
import Dataset
import Dispatch
import Foundation
import Reporting
import Strategies
import Workloads

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs workloads against strategies and writes a results CSV.",
        discussion: """
            Each strategy gets fresh stores for the insert workloads and one populated store for the read \
            workloads, in a temporary folder that is removed afterwards. Every answer is digested, and the run \
            stops if two strategies disagree.
            """
    )

    @OptionGroup var dataset: DatasetOptions

    @Option(help: "Comma-separated strategies to run (default: all). See `bench list`.")
    var strategies: String?

    @Option(help: "Comma-separated workloads to run (default: all). See `bench list`.")
    var workloads: String?

    @Option(help: "Timed repetitions of every workload (1 to 100000; default: each workload's own, see the README).")
    var repetitions: Int?

    @Option(help: "Path of the results CSV (default: results/<timestamp>.csv). Its folder must exist.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Flag(help: "Print only the final table and the path of the CSV.")
    var quiet = false

    func validate() throws {
        _ = try selectedStrategies()
        _ = try selectedWorkloads()
        if let repetitions, !(1 ... 100_000).contains(repetitions) {
            throw ValidationError("--repetitions must be between 1 and 100000; got \(repetitions)")
        }
        if force, output == nil {
            throw ValidationError("--force only applies with --output; the default output never replaces a file")
        }
    }

    private func selectedStrategies() throws -> [String] {
        guard let strategies else { return Strategies.names }
        do { return try NameList.parse(strategies, valid: Strategies.names, what: "strategy") }
        catch { throw ValidationError("\(error)") }
    }

    private func selectedWorkloads() throws -> [Workload] {
        guard let workloads else { return Workload.allCases }
        do { return try Workload.parseList(workloads) }
        catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        warnIfDebugBuild()
        let started = Date()
        let context = RunContext.current(date: started)
        let plan = RunPlan(
            strategies: try selectedStrategies(), workloads: try selectedWorkloads(),
            dataset: dataset.configuration, batchSize: dataset.batch, repetitions: repetitions
        )
        let writer: ResultsWriter
        do {
            writer = try ResultsWriter(url: try outputURL(stamp: RunContext.fileStamp(started)), force: force)
        } catch {
            throw reportFailure(error)
        }
        let showProgress = !quiet && standardErrorIsTerminal
        let totalCases = plan.workloads.reduce(0) { $0 + $1.variants.count }
        var caseNumber = 0
        let runner = Runner(plan: plan) { event in
            switch event {
            case let .populating(strategy, scale):
                if showProgress { printError("[\(strategy)] populating a store with \(scale) publications…") }
            case let .measuring(caseName, strategies, warmups, repetitions):
                caseNumber += 1
                if showProgress {
                    printError("[\(caseNumber)/\(totalCases)] \(caseName): \(warmups) warm-up + \(repetitions) timed repetitions of \(strategies.joined(separator: ", ")), interleaved (\(elapsed(since: started)))")
                }
            case .round:
                break
            case let .measured(result):
                // The file stays complete after every row; a failure here stops the run at once.
                do { try writer.append(ResultsCSV.row(result, plan: plan, context: context)) }
                catch { fatalWriteFailure(error) }
            }
        }
        let interruption = InterruptionHandler(temporaryFolder: runner.temporaryFolder, results: writer.url)
        defer { interruption.cancel() }

        let results: [WorkloadResult]
        do {
            results = try runner.run()
        } catch {
            if writer.rowCount > 0 { printError("note: the \(writer.rowCount) rows completed before the failure are in \(writer.url.path)") }
            throw reportFailure(error)
        }
        print(ConsoleTable.render(results, baseline: Strategies.baseline.name), terminator: "")
        // The path as the user would type it: relative for the default results folder.
        let shownPath = output ?? "results/" + writer.url.lastPathComponent
        print("\nresults: \(shownPath)  (\(results.count) rows, \(elapsed(since: started)))")
        warnIfDebugBuild()
    }

    private func outputURL(stamp: String) throws -> URL {
        if let output { return URL(fileURLWithPath: output) }
        let folder = URL(fileURLWithPath: "results", isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        catch { throw CommandFailure(description: "could not create the results folder \(folder.path): \(error.localizedDescription)") }
        return ResultsWriter.defaultURL(stamp: stamp, folder: folder)
    }
}

private func elapsed(since start: Date) -> String {
    let seconds = Int(Date().timeIntervalSince(start))
    return String(format: "%d:%02d elapsed", seconds / 60, seconds % 60)
}

private func fatalWriteFailure(_ error: Error) -> Never {
    printError("error: \(error)")
    exit(1)
}

/// On Ctrl-C or SIGTERM: removes the run's temporary stores, says where the completed rows are,
/// and exits with 128 + the signal number. The CSV on disk is always complete (see `ResultsWriter`).
final class InterruptionHandler: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(temporaryFolder: URL, results: URL) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            let folder = temporaryFolder.path
            let resultsPath = results.path
            source.setEventHandler {
                try? FileManager.default.removeItem(atPath: folder)
                let kept = FileManager.default.fileExists(atPath: resultsPath)
                    ? "the rows completed so far are in \(resultsPath)" : "no workload had completed, so no CSV was written"
                printError("interrupted: \(kept); temporary stores removed")
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
