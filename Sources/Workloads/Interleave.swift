import Dispatch
import SQLite

/// What `interleaveRounds` measured: every strategy's timed samples, each sample's place in its
/// round, the checked answers, and why the rounds stopped.
package struct Rounds {
    package var timed: [[UInt64]]
    /// `positions[s][r]`: strategy *s*'s place (0-based) in timed round *r*.
    package var positions: [[Int]]
    package var answers: [Sample]
    package var stop: StoppingRule.Decision
    /// Executions each of a strategy's timed samples stands for (1 unless looped).
    package var loops: [Int]
    /// Each strategy's work in its first timed repetition (after the warm-ups, so the same in
    /// every run of the same seed, however many repetitions the stopping rule asks for).
    package var work: [WorkCounts?]
    /// The most memory SQLite held at once during each strategy's first timed repetition, bytes.
    package var sqliteMemory: [Int64?]
}

/// Runs warm-ups then timed repetitions of one case, round by round across strategies, and
/// checks that every answer equals the first strategy's and never changes.
///
/// Repetition *r* of every strategy runs before repetition *r + 1* of any, in an order shuffled
/// afresh each round (`roundOrder`, from `seed` and the case's name), so that a slow phase of a
/// shared machine falls on all strategies alike and no strategy always runs after the same one.
/// `rule` decides, before each timed round, whether another is due, from the ratios to the strategy
/// at `baseline` (nil: from the medians).
///
/// With a `loopTarget`, a strategy whose fastest warm-up took less than it has each timed sample
/// made of as many executions back to back as fill the target (at most `maximumLoops`): the
/// repetition runs `loops` executions and reports their mean. A case of microseconds is then timed
/// as microbenchmarks time it, with the CPU's caches as its own executions leave them, rather than
/// as the other strategies of the round left them (which made its samples bimodal).
package func interleaveRounds(
    _ caseName: String, _ names: [String], warmups: Int, rule: StoppingRule, seed: UInt64, baseline: Int? = nil, loopTarget: UInt64? = nil,
    onEvent: (RunEvent) throws -> Void,
    _ repetition: (_ strategy: Int, _ repetition: Int, _ loops: Int) throws -> Sample
) throws -> Rounds {
    try onEvent(.measuring(caseName: caseName, strategies: names, warmups: warmups, rule: rule))
    var timed = Array(repeating: [UInt64](), count: names.count)
    var positions = Array(repeating: [Int](), count: names.count)
    var answers: [Sample?] = Array(repeating: nil, count: names.count)
    var loops = Array(repeating: 1, count: names.count)
    var fastestWarmup = Array(repeating: UInt64.max, count: names.count)
    var work: [WorkCounts?] = Array(repeating: nil, count: names.count)
    var sqliteMemory: [Int64?] = Array(repeating: nil, count: names.count)
    var timedStart: UInt64 = 0
    var round = 0
    var stop = StoppingRule.Decision.another
    while true {
        if round == warmups {
            if let loopTarget, warmups > 0 {
                loops = fastestWarmup.map { fastest in Int(min(UInt64(maximumLoops), max(1, loopTarget / max(fastest, 1)))) }
            }
            timedStart = DispatchTime.now().uptimeNanoseconds
        }
        if round >= warmups {
            stop = rule.decide(timed, elapsed: Double(DispatchTime.now().uptimeNanoseconds - timedStart) / 1e9, baseline: baseline)
            guard stop == .another else { break }
        }
        for (position, index) in roundOrder(strategies: names.count, seed: seed, caseName: caseName, round: round).enumerated() {
            try onEvent(.repetition(caseName: caseName, strategy: names[index], round: round + 1, rounds: rule.fixedRounds.map { $0 + warmups }))
            // One repetition at a time: SQLite's memory high-water mark, reset before it and read
            // after it (outside its timed region), is this strategy's.
            _ = Database.memoryHighWater(reset: true)
            let sample = try repetition(index, round, loops[index])
            if round == warmups { sqliteMemory[index] = Database.memoryHighWater() }
            if let answer = answers[index], answer.rows != sample.rows
                || (answer.digestIsFull == sample.digestIsFull && answer.digest != sample.digest) {
                throw BenchmarkFailure.unstableAnswer(strategy: names[index], caseName: caseName)
            }
            // Keep the fullest answer: later insert repetitions digest their counts only.
            if answers[index]?.digestIsFull != true || sample.digestIsFull { answers[index] = sample }
            if round == warmups { work[index] = sample.work }
            if round >= warmups {
                timed[index].append(sample.nanoseconds)
                positions[index].append(position)
            } else {
                fastestWarmup[index] = min(fastestWarmup[index], sample.nanoseconds)
            }
        }
        if round == 0 { try checkAgreement(caseName, names, answers.compactMap { $0 }) }
        round += 1
    }
    // Every strategy ran round 0, so each has an answer.
    return Rounds(timed: timed, positions: positions, answers: answers.compactMap { $0 }, stop: stop, loops: loops, work: work, sqliteMemory: sqliteMemory)
}

/// The most executions one looped sample is made of.
package let maximumLoops = 1_000

private func checkAgreement(_ caseName: String, _ names: [String], _ answers: [Sample]) throws {
    // An answer without a full digest (a repetition checked by its row count only) must match in rows.
    for index in answers.indices.dropFirst() where answers[index].rows != answers[0].rows
        || (answers[index].digestIsFull && answers[index].digest != answers[0].digest) {
        throw BenchmarkFailure.disagreement(
            caseName: caseName, first: names[0], firstDigest: answers[0].digest.description, firstRows: answers[0].digest.count,
            second: names[index], secondDigest: answers[index].digest.description, secondRows: answers[index].digest.count)
    }
}
