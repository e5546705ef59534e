/// The precision rule and the time budget in blocks (`interleaveRounds`): the first block decides
/// how many rounds each block runs, so that the blocks together take about the case's budget.
extension StoppingRule {
    /// The blocks a case of `workload` is measured in under this rule and `plan`: `RunPlan.blocks`
    /// under the precision rule and `--time-budget`; one for a workload whose minimum is one round
    /// (`insert-bulk`: seconds a round, its ratio never called in a default run), and for
    /// `--repetitions`, which asks for an exact count of rounds.
    public func blocks(for workload: Workload, plan: RunPlan) -> Int {
        guard fixedRounds == nil, workload.minimumRounds > 1 else { return 1 }
        return max(1, plan.blocks)
    }

    /// The rule of a case's first block of `blocks`: a `blocks`-th of the budget and of the
    /// minimum and maximum rounds (at least one); the later blocks repeat its count. A fixed
    /// count is unchanged.
    public func firstOf(blocks: Int) -> StoppingRule {
        guard blocks > 1 else { return self }
        func share(_ rounds: Int) -> Int { max(1, (rounds + blocks - 1) / blocks) }
        switch mode {
        case .fixed:
            return self
        case let .timeBudget(seconds, minimum, maximum):
            return StoppingRule(.timeBudget(seconds: seconds / Double(blocks), minimum: share(minimum), maximum: max(1, maximum / blocks)))
        case let .precision(target, budget, minimum, maximum):
            return StoppingRule(.precision(target: target, budget: budget / Double(blocks), minimum: share(minimum), maximum: max(1, maximum / blocks)))
        }
    }
}
