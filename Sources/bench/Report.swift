import ArgumentParser
import Foundation
import Reporting
import Strategies

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Writes one self-contained HTML page about a run: context, results, charts, findings; with a BASE, the comparison.",
        discussion: """
            bench report RUN.csv [BASE.csv] writes RUN.html beside RUN.csv (or --output): the run context, the results \
            table with each strategy's ratio to \(Strategies.baseline.name) and the medians' intervals, charts as inline SVG (per case, \
            bars of the medians on a log scale; for a sweep, median and ratio against the swept value), the findings, the \
            query plans (RUN.plans.txt beside the CSV, or --plans) and the storage summary (RUN.storage.csv, or --storage) \
            when present, and with BASE.csv the comparison as bench compare makes it. The page needs no network and runs \
            no script. Exit status 0 whatever the comparison finds (use bench compare to gate on it), 1 an error.
            """
    )

    @Argument(help: "RUN.csv, and optionally BASE.csv to compare it with.")
    var files: [String] = []

    @Option(help: "Path of the HTML page (default: RUN.html beside RUN.csv).")
    var output: String?

    @Option(help: "Query plans to include (default: RUN.plans.txt beside RUN.csv, when it exists).")
    var plans: String?

    @Option(help: "Storage CSV to include (default: RUN.storage.csv beside RUN.csv, when it exists).")
    var storage: String?

    @Option(help: "With BASE.csv: smallest change that counts, in percent (e.g. 5%).")
    var threshold: Percentage = Percentage(value: 0.05)

    @Flag(help: "Replace the output page if it exists.")
    var force = false

    func validate() throws {
        guard (1 ... 2).contains(files.count) else {
            throw ValidationError("give one results CSV (RUN.csv), or two (RUN.csv BASE.csv); got \(files.count)")
        }
    }

    func run() throws {
        let exclusive = NSRecursiveLock()
        do {
            let runURL = URL(fileURLWithPath: files[0])
            let run = try ResultsFile(url: runURL)
            var extras = HTMLReport.Extras(threshold: threshold.value, warnings: run.warnings)
            if files.count == 2 {
                let base = try ResultsFile(url: URL(fileURLWithPath: files[1]))
                extras.base = base
                extras.warnings += base.warnings
                do {
                    extras.comparison = try Comparison.runs(base: base, new: run, threshold: threshold.value, force: false)
                } catch let refusal as Comparison.Refusal {
                    // A report is not a gate: the page is written, saying why there is no comparison.
                    extras.comparisonRefusal = refusal.description
                    printError("warning: \(base.url.path) is not compared: \(refusal.description.replacingOccurrences(of: "pass --force", with: "run bench compare --force"))")
                }
            }
            let stem = runURL.deletingPathExtension()
            let plansURL = plans.map { URL(fileURLWithPath: $0) } ?? stem.appendingPathExtension("plans.txt")
            if plans != nil || FileManager.default.fileExists(atPath: plansURL.path) {
                extras.plans = (plansURL, try StorageFile.readText(plansURL, what: "a query plans file"))
            }
            let storageURL = storage.map { URL(fileURLWithPath: $0) } ?? stem.appendingPathExtension("storage.csv")
            if storage != nil || FileManager.default.fileExists(atPath: storageURL.path) {
                extras.storage = try StorageFile(url: storageURL)
            }
            let page = HTMLReport.render(run, extras: extras)

            var inputs = [InputFile(runURL.path, "the results file it reports"), InputFile(SamplesCSV.url(besides: runURL).path, "that run's samples file")]
            if let base = extras.base {
                inputs += [InputFile(base.url.path, "the results file it compares with"), InputFile(SamplesCSV.url(besides: base.url).path, "that run's samples file")]
            }
            if let plans = extras.plans { inputs.append(InputFile(plans.url.path, "the query plans file it includes")) }
            if let storage = extras.storage { inputs.append(InputFile(storage.url.path, "the storage file it includes")) }
            let (url, claim) = try OutputFile.destination(output ?? HTMLReport.url(besides: runURL).path, defaultName: "report.html", force: force, inputs: inputs)
            defer { claim.release() }
            let interruption = InterruptionHandler(exclusive: exclusive) {
                unlink(AtomicFile.temporaryURL(for: url).path)
                claim.release()
                return "\(url.path) was not written"
            }
            defer { interruption.cancel() }
            for warning in extras.warnings { printError("warning: \(warning)") }
            exclusive.lock() // an interruption from here on waits for the end (the file is written)
            defer { exclusive.unlock() }
            try AtomicFile.write(page, to: url)
            print("report: \(output ?? url.path)")
        } catch {
            throw reportFailure(error)
        }
    }
}
