import Workloads

/// The table printed at the end of a run: grouped by workload, each strategy's median and its
/// ratio to the baseline strategy (`single-table`), so "2.10×" reads "takes 2.1 times as long".
/// "±" is half the width of the median's confidence interval, relative to the median; a "!"
/// marks an interval wider than 5 % of the median (a noisy figure); "–" a median of one
/// repetition, which has no interval. The ratio is the median of the per-round ratios
/// (`RatioInterval`) with its 95 % interval; "?" marks a ratio too uncertain to call.
public enum ConsoleTable {
    public static func render(_ results: [WorkloadResult], baseline: String) -> String {
        let header = ["workload", "strategy", "median", "±", "min", "max", "rows", "rows/s", "db size", "vs \(baseline)", "vm steps"]
        var lines: [[String]] = [header]
        var caseOrder: [String] = []
        var byCase: [String: [WorkloadResult]] = [:]
        for result in results {
            let caseName = label(result)
            if byCase[caseName] == nil { caseOrder.append(caseName) }
            byCase[caseName, default: []].append(result)
        }
        for caseName in caseOrder {
            let group = byCase[caseName, default: []]
            for (offset, result) in group.enumerated() {
                let statistics = Statistics(result.samples)
                let ratio = RatioInterval(result, among: group, baseline: baseline).map { $0.text + ($0.isUncertain ? "?" : " ") }
                    ?? (result.strategy == baseline ? "1.00× " : "- ")
                let rate = statistics.median > 0 ? Double(result.rows) / (statistics.median / 1e9) : 0
                let halfWidth = statistics.median > 0
                    ? (statistics.medianInterval.upperBound - statistics.medianInterval.lowerBound) / 2 / statistics.median * 100 : 0
                let spread = statistics.count == 1 ? "– " : String(format: "%.1f%%", halfWidth) + (statistics.isNoisy ? "!" : " ")
                lines.append([
                    offset == 0 ? caseName : "", result.strategy, duration(statistics.median), spread, duration(statistics.min),
                    duration(statistics.max), String(result.rows), count(rate), bytes(result.dbBytes), ratio,
                    workText(result, reference: RatioInterval.reference(of: result, among: group, baseline: baseline)),
                ])
            }
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.enumerated().map { index, fields in
            let text = fields.enumerated().map { column, field in
                column < 2 ? field.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - field.count) + field
            }.joined(separator: "  ")
            return index == 0 ? text + "\n" + String(repeating: "-", count: text.count) : text
        }.joined(separator: "\n") + "\n"
    }

    /// SQLite's virtual-machine steps for one execution, with their ratio to the baseline's:
    /// "52k 1.40×"; "-" when not counted.
    static func workText(_ result: WorkloadResult, reference: WorkloadResult?) -> String {
        guard let work = result.work else { return "-" }
        let steps = count(Double(work.vmSteps))
        guard let base = reference?.work, base.vmSteps > 0, work.vmSteps > 0 else { return steps }
        return steps + " " + Figure.fixed(Double(work.vmSteps) / Double(base.vmSteps), decimals: 2) + "×"
    }

    /// The case as the CSV reader names it: with a described hierarchy's name and a sweep's value.
    static func label(_ result: WorkloadResult) -> String {
        ResultsFile.caseName(hierarchy: result.setting.hierarchy, sweepParameter: result.setting.sweepParameter,
                             sweepValue: result.setting.sweepValue, workload: result.workload, variant: result.variant)
    }

    /// 812 ns, 45.3 µs, 12.8 ms, 1.52 s
    public static func duration(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.1f µs", nanoseconds / 1_000)
        case ..<1_000_000_000: String(format: "%.1f ms", nanoseconds / 1_000_000)
        default: Figure.fixed(nanoseconds / 1_000_000_000, decimals: 2) + " s"
        }
    }

    static func count(_ value: Double) -> String {
        switch value {
        case ..<10_000: String(format: "%.0f", value)
        case ..<10_000_000: String(format: "%.0fk", value / 1_000)
        default: String(format: "%.1fM", value / 1_000_000)
        }
    }

    public static func bytes(_ value: Int64) -> String {
        value >= 1 << 20 ? String(format: "%.1f MiB", Double(value) / 1_048_576) : String(format: "%.0f KiB", Double(value) / 1024)
    }
}
