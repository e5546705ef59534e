import Foundation
import Workloads

extension Comparison {
    /// Whether each strategy's ratio to `baseline` changed between two runs (`bench compare
    /// --ratios BASE NEW`): a step of the host between the runs moves every median but leaves the
    /// ratios, so this asks what a layout change is about.
    ///
    /// Each side's figure is the strategy's ratio in that run (the median of its rounds' ratios,
    /// `RatioInterval`); the line's ratio is new's over base's, with the same verdict rule as the
    /// medians' (beyond `threshold`, p < `alpha`, 95 % interval excluding 1). The two runs'
    /// rounds are independent, so the interval is the percentile bootstrap of the ratio of the
    /// two runs' median round ratios (fixed seed) and the test is Mann–Whitney on the round
    /// ratios; without the repetitions of both runs, the conservative interval from each run's
    /// ratio interval, and no test.
    public static func ratios(base: ResultsFile, new: ResultsFile, baseline: String, threshold: Double, alpha: Double = 0.05,
                              force: Bool) throws -> Comparison {
        let medians = try runs(base: base, new: new, threshold: threshold, alpha: alpha, force: force)
        let (baseGrid, newGrid) = (CaseGrid(base.rows, baseline: baseline), CaseGrid(new.rows, baseline: baseline))
        var comparison = Comparison(lines: [], warnings: medians.warnings.filter { !$0.contains("repetitions on a side") })
        comparison.quantity = .ratios
        for row in base.rows where row.strategy != baseline {
            guard let a = ratioRow(baseGrid, row.caseName, row.strategy), let b = ratioRow(newGrid, row.caseName, row.strategy) else { continue }
            comparison.lines.append(line(row.caseName, row.strategy, against: baseline, base: a, new: b, threshold: threshold, alpha: alpha))
        }
        guard !comparison.lines.isEmpty else {
            throw Refusal(description: "the two runs have no strategy with a \(baseline) ratio in a common case; nothing to compare (do both include \(baseline)?)")
        }
        comparison.warnings += comparison.powerWarnings(alpha: alpha)
        comparison.coverage = RatioCoverage(base: baseGrid, new: newGrid)
        return comparison
    }

    /// A strategy's ratio in one run as a row `line` can compare: the ratio as its median, the
    /// ratio's interval as its interval, the rounds' ratios as its samples. Every figure comes from
    /// one source: the repetitions of both strategies when the run's samples are there (the ratio
    /// columns were computed from them, so a file edited since cannot print a ratio outside its own
    /// interval), else the ratio columns alone, with no samples and so no test. A ratio measured in
    /// blocks takes its interval from the columns (the samples file does not say where each block
    /// began), its samples for the test.
    static func ratioRow(_ grid: CaseGrid, _ caseName: String, _ strategy: String) -> ResultsFile.Row? {
        guard strategy != grid.baseline, let row = grid.row(caseName, strategy) else { return nil }
        let ratio: RatioInterval
        var samples: [Double]?
        if let measured = row.samples, let reference = grid.row(caseName, grid.baseline)?.samples,
           let fromSamples = RatioInterval(measured: measured.map { Optional($0) }, baseline: reference.map { Optional($0) }) {
            // The columns' interval when they hold the samples' own ratio (written to 6 digits).
            if let written = RatioInterval(fields: row.fields), written.blocks > 1, abs(written.ratio - fromSamples.ratio) <= 1e-5 * fromSamples.ratio {
                ratio = written
            } else {
                ratio = fromSamples
            }
            samples = zip(measured, reference).compactMap { $1 > 0 ? $0 / $1 : nil }
        } else if let written = RatioInterval(fields: row.fields) {
            ratio = written
        } else {
            return nil
        }
        var fields = row.fields
        fields["iterations"] = String(ratio.rounds)
        return ResultsFile.Row(line: row.line, fields: fields, median: ratio.ratio, interval: ratio.interval, samples: samples)
    }
}
