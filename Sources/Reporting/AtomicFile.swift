import Foundation

/// Writes a whole file at once: a temporary file beside it, then `rename(2)`, so readers see the
/// old file or the new one and never a part.
public enum AtomicFile {
    /// The temporary file beside `destination`: `.NAME.<pid>.tmp`.
    public static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).tmp")
    }

    /// Creates and removes the temporary file `write` will use, so that a name too long for the
    /// folder (the temporary name is longer than the file's) fails before any work is done.
    public static func checkTemporaryName(for destination: URL, option: String = "--output") throws {
        try OutputPath.checkCreatable(temporaryURL(for: destination).path, for: destination, option: option)
    }

    public static func write(_ text: String, to destination: URL) throws {
        let temporary = temporaryURL(for: destination).path
        func fail(_ what: String) -> ResultsWriter.Error {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return ResultsWriter.Error(description: "could not write \(destination.path) (\(what): \(reason)); it keeps its previous content; check that \(destination.deletingLastPathComponent().path) is writable and has free space")
        }
        let descriptor = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw fail("creating \(temporary)") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            // Bytes are left to write, so the buffer has an address; without one, nothing is written (an error).
            let count = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { posixWrite(descriptor, $0 + written, buffer.count - written) } ?? 0 }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { close(descriptor); throw fail("writing \(temporary)") }
            written += count
        }
        guard close(descriptor) == 0 else { throw fail("closing \(temporary)") }
        guard rename(temporary, destination.path) == 0 else { throw fail("renaming \(temporary)") }
    }
}

/// write(2), out of reach of `AtomicFile.write`'s name.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
