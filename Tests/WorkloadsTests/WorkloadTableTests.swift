import Foundation
import Workloads
import XCTest

/// The workload table (docs/workloads.md) lists exactly the workloads of `Workloads.all`, in their order,
/// with their warm-ups and weights.
final class WorkloadTableTests: XCTestCase {
    func testTheWorkloadTableListsEveryWorkload() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/workloads.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "| workload | what is timed |") else { return XCTFail("no workload table in docs/workloads.md") }
        let rows = text[start.upperBound...].split(separator: "\n").dropFirst(2).prefix { $0.hasPrefix("|") }
        let named = rows.flatMap { row -> [String] in
            let first = row.split(separator: "|").first ?? ""
            return first.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        }
        XCTAssertEqual(named, Workloads.names)
        // Each row's warm-ups and weight are the workload's own.
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let leading = { (cell: String) in Double(cell.split(separator: " ").first ?? "") }
            for name in cells[0].split(separator: ",").map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }) {
                guard let workload = Workloads.named(name) else { continue }
                XCTAssertEqual(leading(cells[3]), Double(workload.warmups), "\(name)'s warm-ups in docs/workloads.md")
                XCTAssertEqual(leading(cells[4]), workload.budget, "\(name)'s weight in docs/workloads.md")
            }
        }
    }
}
