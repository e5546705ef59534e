import Foundation

/// A file a command reads (a model, a store, a results file), which none of its outputs may be:
/// `--force` replaces an earlier output, never the command's own input.
public struct InputFile: Sendable {
    /// What the file covers beside its own path.
    public enum Extent: Sendable {
        /// The file alone.
        case itself
        /// The path and everything inside it (an Xcode model bundle).
        case everythingInside
        /// The path and the files inside it whose names end so (`.swift` in a folder of sources).
        case filesInside(endingIn: String)
    }

    public let path: String
    /// What the file is to the command, for the message: "the store --model reads".
    public let what: String
    public let extent: Extent

    public init(_ path: String, _ what: String, extent: Extent = .itself) {
        self.path = path
        self.what = what
        self.extent = extent
    }

    /// A store file with the files SQLite keeps beside it (its WAL, its index and its journal),
    /// each of which, written over, would change the store.
    public static func store(_ path: String, _ what: String) -> [InputFile] {
        // SQLite keeps them beside the file a symbolic link leads to.
        [InputFile(path, what)] + Set([path, canonicalPath(path)]).sorted().flatMap { file in
            ["-wal", "-shm", "-journal"].map { InputFile(file + $0, "the \($0.dropFirst()) file of \(what)") }
        }
    }

    /// Refuses an output that is one of `inputs` (the same path, symbolic links and `.`/`..`
    /// resolved, compared without case as a Mac's disk does; or the same file by another name, a
    /// hard link) or inside one that covers its contents.
    /// - parameter besides: the files the command writes beside `output`, with what each is ("its
    ///   JSON export").
    public static func checkNoneIsAnInput(output: URL, besides: [(url: URL, what: String)] = [], inputs: [InputFile], option: String = "--output") throws {
        for (url, what) in [(output, "")] + besides {
            let written = canonicalPath(url.path).lowercased()
            for input in inputs {
                let read = canonicalPath(input.path).lowercased()
                let inside = written.hasPrefix(read + "/")
                let clash = switch input.extent {
                case .itself: written == read || sameFile(url.path, input.path)
                case .everythingInside: written == read || inside
                case let .filesInside(suffix): written == read || sameFile(url.path, input.path) || (inside && written.hasSuffix(suffix.lowercased()))
                }
                guard clash else { continue }
                let clashing = what.isEmpty ? "is" : "would write \(what) \(url.path) over"
                throw ResultsWriter.Error(description: "\(option) \(output.path) \(clashing) \(input.what) (\(input.path)); a command never writes over what it reads, with --force or without: choose another \(option)")
            }
        }
    }

    /// The path with `.` and `..` and every symbolic link in it resolved, as far as it exists: the
    /// longest existing prefix resolved by the system, the rest appended as given.
    static func canonicalPath(_ path: String) -> String {
        var head = URL(fileURLWithPath: path).standardizedFileURL
        var tail: [String] = []
        while head.path != "/" {
            if let resolved = realpath(head.path, nil) {
                defer { free(resolved) }
                return ([String(cString: resolved)] + tail.reversed()).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            }
            tail.append(head.lastPathComponent)
            head.deleteLastPathComponent()
        }
        return "/" + tail.reversed().joined(separator: "/")
    }

    /// Whether both paths exist and are one file (one device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
