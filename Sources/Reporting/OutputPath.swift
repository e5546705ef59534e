import Foundation

/// Checks on an output path given by the user.
public enum OutputPath {
    /// Refuses a path that names a folder by its form: empty, ending in `/`, or `.`/`..` as its
    /// last component (`URL(fileURLWithPath: "new/")` would otherwise write a file named `new`).
    /// - parameter example: a file name to suggest inside that folder.
    public static func checkName(_ url: URL, example: String = "run.csv") throws {
        if url.hasDirectoryPath || [".", ".."].contains(url.lastPathComponent) {
            // Foundation marks an existing folder's URL as a directory path, slash or not.
            let folder = url.standardizedFileURL
            var isDirectory: ObjCBool = false
            let what = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
                ? "the output path \(folder.path) is a folder" : "the output path \(folder.path)/ names a folder"
            throw ResultsWriter.Error(description: "\(what); give a file name such as \(folder.appendingPathComponent(example).path)")
        }
    }

    /// Creates and removes `temporary`, a file the writing of `destination` will create beside
    /// it, so that a name too long for the folder fails before any work is done.
    public static func checkCreatable(_ temporary: String, for destination: URL, option: String = "--output") throws {
        let descriptor = open(temporary, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            let advice = errno == ENAMETOOLONG ? "choose a shorter \(option)" : "choose another \(option)"
            throw ResultsWriter.Error(description: "cannot write \(destination.path) (its temporary file \(temporary): \(reason)); \(advice)")
        }
        close(descriptor)
        unlink(temporary)
    }
}
