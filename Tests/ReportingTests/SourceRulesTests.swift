import Foundation
import XCTest

/// Rules the sources keep: no force unwrap (`x!`, `try!`) where a model or a user's input could
/// make it fail, so that a model the suite cannot handle is an error line, never a trap; no
/// function longer than 60 lines; the baseline named in one place.
final class SourceRulesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folders under Sources/ held to the rule: the model readers, the strategies, the
    /// workloads, the command line, the reports (which read results files back) and the object
    /// generator.
    static let unwrapFree = ["Models", "SwiftDataModels", "CoreDataStores", "SQLite", "Strategies", "Workloads", "bench", "Reporting", "Generation"]

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

    /// The baseline every ratio is taken against is the registry's first strategy
    /// (`Strategies.baseline`): no code outside its own file spells its name (help texts and the
    /// CSV's column notes interpolate it), and plot.gnuplot reads it from the CSV, naming it only
    /// for files older than the ratio column.
    func testTheBaselineIsNamedByTheRegistryOnly() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        var found: [String] = []
        for file in (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                if code.contains("single-table"), file != "Strategies/SingleTable.swift" { found.append("Sources/\(file):\(number + 1)") }
            }
        }
        XCTAssertEqual(found, [])
        let plot = try String(contentsOf: Self.root.appendingPathComponent("plot.gnuplot"), encoding: .utf8)
        let code = plot.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains("single-table") }
        XCTAssertEqual(code.count, 2, "the fallback for files without a ratio column, and the warning that names it: \(code)")
    }

    /// The longest a function's body may be, in lines.
    static let longestBody = 60

    /// No function under Sources/ is longer than `longestBody` lines: every `func`, `init`,
    /// `deinit`, `subscript` and computed `var` (one whose `{` is on the line of its `var`), its
    /// body counted from the line of its opening brace through the line of its closing brace,
    /// inclusive, closures and nested functions included (`FunctionBodies` reads them, skipping
    /// braces in strings and comments). A longer one is split into named steps.
    func testNoFunctionIsLongerThanSixtyLines() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(files.count, 50, "the Swift files under Sources/")
        var found: [String] = []
        var bodies = 0
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let read = FunctionBodies.bodies(in: text)
            bodies += read.count
            found += read.filter { $0.lines > Self.longestBody }.map { "Sources/\(file):\($0.line) \($0.name) (\($0.lines) lines)" }
        }
        XCTAssertGreaterThan(bodies, 500, "the function bodies read")
        XCTAssertEqual(found, [], "functions longer than \(Self.longestBody) lines: \(found.count)")
    }

    /// The function reader finds every body, named by its type, and counts its lines without
    /// being misled by braces in strings, interpolations, raw strings or comments, by a closure
    /// in a default argument, by a protocol's requirements or by `.init(...)` calls.
    func testTheFunctionReaderCountsBodiesAsTheCompilerWould() {
        let text = #"""
            protocol P {
                func required() -> Int
                var name: String { get }
            }
            struct S: P {
                var name: String {
                    "} {" + #"}"# // }
                }
                init(x: () -> Void = { }) {
                    /* { /* } */ { */
                    let a = """
                        }} \(f { "}" }) {
                        """
                    let b = S.init(x: {})
                }
                func required() -> Int { 1 }
                static func == (l: S, r: S) -> Bool {
                    true
                }
            }
            extension Outer.Inner {
                enum Mode { case a }
                subscript(i: Int) -> Int {
                    get { i }
                }
                deinit {
                    func nested() {
                        let c = "\(#"{"#)" + "\\" + "{"
                    }
                }
            }
            class C { class func make() { } }
            """#
        XCTAssertEqual(FunctionBodies.bodies(in: text).map(\.description), [
            "3 P.name (1 lines)",
            "6 S.name (3 lines)",
            "9 S.init (7 lines)",
            "16 S.required (1 lines)",
            "17 S.== (3 lines)",
            "23 Outer.Inner.subscript (3 lines)",
            "27 Outer.Inner.deinit.nested (3 lines)",
            "26 Outer.Inner.deinit (5 lines)",
            "32 C.make (1 lines)",
        ])
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
            let w = "x \\(y[z]!) and \\(a(b)) \\"c!\\""
            let d = "\\(e(f(g))) h!"
            """
        XCTAssertEqual(ForceUnwraps.lines(in: text).map(\.number), [1, 2, 3, 11])
    }
}

/// Force unwraps in Swift source, outside string literals and comments (but inside a string's
/// interpolations, which are code).
enum ForceUnwraps {
    private enum Mode { case code, string, multilineString, blockComment }

    static func lines(in text: String) -> [(number: Int, text: String)] {
        var found: [(Int, String)] = []
        var mode = Mode.code
        // For each open interpolation: the string it is in, and the parentheses open inside it.
        var interpolations: [(string: Mode, depth: Int)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var code = ""
            var characters = Array(line)[...]
            if mode == .string { mode = .code } // a one-line string ends with its line
            while let character = characters.first {
                switch mode {
                case .blockComment:
                    if characters.starts(with: "*/") { mode = .code; characters = characters.dropFirst(2) } else { characters = characters.dropFirst() }
                case .string, .multilineString:
                    let closing = mode == .string ? "\"" : "\"\"\""
                    if characters.starts(with: "\\(") {
                        interpolations.append((mode, 1)); mode = .code; characters = characters.dropFirst(2); code += " "
                    } else if character == "\\" {
                        characters = characters.dropFirst(2)
                    } else if characters.starts(with: closing) {
                        mode = .code; characters = characters.dropFirst(closing.count); code += "\"\""
                    } else {
                        characters = characters.dropFirst()
                    }
                case .code:
                    if characters.starts(with: "\"\"\"") {
                        mode = .multilineString; characters = characters.dropFirst(3)
                    } else if characters.starts(with: "//") {
                        characters = []
                    } else if characters.starts(with: "/*") {
                        mode = .blockComment; characters = characters.dropFirst(2)
                    } else if character == "\"" {
                        mode = .string; characters = characters.dropFirst()
                    } else {
                        if var open = interpolations.last {
                            if character == "(" { open.depth += 1 }
                            if character == ")" { open.depth -= 1 }
                            interpolations[interpolations.count - 1] = open
                            if open.depth == 0 {
                                interpolations.removeLast(); mode = open.string; characters = characters.dropFirst(); code += " "
                                continue
                            }
                        }
                        code.append(character); characters = characters.dropFirst()
                    }
                }
            }
            if code.contains("try!") || code.range(of: #"[\w\)\]\}]!(?!=)"#, options: .regularExpression) != nil {
                found.append((index + 1, line.trimmingCharacters(in: .whitespaces)))
            }
        }
        return found
    }
}
