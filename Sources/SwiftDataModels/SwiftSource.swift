import Foundation
import Models
import SwiftParser
import SwiftSyntax

/// One Swift file read and parsed as the model reader reads its own (UTF-8 only, refused when it
/// nests deeper than swift-syntax's parser takes in time, parsed on a stack that fits it), for
/// another reader of an app's sources (its fetches).
public enum SwiftSource {
    /// The Swift files under `path` (`SwiftSourceFiles`: a file, or a folder searched recursively,
    /// `Tests`, build and hidden folders skipped).
    public static func files(_ path: String) throws -> [String] { try SwiftSourceFiles.find(path) }

    /// `body`'s result on the parsed tree of `file` (its syntax errors left in the tree, as the
    /// parser recovers from them); every problem reading it is one `ModelError` sentence.
    public static func withTree<T: Sendable>(of file: String, _ body: @escaping @Sendable (SourceFileSyntax, String) throws -> T) throws -> T {
        let data = try ModelFile.contents(of: file, what: "the Swift file", kinds: "give a .swift file or a folder of them")
        let source = try SwiftDataModelReader.text(data, file: file)
        let shape = SourceShape(source)
        guard shape.deepest <= SourceShape.maximum, shape.longestAngles <= SourceShape.maximumRun, shape.longestMarks <= SourceShape.maximumRun,
              let stack = LargeStack.bytes(for: source) else {
            throw ModelError("\(file): the file nests brackets, generic types or optionals deeper than an app's source does; the suite does not read it")
        }
        return try LargeStack.run(bytes: stack) { try body(Parser.parse(source: source), source) }
    }
}
