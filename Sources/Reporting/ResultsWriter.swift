import Foundation
import Workloads

/// Writes the results CSV and its samples file so that each file on disk is always complete:
/// every update writes a temporary file beside it and renames it into place, so an interrupted
/// run leaves the rows finished so far and never a half-written line.
///
/// The writer claims its output for as long as it lives (`OutputClaim`): a second bench given the
/// same output is refused instead of replacing this one's rows. `finish()` gives the claim up.
public final class ResultsWriter {
    public let url: URL
    public let samplesURL: URL
    private let runID: String
    private var rows: [String] = []
    /// Every result so far: a row's ratio needs its case's baseline result, which may come after it.
    private var results: [WorkloadResult] = []
    private var sampleRows: [String] = []
    private let claim: OutputClaim

    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks up front that both files can be written, so that a long run does not fail at its end,
    /// and claims the output.
    /// - parameter force: replace existing files instead of refusing (never a file another bench
    ///   is writing).
    public init(url: URL, runID: String, force: Bool) throws {
        self.url = url
        self.runID = runID
        samplesURL = SamplesCSV.url(besides: url)
        try OutputPath.checkName(url)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        for file in [url, samplesURL] where manager.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue {
            throw Error(description: "the output path \(file.path) is a folder; give a file name such as \(file.appendingPathComponent("run.csv").path)")
        }
        let folder = url.deletingLastPathComponent()
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Error(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        try OutputFolder.checkWritable(folder)
        for file in [url, samplesURL] { try AtomicFile.checkTemporaryName(for: file) }
        claim = try OutputClaim(url)
        for file in [url, samplesURL] where !force && manager.fileExists(atPath: file.path) {
            claim.release()
            throw Error(description: "\(file.path) already exists; choose another --output or pass --force to replace it")
        }
    }

    /// Adds the results of one case and publishes both files with everything so far. When a file
    /// cannot be written, neither file gains the case (the samples file is put back as it was).
    /// Rows already written gain their ratio when their case's baseline result arrives later.
    public func append(_ results: [WorkloadResult], plan: RunPlan, context: RunContext) throws {
        let all = self.results + results
        let cases = Set(results.map(ConsoleTable.label))
        var newRows = rows
        for (index, result) in all.enumerated() where index >= rows.count || cases.contains(ConsoleTable.label(result)) {
            let row = ResultsCSV.row(result, plan: plan, context: context, samplesFile: samplesURL.lastPathComponent, ratio: RatioInterval(result, among: all),
                                     baselineWork: RatioInterval.reference(of: result, among: all)?.work)
            if index < newRows.count { newRows[index] = row } else { newRows.append(row) }
        }
        let newSampleRows = sampleRows + results.map { SamplesCSV.rows($0, runID: runID) }
        try AtomicFile.write(SamplesCSV.header + newSampleRows.joined(), to: samplesURL)
        do {
            try AtomicFile.write(ResultsCSV.header + newRows.joined(), to: url)
        } catch {
            if sampleRows.isEmpty {
                unlink(samplesURL.path)
            } else {
                try? AtomicFile.write(SamplesCSV.header + sampleRows.joined(), to: samplesURL)
            }
            throw error
        }
        rows = newRows
        self.results = all
        sampleRows = newSampleRows
    }

    /// The rows published so far (a failed `append` adds none).
    public var rowCount: Int { rows.count }

    /// The result rows the CSV on disk really holds, or nil when it is missing or unreadable.
    public func rowsOnDisk() -> Int? {
        guard let data = FileManager.default.contents(atPath: url.path),
              let records = try? CSV.parse(String(decoding: data, as: UTF8.self)), !records.isEmpty else { return nil }
        return records.count - 1
    }

    /// The lock file that claims the output, to remove when the process ends on a signal.
    public var claimPath: String { claim.lockPath }

    /// Gives up the claim on the output: the run is over.
    public func finish() { claim.release() }

    /// The default output: `results/<timestamp>.csv`, made unique with a suffix if that name (or
    /// its samples file, or a claim of another bench on it) is taken.
    public static func defaultURL(stamp: String, folder: URL) -> URL {
        var candidate = folder.appendingPathComponent("\(stamp).csv")
        var suffix = 2
        func taken(_ url: URL) -> Bool {
            [url, SamplesCSV.url(besides: url), OutputClaim.lockURL(for: url)].contains { FileManager.default.fileExists(atPath: $0.path) }
        }
        while taken(candidate) {
            candidate = folder.appendingPathComponent("\(stamp)-\(suffix).csv")
            suffix += 1
        }
        return candidate
    }
}
