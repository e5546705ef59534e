import Foundation
import Models
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Reads SwiftData `@Model` classes from Swift source (a `.swift` file or a folder of them) into
/// the model language, with swift-syntax's parser: no compiler, no macro expansion. What each
/// construct becomes is in `SwiftDataModelBuilder`, `SwiftDataAttributeMapping` and
/// `SwiftDataInverses`; the types are looked up by `SwiftTypeResolver`; the suite's own settings
/// are `bench.*` comments (`BenchNotes`).
public enum SwiftDataModelReader {
    /// Reads the model at `path`. Every problem is one `ModelError` sentence naming the file and,
    /// for a problem in the source, its line and column. `root`, the command's `--root`, decides
    /// over a `// bench.root:` comment (which is then not checked, and warned about when it names
    /// another entity).
    public static func read(path: String, root: String? = nil) throws -> SwiftDataModel {
        let files = try SwiftSourceFiles.find(path)
        var models: [SwiftModelClass] = []
        var declarations: [String: SwiftTypeResolver.Declaration] = [:]
        var topLevelAliases: [String] = []
        var skipped: [String] = []
        for file in files {
            let data = try ModelFile.contents(of: file, what: "the Swift file", kinds: "give a .swift file or a folder of them")
            let collector: SwiftDeclarationCollector
            do {
                collector = try parse(try text(data, file: file), file: file)
            } catch let error as SyntaxError {
                // A file of a folder that declares no @Model class and does not parse (an
                // example with editor placeholders, a file no target builds) is left out.
                guard files.count > 1, !error.declaresModels else { throw ModelError(error.description) }
                skipped.append("\(error.message); the file declares no @Model class, so it is left out")
                continue
            }
            models += collector.models
            declarations.merge(collector.declarations) { first, _ in first }
            topLevelAliases += collector.topLevelAliases
        }
        guard !models.isEmpty else {
            throw ModelError("no @Model class in \(path) (\(files.count) Swift file\(files.count == 1 ? "" : "s") read); give the file or folder that declares your SwiftData models")
        }
        let resolver = SwiftTypeResolver(declarations: declarations)
        try resolver.refuseAliasCycles()
        let current = try SwiftSchemaVersions.current(models, aliasTargets: topLevelAliases.compactMap { resolver.qualified($0, in: nil) })
        var builder = try SwiftDataModelBuilder(models: current.models, resolver: resolver)
        let name = XcodeModelReader.modelName(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        let description = try builder.build(name: name, root: root)
        let warnings = skipped + (current.warning.map { [$0] } ?? []) + builder.warnings
        return SwiftDataModel(description: description, warnings: warnings.map(\.escapingControlCharacters), files: files)
    }

    /// A file's text: Swift source is UTF-8 (the compiler reads no other encoding); a file in
    /// UTF-16 or UTF-32 (a byte-order mark, or NUL bytes) is refused naming its encoding.
    static func text(_ data: Data, file: String) throws -> String {
        let bytes = [UInt8](data.prefix(4))
        let encoding: String? = switch bytes {
        case [0xFF, 0xFE, 0, 0], [0, 0, 0xFE, 0xFF]: "UTF-32"
        case _ where bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]): "UTF-16"
        case _ where data.contains(0): "UTF-16 or another encoding with NUL bytes"
        default: nil
        }
        if let encoding {
            throw ModelError("\(file):1:1: the file is in \(encoding), not UTF-8, the only encoding Swift source may have; save it as UTF-8")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The declarations of one file's source; a syntax error is a `SyntaxError` at its position,
    /// a source too deep to parse safely a `ModelError` at its line.
    static func parse(_ source: String, file: String) throws -> SwiftDeclarationCollector {
        let shape = SourceShape(source)
        guard shape.deepest <= SourceShape.maximum else {
            throw ModelError("\(file):\(shape.deepestAt): square brackets nest \(shape.deepest) deep; swift-syntax's parser takes twice as long for each level beyond about \(SourceShape.maximum), and a model's source does not "
                + "nest so deep: give the files that declare your SwiftData models")
        }
        guard shape.longestAngles <= SourceShape.maximumRun else {
            throw ModelError("\(file):\(shape.anglesAt): \(shape.longestAngles) '>' in a row close generic types nested as deep; a model's source does not nest types so deep (the suite reads at most \(SourceShape.maximumRun)): "
                + "give the files that declare your SwiftData models")
        }
        guard shape.longestMarks <= SourceShape.maximumRun else {
            throw ModelError("\(file):\(shape.marksAt): \(shape.longestMarks) '?' or '!' in a row wrap a type in as many optionals; a model's source does not (the suite reads at most \(SourceShape.maximumRun)): give the files "
                + "that declare your SwiftData models")
        }
        guard let stack = LargeStack.bytes(for: source) else {
            throw ModelError("\(file):\(LargeStack.firstExcessOpener(in: source)): the file holds more brackets than a model's source does (over \(LargeStack.maximumOpeners) '(', '[', '<' and '{'); give the files that declare your SwiftData models")
        }
        return try LargeStack.run(bytes: stack) { try collect(source, file: file) }
    }

    private static func collect(_ source: String, file: String) throws -> SwiftDeclarationCollector {
        let tree = Parser.parse(source: source)
        let collector = SwiftDeclarationCollector(file: file, tree: tree)
        collector.walk(tree)
        if let error = ParseDiagnosticsGenerator.diagnostics(for: tree).first(where: { $0.diagMessage.severity == .error }) {
            let at = error.location(converter: SourceLocationConverter(fileName: file, tree: tree))
            throw SyntaxError(message: "\(file):\(at.line):\(at.column): Swift syntax error: \(error.message)", declaresModels: !collector.models.isEmpty)
        }
        return collector
    }

    /// A file that does not parse: the parser's first error at its position, and whether the
    /// file declares a `@Model` class all the same (as far as the parser could tell).
    struct SyntaxError: Error, CustomStringConvertible {
        var message: String
        var declaresModels: Bool
        var description: String { "\(message); fix the source so that it compiles" }
    }
}
