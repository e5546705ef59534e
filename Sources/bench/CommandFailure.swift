import ArgumentParser
import Foundation
import Reporting
import SQLite
import StoreFiles
import Strategies

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
