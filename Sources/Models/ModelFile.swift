import Foundation

/// Reading a model's file (JSON or an Xcode model's `contents`): only a file that ends, and at
/// most one byte more than the largest model the suite reads, so that a device (`/dev/zero`) or an
/// endless pipe is refused in one sentence instead of read forever. A pipe (`--model <(cat m.json)`,
/// `/dev/stdin`, a FIFO) can be read only once, so its bytes are kept for the rest of the command:
/// every later read of the same path in this process gets them again.
public enum ModelFile {
    /// The largest model file the suite reads.
    static let maximumBytes = 16 << 20

    /// The bytes of the pipes read so far, by path.
    private static let pipes = PipeContents()

    /// The bytes of the model file at `path`, which exists; `what` names it in messages ("the
    /// model file"), `kinds` says what to give instead. Every problem is one `ModelError` sentence.
    public static func contents(of path: String, what: String, kinds: String) throws -> Data {
        let kind = Self.kind(of: path)
        switch kind {
        case S_IFCHR, S_IFBLK: throw ModelError("\(what) \(path) is a device, not a regular file; \(kinds)")
        case S_IFSOCK: throw ModelError("\(what) \(path) is a socket, not a regular file; \(kinds)")
        default: break
        }
        if kind == S_IFIFO, let kept = pipes[path] { return kept }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ModelError("cannot read \(what) \(path): permission denied or not a regular file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maximumBytes + 1) ?? Data() }
        catch { throw ModelError("cannot read \(what) \(path): \(XcodeModelBundle.reason(error))") }
        guard data.count <= maximumBytes else { throw ModelError("\(what) \(path) is larger than 16 MiB; is it a model?") }
        if kind == S_IFIFO { pipes[path] = data }
        return data
    }

    /// The file type bits of what `path` names (links followed), or 0 when it cannot be told.
    private static func kind(of path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & S_IFMT
    }
}
