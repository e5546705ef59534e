import Foundation
import Reporting
import XCTest

/// The README documents the results files as bench writes them: the CSV's columns, in file order,
/// with the schema version runs write, and the JSON export's version.
final class ResultsReadmeTests: XCTestCase {
    func readme() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        return try String(contentsOf: url, encoding: .utf8)
    }

    func testTheCSVTableListsEveryColumnWithTheWrittenSchemaVersion() throws {
        let text = try readme()
        guard let start = text.range(of: "| column | meaning |") else { return XCTFail("no CSV column table in the README") }
        let rows = text[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
        let documented = rows.map { row -> (name: String, meaning: String) in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
            return (cells.first ?? "", cells.dropFirst().joined(separator: "|"))
        }
        XCTAssertEqual(documented.map(\.name), ResultsCSV.columns.map(\.name))
        let version = documented.first { $0.name == "schema_version" }?.meaning ?? ""
        XCTAssertTrue(version.hasPrefix("version of this CSV layout (\(ResultsCSV.schemaVersion))"),
                      "the README documents schema_version as '\(version)'; runs write \(ResultsCSV.schemaVersion)")
        for (readme, written) in zip(documented, ResultsCSV.columns) where readme.name == written.name {
            XCTAssertEqual(readme.meaning, written.meaning, "the README's meaning of \(written.name)")
        }
    }

    func testTheJSONVersionIsTheWrittenOne() throws {
        XCTAssertTrue(try readme().contains("the version (\(ResultsJSON.schemaVersion);"), "the README names another JSON version than \(ResultsJSON.schemaVersion)")
    }
}
