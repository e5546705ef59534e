import ArgumentParser
import FetchRequests
import Foundation
import Models
import Reporting
import SourceFetches
import Workloads

/// `--fetch` and `--fetches`: an app's own fetches, each read against the model into a workload
/// (`run`, `explain`); the file's fetches, weighted, are the app's mix.
struct FetchOptions: ParsableArguments {
    @Option(name: .customLong("fetch"), help: ArgumentHelp("A fetch of your app's: '[name =] [COUNT | IDS] [ONLY] Entity [PROPERTIES [DISTINCT] key or count:(key) [AS name], …] [WHERE predicate] [GROUP BY key, … [HAVING $name > n]] "
        + "[SORT BY key [comparator] [ASC|DESC], …] [LIMIT n] [OFFSET n] [BATCH n [READ m]]', "
        + "the predicate in NSPredicate's format as your app writes it, each %@ a value drawn from the data. Repeatable. See docs/workloads.md, \"Your own fetches\".", valueName: "fetch"))
    var fetches: [String] = []

    @Option(name: .customLong("fetches"), help: ArgumentHelp("A file of your app's fetches, one a line, each after an optional weight (how often the app issues it; 1 when omitted): "
        + "'120 recent = Publication WHERE …'; blank lines and lines starting with # are skipped. The run reports each layout's time for the whole mix.", valueName: "file"))
    var mixFile: String?

    @Option(name: .customLong("fetches-from"), help: ArgumentHelp("A Swift source file or folder of your app's: its NSPredicate(format:) literals, #Predicate closures, "
        + "FetchDescriptors and @Query properties become fetches measured like --fetch; what it cannot read (a predicate built at run time) is listed with its file and line.",
        valueName: "path"))
    var sourceFolder: String?

    /// The most fetches a mix file holds, and its largest size.
    static let maximumMixFetches = 200
    static let maximumMixBytes = 1 << 20

    /// The files the options read (an output must not overwrite them).
    var inputs: [InputFile] {
        (mixFile.map { [InputFile($0, "the fetch mix --fetches reads")] } ?? [])
            + (sourceFolder.map { [InputFile($0, "the sources --fetches-from reads", extent: .filesInside(endingIn: ".swift"))] } ?? [])
    }

    /// Each fetch read against the model, as a workload named as given or `fetch-N` (the mix's
    /// with their weights); a mistake is a usage error quoting the fetch with a caret (and the
    /// file's line).
    func workloads(_ model: Model, reportingSources: Bool = false) throws -> [Workload] {
        var names = Set(Workloads.names), made: [Workload] = []
        for text in fetches { try Self.add(text, weight: nil, "--fetch", model, &names, &made) }
        if let mixFile {
            for entry in try Self.mix(mixFile) { try Self.add(entry.text, weight: entry.weight, "--fetches \(mixFile) line \(entry.line)", model, &names, &made) }
        }
        if let sourceFolder {
            let read = try sourceFetches(sourceFolder, model)
            if reportingSources { Self.report(sourceFolder, read) }
            for (found, spec) in read.specs {
                var workload = Workload.fetch(spec, number: made.count + 1), suffix = 1
                while !names.insert(workload.name).inserted {
                    suffix += 1
                    workload = Workload.fetch(Self.renamed(spec, found.name + "-\(suffix)"), number: made.count + 1)
                }
                made.append(workload)
            }
        }
        return made
    }

    /// `fetches` (`--fetch`) read against `model`, as workloads (`bench sweep`'s, at each point).
    static func workloads(_ fetches: [String], _ model: Model) throws -> [Workload] {
        var names = Set(Workloads.names), made: [Workload] = []
        for text in fetches { try add(text, weight: nil, "--fetch", model, &names, &made) }
        return made
    }

    /// The fetch `text` read against `model` as a workload named as given or `fetch-N`, its weight
    /// in the mix; a mistake, or a name taken, is a usage error naming `place`.
    private static func add(_ text: String, weight: Double?, _ place: String, _ model: Model, _ names: inout Set<String>, _ made: inout [Workload]) throws {
        var workload: Workload
        do { workload = Workload.fetch(try FetchSpec.parse(text, model: model), number: made.count + 1) }
        catch { throw ValidationError("\(place): \(error)") }
        guard names.insert(workload.name).inserted else {
            throw ValidationError("\(place): the name '\(workload.name)' is taken (by a workload, or another fetch); give the fetch another, such as 'my-fetch = Entity WHERE …'")
        }
        workload.mixWeight = weight
        made.append(workload)
    }

    /// The fetches of the sources at `path` the model runs, each named from its file and line, and
    /// the others with why not: not read from the source, or not a fetch of this model. None
    /// run is a usage error naming the first reasons.
    func sourceFetches(_ path: String, _ model: Model) throws -> (specs: [(SourceFetch, FetchSpec)], skipped: [(SourceFetch, String)]) {
        let found: [SourceFetch]
        do { found = try SourceFetchReader.read(path) } catch { throw ValidationError("--fetches-from: \(error)") }
        var specs: [(SourceFetch, FetchSpec)] = [], skipped: [(SourceFetch, String)] = []
        for fetch in found {
            switch fetch.outcome {
            case let .unreadable(why): skipped.append((fetch, "not read: " + why))
            case let .fetch(text):
                do { specs.append((fetch, Self.renamed(try FetchSpec.parse(text, model: model, stringSorts: fetch.sortsStringsLocalizedStandard ? .localizedStandard : .binary), fetch.name))) }
                catch { skipped.append((fetch, "not run: \(error)")) }
            }
        }
        guard !specs.isEmpty else {
            let reasons = skipped.prefix(2).map { "\($0.0.place) \($0.1)" }.joined(separator: "; ")
            throw ValidationError("--fetches-from: none of the \(found.count) fetches found in \(path) runs on this model\(reasons.isEmpty ? "" : " (" + reasons + ")")")
        }
        return (specs, skipped)
    }

    static func renamed(_ spec: FetchSpec, _ name: String) -> FetchSpec {
        var spec = spec
        spec.name = name
        return spec
    }

    /// On standard error: the fetches found in the sources, and each one not measured with why.
    static func report(_ folder: String, _ read: (specs: [(SourceFetch, FetchSpec)], skipped: [(SourceFetch, String)])) {
        printError("--fetches-from \(folder): \(read.specs.count + read.skipped.count) fetches found, \(read.specs.count) measured"
            + (read.skipped.isEmpty ? "" : ", \(read.skipped.count) not:"))
        for (fetch, why) in read.skipped { printError("  \(fetch.place) (\(fetch.form)): \(why)") }
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
