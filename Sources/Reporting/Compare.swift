import Generation
import Foundation

/// Compares two runs (`bench compare BASE NEW`), or every strategy of one run with the baseline
/// strategy (`bench compare --strategies RUN`): the ratio of medians, its uncertainty, a rank test,
/// and a verdict.
///
/// The verdict of a row is **slower** (or **faster**) only when all of these hold:
/// 1. the ratio new / base is above 1 + threshold (below 1 − threshold): a change large enough to matter;
/// 2. the two-sided Mann–Whitney U test of the two sides' repetitions gives p < alpha: a change
///    unlikely to be noise (only when both sides have samples; see `MannWhitney`);
/// 3. the ratio's 95 % interval lies above 1 (below 1).
///
/// Without samples for a side the test cannot run: the row says so, and 1 and 3 decide, with the
/// conservative interval from the medians' intervals. Strategies of one run are paired round by
/// round: their ratio is the median of the rounds' ratios with its order-statistic interval
/// (`RatioInterval`), and 1 and 3 decide (`.paired`). `ratios(base:new:…)` applies the rule to
/// each strategy's ratio to the baseline instead of its median.
public struct Comparison {
    public enum Verdict: String, Sendable { case faster, slower, unchanged }

    /// How the ratio's interval was obtained.
    public enum Method: String, Sendable {
        /// 95 % percentile bootstrap of the ratio of medians, from every repetition of both sides.
        case bootstrap
        /// From the two medians' intervals: new.low / base.high … new.high / base.low (conservative).
        case intervals
        /// Strategies of one run: the 95 % order-statistic interval of the median of the per-round
        /// ratios (`RatioInterval`), each round pairing the two under the same machine state.
        case paired
    }

    /// What the lines' base and new figures are: medians (durations), or ratios to the baseline
    /// strategy (`ratios(base:new:…)`).
    public enum Quantity: Sendable { case durations, ratios }
    public var quantity: Quantity = .durations

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
        /// The rank test of the new repetitions against the base ones (`u` counts the pairs in
        /// which new took longer); nil without samples on both sides.
        public var test: MannWhitney? = nil
        /// The repetitions of each side: the samples, or the CSV's `iterations` without them.
        public var baseRepetitions: Int? = nil
        public var newRepetitions: Int? = nil
        public var verdict: Verdict
    }

    /// Below this many repetitions on a side the rank test has little power, and a warning says so.
    public static let fewRepetitions = 9

    public var lines: [Line]
    public var onlyInBase: [ResultsFile.Key] = []
    public var onlyInNew: [ResultsFile.Key] = []
    /// Differences between the runs that make the comparison less clean, one sentence each.
    public var warnings: [String] = []
    /// Rows whose SQLite work counts differ between the runs (two runs of one seed and one build
    /// count the same, so any difference is a change in what the statements do).
    public var workChanges: [WorkChange] = []
    /// With `--ratios`: how well base's intervals hold in new.
    public var coverage: RatioCoverage?

    /// A work count of one row that differs between the runs.
    public struct WorkChange: Equatable, Sendable {
        public var key: ResultsFile.Key
        /// The CSV column (`vm_steps`, `fullscan_steps`, …).
        public var column: String
        public var base: Int64
        public var new: Int64
    }

    /// The CSV's work columns that `runs` compares, exactly.
    static let workColumns = ["vm_steps", "fullscan_steps", "sorts", "autoindex_rows", "statement_runs", "cache_hits", "cache_misses", "cache_writes"]

    /// package-benchmark's convention: 0 no change, 2 at least one regression (slower, or more
    /// work), 4 improvements only (faster, or less work).
    public var exitCode: Int32 {
        if lines.contains(where: { $0.verdict == .slower }) || workChanges.contains(where: { $0.new > $0.base }) { return 2 }
        if lines.contains(where: { $0.verdict == .faster }) || !workChanges.isEmpty { return 4 }
        return 0
    }

    /// Every work count of `base`'s row that `new`'s row holds too and that differs.
    static func workChanges(_ key: ResultsFile.Key, base: ResultsFile.Row, new: ResultsFile.Row) -> [WorkChange] {
        workColumns.compactMap { column in
            guard let a = base.fields[column].flatMap({ Int64($0) }), let b = new.fields[column].flatMap({ Int64($0) }), a != b else { return nil }
            return WorkChange(key: key, column: column, base: a, new: b)
        }
    }

    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Matches BASE's and NEW's rows by strategy and workload case.
    /// - parameter threshold: the relative change below which a result counts as unchanged (0.05 = 5 %).
    /// - throws: `Refusal` when the runs used different seeds, scales, batch sizes or objects (generated or a store's; unless `force`),
    ///   or have nothing in common.
    /// - parameter alpha: the significance level of the rank test (0.05).
    public static func runs(base: ResultsFile, new: ResultsFile, threshold: Double, alpha: Double = 0.05, force: Bool) throws -> Comparison {
        for column in ["seed", "scale", "batch", "data"] {
            // A file from before the data column holds generated objects.
            func values(_ file: ResultsFile) -> [String] { column == "data" && file.values(column).isEmpty ? ["generated"] : file.values(column) }
            let (a, b) = (values(base), values(new))
            if a != b, !force {
                let what = ["batch": "batch sizes", "data": "objects"][column] ?? column + "s"
                throw Refusal(description: "the runs used different \(what) (\(a.joined(separator: ", ")) vs \(b.joined(separator: ", "))): they measured different work; pass --force to compare anyway")
            }
        }
        var warnings: [String] = []
        for (column, what) in [("host", "hosts"), ("git_commit", "commits"), ("sqlite_version", "SQLite versions"), ("build", "builds"),
                                 ("temp_dir", "store folders")] {
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
            comparison.lines.append(line(row.caseName, row.strategy, against: "BASE", base: row, new: other, threshold: threshold, alpha: alpha))
            comparison.workChanges += workChanges(row.key, base: row, new: other)
        }
        comparison.onlyInNew = new.rows.map(\.key).filter { !baseKeys.contains($0) }
        guard !comparison.lines.isEmpty else {
            throw Refusal(description: "the two runs have no strategy and workload in common; nothing to compare")
        }
        comparison.warnings += comparison.powerWarnings(alpha: alpha)
        return comparison
    }

    /// Every strategy of one run against `baseline`, case by case: the suite's headline table.
    public static func strategies(in run: ResultsFile, baseline: String, threshold: Double, alpha: Double = 0.05) throws -> Comparison {
        var comparison = Comparison(lines: [])
        let baselineRows = Dictionary(run.rows.filter { $0.strategy == baseline }.map { ($0.caseName, $0) }, uniquingKeysWith: { a, _ in a })
        guard !baselineRows.isEmpty else {
            throw Refusal(description: "\(run.url.path) has no \(baseline) rows to compare the other strategies with")
        }
        let grid = CaseGrid(run.rows, baseline: baseline)
        for row in run.rows where row.strategy != baseline {
            guard let reference = baselineRows[row.caseName] else { continue }
            var compared = line(row.caseName, row.strategy, against: baseline, base: reference, new: row, threshold: threshold, alpha: alpha)
            if let paired = grid.ratioInterval(row.caseName, row.strategy), paired.hasInterval {
                // The rounds pair the two strategies: their ratios' interval, not one of independent samples.
                compared.ratio = paired.ratio
                compared.interval = paired.interval
                compared.method = .paired
                compared.test = nil
                compared.verdict = verdict(ratio: paired.ratio, interval: paired.interval, p: nil, threshold: threshold, alpha: alpha)
            }
            comparison.lines.append(compared)
        }
        comparison.warnings += comparison.powerWarnings(alpha: alpha)
        return comparison
    }

    static func line(_ caseName: String, _ strategy: String, against: String, base: ResultsFile.Row, new: ResultsFile.Row,
                     threshold: Double, alpha: Double) -> Line {
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
        var test: MannWhitney?
        if let a = base.samples, let b = new.samples { test = MannWhitney(b, a) }
        let verdict = verdict(ratio: ratio, interval: interval, p: test?.p, threshold: threshold, alpha: alpha)
        return Line(caseName: caseName, strategy: strategy, against: against, baseMedian: base.median, newMedian: new.median,
                    ratio: ratio, interval: interval, method: method, test: test,
                    baseRepetitions: base.samples?.count ?? base.fields["iterations"].flatMap { Int($0) },
                    newRepetitions: new.samples?.count ?? new.fields["iterations"].flatMap { Int($0) }, verdict: verdict)
    }

    /// Slower or faster only when the ratio is beyond the threshold, the rank test's p is below
    /// alpha (when there is a test: `p` nil means none could run) and the interval excludes 1.
    static func verdict(ratio: Double, interval: ClosedRange<Double>, p: Double?, threshold: Double, alpha: Double) -> Verdict {
        let significant = p.map { $0 < alpha } ?? true
        if ratio > 1 + threshold, significant, interval.lowerBound > 1 { return .slower }
        if ratio < 1 - threshold, significant, interval.upperBound < 1 { return .faster }
        return .unchanged
    }

    /// One warning when a row has fewer than `fewRepetitions` repetitions on a side, naming up to
    /// three such rows, and saying so when so few repetitions cannot reach p < alpha at all.
    func powerWarnings(alpha: Double) -> [String] {
        let few = lines.compactMap { line -> (line: Line, m: Int, n: Int)? in
            guard line.method != .paired, let m = line.baseRepetitions, let n = line.newRepetitions, Swift.min(m, n) < Self.fewRepetitions else { return nil }
            return (line, m, n)
        }
        guard !few.isEmpty else { return [] }
        let named = few.prefix(3).map { "\($0.line.strategy) \($0.line.caseName) (\($0.m) vs \($0.n))" }
        var text = "\(few.count) of \(lines.count) rows have fewer than \(Self.fewRepetitions) repetitions on a side: "
            + named.joined(separator: ", ") + (few.count > 3 ? ", …" : "")
            + "; the rank test has little power below \(Self.fewRepetitions) repetitions; rerun with more"
        let hopeless = few.filter { MannWhitney.smallestP($0.m, $0.n) >= alpha }
        if let worst = hopeless.first {
            text += " (\(hopeless.count) of them cannot reach p < \(String(format: "%g", alpha)) at all: with \(worst.m) vs \(worst.n) "
                + "repetitions the smallest possible p is \(String(format: "%.3g", MannWhitney.smallestP(worst.m, worst.n))))"
        }
        return [text]
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
            return Statistics.median(reordering: &scratch)
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

    /// Three significant digits: "0.1", "0.0427", "0.000155", "1.08e-05".
    static func formatP(_ p: Double) -> String { String(format: "%.3g", p) }

    /// A line's base or new figure: a duration, or a ratio.
    func figure(_ value: Double) -> String {
        quantity == .durations ? ConsoleTable.duration(value) : Figure.fixed(value, decimals: 3) + "×"
    }

    /// The work counts that changed, one line each after a heading; empty when none did.
    func renderWorkChanges(_ format: Format) -> String {
        guard !workChanges.isEmpty else { return "" }
        let rows = Set(workChanges.map(\.key)).count
        var text = "\nSQLite's work changed in \(rows) of \(lines.count) rows (two runs of one seed count the same; any change is a change in what the statements do):\n"
        for change in workChanges {
            let percent = change.base > 0 ? String(format: " (%+.1f %%)", (Double(change.new) / Double(change.base) - 1) * 100) : ""
            text += (format == .markdown ? "- " : "") + "\(change.key) \(change.column): \(change.base) → \(change.new)\(percent)\n"
        }
        return text
    }

    /// The comparison as a table; `baseTitle` and `newTitle` head the two median columns.
    public func render(_ format: Format, baseTitle: String, newTitle: String, threshold: Double, alpha: Double = 0.05) -> String {
        let header = ["workload", "strategy", baseTitle, newTitle, "ratio", "95% interval", "U", "p", "verdict"]
        let rows = lines.map { line in
            [line.caseName, line.strategy, figure(line.baseMedian), figure(line.newMedian),
             Figure.fixed(line.ratio, decimals: 3) + "×",
             Figure.fixed(line.interval.lowerBound, decimals: 3) + "–" + Figure.fixed(line.interval.upperBound, decimals: 3) + (line.method == .intervals ? "*" : ""),
             line.test.map { String(format: "%g", $0.u) } ?? "–",
             line.test.map { Self.formatP($0.p) } ?? (line.method == .paired ? "paired" : "–†"),
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
                    column < 2 || column == header.count - 1 ? field.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[column] - field.count) + field
                }.joined(separator: "  ")
            }
            text = render(header) + "\n" + String(repeating: "-", count: render(header).count) + "\n"
            text += rows.map(render).joined(separator: "\n") + "\n"
        }
        let counts = Dictionary(grouping: lines, by: \.verdict).mapValues(\.count)
        text += "\n\(counts[.slower] ?? 0) slower, \(counts[.faster] ?? 0) faster, \(counts[.unchanged] ?? 0) unchanged "
            + "(threshold \(String(format: "%g", threshold * 100)) %, alpha \(String(format: "%g", alpha)): a change counts only when "
            + "the ratio is beyond the threshold, p < alpha and the 95 % interval excludes 1)\n"
        if lines.contains(where: { $0.test != nil }) {
            let pairs = quantity == .ratios ? "rounds' ratios (\(newTitle), \(baseTitle)) in which \(newTitle)'s was higher" : "repetitions (\(newTitle), \(baseTitle)) in which \(newTitle) took longer"
            text += "U: pairs of \(pairs), ties ½, of \(newTitle) × \(baseTitle) repetitions; "
                + "p: two-sided Mann–Whitney U test (exact up to \(MannWhitney.exactLimit) repetitions a side without ties)\n"
        }
        if lines.contains(where: { $0.method == .intervals }) {
            text += "* interval from the medians' own intervals: no samples file beside the CSV, or one that does not match it (see the warnings)\n"
        }
        if lines.contains(where: { $0.method == .paired }) {
            text += "paired: the ratio is the median of the rounds' ratios (each round times both strategies), its interval that median's "
                + "95 % order-statistic interval, widened by the spread between the case's blocks when it was measured in several; "
                + "no rank test (the repetitions are pairs, not independent samples)\n"
        }
        if quantity == .ratios {
            text += "\(baseTitle) and \(newTitle): each strategy's ratio to \(lines.first?.against ?? "the baseline") in that run; "
                + "ratio: \(newTitle)'s over \(baseTitle)'s, from the rounds' ratios of both runs\n"
        }
        if lines.contains(where: { $0.test == nil && $0.method != .paired }) {
            text += "† no rank test: without the repetitions of both sides it cannot run; the ratio and the interval alone decide\n"
        }
        text += renderWorkChanges(format)
        if let coverage { text += coverage.render() }
        for key in onlyInBase { text += "only in \(baseTitle): \(key)\n" }
        for key in onlyInNew { text += "only in \(newTitle): \(key)\n" }
        return text
    }
}
