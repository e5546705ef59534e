import Foundation
import Workloads

/// Summary statistics of one measurement's samples (nanoseconds).
///
///     let s = Statistics([1_200, 1_150, 1_300, 1_180, 1_210, 1_190, 1_205, 1_170])
///     s.median           // 1_195
///     s.medianInterval   // 95 % interval of the median from order statistics
public struct Statistics: Equatable, Sendable {
    public let count: Int
    public let median: Double
    public let min: Double
    public let max: Double
    public let mean: Double
    /// Sample standard deviation (n − 1 in the denominator); 0 for one sample.
    public let standardDeviation: Double
    public let p90: Double
    public let p99: Double
    /// Median absolute deviation from the median (unscaled).
    public let medianAbsoluteDeviation: Double
    /// A distribution-free confidence interval of the median: the order statistics
    /// `x(j) … x(n+1−j)` with `j` the largest rank whose binomial coverage is still ≥ 95 %.
    public let medianInterval: ClosedRange<Double>
    /// The coverage `medianInterval` actually has; below 0.95 when there are too few samples
    /// (fewer than 6) for a 95 % interval, in which case the interval is `min … max`.
    public let medianIntervalCoverage: Double
    /// Samples outside Tukey's fences (below Q1 − 1.5·IQR or above Q3 + 1.5·IQR).
    public let outliers: Int

    /// The interval's width relative to the median above which a result is flagged as noisy.
    public static let noiseThreshold = 0.05

    /// - precondition: `samples` is not empty.
    public init(_ samples: [UInt64]) {
        precondition(!samples.isEmpty, "statistics of no samples")
        let sorted = samples.sorted().map { Double($0) }
        let n = sorted.count
        count = n
        min = sorted[0]
        max = sorted[n - 1]
        let mean = sorted.reduce(0, +) / Double(n)
        self.mean = mean
        let median = Self.quantile(sorted, 0.5)
        self.median = median
        p90 = Self.quantile(sorted, 0.90)
        p99 = Self.quantile(sorted, 0.99)
        let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        standardDeviation = n > 1 ? (squares / Double(n - 1)).squareRoot() : 0
        medianAbsoluteDeviation = Self.quantile(sorted.map { abs($0 - median) }.sorted(), 0.5)
        let (rank, coverage) = Self.medianIntervalRank(count: n)
        medianInterval = sorted[rank - 1] ... sorted[n - rank]
        medianIntervalCoverage = coverage
        let q1 = Self.quantile(sorted, 0.25), q3 = Self.quantile(sorted, 0.75)
        let fence = 1.5 * (q3 - q1)
        outliers = sorted.filter { $0 < q1 - fence || $0 > q3 + fence }.count
    }

    /// Whether the median's interval is wider than `noiseThreshold` of the median.
    public var isNoisy: Bool {
        median > 0 && (medianInterval.upperBound - medianInterval.lowerBound) / median > Self.noiseThreshold
    }

    /// The `q` quantile of sorted values, interpolating linearly between closest ranks
    /// (the median of an even count is the mean of the middle two).
    public static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        precondition(!sorted.isEmpty && (0 ... 1).contains(q))
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// The 1-based rank `j` of the interval `x(j) … x(n+1−j)` for the median, and its coverage
    /// `1 − 2·P(B ≤ j − 1)` with `B ~ Binomial(n, ½)`: the largest `j` whose coverage is ≥ 95 %
    /// (rank 1, `min … max`, when even that is below 95 %). The stopping rule's ranks, so that a run
    /// stops on the interval its results report (one pass over the binomial sums).
    public static func medianIntervalRank(count n: Int) -> (rank: Int, coverage: Double) {
        StoppingRule.medianIntervalRank(count: n)
    }
}
