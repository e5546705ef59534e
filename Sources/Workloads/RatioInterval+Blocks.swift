import Foundation

/// A ratio whose interval includes what changes between launches, not only between rounds.
///
/// The rounds of one case, run back to back, share much that a second run does not: the loop
/// count sized from the warm-ups, the caches as the warm-ups left them, the host's phase over
/// those seconds. An interval from the rounds alone covers the round-to-round noise only, and a
/// second run's ratio fell outside it a third of the time. So a case is measured in blocks
/// (`interleaveRounds`): each block warms up again, sizes its loops again and reopens its
/// stores, and each block's ratio (the median of its rounds' ratios) is one draw of what a run
/// measures.
///
/// The interval is for the ratio a rerun would report: on the log scale, the rounds' own
/// order-statistic interval (each side apart, it may be skewed) widened in quadrature by the
/// blocks' spread, `t(0.975, B − 1) · s · √(2 / B)`: *s* the standard deviation of the *B* block
/// ratios' logarithms, √(2 / B) because this run's ratio and a rerun's are each the pool of *B*
/// blocks and both vary, *t* Student's quantile for the few degrees of freedom *s* has. The
/// point is still the median of every round's ratio. Below 2 blocks with a ratio each, or
/// without a 95 % interval of the rounds, the interval is the rounds' alone.
extension RatioInterval {
    /// - parameter blockStarts: the index of the first round of each block, ascending, from 0.
    public init?(measured: [UInt64], baseline: [UInt64], blockStarts: [Int]) {
        guard let pooled = RatioInterval(measured: measured, baseline: baseline) else { return nil }
        let rounds = min(measured.count, baseline.count)
        let ends = Array(blockStarts.dropFirst()) + [rounds]
        let logs = zip(blockStarts, ends).compactMap { start, end -> Double? in
            guard start < end, end <= rounds,
                  let block = RatioInterval(measured: Array(measured[start ..< end]), baseline: Array(baseline[start ..< end])),
                  block.ratio > 0 else { return nil }
            return log(block.ratio)
        }
        guard logs.count >= 2, pooled.hasInterval, pooled.ratio > 0, pooled.interval.lowerBound > 0 else {
            self = pooled
            return
        }
        let between = Self.blockSpread(logs)
        let below = log(pooled.ratio / pooled.interval.lowerBound), above = log(pooled.interval.upperBound / pooled.ratio)
        self.init(ratio: pooled.ratio,
                  interval: pooled.ratio * exp(-(below * below + between * between).squareRoot()) ... pooled.ratio * exp((above * above + between * between).squareRoot()),
                  coverage: pooled.coverage, rounds: pooled.rounds, blocks: logs.count)
    }

    /// The half-width, on the log scale, that the blocks' spread adds: `t(0.975, B − 1) · s · √(2 / B)`.
    static func blockSpread(_ logs: [Double]) -> Double {
        let count = Double(logs.count)
        let mean = logs.reduce(0, +) / count
        let variance = logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1)
        return studentT975(degrees: logs.count - 1) * variance.squareRoot() * (2 / count).squareRoot()
    }

    /// Student's t quantile 0.975 for `degrees` of freedom (tabulated to 10, then 1.96 + 2.4 / ν,
    /// within 0.5 % of the exact value).
    static func studentT975(degrees: Int) -> Double {
        let table = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
        guard degrees >= 1 else { return .infinity }
        return degrees <= table.count ? table[degrees - 1] : 1.96 + 2.4 / Double(degrees)
    }
}
