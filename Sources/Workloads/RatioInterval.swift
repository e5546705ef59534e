import Foundation

/// A strategy's time relative to the baseline's in the same case, from the rounds both ran in:
/// the median of the per-round ratios and its 95 % interval.
///
/// Every round times every strategy once, so round *r*'s ratio `measured[r] / baseline[r]` sets
/// the two strategies side by side under the same state of the machine: a step of a shared host
/// that slows every strategy alike moves the medians but leaves the per-round ratios alone.
///
/// The interval is the distribution-free order-statistic interval of the per-round ratios'
/// median (as `Statistics.medianInterval`, the ranks `StoppingRule.medianIntervalRank` gives):
/// `r(j) … r(n+1−j)` with coverage ≥ 95 % whenever the rounds are independent draws, whatever
/// the ratios' distribution (skewed, bimodal, with outliers). It needs no seed and no
/// resampling, so it can be asked after every round, and it is the same method the medians'
/// intervals use. Ties are harmless: equal ratios are equal order statistics, and the interval
/// (closed at both ends) keeps its coverage. A round only one of the two strategies ran in is
/// left out (the pair is what makes the ratio fair). Below 6 paired rounds no interval reaches
/// 95 %: then `interval` is the ratios' range, `coverage` says how little it covers, and the
/// ratio is `uncertain`; one round has a ratio and no interval at all (`interval` is the point).
///
///     let r = RatioInterval(measured: [110, 121, 99, 132, 108, 115], baseline: [100, 110, 90, 120, 100, 100])
///     r.ratio       // 1.1
///     r.interval    // 1.08 … 1.15
///     r.verdict     // .slower(atLeast: 0.08)
public struct RatioInterval: Equatable, Sendable {
    /// The median of the per-round ratios.
    public let ratio: Double
    /// The 95 % interval of that median (see `coverage`).
    public let interval: ClosedRange<Double>
    /// The coverage `interval` really has: ≥ 0.95 from 6 paired rounds up, less below.
    public let coverage: Double
    /// The rounds both strategies ran in.
    public let rounds: Int
    /// The blocks those rounds were measured in (`RatioInterval+Blocks`): 1 when the interval is
    /// the rounds' alone, more when it includes the spread between blocks.
    public let blocks: Int

    /// What a ratio says about the strategy against the baseline.
    public enum Verdict: Equatable, Sendable {
        /// The interval lies below 1: the strategy takes at most `1 − atLeast` of the baseline's time.
        case faster(atLeast: Double)
        /// The interval lies above 1: the strategy takes at least `1 + atLeast` of the baseline's time.
        case slower(atLeast: Double)
        /// The interval holds 1 and is narrow (half-width within `uncertainThreshold`): the two
        /// take the same time within `within` either way.
        case noClearDifference(within: Double)
        /// The interval holds 1 and is wide, or there are too few rounds for a 95 % interval.
        case uncertain
    }

    /// The relative half-width above which a ratio whose interval holds 1 is too uncertain to
    /// call: the same 5 % above which a median is noisy.
    public static let uncertainThreshold = 0.05

    /// - parameter measured: the strategy's sample of each round (index = round), nil where it has none.
    /// - parameter baseline: the baseline's, likewise.
    /// - returns: nil when no round has both, or a baseline sample is 0.
    public init?(measured: [Double?], baseline: [Double?]) {
        var ratios: [Double] = []
        for (a, b) in zip(measured, baseline) {
            guard let a, let b else { continue }
            guard b > 0 else { return nil }
            ratios.append(a / b)
        }
        self.init(ratios: ratios)
    }

    /// From two strategies' samples of the same rounds, round `r` at index `r` in both.
    public init?(measured: [UInt64], baseline: [UInt64]) {
        self.init(measured: measured.map { Double($0) }, baseline: baseline.map { Double($0) })
    }

    /// A ratio already computed (as a results file holds it).
    public init(ratio: Double, interval: ClosedRange<Double>, coverage: Double, rounds: Int, blocks: Int = 1) {
        self.ratio = ratio
        self.interval = interval
        self.coverage = coverage
        self.rounds = rounds
        self.blocks = blocks
    }

    /// From per-round ratios already formed (any order).
    public init?(ratios: [Double]) {
        guard !ratios.isEmpty, ratios.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let sorted = ratios.sorted()
        let n = sorted.count
        let (rank, coverage) = StoppingRule.medianIntervalRank(count: n)
        let middle = (n - 1) / 2
        ratio = n % 2 == 1 ? sorted[middle] : (sorted[middle] + sorted[middle + 1]) / 2
        interval = sorted[rank - 1] ... sorted[n - rank]
        self.coverage = n == 1 ? 0 : coverage
        rounds = n
        blocks = 1
    }

    /// Whether `interval` covers the median with 95 %.
    public var hasInterval: Bool { coverage >= StoppingRule.confidence }

    /// Half the interval's width relative to the ratio; nil without a 95 % interval.
    public var relativeHalfWidth: Double? {
        guard hasInterval, ratio > 0 else { return nil }
        return (interval.upperBound - interval.lowerBound) / 2 / ratio
    }

    public var verdict: Verdict {
        guard hasInterval else { return .uncertain }
        if interval.upperBound < 1 { return .faster(atLeast: 1 - interval.upperBound) }
        if interval.lowerBound > 1 { return .slower(atLeast: interval.lowerBound - 1) }
        guard let halfWidth = relativeHalfWidth, halfWidth <= Self.uncertainThreshold else { return .uncertain }
        return .noClearDifference(within: max(1 - interval.lowerBound, interval.upperBound - 1))
    }

    /// The flag: a ratio too uncertain to call either way.
    public var isUncertain: Bool { verdict == .uncertain }

    /// "faster by at least 12 %", "slower by at least 3.0×", "no clear difference (within 2 %)",
    /// "too uncertain to call".
    public var verdictText: String { Self.text(verdict) }

    public static func text(_ verdict: Verdict) -> String {
        switch verdict {
        case let .faster(atLeast): "faster by at least \(percent(atLeast))"
        case let .slower(atLeast): atLeast >= 0.5 ? "slower: at least \(String(format: "%.1f", 1 + atLeast))× as long" : "slower by at least \(percent(atLeast))"
        case let .noClearDifference(within): "no clear difference (within \(percent(within)))"
        case .uncertain: "too uncertain to call"
        }
    }

    /// 12 %, 0.4 %, 0.033 %
    static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return value < 1 ? String(format: "%.2g %%", value) : String(format: "%.0f %%", value)
    }
}
