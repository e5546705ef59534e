import Foundation
import Reporting
import XCTest

/// The documentation says what bench writes: the CSV's columns, in file order, with the schema
/// version runs write, and the JSON export's version (docs/files.md); and every link in the README
/// and docs/ leads somewhere: a file of the repository and, after `#`, a heading in it.
final class DocumentationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func files() throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent("docs/files.md"), encoding: .utf8)
    }

    func testTheCSVTableListsEveryColumnWithTheWrittenSchemaVersion() throws {
        let text = try files()
        guard let start = text.range(of: "| column | meaning |") else { return XCTFail("no CSV column table in docs/files.md") }
        let rows = text[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
        let documented = rows.map { row -> (name: String, meaning: String) in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
            return (cells.first ?? "", cells.dropFirst().joined(separator: "|"))
        }
        XCTAssertEqual(documented.map(\.name), ResultsCSV.columns.map(\.name))
        let version = documented.first { $0.name == "schema_version" }?.meaning ?? ""
        XCTAssertTrue(version.hasPrefix("version of this CSV layout (\(ResultsCSV.schemaVersion))"),
                      "docs/files.md documents schema_version as '\(version)'; runs write \(ResultsCSV.schemaVersion)")
        for (documented, written) in zip(documented, ResultsCSV.columns) where documented.name == written.name {
            XCTAssertEqual(documented.meaning, written.meaning, "docs/files.md's meaning of \(written.name)")
        }
    }

    func testTheJSONVersionIsTheWrittenOne() throws {
        let text = try files()
        XCTAssertTrue(text.contains("the version (\(ResultsJSON.schemaVersion);"), "docs/files.md names another JSON version than \(ResultsJSON.schemaVersion)")
        // The example document shows the version the files say, too.
        let shown = text.components(separatedBy: "\"version\": ").dropFirst().map { $0.prefix { $0.isNumber } }
        XCTAssertFalse(shown.isEmpty, "docs/files.md shows no example of the JSON export")
        XCTAssertEqual(Set(shown), [Substring("\(ResultsJSON.schemaVersion)")], "docs/files.md's example JSON shows another version than \(ResultsJSON.schemaVersion)")
    }

    /// The Markdown files checked: the README and every page of docs/.
    static func pages() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [root.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    }

    func testEveryLinkLeadsToAFileAndAHeading() throws {
        let pages = try Self.pages()
        XCTAssertGreaterThanOrEqual(pages.count, 8, "the README and docs/'s pages")
        var checked = 0
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for target in MarkdownLinks.targets(in: text) where !target.hasPrefix("http://") && !target.hasPrefix("https://") {
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : URL(fileURLWithPath: parts[0], relativeTo: page.deletingLastPathComponent()).standardizedFileURL
                guard FileManager.default.fileExists(atPath: file.path) else {
                    XCTFail("\(page.lastPathComponent): the link \(target) leads to no file")
                    continue
                }
                guard parts.count == 2 else { continue }
                let anchors = MarkdownLinks.anchors(in: try String(contentsOf: file, encoding: .utf8))
                XCTAssertTrue(anchors.contains(parts[1]), "\(page.lastPathComponent): the link \(target) names no heading of \(file.lastPathComponent)")
            }
        }
        XCTAssertGreaterThan(checked, 20, "the pages link to each other and to results")
    }

    /// The checker finds what it must, or the test above could pass on nothing.
    func testTheLinkCheckerReadsLinksAndHeadingsAsGitHubDoes() {
        XCTAssertEqual(MarkdownLinks.targets(in: "See [a](docs/a.md#x-y) and ![c](r/c.png).\n```\n[not](code.md)\n```\n`[nor](inline.md)`"),
                       ["docs/a.md#x-y", "r/c.png"])
        XCTAssertEqual(MarkdownLinks.anchors(in: "# Core Data's layout, rule by rule\n## The CSV\n```\n# not a heading\n```\n## The CSV"),
                       ["core-datas-layout-rule-by-rule", "the-csv", "the-csv-1"])
    }
}
