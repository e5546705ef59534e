import Foundation
import Generation
import Models
import Strategies
@testable import Workloads
import XCTest

/// The stopping rule on synthetic sample streams with known answers, and the shuffled rounds.
final class StoppingRuleTests: XCTestCase {
    /// A stream of `strategies` strategies whose samples are `base` ± up to `noise` (a fraction), uniform, seeded.
    struct Stream {
        var generator: SplitMix64
        let base: Double
        let noise: Double

        init(seed: UInt64, base: Double = 1_000_000, noise: Double) {
            generator = SplitMix64(seed: seed); self.base = base; self.noise = noise
        }

        mutating func next() -> UInt64 { UInt64(base * (1 + noise * (2 * generator.nextUnit() - 1))) }
    }

    /// Feeds rounds to the rule until it stops; each round of every strategy "takes" `secondsPerRound` of wall clock.
    func roundsUntilStop(_ rule: StoppingRule, strategies: Int = 3, noise: Double, seed: UInt64 = 7,
                         secondsPerRound: Double = 0) -> (rounds: Int, decision: StoppingRule.Decision) {
        var streams = (0 ..< strategies).map { Stream(seed: seed &+ UInt64($0), noise: noise) }
        var samples = Array(repeating: [UInt64](), count: strategies)
        var elapsed = 0.0
        while true {
            let decision = rule.decide(samples, elapsed: elapsed)
            if decision != .another { return (samples[0].count, decision) }
            for index in samples.indices { samples[index].append(streams[index].next()) }
            elapsed += secondsPerRound
            if samples[0].count > 100_000 { XCTFail("the rule never stopped"); return (samples[0].count, .another) }
        }
    }

    let precise = StoppingRule(.precision(target: 0.025, budget: 1_000, minimum: 6, maximum: 1_000))

    func testAConstantStreamStopsAtTheMinimum() {
        XCTAssertEqual(roundsUntilStop(precise, noise: 0).rounds, 6)
        XCTAssertEqual(roundsUntilStop(precise, noise: 0).decision, .precise)
        // Fewer than 6 samples have no 95 % interval: a constant stream still runs 6 rounds.
        let fewer = StoppingRule(.precision(target: 0.025, budget: 1_000, minimum: 2, maximum: 1_000))
        XCTAssertEqual(roundsUntilStop(fewer, noise: 0).rounds, 6)
    }

    func testNoisierStreamsNeedMoreRounds() {
        let quiet = roundsUntilStop(precise, noise: 0.01)
        let noisy = roundsUntilStop(precise, noise: 0.10)
        XCTAssertEqual(quiet.decision, .precise)
        XCTAssertEqual(noisy.decision, .precise)
        XCTAssertEqual(quiet.rounds, 6, "±1 % noise is within ±2.5 % from the start")
        XCTAssertGreaterThan(noisy.rounds, 20, "±10 % noise needs many rounds to pin the median within 2.5 %")
        XCTAssertLessThan(noisy.rounds, 400)
        // A finer target needs more rounds still.
        let finer = StoppingRule(.precision(target: 0.01, budget: 1_000, minimum: 6, maximum: 10_000))
        XCTAssertGreaterThan(roundsUntilStop(finer, noise: 0.10).rounds, noisy.rounds)
    }

    func testTheBudgetStopsAStreamThatNeverConverges() {
        // ±90 % noise with a 0.1 % target never becomes precise within 1,000 rounds; the budget
        // (2 s per strategy, 3 strategies, 0.25 s per round) stops it after 24 rounds.
        let rule = StoppingRule(.precision(target: 0.001, budget: 2, minimum: 6, maximum: 1_000))
        let stop = roundsUntilStop(rule, strategies: 3, noise: 0.9, secondsPerRound: 0.25)
        XCTAssertEqual(stop.decision, .budget)
        XCTAssertEqual(stop.rounds, 24)
        // The minimum holds even when a round alone exceeds the budget…
        XCTAssertEqual(roundsUntilStop(rule, noise: 0.9, secondsPerRound: 100).rounds, 6)
        // …and a minimum of 1 lets a long case stop after one round.
        let long = StoppingRule(.precision(target: 0.025, budget: 1, minimum: 1, maximum: 1_000))
        XCTAssertEqual(roundsUntilStop(long, noise: 0.9, secondsPerRound: 5).rounds, 1)
        XCTAssertEqual(roundsUntilStop(long, noise: 0.9, secondsPerRound: 5).decision, .budget)
        // Without a budget stop, the cap ends it.
        let capped = StoppingRule(.precision(target: 0.001, budget: 1e9, minimum: 6, maximum: 50))
        XCTAssertEqual(roundsUntilStop(capped, noise: 0.9).rounds, 50)
        XCTAssertEqual(roundsUntilStop(capped, noise: 0.9).decision, .count)
    }

    /// Every strategy must be precise: one noisy strategy keeps the case going.
    func testOneNoisyStrategyKeepsTheCaseGoing() {
        var samples = [Array(repeating: UInt64(1_000), count: 10), (0 ..< 10).map { UInt64($0 % 2 == 0 ? 1_000 : 2_000) }]
        XCTAssertEqual(precise.decide(samples, elapsed: 0), .another)
        samples[1] = Array(repeating: 1_500, count: 10)
        XCTAssertEqual(precise.decide(samples, elapsed: 0), .precise)
    }

    // MARK: The rule aims at the ratios

    /// Rounds of a baseline and two strategies (ratios 0.8 and 1.5) on a host whose speed `host(round)`
    /// scales every strategy of a round alike, each sample with its own ±`noise`; fed to the rule
    /// with or without the baseline until it stops.
    func ratioStream(_ rule: StoppingRule, baseline: Int?, noise: Double, host: (Int) -> Double) -> (rounds: Int, decision: StoppingRule.Decision) {
        var streams = (0 ..< 3).map { Stream(seed: 21 &+ UInt64($0), base: [1_000_000, 800_000, 1_500_000][$0], noise: noise) }
        var samples = Array(repeating: [UInt64](), count: 3)
        while true {
            let decision = rule.decide(samples, elapsed: 0, baseline: baseline)
            if decision != .another { return (samples[0].count, decision) }
            let factor = host(samples[0].count)
            for index in samples.indices { samples[index].append(UInt64(Double(streams[index].next()) * factor)) }
        }
    }

    /// A host that steps between two speeds (every strategy 40 % slower in alternate spells of 5
    /// rounds) moves every median but no ratio: the ratios are precise at the minimum, while the
    /// medians straddle the two levels until the cap.
    func testMediansThatDriftTogetherLeaveTheRatiosPrecise() {
        let rule = StoppingRule(.precision(target: 0.025, budget: 1_000, minimum: 6, maximum: 300))
        let step = { (round: Int) -> Double in (round / 5) % 2 == 1 ? 1.4 : 1 }
        let ratios = ratioStream(rule, baseline: 0, noise: 0.01, host: step)
        XCTAssertEqual(ratios.decision, .precise)
        XCTAssertEqual(ratios.rounds, 6, "±1 % noise per sample: within 2.5 % per ratio from the start, the step notwithstanding")
        let medians = ratioStream(rule, baseline: nil, noise: 0.01, host: step)
        XCTAssertEqual(medians.decision, .count, "half the rounds on each level: no median is ever within 2.5 %")
        XCTAssertEqual(medians.rounds, 300)
    }

    /// Strategies whose times vary each on its own (no common drift) leave ratios as uncertain as
    /// medians: the rule reading ratios runs on, and about as long as one reading medians.
    func testIndependentNoiseKeepsTheRatiosGoing() {
        let steady = { (_: Int) -> Double in 1 }
        let ratios = ratioStream(precise, baseline: 0, noise: 0.10, host: steady)
        let medians = ratioStream(precise, baseline: nil, noise: 0.10, host: steady)
        XCTAssertEqual(ratios.decision, .precise)
        XCTAssertGreaterThan(ratios.rounds, 20, "±10 % on each side of a ratio needs many rounds")
        XCTAssertGreaterThan(Double(ratios.rounds), 0.75 * Double(medians.rounds), "a ratio of two noisy samples is about as uncertain as either")
        // One uncertain ratio keeps the case going, whatever the others.
        var samples = [Array(repeating: UInt64(1_000), count: 10), Array(repeating: UInt64(800), count: 10),
                       (0 ..< 10).map { UInt64($0 % 2 == 0 ? 1_000 : 2_000) }]
        XCTAssertEqual(precise.decide(samples, elapsed: 0, baseline: 0), .another)
        samples[2] = Array(repeating: 1_500, count: 10)
        XCTAssertEqual(precise.decide(samples, elapsed: 0, baseline: 0), .precise)
        // The baseline alone, or one strategy: its median decides.
        XCTAssertEqual(precise.decide([(0 ..< 10).map { UInt64($0 % 2 == 0 ? 1_000 : 2_000) }], elapsed: 0, baseline: 0), .another)
    }

    func testFixedAndTimeBudgetModesBehaveAsBefore() {
        let fixed = StoppingRule(.fixed(rounds: 7))
        XCTAssertEqual(roundsUntilStop(fixed, noise: 0).rounds, 7)
        XCTAssertEqual(roundsUntilStop(fixed, noise: 0.5, secondsPerRound: 1_000).rounds, 7, "a fixed count ignores time and noise")
        XCTAssertEqual(fixed.fixedRounds, 7)
        // The time budget counts timed nanoseconds (1 ms per sample here), per strategy: 0.01 s → 10 rounds.
        let budget = StoppingRule(.timeBudget(seconds: 0.01, minimum: 3, maximum: 1_000))
        XCTAssertEqual(roundsUntilStop(budget, noise: 0).rounds, 10)
        XCTAssertEqual(roundsUntilStop(budget, noise: 0).decision, .budget)
        XCTAssertEqual(roundsUntilStop(StoppingRule(.timeBudget(seconds: 1e-9, minimum: 3, maximum: 7)), noise: 0).rounds, 3, "at least the minimum")
        XCTAssertEqual(roundsUntilStop(StoppingRule(.timeBudget(seconds: 1_000, minimum: 3, maximum: 7)), noise: 0).rounds, 7, "at most the maximum")
        XCTAssertEqual(roundsUntilStop(budget, noise: 0, secondsPerRound: 1_000).rounds, 10, "wall-clock time does not count")
    }

    func testThePlanChoosesTheRule() {
        let workload = Workloads.named("fetch-page")!
        XCTAssertEqual(RunPlan().stoppingRule(for: workload),
                       StoppingRule(.precision(target: 0.025, budget: workload.budget, minimum: 6, maximum: RunPlan.maximumRounds)))
        XCTAssertEqual(RunPlan(precision: 0.015).stoppingRule(for: workload),
                       StoppingRule(.precision(target: 0.015, budget: workload.budget, minimum: 6, maximum: RunPlan.maximumRounds)))
        XCTAssertEqual(RunPlan(repetitions: 4).stoppingRule(for: workload), StoppingRule(.fixed(rounds: 4)))
        XCTAssertEqual(RunPlan(timeBudget: 2, minRepetitions: 3, maxRepetitions: 9).stoppingRule(for: workload),
                       StoppingRule(.timeBudget(seconds: 2, minimum: 3, maximum: 9)))
        XCTAssertNil(RunPlan().repetitions(for: workload))
        XCTAssertEqual(RunPlan(repetitions: 4).repetitions(for: workload), 4)
        XCTAssertEqual(Workloads.named("insert-bulk")!.minimumRounds, 1, "one insert-bulk repetition is long enough to stand alone")
        XCTAssertTrue(Workloads.all.allSatisfy { $0.budget > 0 && $0.minimumRounds >= 1 })
    }

    // MARK: Shuffled rounds

    func testRoundOrdersAreSeededPermutations() {
        let orders = (0 ..< 50).map { roundOrder(strategies: 5, seed: 42, caseName: "fetch-page", round: $0) }
        for order in orders { XCTAssertEqual(order.sorted(), [0, 1, 2, 3, 4], "every strategy exactly once") }
        XCTAssertEqual(orders, (0 ..< 50).map { roundOrder(strategies: 5, seed: 42, caseName: "fetch-page", round: $0) }, "deterministic")
        XCTAssertGreaterThan(Set(orders).count, 30, "orders differ across rounds")
        XCTAssertNotEqual(orders, (0 ..< 50).map { roundOrder(strategies: 5, seed: 43, caseName: "fetch-page", round: $0) }, "and across seeds")
        XCTAssertNotEqual(orders, (0 ..< 50).map { roundOrder(strategies: 5, seed: 42, caseName: "count-all", round: $0) }, "and across cases")
        // Each strategy takes each place about equally often (1,000 rounds: 200 per place).
        let many = (0 ..< 1_000).map { roundOrder(strategies: 5, seed: 1, caseName: "x", round: $0) }
        for strategy in 0 ..< 5 {
            for place in 0 ..< 5 {
                XCTAssertEqual(Double(many.filter { $0[place] == strategy }.count), 200, accuracy: 60, "strategy \(strategy) at \(place)")
            }
        }
        // Consecutive rounds are independent: a strategy's place in one round says nothing of its
        // place in the next (every pair of places about equally often: 1,000 rounds, 40 per pair).
        for strategy in 0 ..< 5 {
            var pairs = [Int](repeating: 0, count: 25)
            for round in 1 ..< many.count {
                pairs[many[round - 1].firstIndex(of: strategy)! * 5 + many[round].firstIndex(of: strategy)!] += 1
            }
            for (pair, count) in pairs.enumerated() {
                XCTAssertEqual(Double(count), 40, accuracy: 22, "strategy \(strategy): places \(pair / 5) then \(pair % 5)")
            }
        }
        XCTAssertEqual(roundOrder(strategies: 1, seed: 9, caseName: "x", round: 3), [0])
        // Pinned: a change of the shuffle changes every run's order, and must be deliberate.
        XCTAssertEqual(roundOrder(strategies: 5, seed: 42, caseName: "fetch-page", round: 0), [3, 2, 4, 1, 0])
    }

    /// The interleaver runs every strategy once per round, in the shuffled order, and records each place.
    func testInterleavedRoundsFollowTheShuffle() throws {
        var ran: [Int] = []
        let names = ["a", "b", "c", "d"]
        let rounds = try interleaveRounds("case", names, warmups: 2, rule: StoppingRule(.fixed(rounds: 5)), seed: 11, onEvent: { _ in }) { strategy, round, loops in
            XCTAssertEqual(loops, 1, "no loop target, no loops")
            ran.append(strategy)
            return Sample(nanoseconds: UInt64(1_000 + 10 * round + strategy), rows: 1, digest: AnswerDigest(.ordered, of: [1]))
        }
        let expected = (0 ..< 7).flatMap { roundOrder(strategies: 4, seed: 11, caseName: "case", round: $0) }
        XCTAssertEqual(ran, expected)
        XCTAssertEqual(rounds.timed.map(\.count), [5, 5, 5, 5])
        XCTAssertEqual(rounds.stop, .count)
        for round in 0 ..< 5 {
            let order = roundOrder(strategies: 4, seed: 11, caseName: "case", round: round + 2)
            for strategy in 0 ..< 4 {
                XCTAssertEqual(order[rounds.positions[strategy][round]], strategy)
                XCTAssertEqual(rounds.timed[strategy][round], UInt64(1_000 + 10 * (round + 2) + strategy))
            }
        }
    }

    /// With a loop target, each strategy's timed repetitions are loops of as many executions as its
    /// fastest warm-up fits into the target (at least 1, at most `maximumLoops`); warm-ups are single.
    func testLoopsAreSizedFromTheFastestWarmup() throws {
        // Warm-up durations per strategy: a's fastest is 100 ns, b's 400 ns, c's 2 ms (over the
        // target), d's 1 ns (a loop that would exceed the cap).
        let warmups: [[UInt64]] = [[150, 100, 120], [900, 400, 500], [3_000_000, 2_000_000, 2_500_000], [5, 1, 2]]
        var seen: [[Int]] = Array(repeating: [], count: 4)
        let rounds = try interleaveRounds("case", ["a", "b", "c", "d"], warmups: 3, rule: StoppingRule(.fixed(rounds: 4)), seed: 3,
                                          loopTarget: 10_000, onEvent: { _ in }) { strategy, round, loops in
            seen[strategy].append(loops)
            let nanoseconds = round < 3 ? warmups[strategy][round] : 777
            return Sample(nanoseconds: nanoseconds, rows: 1, digest: AnswerDigest(.ordered, of: [1]))
        }
        XCTAssertEqual(rounds.loops, [100, 25, 1, maximumLoops])
        XCTAssertEqual(seen, [[1, 1, 1, 100, 100, 100, 100], [1, 1, 1, 25, 25, 25, 25], Array(repeating: 1, count: 7),
                              [1, 1, 1] + Array(repeating: maximumLoops, count: 4)])
        XCTAssertEqual(rounds.timed, Array(repeating: [777, 777, 777, 777], count: 4), "the warm-ups are not timed samples")
    }

    /// A strategy's warm-ups end once they add up to `warmupTime`, before the workload's count
    /// when its executions are long, and the result says how many each strategy ran.
    func testWarmupsEndOnceEveryStrategyIsWarm() throws {
        // Every execution of strategy s takes duration[s]; three timed rounds.
        func run(_ duration: [UInt64]) throws -> (rounds: Rounds, executions: [Int]) {
            var executions = [0, 0]
            let rounds = try interleaveRounds("case", ["a", "b"], warmups: 5, rule: StoppingRule(.fixed(rounds: 3)), seed: 3, onEvent: { _ in }) { strategy, _, _ in
                executions[strategy] += 1
                return Sample(nanoseconds: duration[strategy], rows: 1, digest: AnswerDigest(.ordered, of: [1]))
            }
            return (rounds, executions)
        }
        // 30 ms and 20 ms executions: past 50 ms after two warm-ups and three.
        let long = try run([30_000_000, 20_000_000])
        XCTAssertEqual(long.rounds.warmups, [2, 3])
        XCTAssertEqual(long.executions, [5, 6], "the warm-ups and three timed rounds each")
        XCTAssertEqual(long.rounds.timed.map(\.count), [3, 3])
        // 5 ms executions: the workload's five warm-ups.
        let short = try run([30_000_000, 5_000_000])
        XCTAssertEqual(short.rounds.warmups, [2, 5])
        XCTAssertEqual(short.executions, [5, 8])
    }

    /// A default-mode run of a tiny model: every case ends precise, or on its budget (or the cap).
    func testADefaultRunEndsPreciseOrOnItsBudget() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let workloads = ["insert-single", "fetch-page", "count-all", "lookup-id", "update"].map { Workloads.named($0)! }
        let plan = RunPlan(strategies: [SingleTable.self, Joined.self], workloads: workloads, seed: 5, batchSize: 100)
        var rules: [String: StoppingRule] = [:]
        var started: [String: Date] = [:]
        var took: [String: Double] = [:]
        let results = try Runner(plan: plan, model: model) { event in
            switch event {
            case let .measuring(caseName, _, _, rule): rules[caseName] = rule; started[caseName] = Date()
            case let .measured(group): took[group[0].caseName] = Date().timeIntervalSince(started[group[0].caseName]!)
            default: break
            }
        }.run()
        XCTAssertEqual(results.count, 10)
        for (caseName, group) in Dictionary(grouping: results, by: \.caseName) {
            // Three blocks: the first under the rule with a third of its budget and minimum, the
            // others as many rounds each.
            let rounds = group[0].samples.count, starts = group[0].blockStarts
            XCTAssertEqual(starts.count, 3, caseName)
            let first = starts.count > 1 ? starts[1] : rounds
            XCTAssertEqual(starts, starts.indices.map { $0 * first }, caseName)
            XCTAssertEqual(rounds, first * starts.count, "\(caseName): every block runs as many rounds as the first")
            guard case let .precision(target, budget, minimum, maximum) = rules[caseName]!.firstOf(blocks: starts.count).mode else {
                return XCTFail("\(caseName): not the default rule")
            }
            XCTAssertTrue(group.allSatisfy { $0.samples.count == rounds && $0.positions.count == rounds && $0.blockStarts == starts }, caseName)
            XCTAssertGreaterThanOrEqual(first, minimum, caseName)
            XCTAssertLessThanOrEqual(first, maximum, caseName)
            // The rule reads the ratio to the baseline (single-table, first): paired round by round.
            func isPrecise(_ count: Int) -> Bool {
                let ratio = RatioInterval(measured: Array(group[1].samples.prefix(count)), baseline: Array(group[0].samples.prefix(count)))
                return (ratio?.relativeHalfWidth ?? .infinity) <= target
            }
            // Not precise: the first block must have reached the cap, or another round at its mean
            // pace would have taken it past its budget (2 strategies); the test's clock ran for
            // every block, so it bounds the first block's time from above.
            let pastTheBudget = took[caseName]! * Double(first + 1) / Double(first) >= budget * 2
            XCTAssertTrue(isPrecise(first) || first == maximum || pastTheBudget, "\(caseName): \(first) rounds a block in \(took[caseName]!) s")
            // Precise before the first block's last round would have stopped it earlier (below 64 rounds the rule reads every round).
            if first > minimum, first < 64 {
                XCTAssertFalse(isPrecise(first - 1), "\(caseName): precise one round earlier yet went on")
            }
            for result in group { XCTAssertEqual(Set(result.positions).isSubset(of: [0, 1]), true) }
        }
        // A count of 300 objects takes microseconds: it is looped. Writes never are.
        for result in results {
            if result.workload == "count-all" { XCTAssertGreaterThan(result.loops, 1, "\(result.strategy) count-all") }
            if ["insert-single", "update"].contains(result.workload) { XCTAssertEqual(result.loops, 1, "\(result.strategy) \(result.workload)") }
        }
    }
}
