import Foundation
import Workloads

/// The rows of one results file as a grid: workload cases down, strategies across, each cell a
/// median with its interval and its ratio to the baseline strategy of the same case. The
/// Markdown summary and the HTML report share it, so both say the same thing.
public struct CaseGrid {
    public let baseline: String
    /// Strategies in the file's order, the baseline first when it is there.
    public let strategies: [String]
    /// Case names (`ResultsFile.Row.caseName`) in the file's order.
    public let cases: [String]
    private let cells: [ResultsFile.Key: ResultsFile.Row]

    public init(_ rows: [ResultsFile.Row], baseline: String) {
        self.baseline = baseline
        var strategies: [String] = [], cases: [String] = []
        var cells: [ResultsFile.Key: ResultsFile.Row] = [:]
        for row in rows {
            if !strategies.contains(row.strategy) { strategies.append(row.strategy) }
            if !cases.contains(row.caseName) { cases.append(row.caseName) }
            cells[row.key] = cells[row.key] ?? row
        }
        if let index = strategies.firstIndex(of: baseline) { strategies.insert(strategies.remove(at: index), at: 0) }
        self.strategies = strategies
        self.cases = cases
        self.cells = cells
    }

    public func row(_ caseName: String, _ strategy: String) -> ResultsFile.Row? {
        cells[ResultsFile.Key(strategy: strategy, caseName: caseName)]
    }

    /// The strategy's ratio to the baseline in the same case: the median of the per-round ratios
    /// when they are known, else the ratio of the medians; nil without a baseline row.
    public func ratio(_ caseName: String, _ strategy: String) -> Double? {
        if let interval = ratioInterval(caseName, strategy) { return interval.ratio }
        guard let measured = row(caseName, strategy), let reference = row(caseName, baseline), reference.median > 0 else { return nil }
        return measured.median / reference.median
    }

    /// The strategy's ratio to the baseline with its interval: the file's ratio columns, or the
    /// two rows' repetitions paired round by round (a version 4 file with its samples); nil for
    /// the baseline itself, without a baseline row, or without either.
    public func ratioInterval(_ caseName: String, _ strategy: String) -> RatioInterval? {
        guard strategy != baseline, let measured = row(caseName, strategy) else { return nil }
        if let written = RatioInterval(fields: measured.fields) { return written }
        guard let samples = measured.samples, let reference = row(caseName, baseline)?.samples else { return nil }
        return RatioInterval(measured: samples.map { Optional($0) }, baseline: reference.map { Optional($0) })
    }

    /// SQLite's work for one execution as the summaries print it: "52k VM steps", with "(1.40×)"
    /// its ratio to the baseline's; nil when the file has no work columns (before schema 6).
    public func workText(_ caseName: String, _ strategy: String) -> String? {
        guard let steps = row(caseName, strategy)?.fields["vm_steps"].flatMap({ Double($0) }) else { return nil }
        let ratio = row(caseName, strategy)?.fields["vm_steps_ratio"].flatMap { Double($0) }
        return ConsoleTable.count(steps) + " VM steps" + (ratio.map { " (" + Figure.fixed($0, decimals: 2) + "×)" } ?? "")
    }

    /// Whether the median's interval is wider than `Statistics.noiseThreshold` of the median
    /// (the CSV's `noisy` column, recomputed so that files without it are judged alike).
    public static func isNoisy(_ row: ResultsFile.Row) -> Bool {
        row.median > 0 && (row.interval.upperBound - row.interval.lowerBound) / row.median > Statistics.noiseThreshold
    }

    /// Whether the row's interval covers the median with 95 % (6 repetitions or more): below that
    /// it is the min–max range of a few repetitions, or a single point, and separates nothing.
    public static func hasInterval(_ row: ResultsFile.Row) -> Bool {
        guard let coverage = row.fields["ci_coverage"].flatMap(Double.init) else { return true }
        return coverage >= StoppingRule.confidence
    }

    /// The interval as the summaries print it, or what stands in for it without 95 % coverage.
    public static func intervalCell(_ row: ResultsFile.Row) -> String {
        if hasInterval(row) { return intervalText(row.interval) }
        let repetitions = row.samples?.count ?? row.fields["iterations"].flatMap { Int($0) }
        return repetitions == 1 ? "1 repetition, no interval" : "\(repetitions.map(String.init) ?? "few") repetitions, no 95 % interval"
    }

    /// What one case shows: the fastest strategy, how far ahead of the next it is, and whether
    /// their intervals keep them apart.
    public struct Finding: Sendable {
        public var caseName: String
        public var fastest: String
        public var fastestMedian: Double
        public var runnerUp: String
        /// runner-up median / fastest median (≥ 1).
        public var lead: Double
        /// The fastest's interval ends below the runner-up's, both 95 % intervals: the lead is not noise.
        public var clear: Bool
        /// Both the fastest and the runner-up have 95 % intervals (else `clear` is false for want of them).
        public var intervals: Bool
        public var slowest: String
        /// slowest median / fastest median.
        public var spread: Double
        /// Strategies whose median is noisy in this case.
        public var noisy: [String]
        /// Every other strategy's ratio to the baseline, in the grid's order, where known.
        public var ratios: [(strategy: String, ratio: RatioInterval)] = []
        /// Strategies whose ratio is too uncertain to call.
        public var uncertain: [String] { ratios.filter { $0.ratio.isUncertain }.map(\.strategy) }
    }

    /// One finding per case with at least two strategies.
    public func findings() -> [Finding] {
        cases.compactMap { caseName in
            let rows = strategies.compactMap { row(caseName, $0) }.sorted { ($0.median, $0.strategy) < ($1.median, $1.strategy) }
            guard rows.count >= 2, let first = rows.first, let last = rows.last, first.median > 0 else { return nil }
            let second = rows[1]
            let intervals = Self.hasInterval(first) && Self.hasInterval(second)
            return Finding(caseName: caseName, fastest: first.strategy, fastestMedian: first.median, runnerUp: second.strategy,
                           lead: second.median / first.median, clear: intervals && first.interval.upperBound < second.interval.lowerBound, intervals: intervals,
                           slowest: last.strategy, spread: last.median / first.median,
                           noisy: rows.filter(Self.isNoisy).map(\.strategy),
                           ratios: strategies.compactMap { strategy in ratioInterval(caseName, strategy).map { (strategy, $0) } })
        }
    }

    /// How many cases each strategy is fastest in, most first.
    public func wins() -> [(strategy: String, cases: Int)] {
        let counts = Dictionary(grouping: findings(), by: \.fastest).mapValues(\.count)
        return strategies.compactMap { name in counts[name].map { (name, $0) } }.sorted { $0.cases > $1.cases }
    }

    /// 2.10×
    public static func ratioText(_ ratio: Double) -> String {
        Figure.fixed(ratio, decimals: ratio >= 100 ? 0 : 2) + "×"
    }

    /// 1.20–1.31 ms: an interval in the unit of its upper end.
    public static func intervalText(_ interval: ClosedRange<Double>) -> String {
        let high = ConsoleTable.duration(interval.upperBound)
        let unit = high.split(separator: " ").last.map(String.init) ?? ""
        let divisor: Double = switch unit { case "s": 1e9; case "ms": 1e6; case "µs": 1e3; default: 1 }
        let format = unit == "ns" ? "%.0f" : unit == "s" ? "%.2f" : "%.1f"
        return String(format: format, interval.lowerBound / divisor) + "–" + high
    }
}
