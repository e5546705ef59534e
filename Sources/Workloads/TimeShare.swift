import Dispatch

/// Shares a run's time among its cases under the default rule (`--run-time`): as each case
/// starts, it gets the time left to the run's end in proportion to its weight (its workload's
/// own budget) among the cases still to come. A case that is precise early leaves its time to
/// those after it, where the noise is; a noisy phase of the machine cannot stretch the run
/// beyond its end by more than the untimed work of the cases (warm-ups, checks).
struct TimeShare {
    /// Seconds from `start` by which the run should end.
    let seconds: Double
    let start: UInt64
    /// The weights of the cases not yet started.
    private(set) var remainingWeight: Double
    /// The least a case gets per strategy however late it starts: it still runs its minimum rounds.
    static let floor = 0.05

    init(seconds: Double, weights: [Double], start: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.seconds = seconds
        self.start = start
        remainingWeight = weights.reduce(0, +)
    }

    /// The budget per strategy of the next case, of `weight`, measured by `strategies`; `now` in
    /// uptime nanoseconds.
    mutating func next(weight: Double, strategies: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Double {
        let left = seconds - Double(now - start) / 1e9
        let share = remainingWeight > 0 ? left * weight / remainingWeight : left
        remainingWeight = max(0, remainingWeight - weight)
        return max(Self.floor, share / Double(max(1, strategies)))
    }
}
