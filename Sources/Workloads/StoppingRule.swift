import Foundation
import Generation

/// When a case's timed rounds stop. Every round runs every strategy once; the rule is asked before
/// each timed round, with every strategy's samples so far, and decides from them alone (and, under
/// a budget, from the time spent), so that it can be checked on a synthetic stream.
///
/// - `fixed`: exactly that many rounds (`--repetitions`).
/// - `timeBudget`: rounds go on until the timed repetitions add up to `seconds` per strategy, at
///   least `minimum` and at most `maximum` rounds (`--time-budget`, `--min-repetitions`, `--max-repetitions`).
/// - `precision` (the default): rounds go on until every strategy's ratio to the baseline has a
///   95 % interval (`RatioInterval`: order statistics of the per-round ratios) whose half-width is
///   within `target` of the ratio (without a baseline among two or more strategies, or with one
///   strategy: every median's interval, as `Statistics.medianInterval`), or until another round would take the case past `budget` seconds per strategy of
///   wall-clock time (the untimed work of its rounds included; the next round is expected to take
///   as long as the mean round so far), whichever comes first; at least `minimum` rounds
///   (6 gives every strategy a 95 % interval), at most `maximum`. Past 64 rounds the intervals
///   are read every 1/32 of the rounds run (every 2nd round from 64, every 4th from 128, …).
public struct StoppingRule: Sendable, Equatable {
    public enum Mode: Sendable, Equatable {
        case fixed(rounds: Int)
        case timeBudget(seconds: Double, minimum: Int, maximum: Int)
        case precision(target: Double, budget: Double, minimum: Int, maximum: Int)
    }

    /// Why a case stopped, or that it goes on.
    public enum Decision: Sendable, Equatable {
        case another
        /// `fixed` reached its count, or a rule reached its maximum.
        case count
        /// Every ratio's interval (or every median's, without a baseline) is within the target.
        case precise
        /// The case's time is spent.
        case budget
    }

    public var mode: Mode

    public init(_ mode: Mode) { self.mode = mode }

    /// The confidence of the interval the precision rule reads.
    public static let confidence = 0.95

    /// The rounds this rule always runs.
    public var minimum: Int {
        switch mode {
        case let .fixed(rounds): rounds
        case let .timeBudget(_, minimum, _), let .precision(_, _, minimum, _): minimum
        }
    }

    /// The count when it is fixed, else `nil`.
    public var fixedRounds: Int? {
        if case let .fixed(rounds) = mode { return rounds }
        return nil
    }

    /// The case's time in seconds for all `strategies` together, `nil` for a fixed count.
    public func caseSeconds(strategies: Int) -> Double? {
        switch mode {
        case .fixed: nil
        case let .timeBudget(seconds, _, _): seconds * Double(strategies)
        case let .precision(_, budget, _, _): budget * Double(strategies)
        }
    }

    /// Whether another round is due.
    /// - parameter samples: every strategy's timed samples so far (nanoseconds), one array per
    ///   strategy, each as long as the number of rounds run.
    /// - parameter elapsed: wall-clock seconds since the first timed round started.
    /// - parameter baseline: the index of the baseline strategy in `samples`, whose ratios the
    ///   precision rule reads; nil: the medians.
    public func decide(_ samples: [[UInt64]], elapsed: Double, baseline: Int? = nil) -> Decision {
        let rounds = samples.map(\.count).min() ?? 0
        let strategies = max(1, samples.count)
        switch mode {
        case let .fixed(count):
            return rounds < count ? .another : .count
        case let .timeBudget(seconds, minimum, maximum):
            if rounds < minimum { return .another }
            if rounds >= maximum { return .count }
            let spent = samples.reduce(0.0) { $0 + $1.reduce(0.0) { $0 + Double($1) } }
            return spent < seconds * 1e9 * Double(strategies) ? .another : .budget
        case let .precision(target, budget, minimum, maximum):
            if rounds < minimum { return .another }
            if rounds >= maximum { return .count }
            // Past 64 rounds the intervals are read about every 3 % more rounds, so that sorting
            // thousands of samples does not cost more than a cheap case's round itself.
            if rounds < 64 || rounds % (rounds >> 5) == 0, Self.isPrecise(samples, target: target, baseline: baseline) { return .precise }
            // Another round is due only if it should end within the budget, at the mean pace so far.
            return elapsed * Double(rounds + 1) / Double(max(rounds, 1)) <= budget * Double(strategies) ? .another : .budget
        }
    }

    /// Whether every ratio to `baseline` (every median, without one) has a 95 % interval within
    /// `target` of it. A strategy's samples are paired with the baseline's round by round.
    static func isPrecise(_ samples: [[UInt64]], target: Double, baseline: Int?) -> Bool {
        guard let baseline, samples.indices.contains(baseline), samples.count >= 2 else {
            return samples.allSatisfy { relativeHalfWidth($0).map { $0 <= target } ?? false }
        }
        return samples.indices.allSatisfy { index in
            index == baseline || RatioInterval(measured: samples[index], baseline: samples[baseline])?.relativeHalfWidth.map { $0 <= target } ?? false
        }
    }

    /// Half the width of the median's 95 % interval relative to the median, or `nil` while the
    /// samples are too few for a 95 % interval (fewer than 6). The interval is the one
    /// `Statistics.medianInterval` reports (a test holds the two together).
    public static func relativeHalfWidth(_ samples: [UInt64]) -> Double? {
        let n = samples.count
        let (rank, coverage) = medianIntervalRank(count: n)
        guard n > 0, coverage >= confidence else { return nil }
        let sorted = samples.sorted()
        let middle = (n - 1) / 2
        let median = n % 2 == 1 ? Double(sorted[middle]) : (Double(sorted[middle]) + Double(sorted[middle + 1])) / 2
        guard median > 0 else { return nil }
        return (Double(sorted[n - rank]) - Double(sorted[rank - 1])) / 2 / median
    }

    /// The rank *j* of the median's order-statistic interval `x(j) … x(n+1−j)`: the largest whose
    /// coverage 1 − 2·P(B ≤ j − 1), B ~ Binomial(n, ½), is still ≥ 95 % (1 when none is), and its
    /// coverage. The same ranks as `Statistics.medianIntervalRank`, with the binomial sums
    /// accumulated in one pass, cheap enough to ask after every round.
    public static func medianIntervalRank(count n: Int) -> (rank: Int, coverage: Double) {
        guard n > 0 else { return (1, 0) }
        var logTerm = Double(n) * log(0.5) // log P(B = 0)
        var cdf = exp(logTerm)               // P(B ≤ 0)
        var rank = 1
        var coverage = 1 - 2 * cdf
        while rank + 1 <= (n + 1) / 2 {
            // P(B ≤ rank) from P(B ≤ rank − 1).
            logTerm += log(Double(n - rank + 1)) - log(Double(rank))
            let next = 1 - 2 * min(1, cdf + exp(logTerm))
            guard next >= confidence else { break }
            cdf += exp(logTerm)
            rank += 1
            coverage = next
        }
        return (rank, coverage)
    }
}

/// The order of the strategies in one round: every strategy exactly once, shuffled (Fisher–Yates)
/// by a SplitMix64 seeded from the run's seed, the case's name and the round (warm-ups count), so
/// that a run can be repeated order for order, and no strategy always follows the same one.
public func roundOrder(strategies count: Int, seed: UInt64, caseName: String, round: Int) -> [Int] {
    // Seed, case and round hashed together: SplitMix64's streams `r` and `r + 1` of one seed are
    // the same sequence shifted by one draw, which would make consecutive rounds' orders alike.
    var hasher = StableHasher()
    hasher.combine(seed)
    hasher.combine(caseName)
    hasher.combine(round)
    var generator = SplitMix64(seed: hasher.finalize())
    var order = Array(0 ..< count)
    var index = count - 1
    while index > 0 {
        // A draw in 0 ... index from the high half of a 128-bit product (Lemire's method, without
        // the rejection step: its bias, below 2⁻⁶⁰, does not matter here).
        let pick = Int(generator.next().multipliedFullWidth(by: UInt64(index + 1)).high)
        order.swapAt(index, pick)
        index -= 1
    }
    return order
}
