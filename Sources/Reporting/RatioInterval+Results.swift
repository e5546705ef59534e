import Strategies
import Workloads

extension RatioInterval {
    /// `result`'s ratio to the `baseline` strategy's result of the same case among `results`,
    /// paired round by round (sample *r* of each is round *r*), its interval widened by the spread
    /// of the case's blocks when it had several; nil for the baseline itself, or when the case has
    /// no baseline result.
    public init?(_ result: WorkloadResult, among results: [WorkloadResult], baseline: String = Strategies.baseline.name) {
        guard let reference = Self.reference(of: result, among: results, baseline: baseline) else { return nil }
        self.init(measured: result.samples, baseline: reference.samples, blockStarts: result.blockStarts)
    }

    /// The `baseline` strategy's result of `result`'s case among `results`; nil for the baseline
    /// itself, or when the case has none.
    public static func reference(of result: WorkloadResult, among results: [WorkloadResult],
                                 baseline: String = Strategies.baseline.name) -> WorkloadResult? {
        let caseName = ConsoleTable.label(result)
        guard result.strategy != baseline else { return nil }
        return results.first { $0.strategy == baseline && ConsoleTable.label($0) == caseName }
    }

    /// A ratio as a results file holds it: its CSV columns (`ratio`, `ratio_low`, `ratio_high`,
    /// `ratio_coverage`, `ratio_rounds`, and `ratio_blocks` from schema 7), or nil when the row has none.
    init?(fields: [String: String]) {
        guard let ratio = fields["ratio"].flatMap(Double.init), let low = fields["ratio_low"].flatMap(Double.init),
              let high = fields["ratio_high"].flatMap(Double.init), low <= ratio, ratio <= high,
              let coverage = fields["ratio_coverage"].flatMap(Double.init), let rounds = fields["ratio_rounds"].flatMap({ Int($0) }) else { return nil }
        self.init(ratio: ratio, interval: low ... high, coverage: coverage, rounds: rounds, blocks: fields["ratio_blocks"].flatMap { Int($0) } ?? 1)
    }

    /// The CSV's `ratio_verdict`: faster, slower, same or uncertain.
    public var verdictName: String {
        switch verdict {
        case .faster: "faster"
        case .slower: "slower"
        case .noClearDifference: "same"
        case .uncertain: "uncertain"
        }
    }

    /// 1.35× [1.30–1.41], or 1.35× [5 rounds] without a 95 % interval.
    public var text: String {
        let point = CaseGrid.ratioText(ratio)
        guard hasInterval else { return "\(point) [\(rounds == 1 ? "1 round" : "\(rounds) rounds"), no interval]" }
        return "\(point) [\(Self.bound(interval.lowerBound))–\(Self.bound(interval.upperBound))]"
    }

    static func bound(_ value: Double) -> String { Figure.fixed(value, decimals: value >= 100 ? 0 : 2) }
}
