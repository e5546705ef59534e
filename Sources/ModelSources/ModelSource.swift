import CoreDataStores
import Foundation
import Models
import SQLite
import SwiftDataModels

/// Where a command's model comes from: a preset, or a file in one of the formats bench reads. The
/// format is chosen here and nowhere else (`choose`), from the path's name and contents; adding a
/// format is a case, its test in `choose` and its reader in `read`.
public enum ModelSource: Hashable, Sendable {
    case preset(String)
    /// A JSON model description (docs/model.md, "The model language").
    case json(String)
    /// An Xcode Core Data model: an .xcdatamodeld bundle (with the version to read), an
    /// .xcdatamodel folder, or its contents file.
    case xcode(String, version: String?)
    /// SwiftData @Model classes: a .swift file or a folder of them.
    case swiftData(String)
    /// A Core Data / SwiftData store file, read-only: its own compiled model and its objects per entity.
    case store(String)

    /// What reading a source gives: the description and what reading it warned about.
    public struct Read {
        public var description: ModelDescription
        public var warnings: [String]
        /// A store file's tables and framework version beside its model (for the layout proof).
        public var store: CoreDataStoreFile? = nil
    }

    /// The source `--preset` or `--model` names (`publications` when neither does). A folder that
    /// holds both @Model sources and an Xcode model is refused: which one was meant is not ours to guess.
    public static func choose(preset: String?, model: String?, version: String?) throws -> ModelSource {
        guard let model else { return .preset(preset ?? "publications") }
        if let xcode = ambiguousXcodeModel(in: model) {
            throw ModelError("\(model.escapingControlCharacters) holds both SwiftData @Model sources and an Xcode model (\(xcode.escapingControlCharacters)); give one of them to --model: the Xcode model's path, or a folder of the .swift files alone")
        }
        if CoreDataStoreFile.isStoreArgument(model) { return .store(model) }
        if SwiftSourceFiles.isSwiftSource(model) { return .swiftData(model) }
        if XcodeModelBundle.isXcodeModel(model) { return .xcode(model, version: version) }
        return .json(model)
    }

    /// Reads the description; every problem is one sentence. `root` (`--root`) decides over a
    /// root a SwiftData source's comment names; `readStore` reads a store file (the command's own
    /// way, which cleans up a private copy on an interruption).
    public func read(root: String? = nil, readStore: (String) throws -> CoreDataStoreFile = { try CoreDataStoreFile.read(path: $0) }) throws -> Read {
        var read = try readDescription(root: root, readStore: readStore)
        Self.leaveOutRTrees(&read, moduleAvailable: Database.hasRTreeModule)
        return read
    }

    /// Where SQLite has no R-tree module, the model's R-tree indexes left out of every layout, each
    /// with a warning.
    static func leaveOutRTrees(_ read: inout Read, moduleAvailable: Bool) {
        guard !moduleAvailable else { return }
        for entity in read.description.entities.indices {
            for index in read.description.entities[entity].fetchIndexes where index.rtree {
                read.warnings.append("R-tree index '\(read.description.entities[entity].name).\(index.name)' is left out of every layout: this SQLite (\(Database.libraryVersion)) has no R-tree module, "
                    + "so no store here keeps it (Core Data's does, at a cost on every write)")
            }
            read.description.entities[entity].fetchIndexes.removeAll(where: \.rtree)
        }
    }

    private func readDescription(root: String?, readStore: (String) throws -> CoreDataStoreFile) throws -> Read {
        switch self {
        case let .preset(name):
            guard let named = ModelPresets.named(name) else { throw ModelError("unknown preset '\(name)'; choose from: \(ModelPresets.names.joined(separator: ", "))") }
            return Read(description: named, warnings: [])
        case let .json(path):
            let description = try ModelDescription.load(path: path)
            return Read(description: description, warnings: Model.stateNameWarnings(description))
        case let .xcode(path, version):
            let read = try XcodeModelReader.read(path: path, version: version)
            return Read(description: read.description, warnings: read.warnings + Model.stateNameWarnings(read.description))
        case let .swiftData(path):
            let read = try SwiftDataModelReader.read(path: path, root: root)
            return Read(description: read.description, warnings: read.warnings)
        case let .store(path):
            let read = try readStore(path)
            return Read(description: read.description, warnings: read.warnings + Model.stateNameWarnings(read.description), store: read)
        }
    }

    /// The name of the Xcode model beside Swift sources holding `@Model` in the folder `path`, or
    /// `nil` when the folder holds only one kind of model (or `path` is no such folder).
    private static func ambiguousXcodeModel(in path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
              !["xcdatamodel", "xcdatamodeld"].contains(url.pathExtension.lowercased()) else { return nil }
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        guard let xcode = children.first(where: { ["xcdatamodel", "xcdatamodeld"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }),
              holdsModelClasses(url) else { return nil }
        return xcode
    }

    /// Whether a `.swift` file in `folder` (or a folder below it, hidden ones, `Tests` and build
    /// folders skipped) declares an `@Model` class.
    private static func holdsModelClasses(_ folder: URL, depth: Int = 0) -> Bool {
        guard depth < 8, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return false }
        for name in names.sorted() where !name.hasPrefix(".") && name != "Tests" {
            let url = folder.appendingPathComponent(name)
            if name.lowercased().hasSuffix(".swift") {
                if let text = try? String(contentsOf: url, encoding: .utf8), text.contains("@Model") { return true }
            } else if (try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])).map({ $0.isDirectory == true && $0.isSymbolicLink != true }) ?? false,
                      holdsModelClasses(url, depth: depth + 1) {
                return true
            }
        }
        return false
    }
}
