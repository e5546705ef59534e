import ArgumentParser
import Generation
import Foundation
import Models
import Reporting
import SQLite
import Strategies
import Workloads

/// Options that describe the dataset, shared by `run` and `generate`.
struct DatasetOptions: ParsableArguments {
    static let maximumScale = Model.maximumRows

    @Option(help: "Objects in the model's inheritance hierarchies (1 to \(maximumScale); default: the model's own rows, which --scale scales in proportion; entities outside them, such as tags, keep theirs).")
    var scale: Int?

    @Option(help: "Seed of the dataset generator: the same model, seed and scale give the same dataset.")
    var seed: UInt64 = RunPlan.defaultSeed

    @Option(help: "Objects per transaction when inserting in bulk and when populating stores (1 to 1000000).")
    var batch: Int = RunPlan.defaultBatchSize

    func validate() throws {
        try Self.check(scale: scale)
        guard (1 ... 1_000_000).contains(batch) else {
            throw ValidationError("--batch must be between 1 and 1000000 objects per transaction; got \(batch)")
        }
    }

    /// `--scale`, for every command that takes one.
    static func check(scale: Int?) throws {
        if let scale, !(1 ... maximumScale).contains(scale) {
            throw ValidationError("--scale must be between 1 and \(maximumScale) objects; got \(scale)")
        }
    }
}

/// The model a command measures: a preset, a JSON model description or an Xcode model, scaled by `--scale`.
struct ModelOptions: ParsableArguments {
    /// Objects an Xcode model (which has no rows) gets without `--scale`.
    static let defaultXcodeScale = 10_000

    @Option(help: "The model to measure: \(ModelPresets.names.joined(separator: ", ")) (default: publications, the seeds' model). See `bench list`.")
    var preset: String?

    @Option(help: "A model to measure instead of a preset: a JSON description (see docs/model.md, \"The model language\"), or an Xcode Core Data model (an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file).")
    var model: String?

    @Option(name: .customLong("model-version"), help: "With an .xcdatamodeld bundle: the version to read (default: the current one).")
    var modelVersion: String?

    @Option(help: "Entity=weight,…: share --scale among these concrete entities in proportion to the weights (others get no objects); default for an Xcode model: evenly among every concrete entity.")
    var mix: String?

    @Option(name: .customLong("fan-out"), help: "MIN-MAX: destinations each object of every generating many-to-many side links to (default: the model's own; 0-5 for an Xcode model).")
    var fanOut: String?

    @Option(help: "The root entity whose hierarchy the workloads read, for a model with several (default: the one with the most objects; `bench model` lists them).")
    var root: String?

    func validate() throws {
        if preset != nil, model != nil { throw ValidationError("--preset and --model conflict: give one model") }
        if let preset, ModelPresets.named(preset) == nil {
            throw ValidationError(NameList.unknown(preset, valid: ModelPresets.names, what: "preset").description)
        }
        if modelVersion != nil, !(model.map(XcodeModelBundle.isXcodeModel) ?? false) {
            throw ValidationError("--model-version applies to an Xcode model bundle (--model NAME.xcdatamodeld)")
        }
        _ = try mixWeights()
        _ = try fanOutRange()
        // A model file's mistakes are usage errors of every command that reads it.
        if model != nil { _ = try loaded(scale: nil) }
    }

    /// `--mix` as weights by entity name; each mistake one sentence.
    func mixWeights() throws -> [String: Double]? {
        guard let mix else { return nil }
        var weights: [String: Double] = [:]
        let entries = mix.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard entries.contains(where: { !$0.isEmpty }) else { throw ValidationError("--mix is empty; give Entity=weight pairs separated by commas, such as Book=3,Film=1") }
        for entry in entries {
            let parts = entry.split(separator: "=", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--mix entry '\(entry)' must be Entity=weight, such as Book=3")
            }
            guard let weight = Double(parts[1]), weight.isFinite, weight > 0 else {
                throw ValidationError("--mix weight of '\(parts[0])' must be a positive number; got '\(parts[1])'")
            }
            guard weights.updateValue(weight, forKey: parts[0]) == nil else { throw ValidationError("--mix names '\(parts[0])' twice") }
        }
        guard weights.values.reduce(0, +).isFinite else {
            throw ValidationError("--mix weights add up to more than the largest number (about 1.8e308); give smaller weights, such as Book=3,Film=1; got '\(mix)'")
        }
        return weights
    }

    /// `--fan-out MIN-MAX` (or `N`).
    func fanOutRange() throws -> FanOut? {
        guard let fanOut else { return nil }
        let parts = fanOut.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1 ... 2).contains(parts.count), let min = parts.first ?? nil, let max = parts.last ?? nil,
              min >= 0, min <= max, max <= Model.maximumFanOut else {
            throw ValidationError("--fan-out must be MIN-MAX with 0 <= MIN <= MAX <= \(Model.maximumFanOut), such as 0-5; got '\(fanOut)'")
        }
        return FanOut(min: min, max: max)
    }

    /// The model, validated, with what reading it warned about (an Xcode model's constructs the suite does not store as Core Data would).
    func loaded(scale: Int?) throws -> (model: Model, warnings: [String]) {
        var description: ModelDescription
        var warnings: [String] = []
        var xcode = false
        if let model {
            do {
                if XcodeModelBundle.isXcodeModel(model) {
                    let read = try XcodeModelReader.read(path: model, version: modelVersion)
                    description = read.description
                    warnings = read.warnings
                    xcode = true
                } else {
                    description = try ModelDescription.load(path: model)
                }
            } catch { throw ValidationError("\(error)") }
        } else {
            description = ModelPresets.named(preset ?? "publications")!
        }
        let prefix = model.map { "\($0.escapingControlCharacters): " } ?? ""
        do {
            let weights = try mixWeights()
            if xcode || weights != nil {
                let total = scale ?? (xcode ? Self.defaultXcodeScale : description.entities.reduce(0) { $0 + ($1.abstract ? 0 : $1.rows ?? 0) })
                do { description = try description.sharing(total, weights: weights) }
                catch { throw ValidationError("\(error)") } // --mix's own mistakes name no file
            } else if let scale {
                description = description.scaled(to: scale)
            }
            if let fanOut = try fanOutRange() { description = try description.withFanOut(fanOut) }
            if let root { description.root = root }
            return (try Model(description), warnings)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(prefix)\(error)")
        }
    }

    /// The description, validated, scaled to `scale` objects when given.
    func load(scale: Int?) throws -> Model { try loaded(scale: scale).model }

    /// The model, after printing what reading it warned about and, when it has no inheritance,
    /// a note: for the commands that go on to measure or describe it.
    func loadAnnounced(scale: Int?, noteWithoutInheritance: Bool = true) throws -> Model {
        let (model, warnings) = try loaded(scale: scale)
        for warning in warnings { printError("warning: \(warning)") }
        if noteWithoutInheritance, !model.hasInheritance {
            printError("note: no entity of \(model.name) has sub-entities: no inheritance to compare; every strategy stores it alike")
        }
        return model
    }
}

struct StrategyOptions: ParsableArguments {
    @Option(help: "Comma-separated strategies (default: all). See `bench list`.")
    var strategies: String?

    func validate() throws { _ = try names() }

    /// The strategies named, or all of them; a mistake is a `ValidationError` naming the valid ones.
    func names() throws -> [String] {
        guard let strategies else { return Strategies.names }
        do { return try NameList.parse(strategies, valid: Strategies.names, what: "strategy") }
        catch { throw ValidationError("\(error)") }
    }
}

/// A failure the user can act on: printed as one line on standard error, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Prints `error: …` for a failure and turns it into exit status 1; passes other exits through.
func reportFailure(_ error: Error) -> Error {
    if error is ExitCode || error is CleanExit { return error }
    if let sqlite = error as? SQLiteError, sqlite.isFull {
        // `storage` and `explain` keep their stores in the temporary folder.
        let folder = FileManager.default.temporaryDirectory.path
        printError("error: " + storeFullMessage(sqlite, store: nil, folder: folder, fix: "free disk space in \(folder) or lower --scale"))
    } else if let sentence = FileProblem.sentence(for: error) {
        // Foundation's own description is a multi-line dump of its user info.
        printError("error: \(sentence)")
    } else {
        printError("error: " + "\(error)".replacingOccurrences(of: "\n", with: " "))
    }
    return ExitCode.failure
}

/// One line for a store that filled up: which store, SQLite's own error, and what to do.
/// - parameter store: the store's path, or `nil` for one of `bench run`'s temporary stores.
/// - parameter folder: where the store lives, the volume that needs space.
/// - parameter fix: what to do.
func storeFullMessage(_ error: SQLiteError, store: String?, folder: String, fix: String) -> String {
    let which = store.map { "the store \($0)" } ?? "a store in \(folder)"
    var text = "\(which) is full: SQLite could not grow it (\(error)); \(fix)"
    if let limit = StoreFile.maximumPageCount {
        text += " (\(StoreFile.maximumPageCountVariable)=\(limit) is set: it caps every store at \(limit) pages; unset it)"
    }
    return text.replacingOccurrences(of: "\n", with: " ")
}

/// Writes a line to standard error, after whatever standard output still buffers: when both go
/// to one file, a warning then lands after the lines printed before it, not in their middle.
func printError(_ line: String) {
    fflush(nil) // every output stream: standard output is the one that buffers
    writeToStandardError(line + "\n")
}

/// Writes `text` to standard error with write(2) and ignores failures: a message never stops the
/// program (`FileHandle.standardError.write` traps when standard error is closed or full, as with
/// `2>&-` or `2>/dev/full`), and the exit status still says what happened.
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// Opens /dev/null on a standard descriptor that was closed (`2>&-`), before anything else opens a
/// file: the first file opened would otherwise take the descriptor's number, and the messages
/// meant for standard error would be written into it (a results CSV, a store).
func reopenClosedStandardDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
        let null = open("/dev/null", O_RDWR)
        if null >= 0, null != descriptor {
            dup2(null, descriptor)
            close(null)
        }
    }
}

/// Whether standard error is a terminal (progress is shown only there).
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

/// The full-disk testing aid must never go unnoticed in a real run.
func warnIfStoresAreCapped() {
    guard let limit = StoreFile.maximumPageCount else { return }
    printError("warning: \(StoreFile.maximumPageCountVariable)=\(limit) is set: every store is capped at \(limit) pages (a testing aid); unset it for real runs")
}

func warnIfDebugBuild() {
    guard RunContext.isDebugBuild else { return }
    printError("""
        warning: this is a DEBUG build: its timings are not meaningful and must not be compared or published.
        warning: build and run in release mode: swift run -c release bench
        """)
}

/// The output file of a command that writes one file: `--output`, or `results/<name>` by default.
/// Refuses a folder (or a path ending in `/`), an existing file without `--force`, a missing or
/// unwritable folder, a name too long for it, and a file another bench is writing; claims the
/// file for this process until `claim.release()` or the process ends.
enum OutputFile {
    static func destination(_ output: String?, defaultName: String, force: Bool) throws -> (url: URL, claim: OutputClaim) {
        let url: URL
        if let output {
            url = URL(fileURLWithPath: output)
        } else {
            let folder = URL(fileURLWithPath: "results", isDirectory: true)
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            catch { throw CommandFailure(description: "could not create the results folder \(folder.path) (\(FileProblem.reason(for: error))); choose an --output in a writable folder") }
            url = folder.appendingPathComponent(defaultName)
        }
        try OutputPath.checkName(url, example: defaultName.isEmpty ? "store.sqlite" : defaultName)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(description: "the output path \(url.path) is a folder; give a file name")
        }
        let folder = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(description: "the output folder \(folder.path) does not exist; create it or choose another --output")
        }
        try OutputFolder.checkWritable(folder)
        try AtomicFile.checkTemporaryName(for: url)
        let claim = try OutputClaim(url)
        if !force, FileManager.default.fileExists(atPath: url.path) {
            claim.release()
            throw CommandFailure(description: "\(url.path) already exists; choose another --output or pass --force to replace it")
        }
        return (url, claim)
    }
}
