import Generation
import Foundation

/// Compares two runs (`bench compare BASE NEW`), or every strategy of one run with the baseline
/// strategy (`bench compare --strategies RUN`): the ratio of medians, its uncertainty, and a verdict.
public struct Comparison {
    public enum Verdict: String, Sendable { case faster, slower, unchanged }

    /// How the ratio's interval was obtained.
    public enum Method: String, Sendable {
        /// 95 % percentile bootstrap of the ratio of medians, from every repetition of both sides.
        case bootstrap
        /// From the two medians' intervals: new.low / base.high … new.high / base.low (conservative).
        case intervals
    }

    public struct Line: Sendable {
        public var caseName: String
        public var strategy: String
        /// What `strategy`/`caseName` is compared with: "BASE" for two runs, the baseline strategy within a run.
        public var against: String
        public var baseMedian: Double
        public var newMedian: Double
        public var ratio: Double
        public var interval: ClosedRange<Double>
        public var method: Method
        public var verdict: Verdict
    }

    public var lines: [Line]
    public var onlyInBase: [ResultsFile.Key] = []
    public var onlyInNew: [ResultsFile.Key] = []
    /// Differences between the runs that make the comparison less clean, one sentence each.
    public var warnings: [String] = []

    /// package-benchmark's convention: 0 no change, 2 at least one regression, 4 improvements only.
    public var exitCode: Int32 {
        if lines.contains(where: { $0.verdict == .slower }) { return 2 }
        if lines.contains(where: { $0.verdict == .faster }) { return 4 }
        return 0
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Matches BASE's and NEW's rows by strategy and workload case.
    /// - parameter threshold: the relative change below which a result counts as unchanged (0.05 = 5 %).
    /// - throws: `Refusal` when the runs used different seeds, scales or batch sizes (unless `force`),
    ///   or have nothing in common.
    public static func runs(base: ResultsFile, new: ResultsFile, threshold: Double, force: Bool) throws -> Comparison {
        for column in ["seed", "scale", "batch"] {
            let (a, b) = (base.values(column), new.values(column))
            if a != b, !force {
                throw Refusal(description: "the runs used different \(column == "batch" ? "batch sizes" : column + "s") (\(a.joined(separator: ", ")) vs \(b.joined(separator: ", "))): they measured different work; pass --force to compare anyway")
            }
        }
        var warnings: [String] = []
        for (column, what) in [("host", "hosts"), ("git_commit", "commits"), ("sqlite_version", "SQLite versions"), ("build", "builds")] {
            let (a, b) = (base.values(column), new.values(column))
            if a != b { warnings.append("the runs differ in \(what): \(a.joined(separator: ", ")) vs \(b.joined(separator: ", "))") }
        }
        if (base.values("build") + new.values("build")).contains("debug") {
            warnings.append("a run was made with a debug build; its timings are not meaningful")
        }
        let newByKey = Dictionary(uniqueKeysWithValues: new.rows.map { ($0.key, $0) })
        let baseKeys = Set(base.rows.map(\.key))
        var comparison = Comparison(lines: [], warnings: warnings)
        for row in base.rows {
            guard let other = newByKey[row.key] else { comparison.onlyInBase.append(row.key); continue }
            comparison.lines.append(line(row.caseName, row.strategy, against: "BASE", base: row, new: other, threshold: threshold))
        }
        comparison.onlyInNew = new.rows.map(\.key).filter { !baseKeys.contains($0) }
        guard !comparison.lines.isEmpty else {
            throw Refusal(description: "the two runs have no strategy and workload in common; nothing to compare")
        }
        return comparison
    }

    /// Every strategy of one run against `baseline`, case by case: the suite's headline table.
    public static func strategies(in run: ResultsFile, baseline: String, threshold: Double) throws -> Comparison {
        var comparison = Comparison(lines: [])
        let baselineRows = Dictionary(run.rows.filter { $0.strategy == baseline }.map { ($0.caseName, $0) }, uniquingKeysWith: { a, _ in a })
        guard !baselineRows.isEmpty else {
            throw Refusal(description: "\(run.url.path) has no \(baseline) rows to compare the other strategies with")
        }
        for row in run.rows where row.strategy != baseline {
            guard let reference = baselineRows[row.caseName] else { continue }
            comparison.lines.append(line(row.caseName, row.strategy, against: baseline, base: reference, new: row, threshold: threshold))
        }
        return comparison
    }

    static func line(_ caseName: String, _ strategy: String, against: String, base: ResultsFile.Row, new: ResultsFile.Row, threshold: Double) -> Line {
        let ratio = base.median > 0 ? new.median / base.median : .infinity
        let interval: ClosedRange<Double>
        let method: Method
        if let a = base.samples, let b = new.samples, let bootstrapped = bootstrapRatioInterval(base: a, new: b) {
            interval = bootstrapped
            method = .bootstrap
        } else {
            let low = base.interval.upperBound > 0 ? new.interval.lowerBound / base.interval.upperBound : 0
            let high = base.interval.lowerBound > 0 ? new.interval.upperBound / base.interval.lowerBound : .infinity
            // NaN (0 / 0 from rows built in code; a results file refuses zero durations) widens to everything.
            let lower = [low, ratio].filter { !$0.isNaN }.min() ?? 0, upper = [high, ratio].filter { !$0.isNaN }.max() ?? .infinity
            interval = min(lower, upper) ... upper
            method = .intervals
        }
        let verdict: Verdict = if ratio > 1 + threshold, interval.lowerBound > 1 {
            .slower
        } else if ratio < 1 - threshold, interval.upperBound < 1 {
            .faster
        } else {
            .unchanged
        }
        return Line(caseName: caseName, strategy: strategy, against: against, baseMedian: base.median, newMedian: new.median,
                    ratio: ratio, interval: interval, method: method, verdict: verdict)
    }

    /// The 2.5 % and 97.5 % percentiles of median(new*) / median(base*) over resamples drawn with
    /// replacement; a fixed seed makes the interval reproducible.
    /// - returns: nil unless both sides hold samples, every one finite and above 0 (a results file
    ///   refuses others; a zero base median would make ratios infinite or NaN, and no interval).
    public static func bootstrapRatioInterval(base: [Double], new: [Double], resamples: Int = 2_000, seed: UInt64 = 0x5EED) -> ClosedRange<Double>? {
        guard !base.isEmpty, !new.isEmpty, resamples > 0, (base + new).allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        var rng = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        var scratchBase = base, scratchNew = new
        func resampledMedian(_ values: [Double], _ scratch: inout [Double]) -> Double {
            for index in scratch.indices { scratch[index] = values[Int(rng.next() % UInt64(values.count))] }
            scratch.sort()
            return Statistics.quantile(scratch, 0.5)
        }
        for _ in 0 ..< resamples {
            let b = resampledMedian(base, &scratchBase)
            let n = resampledMedian(new, &scratchNew)
            ratios.append(n / b)
        }
        ratios.sort()
        let low = Statistics.quantile(ratios, 0.025), high = Statistics.quantile(ratios, 0.975)
        guard low.isFinite, high.isFinite, low <= high else { return nil }
        return low ... high
    }

    // MARK: Rendering

    public enum Format: String, CaseIterable, Sendable { case text, markdown }

    /// The comparison as a table; `baseTitle` and `newTitle` head the two median columns.
    public func render(_ format: Format, baseTitle: String, newTitle: String, threshold: Double) -> String {
        let header = ["workload", "strategy", baseTitle, newTitle, "ratio", "95% interval", "verdict"]
        let rows = lines.map { line in
            [line.caseName, line.strategy, ConsoleTable.duration(line.baseMedian), ConsoleTable.duration(line.newMedian),
             String(format: "%.3f×", line.ratio),
             String(format: "%.3f–%.3f", line.interval.lowerBound, line.interval.upperBound) + (line.method == .intervals ? "*" : ""),
             line.verdict.rawValue]
        }
        var text: String
        switch format {
        case .markdown:
            text = "| " + header.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: header.count) + "\n"
            text += rows.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n") + "\n"
        case .text:
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            let render = { (fields: [String]) in
                fields.enumerated().map { column, field in
                    column < 2 || column == 6 ? field.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[column] - field.count) + field
                }.joined(separator: "  ")
            }
            text = render(header) + "\n" + String(repeating: "-", count: render(header).count) + "\n"
            text += rows.map(render).joined(separator: "\n") + "\n"
        }
        let counts = Dictionary(grouping: lines, by: \.verdict).mapValues(\.count)
        text += "\n\(counts[.slower] ?? 0) slower, \(counts[.faster] ?? 0) faster, \(counts[.unchanged] ?? 0) unchanged "
            + "(threshold \(String(format: "%g", threshold * 100)) %; a change counts only when its 95 % interval excludes 1)\n"
        if lines.contains(where: { $0.method == .intervals }) {
            text += "* interval from the medians' own intervals: no samples file beside the CSV, or one that does not match it (see the warnings)\n"
        }
        for key in onlyInBase { text += "only in \(baseTitle): \(key)\n" }
        for key in onlyInNew { text += "only in \(newTitle): \(key)\n" }
        return text
    }
}
