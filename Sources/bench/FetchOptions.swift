import ArgumentParser
import FetchFormat
import Foundation
import Models
import Reporting
import Workloads

/// `--fetch` and `--fetches`: an app's own fetches, each read against the model into a workload
/// (`run`, `explain`); the file's fetches, weighted, are the app's mix.
struct FetchOptions: ParsableArguments {
    @Option(name: .customLong("fetch"), help: ArgumentHelp("A fetch of your app's: '[name =] [COUNT] Entity [WHERE predicate] [SORT BY key [ASC|DESC], …] [LIMIT n] [OFFSET n]', "
        + "the predicate in NSPredicate's format as your app writes it, each %@ a value drawn from the data. Repeatable. See docs/workloads.md, \"Your own fetches\".", valueName: "fetch"))
    var fetches: [String] = []

    @Option(name: .customLong("fetches"), help: ArgumentHelp("A file of your app's fetches, one a line, each after an optional weight (how often the app issues it; 1 when omitted): "
        + "'120 recent = Publication WHERE …'; blank lines and lines starting with # are skipped. The run reports each layout's time for the whole mix.", valueName: "file"))
    var mixFile: String?

    /// The most fetches a mix file holds, and its largest size.
    static let maximumMixFetches = 200
    static let maximumMixBytes = 1 << 20

    /// The files the options read (an output must not overwrite them).
    var inputs: [InputFile] { mixFile.map { [InputFile($0, "the fetch mix --fetches reads")] } ?? [] }

    /// Each fetch read against the model, as a workload named as given or `fetch-N` (the mix's
    /// with their weights); a mistake is a usage error quoting the fetch with a caret (and the
    /// file's line).
    func workloads(_ model: Model) throws -> [Workload] {
        var names = Set(Workloads.names), made: [Workload] = []
        func add(_ text: String, weight: Double?, _ place: String) throws {
            var workload: Workload
            do { workload = Workload.fetch(try FetchSpec.parse(text, model: model), number: made.count + 1) }
            catch { throw ValidationError("\(place): \(error)") }
            guard names.insert(workload.name).inserted else {
                throw ValidationError("\(place): the name '\(workload.name)' is taken (by a workload, or another fetch); give the fetch another, such as 'my-fetch = Entity WHERE …'")
            }
            workload.mixWeight = weight
            made.append(workload)
        }
        for text in fetches { try add(text, weight: nil, "--fetch") }
        if let mixFile {
            for entry in try Self.mix(mixFile) { try add(entry.text, weight: entry.weight, "--fetches \(mixFile) line \(entry.line)") }
        }
        return made
    }

    /// The mix file's fetches: each line's weight (1 when it starts with none), its fetch and its number.
    static func mix(_ path: String) throws -> [(line: Int, weight: Double, text: String)] {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw ValidationError("--fetches: \(path) is not a file; give a text file of fetches, one a line")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumMixBytes else { throw ValidationError("--fetches: \(path) is larger than 1 MiB; a mix holds at most \(maximumMixFetches) fetches") }
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("--fetches: \(path) cannot be read as UTF-8 text")
        }
        var entries: [(line: Int, weight: Double, text: String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var weight = 1.0, fetch = line
            if let match = line.range(of: "^[0-9][0-9.eE+-]*\\s+", options: .regularExpression) {
                let number = line[match].trimmingCharacters(in: .whitespaces)
                guard let value = Double(number), value.isFinite, value > 0, value <= 1e9 else {
                    throw ValidationError("--fetches \(path) line \(index + 1): the weight '\(number)' is not a number above 0 and at most 1e9")
                }
                (weight, fetch) = (value, String(line[match.upperBound...]))
            }
            entries.append((index + 1, weight, fetch))
            guard entries.count <= maximumMixFetches else { throw ValidationError("--fetches: \(path) holds more than \(maximumMixFetches) fetches") }
        }
        guard !entries.isEmpty else { throw ValidationError("--fetches: \(path) holds no fetch (blank lines and lines starting with # are skipped)") }
        return entries
    }
}
