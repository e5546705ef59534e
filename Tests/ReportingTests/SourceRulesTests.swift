import Foundation
import XCTest

/// Rules the sources keep: no force unwrap (`x!`, `try!`) where a model or a user's input could
/// make it fail, so that a model the suite cannot handle is an error line, never a trap.
final class SourceRulesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folders under Sources/ held to the rule: the model readers, the strategies, the
    /// workloads and the command line.
    static let unwrapFree = ["Models", "SQLite", "Strategies", "Workloads", "bench"]

    func testNoForceUnwrapInTheFoldersHeldToIt() throws {
        var found: [String] = []
        for folder in Self.unwrapFree {
            let url = Self.root.appendingPathComponent("Sources").appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            XCTAssertFalse(files.isEmpty, "no Swift file in Sources/\(folder)")
            for file in files.sorted() {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                found += ForceUnwraps.lines(in: text).map { "Sources/\(folder)/\(file):\($0.number): \($0.text)" }
            }
        }
        XCTAssertEqual(found, [], "force unwraps: \(found.count)")
    }

    /// The scanner finds what it must and nothing in strings, comments or `!=`.
    func testTheScannerReadsSwiftAsTheCompilerWould() {
        let text = """
            let a = b!
            let c = try! d()
            let e = f[0]!.g
            if h != i, !j { }
            let k = "l!" // m!
            /* n! */ let o = p
            let q = \"\"\"
                r!
                \"\"\"
            let s = t?.u ?? v
            """
        XCTAssertEqual(ForceUnwraps.lines(in: text).map(\.number), [1, 2, 3])
    }
}

/// Force unwraps in Swift source, outside string literals and comments.
enum ForceUnwraps {
    static func lines(in text: String) -> [(number: Int, text: String)] {
        var found: [(Int, String)] = []
        var inMultilineString = false, inBlockComment = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var code = ""
            var characters = Array(line)[...]
            while let character = characters.first {
                if inBlockComment {
                    if characters.starts(with: "*/") { inBlockComment = false; characters = characters.dropFirst(2) } else { characters = characters.dropFirst() }
                } else if inMultilineString {
                    if characters.starts(with: "\"\"\"") { inMultilineString = false; characters = characters.dropFirst(3) } else { characters = characters.dropFirst() }
                } else if characters.starts(with: "\"\"\"") {
                    inMultilineString = true; characters = characters.dropFirst(3); code += "\"\""
                } else if characters.starts(with: "//") {
                    break
                } else if characters.starts(with: "/*") {
                    inBlockComment = true; characters = characters.dropFirst(2)
                } else if character == "\"" {
                    // A one-line string: skip to its closing quote, escapes included.
                    characters = characters.dropFirst()
                    while let next = characters.first, next != "\"" { characters = characters.dropFirst(next == "\\" ? 2 : 1) }
                    characters = characters.dropFirst()
                    code += "\"\""
                } else {
                    code.append(character); characters = characters.dropFirst()
                }
            }
            if code.contains("try!") || code.range(of: #"[\w\)\]\}]!(?!=)"#, options: .regularExpression) != nil {
                found.append((index + 1, line.trimmingCharacters(in: .whitespaces)))
            }
        }
        return found
    }
}
