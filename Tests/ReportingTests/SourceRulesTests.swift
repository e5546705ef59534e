import Foundation
import XCTest

/// Rules the sources keep: the checked-in `.swift-format`'s (no force unwrap or `try!`, so that a
/// model the suite cannot handle is an error line, never a trap; no line over its `lineLength`),
/// checked by `swift format lint`; and the two it cannot express: no function longer than 60
/// lines, the baseline named in one place.
final class SourceRulesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The pretty printer's layout findings, which the sources are not held to: their continuation
    /// style (arguments aligned under the opening parenthesis, long one-line closures) is not
    /// swift-format's, and a whole-tree reformat is not worth what it costs the branches in flight.
    /// Its `[LineLength]` finding is held.
    static let layoutFindings = ["[AddLines]", "[RemoveLine]", "[Indentation]", "[Spacing]", "[TrailingComma]"]

    /// `swift format lint` with the checked-in configuration over `paths` (`-`: standard input,
    /// holding `input`): its findings, the layout ones left out.
    static func lint(_ paths: [String], input: String = "") throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "format", "lint", "--parallel", "--configuration", root.appendingPathComponent(".swift-format").path, "--recursive"] + paths
        let findings = Pipe(), standardInput = Pipe()
        process.standardError = findings
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = standardInput
        try process.run()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let text = String(decoding: findings.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init).filter { line in !layoutFindings.contains { line.contains($0) } }
    }

    func testSwiftFormatLintFindsNothingInTheSources() throws {
        XCTAssertEqual(try Self.lint([Self.root.appendingPathComponent("Sources").path]), [])
    }

    /// The lint finds force unwraps and `try!` in code, interpolations included, and nothing in
    /// strings, comments or `!=`; and a line over the configured length.
    func testTheLintReadsSwiftAsTheCompilerWould() throws {
        let text = """
            let a = b!
            let c = try! d()
            let e = f[0]!.g
            if h != i, !j {}
            let k = "l!"  // m!
            /// n!
            let o = p
            let q = \"\"\"
                r!
                \"\"\"
            let s = t?.u ?? v
            let w = "x \\(y[z]!) and \\(a(b)) \\"c!\\""
            let long = "\(String(repeating: "x", count: 260))"

            """
        // `<stdin>:LINE:COLUMN: warning: [RULE] …` as `LINE RULE`.
        let found = try Self.lint(["-"], input: text).map { line -> String in
            let parts = line.split(separator: ":")
            let rule = line.components(separatedBy: "[").dropFirst().first?.components(separatedBy: "]").first ?? line
            return parts.count > 1 ? "\(parts[1]) \(rule)" : line
        }
        XCTAssertEqual(found, ["1 NeverForceUnwrap", "2 NeverUseForceTry", "3 NeverForceUnwrap", "12 NeverForceUnwrap", "13 LineLength"])
    }

    /// The baseline every ratio is taken against is the registry's first strategy
    /// (`Strategies.baseline`): no code outside its own folder spells its name (help texts and the
    /// CSV's column notes interpolate it), and plot.gnuplot reads it from the CSV, naming it only
    /// for files older than the ratio column.
    func testTheBaselineIsNamedByTheRegistryOnly() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        var found: [String] = []
        for file in (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []).sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                if code.contains("single-table"), !file.hasPrefix("Strategies/SingleTable/") { found.append("Sources/\(file):\(number + 1)") }
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
    /// braces in strings and comments). A longer one is split into named steps, or says why it is
    /// not in a comment above it starting `Long:` (`Self.explainsItsLength`).
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
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            found += read.filter { $0.lines > Self.longestBody && !Self.explainsItsLength(lines, above: $0.line) }.map { "Sources/\(file):\($0.line) \($0.name) (\($0.lines) lines)" }
        }
        XCTAssertGreaterThan(bodies, 500, "the function bodies read")
        XCTAssertEqual(found, [], "functions longer than \(Self.longestBody) lines: \(found.count)")
    }

    /// Whether the comment (and attributes) right above line `line` (from 1) holds a line starting
    /// `Long:`, which says why the function below is longer than `longestBody`.
    static func explainsItsLength(_ lines: [Substring], above line: Int) -> Bool {
        for index in stride(from: line - 2, through: 0, by: -1) {
            let text = lines[index].trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("//") || text.hasPrefix("@") else { return false }
            if text.drop(while: { $0 == "/" }).trimmingCharacters(in: .whitespaces).hasPrefix("Long:") { return true }
        }
        return false
    }

    func testALongFunctionIsAllowedWhereACommentSaysWhy() {
        let lines = ["/// Reads it.", "/// Long: one table of cases, clearer whole.", "@discardableResult", "func f() {", "// Long: not this one's", "", "func g() {"]
        XCTAssertTrue(Self.explainsItsLength(lines[...].map { Substring($0) }, above: 4))
        XCTAssertFalse(Self.explainsItsLength(lines[...].map { Substring($0) }, above: 7))
        XCTAssertFalse(Self.explainsItsLength(["/// Long story short: it reads.", "func h() {"], above: 2))
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
}
