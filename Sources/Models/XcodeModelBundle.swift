import Foundation

/// Where the `contents` file of an Xcode Core Data model is, for a path given on the command line:
/// an `.xcdatamodeld` bundle (its current version, named by the `_XCCurrentVersionName` key of its
/// `.xccurrentversion` property list; else its only version; else its newest by modification
/// date), an `.xcdatamodel` folder, or a `contents` file itself.
public struct XcodeModelBundle: Equatable, Sendable {
    /// The `contents` file to read.
    public let contents: String
    /// The model's name: the bundle's (or the version folder's) name without its extension.
    public let name: String
    /// The version chosen, for a bundle (`Shop 2`).
    public let version: String?
    /// The bundle's versions in name order, without `.xcdatamodel` (empty for a single version).
    public let versions: [String]
    /// A guess the user should know about (a bundle without `.xccurrentversion`).
    public let warnings: [String]

    static let bundleExtension = "xcdatamodeld"
    static let versionExtension = "xcdatamodel"
    static let currentVersionFile = ".xccurrentversion"
    static let currentVersionKey = "_XCCurrentVersionName"

    /// Whether `path` names an Xcode model rather than a JSON description: an `.xcdatamodeld` or
    /// `.xcdatamodel` path (existing or not), a `contents` file, or a folder.
    public static func isXcodeModel(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        if [bundleExtension, versionExtension].contains(url.pathExtension.lowercased()) { return true }
        if url.lastPathComponent == "contents" { return true }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// What the user may give instead, for messages.
    private static let kinds = "give an .xcdatamodeld bundle, an .xcdatamodel folder, its contents file, or a JSON model description"

    /// Finds the `contents` file; `version` picks a version of a bundle other than the current one.
    /// Every problem is one `ModelError` sentence naming the path.
    public init(path: String, version wanted: String? = nil) throws {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ModelError("the Xcode model \(path) does not exist; \(Self.kinds)")
        }
        guard isFolder.boolValue else {
            guard url.lastPathComponent == "contents" else {
                throw ModelError("\(path) is a file, not an Xcode model (an .xcdatamodeld or .xcdatamodel is a folder); \(Self.kinds)")
            }
            try Self.single("one version's contents file", path: path, wanted: wanted)
            let folder = url.deletingLastPathComponent()
            contents = path; name = folder.deletingPathExtension().lastPathComponent; version = nil; versions = []; warnings = []
            return
        }
        let ownContents = url.appendingPathComponent("contents").path
        let ext = url.pathExtension.lowercased()
        if ext == Self.versionExtension || (ext != Self.bundleExtension && FileManager.default.fileExists(atPath: ownContents)) {
            try Self.single("one version (.xcdatamodel)", path: path, wanted: wanted)
            try Self.checkContents(ownContents, of: path)
            contents = ownContents; name = url.deletingPathExtension().lastPathComponent; version = nil; versions = []; warnings = []
            return
        }
        let found = try Self.versions(of: url, path: path)
        let (chosen, notes) = try Self.chosenVersion(of: url, path: path, among: found, wanted: wanted)
        let file = url.appendingPathComponent(chosen + "." + Self.versionExtension).appendingPathComponent("contents").path
        try Self.checkContents(file, of: path)
        contents = file; name = url.deletingPathExtension().lastPathComponent; version = chosen; versions = found; warnings = notes
    }

    /// Throws when a version was `wanted` of `path`, which is `what`, not a bundle.
    private static func single(_ what: String, path: String, wanted: String?) throws {
        if let wanted { throw ModelError("--model-version '\(wanted)' applies to an .xcdatamodeld bundle, and \(path) is \(what)") }
    }

    /// The versions in the bundle (or folder) at `url`, given as `path`, in name order, without
    /// `.xcdatamodel`; throws when it holds none.
    private static func versions(of url: URL, path: String) throws -> [String] {
        let children: [String]
        do { children = try FileManager.default.contentsOfDirectory(atPath: path) }
        catch { throw ModelError("cannot read the Xcode model \(path): \(reason(error))") }
        let found = children.filter { URL(fileURLWithPath: $0).pathExtension.lowercased() == versionExtension }
            .map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }.sorted()
        guard !found.isEmpty else {
            throw ModelError(url.pathExtension.lowercased() == bundleExtension
                ? "the Xcode model bundle \(path) holds no model version (no .xcdatamodel folder); add one in Xcode, or give another model"
                : "\(path) is a folder but not a Core Data model: it holds no .xcdatamodel version and no contents file; \(kinds)")
        }
        return found
    }

    /// The version to read of the bundle at `url`, given as `path`, holding the versions `found`:
    /// the one `wanted`, else the current one, else the only one, else the newest (with a note
    /// saying so).
    private static func chosenVersion(of url: URL, path: String, among found: [String], wanted: String?) throws -> (chosen: String, notes: [String]) {
        let listed = found.map { "'\($0)'" }.joined(separator: ", ")
        let currentFile = url.appendingPathComponent(currentVersionFile)
        let (current, readable) = try currentVersion(currentFile)
        let notes = readable ? [] : ["\(currentFile.path) is not a property list; it is ignored (Xcode keeps the current version's name there)"]
        if let wanted {
            let stem = wanted.hasSuffix("." + versionExtension) ? String(wanted.dropLast(versionExtension.count + 1)) : wanted
            guard found.contains(stem) else {
                throw ModelError("--model-version '\(wanted)' is not a version of \(path); its versions: \(listed)")
            }
            return (stem, notes)
        } else if let current {
            let stem = URL(fileURLWithPath: current).deletingPathExtension().lastPathComponent
            guard found.contains(stem) else {
                throw ModelError("\(currentFile.path) names the current version '\(current)', which \(path) does not hold; pick one with --model-version (versions: \(listed))")
            }
            return (stem, notes)
        } else if found.count == 1 {
            return (found[0], notes)
        }
        // No current version named (no .xccurrentversion, or one that names none: shipping
        // bundles have an empty property list there): the newest, as Xcode's last edit left it.
        func modified(_ stem: String) -> Date {
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(stem + "." + versionExtension).appendingPathComponent("contents").path)
            return attributes?[.modificationDate] as? Date ?? .distantPast
        }
        let chosen = found.max { (modified($0), $1) < (modified($1), $0) } ?? found[0]
        return (chosen, notes + ["\(path) has no \(currentVersionFile) naming its current version; reading the newest by modification date, '\(chosen)' (pick another with --model-version; versions: \(listed))"])
    }

    /// The version a bundle's `.xccurrentversion` names; `nil` when the file is missing or names
    /// none (an empty property list, as shipping bundles have, or one without
    /// `_XCCurrentVersionName`). `readable` is false for a file that is not a property list at all.
    private static func currentVersion(_ plist: URL) throws -> (name: String?, readable: Bool) {
        guard FileManager.default.fileExists(atPath: plist.path) else { return (nil, true) }
        let data: Data
        do { data = try Data(contentsOf: plist) }
        catch { throw ModelError("cannot read \(plist.path): \(reason(error))") }
        guard let object = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else { return (nil, false) }
        guard let current = (object as? [String: Any])?[currentVersionKey] as? String, !current.isEmpty else { return (nil, true) }
        return (current, true)
    }

    private static func checkContents(_ contents: String, of path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: contents, isDirectory: &isFolder), !isFolder.boolValue else {
            throw ModelError("\(path) holds no contents file (\(contents)); a model saved before Xcode 4 has none: open and save it in a current Xcode")
        }
    }

    public static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if nsError.code == NSFileReadNoPermissionError { return "permission denied" }
        if nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        return nsError.localizedDescription
    }
}
