import Foundation
import Workloads

/// The storage report as CSV: one row per table or index of each strategy's store, and one
/// `(file)` row per strategy with the whole file.
public enum StorageCSV {
    public static let columns = [
        "run_id", "timestamp", "git_commit", "sqlite_version", "seed", "scale", "strategy", "object", "type", "table",
        "pages", "bytes", "bytes_per_publication", "cells", "null_cells", "null_share",
    ]

    public static func render(_ reports: [StorageReport], seed: UInt64, context: RunContext) -> String {
        var text = CSV.line(columns)
        for report in reports {
            let run = [context.runID, context.timestamp, context.gitCommit, context.sqliteVersion, String(seed), String(report.publications), report.strategy]
            let perPublication = { (bytes: Double) in String(format: "%.1f", report.publications > 0 ? bytes / Double(report.publications) : 0) }
            text += CSV.line(run + ["(file)", "file", "", String(report.pageCount), String(report.fileBytes), perPublication(Double(report.fileBytes)),
                                     "", "", report.publicationNullShare.map { String(format: "%.4f", $0) } ?? ""])
            for object in report.objects {
                text += CSV.line(run + [
                    object.name, object.type, object.table, String(object.pages), String(object.bytes), perPublication(Double(object.bytes)),
                    object.cells.map(String.init) ?? "", object.nullCells.map(String.init) ?? "",
                    object.nullShare.map { String(format: "%.4f", $0) } ?? "",
                ])
            }
        }
        return text
    }

    /// A console summary: one line per strategy, then its five largest objects.
    public static func table(_ reports: [StorageReport]) -> String {
        var lines: [String] = []
        for report in reports {
            let nulls = report.publicationNullShare.map { String(format: "%.0f %% of entity-table cells NULL", $0 * 100) } ?? "no dbstat"
            lines.append(String(format: "%@  %@, %.0f bytes per object of the main hierarchy, %d pages, %@", report.strategy,
                                ConsoleTable.bytes(report.fileBytes), report.bytesPerPublication, report.pageCount, nulls))
            for object in report.objects.prefix(5) {
                let share = object.nullShare.map { String(format: "  (%.0f %% NULL)", $0 * 100) } ?? ""
                lines.append("    " + object.name.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + ConsoleTable.bytes(Int64(object.bytes)).leftPadded(to: 10) + "  \(object.type)" + share)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
