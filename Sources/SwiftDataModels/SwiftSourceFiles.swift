import Foundation
import Models

/// The Swift files a `--model` path names: the file itself, or every `.swift` file under a
/// folder, searched recursively in name order, skipping build folders (`.build*`), `Tests`,
/// hidden folders, and anything under a folder that is not a regular file (a FIFO named
/// `b.swift` would block the read for ever).
public enum SwiftSourceFiles {
    /// The most files read from one folder: a model's sources are far fewer; a path that holds
    /// more is likely a whole disk or home folder.
    static let maximumFiles = 5_000

    /// Whether `path` names Swift source rather than an Xcode model or a JSON file: a `.swift`
    /// file, or a folder that is not an Xcode model (no `.xcdatamodel(d)` extension, no
    /// `contents` file, no `.xcdatamodel` inside).
    public static func isSwiftSource(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        if url.pathExtension.lowercased() == "swift" { return true }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
              !["xcdatamodel", "xcdatamodeld"].contains(url.pathExtension.lowercased()),
              !FileManager.default.fileExists(atPath: url.appendingPathComponent("contents").path) else { return false }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return !children.contains { $0.lowercased().hasSuffix(".xcdatamodel") }
    }

    /// The files to read; every problem is one `ModelError` sentence.
    static func find(_ path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ModelError("the Swift source \(path) does not exist; give a .swift file or a folder of them")
        }
        guard isFolder.boolValue else { return [path] }
        var found: [String] = []
        try collect(URL(fileURLWithPath: path), into: &found)
        guard !found.isEmpty else {
            throw ModelError("\(path) holds no .swift file (build folders, Tests and hidden folders skipped) and is not a Core Data model; give a folder of SwiftData @Model sources, an Xcode model or a JSON model description")
        }
        return found
    }

    /// Whether `path` names a regular file (links followed).
    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    private static func collect(_ folder: URL, into found: inout [String]) throws {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
        catch { throw ModelError("cannot read the folder \(folder.path): \(XcodeModelBundle.reason(error))") }
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                // Symbolic links to folders are not followed, so that a link cycle cannot loop.
                let isLink = (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) ?? false
                if name == "Tests" || isLink { continue }
                try collect(url, into: &found)
            } else if name.lowercased().hasSuffix(".swift"), isRegularFile(url.path) {
                found.append(url.path)
                guard found.count <= maximumFiles else {
                    throw ModelError("\(folder.path) and the folders beside it hold more than \(maximumFiles) .swift files; give the folder of your SwiftData models")
                }
            }
        }
    }
}
