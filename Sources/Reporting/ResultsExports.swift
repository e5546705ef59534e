import Foundation
import Workloads

/// The files a run writes beside its results CSV `X.csv`, besides the samples file: `X.json`
/// (every statistic and every repetition, `ResultsJSON`) and `X.md` (a summary to paste into a
/// pull request, `SummaryMarkdown`). Both are rewritten whole, through `AtomicFile`, whenever
/// the CSV is, so that all the files hold the same rows if the run stops early.
public final class ResultsExports {
    public let csvURL: URL
    public let jsonURL: URL
    public let markdownURL: URL
    private let plan: RunPlan
    private let context: RunContext
    private var results: [WorkloadResult] = []

    /// Checks up front that both files can be written and do not exist (unless `force`). The
    /// claim on the CSV (`ResultsWriter`) covers them: they are only written while it is held.
    public init(besides csv: URL, plan: RunPlan, context: RunContext, force: Bool) throws {
        csvURL = csv
        jsonURL = ResultsJSON.url(besides: csv)
        markdownURL = SummaryMarkdown.url(besides: csv)
        self.plan = plan
        self.context = context
        let manager = FileManager.default
        for file in [jsonURL, markdownURL] {
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: file.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    throw ResultsWriter.Error(description: "\(file.path) is a folder, and the run writes a file of that name beside \(csv.lastPathComponent); move it or choose another --output")
                }
                if !force {
                    throw ResultsWriter.Error(description: "\(file.path) already exists; choose another --output or pass --force to replace it")
                }
                // X.json may well be a model description: --force replaces only what a run wrote.
                guard Self.wasWrittenByARun(file) else {
                    throw ResultsWriter.Error(description: "\(file.path) exists and was not written by a bench run (a model file?), and the run writes a file of that name beside \(csv.lastPathComponent); choose another --output "
                        + "(--force does not replace it)")
                }
            }
            try AtomicFile.checkTemporaryName(for: file)
        }
    }

    /// Whether `file` starts as the JSON or the summary a run writes.
    static func wasWrittenByARun(_ file: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return false }
        defer { try? handle.close() }
        let start = String(decoding: handle.readData(ofLength: 64), as: UTF8.self)
        return start.hasPrefix("{\n  \"schema\": \"\(ResultsJSON.schemaName)\"") || start.hasPrefix(SummaryMarkdown.headingPrefix)
    }

    /// Publishes the JSON and the summary with a case's `added` results, then runs `writeCSV`
    /// (which writes the CSV and samples file with them). When either fails, the exports are put
    /// back as they were (removed if they held nothing), so that they never hold a row the CSV
    /// does not. Both are rewritten whole, so once per case rather than per row.
    public func append(_ added: [WorkloadResult], whileWriting writeCSV: () throws -> Void) throws {
        let before = results
        do {
            try publish(before + added)
            try writeCSV()
            results = before + added
        } catch {
            if before.isEmpty {
                for file in [jsonURL, markdownURL] { unlink(file.path) }
            } else {
                try? publish(before)
            }
            throw error
        }
    }

    /// The results published so far.
    public var count: Int { results.count }

    private func publish(_ results: [WorkloadResult]) throws {
        let document = ResultsJSON(results: results, plan: plan, context: context, csvName: csvURL.lastPathComponent)
        try AtomicFile.write(try document.text(), to: jsonURL)
        let file = ResultsFile(results: results, plan: plan, context: context, url: csvURL)
        try AtomicFile.write(SummaryMarkdown.render(file), to: markdownURL)
    }
}
