import ArgumentParser
import Foundation
import Reporting
import Strategies
import Workloads

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes the query plan of every lookup of every strategy, and flags full table scans a lookup should not need.",
        discussion: """
            Builds each strategy's store (untimed), runs EXPLAIN QUERY PLAN on each lookup with the \
            run's own parameters, prints the plans and writes them to results/<timestamp>.plans.txt. \
            Exit status 1 when a lookup scans a whole table or the newest page is sorted instead of read from an index.
            """
    )

    @OptionGroup var dataset: DatasetOptions

    @Option(help: "Comma-separated strategies (default: all). See `bench list`.")
    var strategies: String?

    @Option(help: "Path of the plans file (default: results/<timestamp>.plans.txt, beside the results CSVs).")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    func validate() throws {
        if let strategies {
            do { _ = try NameList.parse(strategies, valid: Strategies.names, what: "strategy") }
            catch { throw ValidationError("\(error)") }
        }
        if force, output == nil { throw ValidationError("--force only applies with --output") }
    }

    func run() throws {
        let flagged: [QueryPlan]
        do {
            let names = try strategies.map { try NameList.parse($0, valid: Strategies.names, what: "strategy") } ?? Strategies.names
            let url = try OutputFile.destination(output, defaultName: "\(RunContext.fileStamp(Date())).plans.txt", force: force)
            let plans = try QueryPlan.explainAll(strategies: names, dataset: dataset.configuration, batchSize: dataset.batch)
            let report = QueryPlan.report(plans)
            try AtomicFile.write(report, to: url)
            print(report, terminator: "")
            flagged = QueryPlan.flagged(plans)
            print("\nplans: \(output ?? "results/" + url.lastPathComponent)  (\(plans.count) queries, \(flagged.count) flagged)")
        } catch {
            throw reportFailure(error)
        }
        if !flagged.isEmpty {
            printError("error: \(flagged.count) lookups do work an index should spare them: " + flagged.map { "\($0.strategy) \($0.workload)" }.joined(separator: ", "))
            throw ExitCode.failure
        }
    }
}

/// The output file of a command that writes one file: `--output`, or `results/<name>` by default.
/// Refuses a folder, an existing file without `--force`, and a missing or unwritable folder.
enum OutputFile {
    static func destination(_ output: String?, defaultName: String, force: Bool) throws -> URL {
        let url: URL
        if let output {
            url = URL(fileURLWithPath: output)
        } else {
            let folder = URL(fileURLWithPath: "results", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            url = folder.appendingPathComponent(defaultName)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw CommandFailure(description: "the output path \(url.path) is a folder; give a file name") }
            if !force { throw CommandFailure(description: "\(url.path) already exists; choose another --output or pass --force to replace it") }
        }
        let folder = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        try OutputFolder.checkWritable(folder)
        return url
    }
}
