import CoreDataLogs
import Foundation

/// What `bench replay --dry-run` prints: the log's size, its statements by kind with the device's
/// logged time and rows, the tables each kind names, and the statements not understood by why.
enum ReplayReport {
    static func dryRun(_ summary: LogSummary, reader: LogReader, name: String) -> String {
        var text = "\(name): \(count(reader.lines, "line")), \(reader.coreDataLines) of them Core Data's; "
        text += "\(count(reader.statements, "statement")), \(summary.understood) understood, \(summary.notUnderstoodCount) not"
        text += reader.hasValues ? " (bound values logged: level 2 or more)\n" : " (no bound values logged: level 1)\n"
        text += "\n" + kinds(summary)
        if !summary.entities.isEmpty {
            text += "\n" + byName(summary.entities, heading: "entity")
        } else if !summary.tables.isEmpty {
            text += "\n" + byName(summary.tables, heading: "table")
        }
        if !summary.notUnderstood.isEmpty { text += "\n" + notUnderstood(summary) }
        return text
    }

    private static func kinds(_ summary: LogSummary) -> String {
        var rows = [["kind", "statements", "logged time", "rows"]]
        for kind in StatementKind.allCases {
            guard let tally = summary.kinds[kind] else { continue }
            rows.append([kind.rawValue + (kind.isReplayed ? "" : " (not replayed)"), "\(tally.statements)",
                         tally.timed == 0 ? "-" : seconds(tally.seconds) + (tally.timed < tally.statements ? " (\(tally.timed) timed)" : ""),
                         tally.counted == 0 ? "-" : "\(tally.rows)"])
        }
        let total = summary.total
        rows.append(["all", "\(total.statements)", total.timed == 0 ? "-" : seconds(total.seconds), ""])
        return table(rows, rightAligned: [1, 2, 3])
    }

    private static func byName(_ counts: [String: [StatementKind: Int]], heading: String) -> String {
        var rows = [[heading, "statements by kind"]]
        for (name, kinds) in counts.sorted(by: { $0.key < $1.key }) {
            rows.append([name, kinds.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")])
        }
        return table(rows, rightAligned: [])
    }

    private static func notUnderstood(_ summary: LogSummary) -> String {
        var text = "not understood (\(summary.notUnderstoodCount)):\n"
        for (why, lines) in summary.notUnderstood.sorted(by: { $0.value[0] < $1.value[0] }) {
            let shown = lines.prefix(20).map(String.init).joined(separator: ", ") + (lines.count > 20 ? " and \(lines.count - 20) more" : "")
            text += "  \(lines.count == 1 ? "line" : "lines") \(shown): \(why)\n"
        }
        return text
    }

    private static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

    private static func seconds(_ value: Double) -> String { String(format: "%.4f s", value) }

    private static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let widths = (0 ..< rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : (column == row.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }.joined(separator: "\n") + "\n"
    }
}
