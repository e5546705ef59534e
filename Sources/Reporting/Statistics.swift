/// Summary statistics of one measurement's samples (nanoseconds).
public struct Statistics: Equatable, Sendable {
    public let count: Int
    public let median: Double
    public let min: Double
    public let max: Double
    public let mean: Double

    /// - precondition: `samples` is not empty.
    public init(_ samples: [UInt64]) {
        precondition(!samples.isEmpty, "statistics of no samples")
        let sorted = samples.sorted().map { Double($0) }
        count = sorted.count
        min = sorted.first!
        max = sorted.last!
        mean = sorted.reduce(0, +) / Double(sorted.count)
        median = Self.quantile(sorted, 0.5)
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
}
