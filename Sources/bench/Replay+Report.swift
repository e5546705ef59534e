import CoreDataLogs
import Foundation
import Reporting
import Strategies
import Workloads

/// What `bench replay --dry-run` prints: the log's size, its statements by kind with the device's
/// logged time and rows, the tables each kind names, and the statements not understood by why.
enum ReplayReport {
    /// - parameter placed: for each fetch with a `%@` (by its line), how many occurrences are
    ///   replayed with their logged values (`Replay.placedValues`).
    static func dryRun(_ summary: LogSummary, reader: LogReader, name: String, fetches: LogFetches?, saves: LogSaves? = nil, session: LogSession? = nil,
                       placed: [Int: Int] = [:], loggedSaveValues: Bool = false) -> String {
        var text = "\(name): \(count(reader.lines, "line")), \(reader.coreDataLines) of them Core Data's; "
        text += "\(count(reader.statements, "statement")), \(summary.understood) understood, \(summary.notUnderstoodCount) not"
        text += reader.hasValues ? " (bound values logged: level 2 or more)\n" : " (no bound values logged: level 1)\n"
        text += "\n" + kinds(summary)
        if !summary.entities.isEmpty {
            text += "\n" + byName(summary.entities, heading: "entity")
        } else if !summary.tables.isEmpty {
            text += "\n" + byName(summary.tables, heading: "table")
        }
        if !summary.notUnderstood.isEmpty { text += "\n" + lines(summary.notUnderstood, heading: "not understood") }
        if let fetches { text += "\n" + replayed(fetches, reads: summary.kinds.filter { $0.key.isRead }.values.reduce(0) { $0 + $1.statements }, placed: placed) }
        if let saves {
            text += "\n" + replayed(saves, statements: summary.kinds.filter { LogSaves.isSave($0.key) }.values.reduce(0) { $0 + $1.statements }, logged: loggedSaveValues)
        }
        if let session, !session.steps.isEmpty {
            let fetches = "\(session.fetchCount) fetch\(session.fetchCount == 1 ? "" : "es")", saves = count(session.saveCount, "save")
            text += "\nthe session, in the log's order: \(fetches) and \(saves)"
            text += session.total > session.steps.count ? " (the first \(session.steps.count) of the \(session.total) the log makes)\n" : "\n"
        }
        return text
    }

    /// The log's transactions as saves, each with how often the log makes it; what is not replayed.
    /// `logged`: whether the saves are given the new values the log bound (`--values logged`).
    private static func replayed(_ saves: LogSaves, statements: Int, logged: Bool) -> String {
        let read = saves.saves.reduce(0) { $0 + $1.statements }
        var text = "the log's transactions as saves: \(saves.saves.count) distinct, \(read) of its \(statements) save statements\n"
        if !saves.saves.isEmpty {
            var rows = [["times", "statements", "line", "save"]]
            for save in saves.saves { rows.append(["\(save.count)", "\(save.statements)", "\(save.line)", save.spec.summary(saves.schema.model)]) }
            text += table(rows, rightAligned: [0, 1, 2])
        }
        let valued = saves.saves.count { $0.values != nil }
        if valued > 0 {
            text += logged ? "the new values of \(valued) of them as the log bound them (level 2), where they fit; their objects drawn from the data\n"
                : "the new values of \(valued) of them are logged (level 2) and drawn instead (--values drawn)\n"
        }
        if !saves.notReplayed.isEmpty { text += "\n" + lines(saves.notReplayed, heading: "not replayed") }
        return text
    }

    /// The log's reads as fetches, each with how often the log makes it and whose values it is
    /// replayed with (the log's, `logged N`, or `drawn` from the data, `~N rows` where drawn to
    /// return about the rows the log gives); what is not replayed.
    private static func replayed(_ fetches: LogFetches, reads: Int, placed: [Int: Int]) -> String {
        let statements = fetches.fetches.reduce(0) { $0 + $1.statements }
        var text = "the log's reads as fetches: \(fetches.fetches.count) distinct, \(statements) of its \(reads) reads\n"
        if !fetches.fetches.isEmpty {
            // The device's own time for the fetch's statements, where the log has it.
            var rows = [["times", "statements", "device time", "values", "line", "fetch"]]
            for fetch in fetches.fetches {
                let logged = fetch.timed == 0 ? "-" : seconds(fetch.loggedSeconds) + (fetch.timed < fetch.statements ? " (\(fetch.timed) timed)" : "")
                // Drawn values are chosen to return about the rows the log says the fetch returned.
                let drawn = fetch.typicalRows.map { "drawn ~\(Int($0.rounded())) rows" } ?? "drawn"
                let values = !fetch.spec.hasPlaceholders ? "-" : placed[fetch.line].map { $0 > 0 ? "logged \($0)" : drawn } ?? drawn
                rows.append(["\(fetch.count)", "\(fetch.statements)", logged, values, "\(fetch.line)", fetch.text])
            }
            text += table(rows, rightAligned: [0, 1, 2, 4])
        }
        if !fetches.notReplayed.isEmpty { text += "\n" + lines(fetches.notReplayed, heading: "not replayed") }
        return text
    }

    /// Beside each fetch the log timed, the device's own time for one (its statements' logged
    /// total over the times the log makes it) and `single-table`'s median for one here; and the
    /// totals of those fetches, each weighted by its count. `nil` when the log has no time.
    static func device(_ fetches: LogFetches, _ results: [WorkloadResult]) -> String? {
        let baseline = Strategies.baseline.name
        var rows = [["line", "times", "device, each", "\(baseline) here, each", "fetch"]]
        var (device, here) = (0.0, 0.0)
        for fetch in fetches.fetches where fetch.timed == fetch.statements && fetch.count > 0 {
            guard let result = results.first(where: { $0.strategy == baseline && $0.workload == "line-\(fetch.line)" }), !result.samples.isEmpty else { continue }
            let each = medianOfOne(result) / 1e9
            // Core Data logs a statement's time to the tenth of a millisecond: an average below it is no measure.
            let logged = fetch.loggedSeconds / Double(fetch.count)
            rows.append(["\(fetch.line)", "\(fetch.count)", logged < 1e-4 ? "< 0.1 ms" : ConsoleTable.duration(logged * 1e9), ConsoleTable.duration(each * 1e9), fetch.text])
            device += fetch.loggedSeconds
            here += each * Double(fetch.count)
        }
        guard rows.count > 1 else { return nil }
        var text = "the device's logged time beside \(baseline)'s here (the device's holds Core Data's own work too, building objects, and is logged to the "
        text += "tenth of a millisecond; this machine is not the device):\n" + table(rows, rightAligned: [0, 1, 2, 3])
        let fetchCount = rows.count - 1
        text += "\(fetchCount == 1 ? "this fetch" : "these \(fetchCount) fetches") as often as the log makes \(fetchCount == 1 ? "it" : "them"): "
        text += "the device logged \(seconds(device)), \(baseline) here \(seconds(here))\n"
        return text
    }

    /// The replayed fetches by kind: how many and how often, each layout's time for them as often
    /// as the log makes them (each fetch's median for one, weighted by its count), and its ratio
    /// to the baseline's: which kinds of the app's reads decide its time.
    static func byKind(_ fetches: LogFetches, _ saves: LogSaves?, _ results: [WorkloadResult]) -> String? {
        let cases = fetches.fetches.map { (kind: $0.kind, line: $0.line, count: $0.count) } + (saves?.saves ?? []).map { (kind: "save", line: $0.line, count: $0.count) }
        let strategies = results.map(\.strategy).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let baseline = Strategies.baseline.name
        guard strategies.contains(baseline), strategies.count > 1 else { return nil }
        var kinds: [String] = [], totals: [String: [String: Double]] = [:], counts: [String: (fetches: Int, times: Int)] = [:]
        for fetch in cases {
            let measured = results.filter { $0.workload == "line-\(fetch.line)" && !$0.samples.isEmpty }
            guard Set(measured.map(\.strategy)) == Set(strategies) else { continue }
            if !kinds.contains(fetch.kind) { kinds.append(fetch.kind) }
            counts[fetch.kind, default: (0, 0)].fetches += 1
            counts[fetch.kind, default: (0, 0)].times += fetch.count
            for result in measured {
                let each = medianOfOne(result)
                totals[fetch.kind, default: [:]][result.strategy, default: 0] += each * Double(fetch.count)
            }
        }
        guard !kinds.isEmpty else { return nil }
        let session = results.filter { $0.workload == Workload.sessionName && !$0.samples.isEmpty }
        if Set(session.map(\.strategy)) == Set(strategies) {
            kinds.append("session, in order")
            counts["session, in order"] = (1, 1)
            for result in session { totals["session, in order", default: [:]][result.strategy] = Statistics(result.samples).median }
        }
        var rows = [["kind", "distinct", "times"] + strategies]
        for kind in kinds {
            let time = totals[kind] ?? [:], base = time[baseline] ?? 0
            rows.append([kind, "\(counts[kind]?.fetches ?? 0)", "\(counts[kind]?.times ?? 0)"] + strategies.map { strategy in
                let value = time[strategy] ?? 0
                return ConsoleTable.duration(value) + (strategy == baseline || base <= 0 ? "" : String(format: " %.2f×", value / base))
            })
        }
        let what = saves?.saves.isEmpty == false ? "reads and saves" : "reads"
        return "the log's \(what) by kind, each as often as the log makes it (medians of one, weighted; ratios to \(baseline)):\n"
            + table(rows, rightAligned: Set(1 ..< rows[0].count))
    }

    /// A case's median time for one of the fetches a repetition runs (one per draw), in nanoseconds.
    private static func medianOfOne(_ result: WorkloadResult) -> Double {
        Statistics(result.samples).median / Double(max(1, result.mix?.fetches ?? 1))
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

    /// Statements grouped by why, each group's lines.
    private static func lines(_ groups: [String: LineList], heading: String) -> String {
        var text = "\(heading) (\(groups.values.reduce(0) { $0 + $1.count })):\n"
        for (why, lines) in groups.sorted(by: { $0.value.earliest < $1.value.earliest }) {
            let shown = lines.first.map(String.init).joined(separator: ", ") + (lines.count > lines.first.count ? " and \(lines.count - lines.first.count) more" : "")
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
