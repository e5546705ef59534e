/// The precision rule in blocks (`interleaveRounds`): the first block decides how many rounds
/// each block runs, so that the blocks together take about the case's budget.
extension StoppingRule {
    /// The blocks a case of `workload` is measured in under this rule and `plan`: `RunPlan.blocks`
    /// under the precision rule, one for a workload whose minimum is one round (`insert-bulk`:
    /// seconds a round, its ratio never called in a default run), and for `--repetitions` and
    /// `--time-budget`, which ask for a count or a time of rounds.
    public func blocks(for workload: Workload, plan: RunPlan) -> Int {
        guard case .precision = mode, workload.minimumRounds > 1 else { return 1 }
        return max(1, plan.blocks)
    }

    /// The rule of a case's first block of `blocks`: a `blocks`-th of the budget and of the
    /// minimum rounds (at least one); the later blocks repeat its count. Other rules are unchanged.
    public func firstOf(blocks: Int) -> StoppingRule {
        guard case let .precision(target, budget, minimum, maximum) = mode, blocks > 1 else { return self }
        let share = (minimum + blocks - 1) / blocks
        return StoppingRule(.precision(target: target, budget: budget / Double(blocks), minimum: max(1, share), maximum: max(1, maximum / blocks)))
    }
}
