import ArgumentParser
import Dispatch
import Foundation
import Generation
import Models
import Reporting
import SQLite
import Strategies
import Workloads

/// Where the results go, and how much is printed. Shared by `run` and `sweep`.
struct ResultsOutputOptions: ParsableArguments {
    @Option(help: "Path of the results CSV (default: results/<timestamp>.csv). Its folder must exist.")
    var output: String?

    @Flag(help: "Replace the --output file if it exists.")
    var force = false

    @Flag(help: "Print only the final table and the path of the CSV (no progress, no noise warning).")
    var quiet = false

    func validate() throws {
        if let output { try Self.checkExportsDiffer(from: URL(fileURLWithPath: output)) }
    }

    /// Refuses `--force` with nothing it could replace: the default output never replaces a file.
    /// - parameter other: another file the command writes, which `--force` replaces too (`bench run --log-sql`).
    func checkForce(other: (option: String, path: String?)? = nil) throws {
        guard force, output == nil, other?.path == nil else { return }
        throw ValidationError("--force only applies with --output\(other.map { " or \($0.option)" } ?? ""); the default output never replaces a file")
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

    /// The files the run writes beside `--output`'s CSV (none without `--output`).
    var besides: [(url: URL, what: String)] {
        guard let output else { return [] }
        let csv = URL(fileURLWithPath: output)
        return [(SamplesCSV.url(besides: csv), "its samples file"), (ResultsJSON.url(besides: csv), "its JSON export"), (SummaryMarkdown.url(besides: csv), "its Markdown summary")]
    }

    /// Refuses an `--output` whose CSV, or a file the run writes beside it, is a file the command
    /// reads (its model or store).
    func checkNoneIsRead(_ inputs: [InputFile]) throws {
        guard let output else { return }
        do { try InputFile.checkNoneIsAnInput(output: URL(fileURLWithPath: output), besides: besides, inputs: inputs) }
        catch { throw ValidationError("\(error)") }
    }

    func url(stamp: String) throws -> URL {
        if let output { return URL(fileURLWithPath: output) }
        let folder = URL(fileURLWithPath: "results", isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        catch { throw CommandFailure(description: "could not create the results folder \(folder.path) (\(FileProblem.reason(for: error))); choose an --output in a writable folder") }
        return ResultsWriter.defaultURL(stamp: stamp, folder: folder)
    }
}
