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
    /// resolved, compared without case on a Mac, whose disks ignore it by default; or the same file
    /// by another name, a hard link) or inside one that covers its contents.
    /// - parameter besides: the files the command writes beside `output`, with what each is ("its
    ///   JSON export").
    public static func checkNoneIsAnInput(output: URL, besides: [(url: URL, what: String)] = [], inputs: [InputFile], option: String = "--output") throws {
        for (url, what) in [(output, "")] + besides {
            let written = folded(canonicalPath(url.path))
            for input in inputs {
                let read = folded(canonicalPath(input.path))
                let inside = written.hasPrefix(read + "/")
                let clash = switch input.extent {
                case .itself: written == read || sameFile(url.path, input.path)
                case .everythingInside: written == read || inside
                case let .filesInside(suffix): written == read || sameFile(url.path, input.path) || (inside && written.hasSuffix(folded(suffix)))
                }
                guard clash else { continue }
                let clashing = what.isEmpty ? "is" : "would write \(what) \(url.path) over"
                throw ResultsWriter.Error(description: "\(option) \(output.path) \(clashing) \(input.what) (\(input.path)); a command never writes over what it reads, with --force or without: choose another \(option)")
            }
        }
    }

    /// A path as the disk compares it: without case on a Mac, as is elsewhere.
    static func folded(_ path: String) -> String {
        #if os(macOS)
        path.lowercased()
        #else
        path
        #endif
    }

    /// The path with every symbolic link in it resolved, then `.` and `..`, as far as it exists (the
    /// longest existing prefix resolved by the system, so that `link/..` is the link's target's
    /// parent); the rest appended, its `.` and `..` applied.
    static func canonicalPath(_ path: String) -> String {
        var head = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var tail: [String] = []
        while head != "/", !head.isEmpty {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                var parts = String(cString: resolved).split(separator: "/").map(String.init)
                for part in tail.reversed() where part != "." && !part.isEmpty {
                    if part == ".." { _ = parts.popLast() } else { parts.append(part) }
                }
                return "/" + parts.joined(separator: "/")
            }
            let slash = head.lastIndex(of: "/") ?? head.startIndex
            tail.append(String(head[head.index(after: slash)...]))
            head = String(head[..<slash])
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Whether both paths exist and are one file (one device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
