import Foundation

/// Checks that files can really be created in a folder: permissions alone do not tell (root passes
/// every permission check, yet cannot create files in /proc or on a read-only file system).
public enum OutputFolder {
    public static func checkWritable(_ folder: URL, option: String = "--output") throws {
        let probe = folder.appendingPathComponent(".inheritance-bench-probe-\(getpid())").path
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ResultsWriter.Error(description: "the output folder \(folder.path) is not writable (\(reason)); choose another \(option)")
        }
        close(descriptor)
        unlink(probe)
    }
}
