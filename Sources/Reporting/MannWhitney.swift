import Foundation

/// The two-sided Mann–Whitney U test (Wilcoxon rank-sum test) of two sets of samples: do the
/// values of one tend to be larger than those of the other?
///
///     let test = MannWhitney([110, 111, 112], [100, 101, 102])!
///     test.u       // 9: every x is above every y
///     test.p       // 0.1: 2 of the 20 equally likely orders are at least this extreme
///     test.method  // .exact
///
/// `u` is the first sample's statistic, as SciPy's `mannwhitneyu(x, y)` reports it: the number of
/// pairs (x, y) with x > y, a tie counting ½. It runs from 0 to `m·n`; `m·n / 2` is no shift.
///
/// The p-value is
/// - **exact** when both samples hold at most `exactLimit` values and no value occurs twice:
///   `p = min(1, 2·P(U ≥ max(U₁, U₂)))` under the null distribution of U, counted by dynamic
///   programming over the `C(m + n, m)` equally likely orders;
/// - otherwise the **normal approximation** with tie correction and continuity correction:
///   `z = (max(U₁, U₂) − m·n/2 − ½) / σ`, `σ² = m·n/12 · ((N + 1) − Σ(t³ − t) / (N·(N − 1)))`
///   over the groups of `t` tied values, `N = m + n`, and `p = min(1, 2·(1 − Φ(z)))`.
///   When every value is the same, σ is 0 and `p` is 1.
///
/// These are SciPy's `method="exact"` and `method="asymptotic"` (with `use_continuity=True`).
public struct MannWhitney: Equatable, Sendable {
    public enum Method: String, Sendable {
        /// The exact null distribution of U (small samples without ties).
        case exact
        /// The normal approximation with tie and continuity corrections.
        case normal
    }

    /// The largest sample, on both sides, for which the p-value is exact.
    public static let exactLimit = 20

    /// The first sample's U: pairs (x, y) with x > y, ties counting ½.
    public let u: Double
    /// Two-sided p-value.
    public let p: Double
    public let method: Method
    /// Whether some value occurs more than once (in either sample, or across them).
    public let hasTies: Bool
    /// The sizes of the two samples (m for x, n for y).
    public let m: Int, n: Int

    /// - returns: nil when either sample is empty or holds a value that is not finite.
    public init?(_ x: [Double], _ y: [Double]) {
        guard !x.isEmpty, !y.isEmpty, (x + y).allSatisfy(\.isFinite) else { return nil }
        let m = x.count, n = y.count, total = m + n
        // Average ranks (1-based) over both samples; tied values share the mean of their ranks.
        let pooled = (x.map { ($0, true) } + y.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var rankSumX = 0.0
        var tieTerm = 0.0
        var start = 0
        while start < total {
            var end = start
            while end + 1 < total, pooled[end + 1].0 == pooled[start].0 { end += 1 }
            let rank = Double(start + end + 2) / 2
            let t = Double(end - start + 1)
            tieTerm += t * t * t - t
            rankSumX += rank * Double(pooled[start ... end].filter(\.1).count)
            start = end + 1
        }
        let u1 = rankSumX - Double(m * (m + 1)) / 2
        let u2 = Double(m * n) - u1
        let larger = Swift.max(u1, u2)
        self.u = u1
        self.m = m
        self.n = n
        hasTies = tieTerm > 0
        if !hasTies, m <= Self.exactLimit, n <= Self.exactLimit {
            method = .exact
            p = Swift.min(1, 2 * Self.exactUpperTail(Int(larger.rounded()), m, n))
        } else {
            method = .normal
            let mn = Double(m * n), count = Double(total)
            let variance = mn / 12 * ((count + 1) - tieTerm / (count * (count - 1)))
            if variance <= 0 {
                p = 1
            } else {
                let z = (larger - mn / 2 - 0.5) / variance.squareRoot()
                // 2·(1 − Φ(z)) = erfc(z / √2)
                p = Swift.min(1, erfc(z / 2.0.squareRoot()))
            }
        }
    }

    /// The p-value of the most extreme outcome possible with m and n values (every one of one side
    /// above every one of the other, no ties): no test of so few values can give less.
    public static func smallestP(_ m: Int, _ n: Int) -> Double {
        guard m > 0, n > 0 else { return 1 }
        return MannWhitney((0 ..< m).map { Double(n + $0) }, (0 ..< n).map(Double.init))?.p ?? 1 // never nil: both sides have values, all finite
    }

    /// P(U ≥ u) when every order of m values of x and n of y is equally likely (no ties).
    static func exactUpperTail(_ u: Int, _ m: Int, _ n: Int) -> Double {
        let counts = nullCounts(m, n)
        guard u > 0 else { return 1 }
        guard u < counts.count else { return 0 }
        let total = counts.reduce(0, +)
        return counts[u...].reduce(0, +) / total
    }

    /// How many of the `C(m + n, m)` orders give U = 0, 1, …, m·n. With f(i, j) the counts for
    /// i values of x and j of y: the largest of all i + j values is either an x, above all j
    /// y's (U grows by j), or a y (U unchanged), so f(i, j)[u] = f(i − 1, j)[u − j] + f(i, j − 1)[u].
    /// The counts stay below C(40, 20) ≈ 1.4·10¹¹ for 20 + 20 values: exact in a Double.
    static func nullCounts(_ m: Int, _ n: Int) -> [Double] {
        // row[j] holds f(i, j) for the current i.
        var row = [[Double]](repeating: [1], count: n + 1) // f(0, j): U is 0, one order
        guard m > 0 else { return row[n] }
        for i in 1 ... m {
            var next = [[Double]](repeating: [], count: n + 1)
            next[0] = [1] // f(i, 0)
            for j in stride(from: 1, through: n, by: 1) {
                var counts = [Double](repeating: 0, count: i * j + 1)
                for (u, c) in row[j].enumerated() { counts[u + j] += c } // the largest is an x
                for (u, c) in next[j - 1].enumerated() { counts[u] += c } // the largest is a y
                next[j] = counts
            }
            row = next
        }
        return row[n]
    }
}
