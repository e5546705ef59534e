import Foundation
import Workloads
import XCTest

/// The README's workload table lists exactly the workloads of `Workloads.all`, in their order.
final class ReadmeTests: XCTestCase {
    func testTheWorkloadTableListsEveryWorkload() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "| workload | what is timed |") else { return XCTFail("no workload table in the README") }
        let rows = text[start.upperBound...].split(separator: "\n").dropFirst(2).prefix { $0.hasPrefix("|") }
        let named = rows.flatMap { row -> [String] in
            let first = row.split(separator: "|").first ?? ""
            return first.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
        XCTAssertEqual(named, Workloads.names)
    }
}
