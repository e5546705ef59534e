import Foundation

/// What moving a store's objects to each layout costs, from a run on the store's own objects
/// (`data` = store): `insert-bulk` is that copy (every object and link, in transactions of
/// `--batch` objects), so its median is the one-time migration's time, and its store's size and
/// bytes per object are what the layout keeps the same objects in.
public enum StoreCopySummary {
    /// A heading, then per strategy (the baseline first) its copy's time, store size, bytes per
    /// object and ratio to the baseline; nil for a run on generated objects or without `insert-bulk`.
    public static func summary(_ rows: [ResultsFile.Row], baseline: String) -> (heading: String, copies: [(strategy: String, text: String)])? {
        let copies = rows.filter { $0.fields["data"] == "store" && $0.workload == "insert-bulk" }
        guard let first = copies.first, let objects = Int(first.fields["rows"] ?? ""), objects > 0 else { return nil }
        let grid = CaseGrid(copies, baseline: baseline)
        let batch = first.fields["batch"].map { " in transactions of \($0)" } ?? ""
        let heading = "moving the store's \(objects) objects into each layout (insert-bulk: every object and link copied\(batch))"
        return (heading, copies.map { row in
            let bytes = Int64(row.fields["db_bytes"] ?? "") ?? 0
            var text = ConsoleTable.duration(row.median) + ", " + ConsoleTable.bytes(bytes) + ", \(bytes / Int64(objects)) bytes an object"
            if let interval = grid.ratioInterval(row.caseName, row.strategy) { text += ", " + interval.text + " the time of \(baseline)'s" }
            return (row.strategy, text)
        })
    }

    /// The summary as console lines: the heading, then one indented line per strategy.
    public static func lines(_ rows: [ResultsFile.Row], baseline: String) -> [String] {
        guard let (heading, copies) = summary(rows, baseline: baseline) else { return [] }
        let width = copies.map(\.strategy.count).max() ?? 0
        return [heading + ":"] + copies.map { "  " + $0.strategy.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.text }
    }
}
