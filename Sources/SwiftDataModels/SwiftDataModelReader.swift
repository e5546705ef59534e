import Foundation
import Models
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Reads SwiftData `@Model` classes from Swift source (a `.swift` file or a folder of them) into
/// the model language, with swift-syntax's parser: no compiler, no macro expansion. What each
/// construct becomes is in `SwiftDataModelBuilder`, `SwiftDataAttributeMapping` and
/// `SwiftDataInverses`; the suite's own settings are `bench.*` comments (`BenchNotes`).
public enum SwiftDataModelReader {
    /// Reads the model at `path`. Every problem is one `ModelError` sentence naming the file and,
    /// for a problem in the source, its line and column.
    public static func read(path: String) throws -> SwiftDataModel {
        let files = try SwiftSourceFiles.find(path)
        var models: [SwiftModelClass] = []
        var otherClasses: [String: String] = [:]
        var valueTypes: [String: SwiftValueType] = [:]
        var aliases: [String: String] = [:]
        for file in files {
            let data = try ModelFile.contents(of: file, what: "the Swift file", kinds: "give a .swift file or a folder of them")
            let collector = try parse(String(decoding: data, as: UTF8.self), file: file)
            models += collector.models
            otherClasses.merge(collector.otherClasses) { first, _ in first }
            valueTypes.merge(collector.valueTypes) { first, _ in first }
            aliases.merge(collector.aliases) { first, _ in first }
        }
        guard !models.isEmpty else {
            throw ModelError("no @Model class in \(path) (\(files.count) Swift file\(files.count == 1 ? "" : "s") read); give the file or folder that declares your SwiftData models")
        }
        let current = try SwiftSchemaVersions.current(models, aliases: aliases)
        var builder = try SwiftDataModelBuilder(models: current.models, otherClasses: otherClasses, valueTypes: valueTypes)
        let name = XcodeModelReader.modelName(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
        let description = try builder.build(name: name)
        let warnings = (current.warning.map { [$0] } ?? []) + builder.warnings
        return SwiftDataModel(description: description, warnings: warnings.map(\.escapingControlCharacters), files: files)
    }

    /// The declarations of one file's source; a syntax error is a `ModelError` at its position.
    static func parse(_ source: String, file: String) throws -> SwiftDeclarationCollector {
        let squares = SquareBracketDepth(source)
        guard squares.deepest <= SquareBracketDepth.maximum else {
            throw ModelError("\(file):\(squares.line): square brackets nest \(squares.deepest) deep; swift-syntax's parser takes twice as long for each level beyond about \(SquareBracketDepth.maximum), and a model's source does not nest so deep: give the files that declare your SwiftData models")
        }
        guard let stack = LargeStack.bytes(for: source) else {
            throw ModelError("\(file) holds more brackets than a model's source does (over \((LargeStack.maximumBytes - LargeStack.baseBytes) / LargeStack.bytesPerBracket)); give the files that declare your SwiftData models")
        }
        return try LargeStack.run(bytes: stack) { try collect(source, file: file) }
    }

    private static func collect(_ source: String, file: String) throws -> SwiftDeclarationCollector {
        let tree = Parser.parse(source: source)
        if let error = ParseDiagnosticsGenerator.diagnostics(for: tree).first(where: { $0.diagMessage.severity == .error }) {
            let at = error.location(converter: SourceLocationConverter(fileName: file, tree: tree))
            throw ModelError("\(file):\(at.line):\(at.column): Swift syntax error: \(error.message); fix the source so that it compiles")
        }
        let collector = SwiftDeclarationCollector(file: file, tree: tree)
        collector.walk(tree)
        return collector
    }
}
