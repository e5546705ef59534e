import Foundation
import Reporting

/// The output file of a command that writes one file: `--output`, or `results/<name>` by default.
/// Refuses a folder (or a path ending in `/`), an existing file without `--force`, a missing or
/// unwritable folder, a name too long for it, and a file another bench is writing; claims the
/// file for this process until `claim.release()` or the process ends. Refuses a file the command
/// reads (`inputs`), or one it would write beside the output (`besides`), whatever `force` says.
enum OutputFile {
    static func destination(_ output: String?, defaultName: String, force: Bool, inputs: [InputFile], option: String = "--output",
                            besides: (URL) -> [(url: URL, what: String)] = { _ in [] }) throws -> (url: URL, claim: OutputClaim) {
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
            throw CommandFailure(description: "the output folder \(folder.path) does not exist; create it or choose another \(option)")
        }
        try InputFile.checkNoneIsAnInput(output: url, besides: besides(url), inputs: inputs, option: option)
        try OutputFolder.checkWritable(folder, option: option)
        try AtomicFile.checkTemporaryName(for: url, option: option)
        let claim = try OutputClaim(url, option: option)
        if !force, FileManager.default.fileExists(atPath: url.path) {
            claim.release()
            throw CommandFailure(description: "\(url.path) already exists; choose another \(option) or pass --force to replace it")
        }
        return (url, claim)
    }
}
