import Foundation
import Generation
@testable import Workloads
import XCTest

/// A case measured in blocks: the rounds' schedule, the warm-ups and reopenings between blocks,
/// and the interval that includes the blocks' spread.
final class RatioBlocksTests: XCTestCase {
    /// The first block runs until its rule stops it (here a fixed 4 rounds stands for it), the
    /// others as many rounds each; before each later block `onBlock` runs and the warm-ups run
    /// again, and the loops are sized from that block's own warm-ups.
    func testBlocksRepeatTheFirstBlocksRoundsAfterWarmingUpAgain() throws {
        var reopened: [Int] = []
        var seen: [Int] = []
        var calls = 0
        let rule = StoppingRule(.precision(target: 0.0001, budget: 1_000, minimum: 12, maximum: 12))
        XCTAssertEqual(rule.firstOf(blocks: 3), StoppingRule(.precision(target: 0.0001, budget: 1_000.0 / 3, minimum: 4, maximum: 4)))
        let rounds = try interleaveRounds("case", ["a", "b"], warmups: 2, rule: rule, seed: 1, loopTarget: 10_000, blocks: 3,
                                          onBlock: { reopened.append($0) }, onEvent: { _ in }) { strategy, _, loops in
            calls += 1
            if strategy == 0 { seen.append(loops) }
            // Warm-ups of the second block are twice as fast: its loops double.
            let warm = reopened.count == 1 ? 50 : 100
            return Sample(nanoseconds: UInt64(loops == 1 ? warm : 777 + strategy), rows: 1, digest: AnswerDigest(.ordered, of: [1]))
        }
        XCTAssertEqual(reopened, [1, 2])
        XCTAssertEqual(rounds.blockStarts, [0, 4, 8])
        XCTAssertEqual(rounds.timed.map(\.count), [12, 12])
        XCTAssertEqual(calls, 2 * (3 * 2 + 12), "two warm-ups before each of the three blocks")
        XCTAssertEqual(seen, [1, 1, 100, 100, 100, 100, 1, 1, 200, 200, 200, 200, 1, 1, 100, 100, 100, 100])
        XCTAssertEqual(rounds.loops, [100, 100], "the first block's loops are reported")
        XCTAssertEqual(rounds.stop, .count, "the first block's decision")
    }

    /// A strategy whose every execution is long (single executions of 50 ms or more) is warmed up
    /// before the first block only; the later blocks still reopen its store. A strategy under the
    /// limit, or with loops, warms up again in every block.
    func testLongExecutionsAreWarmedUpBeforeTheFirstBlockOnly() throws {
        let rule = StoppingRule(.precision(target: 0.0001, budget: 1_000, minimum: 6, maximum: 6))
        // Strategy a's executions take `fastest`, b's three times the limit: b is warmed up once,
        // a once, or once per block.
        for (fastest, warmUps) in [(rewarmLimit, 2), (rewarmLimit - 1, 4)] {
            var (reopened, calls) = (0, 0)
            let rounds = try interleaveRounds("case", ["a", "b"], warmups: 1, rule: rule, seed: 1, loopTarget: 1_000_000, blocks: 3,
                                              onBlock: { _ in reopened += 1 }, onEvent: { _ in }) { strategy, _, _ in
                calls += 1
                return Sample(nanoseconds: strategy == 0 ? fastest : rewarmLimit * 3, rows: 1, digest: AnswerDigest(.ordered, of: [1]))
            }
            XCTAssertEqual(reopened, 2)
            XCTAssertEqual(rounds.blockStarts, [0, 2, 4])
            XCTAssertEqual(calls, 2 * 6 + warmUps, "\(warmUps) warm-ups for a's fastest execution of \(fastest) ns")
            XCTAssertEqual(rounds.warmups, [1, 1], "the first block's warm-ups")
        }
        XCTAssertFalse(rewarms(fastest: rewarmLimit, loops: 1))
        XCTAssertTrue(rewarms(fastest: rewarmLimit, loops: 2), "a looped strategy's loops are sized again")
        XCTAssertTrue(rewarms(fastest: .max, loops: 1), "no warm-ups (none ran) change nothing")
    }

    /// One block (for `--repetitions` and `insert-bulk`) is the rounds as before, and a workload
    /// with a one-round minimum is never split; `--time-budget` is measured in blocks, as the
    /// default rule is.
    func testOneBlockIsTheRoundsAsBefore() throws {
        let rule = StoppingRule(.fixed(rounds: 5))
        let rounds = try interleaveRounds("case", ["a", "b"], warmups: 1, rule: rule, seed: 1, blocks: 1, onBlock: { _ in XCTFail("no block") },
                                          onEvent: { _ in }) { _, _, _ in Sample(nanoseconds: 10, rows: 1, digest: AnswerDigest(.ordered, of: [1])) }
        XCTAssertEqual(rounds.blockStarts, [0])
        XCTAssertEqual(rounds.timed.map(\.count), [5, 5])
        let plan = RunPlan()
        XCTAssertEqual(plan.stoppingRule(for: Workloads.named("insert-bulk")!).blocks(for: Workloads.named("insert-bulk")!, plan: plan), 1)
        XCTAssertEqual(plan.stoppingRule(for: Workloads.named("count-all")!).blocks(for: Workloads.named("count-all")!, plan: plan), RunPlan.defaultBlocks)
        let fixed = RunPlan(repetitions: 9)
        XCTAssertEqual(fixed.stoppingRule(for: Workloads.named("count-all")!).blocks(for: Workloads.named("count-all")!, plan: fixed), 1)
        let budget = RunPlan(timeBudget: 2)
        XCTAssertEqual(budget.stoppingRule(for: Workloads.named("count-all")!).blocks(for: Workloads.named("count-all")!, plan: budget), RunPlan.defaultBlocks)
        XCTAssertEqual(budget.stoppingRule(for: Workloads.named("insert-bulk")!).blocks(for: Workloads.named("insert-bulk")!, plan: budget), 1)
    }

    /// A time budget in blocks: the first block spends a third of it, at least a third of the
    /// minimum rounds and at most a third of the maximum, and the two later blocks run as many
    /// rounds each; the interval includes the blocks' spread.
    func testATimeBudgetIsMeasuredInBlocks() throws {
        let rule = StoppingRule(.timeBudget(seconds: 0.003, minimum: 5, maximum: 1_000))
        XCTAssertEqual(rule.firstOf(blocks: 3), StoppingRule(.timeBudget(seconds: 0.001, minimum: 2, maximum: 333)))
        XCTAssertEqual(StoppingRule(.fixed(rounds: 9)).firstOf(blocks: 3), StoppingRule(.fixed(rounds: 9)))
        var reopened = 0
        // Each round takes 100 µs per strategy: the first block's 1 ms stops it after 10 rounds.
        let rounds = try interleaveRounds("case", ["a", "b"], warmups: 0, rule: rule, seed: 1, blocks: 3, onBlock: { _ in reopened += 1 },
                                          onEvent: { _ in }) { strategy, _, _ in
            Sample(nanoseconds: UInt64(100_000 + strategy), rows: 1, digest: AnswerDigest(.ordered, of: [1]))
        }
        XCTAssertEqual(reopened, 2)
        XCTAssertEqual(rounds.blockStarts, [0, 10, 20])
        XCTAssertEqual(rounds.timed.map(\.count), [30, 30])
        XCTAssertEqual(rounds.stop, .budget, "the first block's decision")
    }

    /// Blocks that agree leave the rounds' interval as it is; blocks that disagree widen it, in
    /// quadrature on the log scale, by t(0.975, B − 1) · s · √(2 / B).
    func testTheIntervalIncludesTheBlocksSpread() throws {
        let baseline = Array(repeating: UInt64(1_000), count: 30)
        // Per-round ratios 1.00 … 1.09, the same in every block.
        let same = (0 ..< 30).map { UInt64(1_000 + 10 * ($0 % 10)) }
        let pooled = try XCTUnwrap(RatioInterval(measured: same, baseline: baseline))
        let agreeing = try XCTUnwrap(RatioInterval(measured: same, baseline: baseline, blockStarts: [0, 10, 20]))
        XCTAssertEqual(agreeing.ratio, pooled.ratio)
        XCTAssertEqual(agreeing.interval.lowerBound, pooled.interval.lowerBound, accuracy: 1e-12)
        XCTAssertEqual(agreeing.interval.upperBound, pooled.interval.upperBound, accuracy: 1e-12)
        XCTAssertEqual(agreeing.blocks, 3)
        // Blocks at 1.00, 1.05 and 1.10 (each constant): the rounds' interval alone is 1.00–1.10
        // at most; the blocks' spread widens it.
        let shifted = (0 ..< 30).map { UInt64(1_000 + 50 * ($0 / 10)) }
        let rounds = try XCTUnwrap(RatioInterval(measured: shifted, baseline: baseline))
        let blocks = try XCTUnwrap(RatioInterval(measured: shifted, baseline: baseline, blockStarts: [0, 10, 20]))
        let logs = [1.0, 1.05, 1.1].map { log($0) }
        let spread = RatioInterval.blockSpread(logs)
        XCTAssertEqual(spread, 4.303 * 0.04766 * (2.0 / 3).squareRoot(), accuracy: 1e-3)
        XCTAssertEqual(blocks.ratio, rounds.ratio)
        let below = log(rounds.ratio / rounds.interval.lowerBound), above = log(rounds.interval.upperBound / rounds.ratio)
        XCTAssertEqual(blocks.interval.lowerBound, rounds.ratio * exp(-(below * below + spread * spread).squareRoot()), accuracy: 1e-12)
        XCTAssertEqual(blocks.interval.upperBound, rounds.ratio * exp((above * above + spread * spread).squareRoot()), accuracy: 1e-12)
        XCTAssertLessThan(blocks.interval.lowerBound, 0.92)
        XCTAssertGreaterThan(blocks.interval.upperBound, 1.2)
        XCTAssertEqual(blocks.verdict, .uncertain, "1.05× with blocks 10 % apart is too uncertain to call")
        // Too few rounds for a 95 % interval: the rounds' range, not widened.
        let few = try XCTUnwrap(RatioInterval(measured: [1_000, 1_100, 1_200], baseline: [1_000, 1_000, 1_000], blockStarts: [0, 1, 2]))
        XCTAssertEqual(few.interval, 1.0 ... 1.2)
        XCTAssertEqual(few.blocks, 1)
        XCTAssertEqual(RatioInterval.studentT975(degrees: 2), 4.303)
        XCTAssertEqual(RatioInterval.studentT975(degrees: 30), 2.042, accuracy: 0.01)
    }
}
