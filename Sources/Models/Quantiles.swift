/// A measured distribution of whole numbers (a to-many's fan-out, a text's length), kept as its
/// quantiles at 0 %, 5 %, …, 100 % and its mean: what a store's shape records of each, and what the
/// generator follows (as a piecewise linear quantile function). In JSON:
/// `{ "quantiles": [0, 0, 1, …, 40], "mean": 3.2 }`.
public struct Quantiles: Codable, Equatable, Sendable {
    /// The quantile at `Double(i) / Double(Quantiles.steps)` for `i` in `0 ... steps`.
    public var quantiles: [Double]
    public var mean: Double

    /// Points between the minimum and the maximum, both included: 21 (every 5 %).
    public static let steps = 20

    public init(quantiles: [Double], mean: Double) {
        self.quantiles = quantiles
        self.mean = mean
    }

    /// The distribution of a histogram (value → how many times it occurs); `nil` when it is empty.
    /// Quantile `p` is the smallest value whose cumulative share reaches `p` (the lower quantile).
    public init?(histogram: [Int: Int]) {
        let counts = histogram.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        let total = counts.reduce(0) { $0 + $1.value }
        guard total > 0 else { return nil }
        var quantiles: [Double] = []
        var cumulative = 0
        var position = 0
        for step in 0 ... Self.steps {
            let rank = max(1, Int((Double(step) / Double(Self.steps) * Double(total)).rounded(.up)))
            while cumulative + counts[position].value < rank { cumulative += counts[position].value; position += 1 }
            quantiles.append(Double(counts[position].key))
        }
        self.quantiles = quantiles
        mean = Double(counts.reduce(0) { $0 + $1.key * $1.value }) / Double(total)
    }

    /// The quantile at `p` (0 … 1), interpolated between the kept points.
    public func value(at p: Double) -> Double {
        let x = Swift.min(1, Swift.max(0, p)) * Double(Self.steps)
        let low = Swift.min(Self.steps - 1, Int(x))
        let fraction = x - Double(low)
        return quantiles[low] + (quantiles[low + 1] - quantiles[low]) * fraction
    }

    public var median: Double { quantiles[Self.steps / 2] }
    public var p90: Double { quantiles[Self.steps * 9 / 10] }
    public var maximum: Double { quantiles[Self.steps] }

    /// Whether the quantiles are `steps + 1` finite values in ascending order from 0 up, and the
    /// mean is finite and between the extremes.
    public var isValid: Bool {
        quantiles.count == Self.steps + 1 && quantiles.allSatisfy { $0.isFinite && $0 >= 0 }
            && zip(quantiles, quantiles.dropFirst()).allSatisfy { $0 <= $1 } && mean.isFinite
            && mean >= quantiles[0] && mean <= quantiles[Self.steps]
    }
}
