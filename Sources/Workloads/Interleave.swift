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
    /// The index of the first timed round of each block (`[0]`: one block).
    package var blockStarts: [Int] = [0]
    /// Each strategy's warm-ups in the first block: the workload's count, or fewer when its
    /// warm-ups reached `warmupTime` sooner.
    package var warmups: [Int]
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
///
/// With `blocks` above 1 (the precision rule, a time budget), the timed rounds come in blocks: the first runs
/// under `rule` with a `blocks`-th of its budget and minimum (`StoppingRule.firstOf`), each later
/// one as many rounds as the first ran, after `onBlock` (the runner reopens the stores) and the
/// warm-ups again, its loops sized afresh; `RatioInterval(measured:baseline:blockStarts:)` reads
/// the blocks' spread. The loops reported are the first block's.
package func interleaveRounds(
    _ caseName: String, _ names: [String], warmups: Int, rule: StoppingRule, seed: UInt64, baseline: Int? = nil, loopTarget: UInt64? = nil,
    blocks: Int = 1, onBlock: (_ block: Int) throws -> Void = { _ in },
    onEvent: (RunEvent) throws -> Void,
    _ repetition: (_ strategy: Int, _ repetition: Int, _ loops: Int) throws -> Sample
) throws -> Rounds {
    try onEvent(.measuring(caseName: caseName, strategies: names, warmups: warmups, rule: rule))
    var kept = Kept(count: names.count)
    var loops = Array(repeating: 1, count: names.count)
    var firstLoops: [Int]?
    var warming = Warming(count: names.count)
    var timedStart: UInt64 = 0
    // Every round of the case, warm-ups included (it seeds the round's order), and the warm-ups
    // left in the current block.
    var (round, warmupsLeft) = (0, warmups)
    var schedule = BlockSchedule(count: blocks, firstRule: blocks > 1 ? rule.firstOf(blocks: blocks) : rule)
    var stop = StoppingRule.Decision.another
    rounds: while true {
        let done = kept.timed.map(\.count).min() ?? 0
        if warmupsLeft == 0 {
            if done == schedule.starts[schedule.starts.count - 1] {
                // A block's first timed round: its loops sized from its own warm-ups.
                if let loopTarget, warmups > 0 { loops = warming.fastest.map { loopCount(fastest: $0, target: loopTarget) } }
                if schedule.starts.count == 1 { timedStart = DispatchTime.now().uptimeNanoseconds }
            }
            let (timed, elapsed) = (kept.timed, Double(DispatchTime.now().uptimeNanoseconds - timedStart) / 1e9)
            switch schedule.next(done: done, decide: { $0.decide(timed, elapsed: elapsed, baseline: baseline) }, stop: &stop) {
            case .stop: break rounds
            case .round: break
            case .block:
                try onBlock(schedule.starts.count - 1)
                // Its warm-ups are single executions again, and size its loops afresh.
                warmupsLeft = warming.startBlock(loops: loops) ? warmups : 0
                loops = Array(repeating: 1, count: names.count)
                continue rounds
            }
        }
        let warmingUp = warmupsLeft > 0
        for (position, index) in roundOrder(strategies: names.count, seed: seed, caseName: caseName, round: round).enumerated() {
            if warmingUp, warming.isWarm(index) { continue }
            try onEvent(.repetition(caseName: caseName, strategy: names[index], round: round + 1, rounds: rule.fixedRounds.map { $0 + warmups }))
            // One repetition at a time: SQLite's memory high-water mark, reset before it and read
            // after it (outside its timed region), is this strategy's.
            _ = Database.memoryHighWater(reset: true)
            let sample = try repetition(index, round, loops[index])
            guard kept.keep(sample, of: index, at: warmingUp ? nil : position) else {
                throw BenchmarkFailure.unstableAnswer(strategy: names[index], caseName: caseName)
            }
            if warmingUp { warming.record(sample.nanoseconds, of: index) }
        }
        if !warmingUp, firstLoops == nil { firstLoops = loops }
        if round == 0 { try checkAgreement(caseName, names, kept.answers.compactMap { $0 }) }
        if warmingUp { warmupsLeft = warming.endRound(left: warmupsLeft) }
        round += 1
    }
    // Every strategy ran round 0, so each has an answer.
    return Rounds(timed: kept.timed, positions: kept.positions, answers: kept.answers.compactMap { $0 }, stop: stop, loops: firstLoops ?? loops,
                  work: kept.work, sqliteMemory: kept.sqliteMemory, blockStarts: schedule.starts, warmups: warming.firstBlock)
}

/// What a case's repetitions leave: each strategy's timed samples and their places, its fullest
/// answer, and the work and memory of its first timed repetition.
private struct Kept {
    var timed: [[UInt64]], positions: [[Int]], answers: [Sample?], work: [WorkCounts?], sqliteMemory: [Int64?]

    init(count: Int) {
        (timed, positions) = (Array(repeating: [], count: count), Array(repeating: [], count: count))
        (answers, work, sqliteMemory) = (Array(repeating: nil, count: count), Array(repeating: nil, count: count), Array(repeating: nil, count: count))
    }

    /// Keeps strategy `index`'s sample (timed at `position` of its round; nil: a warm-up); false
    /// when its answer differs from the strategy's earlier ones.
    mutating func keep(_ sample: Sample, of index: Int, at position: Int?) -> Bool {
        if position != nil, timed[index].isEmpty { (sqliteMemory[index], work[index]) = (Database.memoryHighWater(), sample.work) }
        if let answer = answers[index], answer.rows != sample.rows
            || (answer.digestIsFull == sample.digestIsFull && answer.digest != sample.digest) {
            return false
        }
        // Keep the fullest answer: later insert repetitions digest their counts only.
        if answers[index]?.digestIsFull != true || sample.digestIsFull { answers[index] = sample }
        if let position {
            timed[index].append(sample.nanoseconds)
            positions[index].append(position)
        }
        return true
    }
}

/// The executions of one looped sample: as many as fill `target` at the fastest warm-up's pace,
/// 1 to `maximumLoops`.
private func loopCount(fastest: UInt64, target: UInt64) -> Int {
    Int(min(UInt64(maximumLoops), max(1, target / max(fastest, 1))))
}

/// Where a case's timed rounds stand among its blocks: the first block runs until its rule
/// stops it, each later one as many rounds as the first ran.
private struct BlockSchedule {
    let count: Int
    let firstRule: StoppingRule
    /// The first timed round of each block begun.
    var starts = [0]
    /// The rounds the first block ran, once it has stopped.
    var rounds: Int?

    enum Step { case round, block, stop }

    /// Before a timed round, `done` rounds run: another round, a new block, or the end. `stop`
    /// is the first block's decision (`decide` asks it of the first rule).
    mutating func next(done: Int, decide: (StoppingRule) -> StoppingRule.Decision, stop: inout StoppingRule.Decision) -> Step {
        if let rounds {
            guard done - starts[starts.count - 1] >= rounds else { return .round }
        } else {
            stop = decide(firstRule)
            guard stop != .another else { return .round }
            rounds = done
        }
        guard starts.count < count, done > 0 else { return .stop }
        starts.append(done)
        return .block
    }
}

/// Where a case's warm-ups stand: each strategy's warm-up time and fastest warm-up in the
/// current block, and which strategies the later blocks warm up again.
private struct Warming {
    var time: [UInt64]
    var fastest: [UInt64]
    /// Per strategy, whether a later block warms it up again (decided when the first block ends).
    var again: [Bool]?
    /// Each strategy's warm-ups in the first block.
    var firstBlock: [Int]

    init(count: Int) {
        (time, fastest, firstBlock) = (Array(repeating: 0, count: count), Array(repeating: .max, count: count), Array(repeating: 0, count: count))
    }

    /// A strategy whose warm-ups in this block add up to `warmupTime` (or that this block does not
    /// warm up again) skips the block's remaining warm-up rounds.
    func isWarm(_ index: Int) -> Bool { time[index] >= warmupTime }

    mutating func record(_ nanoseconds: UInt64, of index: Int) {
        (time[index], fastest[index]) = (time[index] + nanoseconds, min(fastest[index], nanoseconds))
        if again == nil { firstBlock[index] += 1 }
    }

    /// After a warm-up round, the warm-up rounds left of `left`: none once every strategy is warm.
    func endRound(left: Int) -> Int { time.allSatisfy { $0 >= warmupTime } ? 0 : left - 1 }

    /// A later block begins: whether any strategy warms up again (`rewarms`, from the first
    /// block's fastest warm-ups and `loops`); those that do not count as warm.
    mutating func startBlock(loops: [Int]) -> Bool {
        let again = again ?? zip(fastest, loops).map { rewarms(fastest: $0, loops: $1) }
        self.again = again
        (time, fastest) = (again.map { $0 ? 0 : warmupTime }, Array(repeating: .max, count: again.count))
        return again.contains(true)
    }
}

/// Whether a strategy warms up again in a later block, from its first block's fastest warm-up and
/// loops: not when it ran single executions of at least `rewarmLimit`. Such a read has no loop
/// count to size, and a warm-up leaves it nothing the timed rounds keep (its rows pass through
/// SQLite's page cache, 2,000 KiB, about 500 pages, and are read again from the file system's
/// cache in every round), so the reopened store's first round is timed as any other, and the block
/// spares the time a warm-up takes (`fetch-polymorphic`: about a second for all strategies).
func rewarms(fastest: UInt64, loops: Int) -> Bool {
    !(loops == 1 && fastest != .max && fastest >= rewarmLimit)
}

/// The shortest single execution that a later block does not warm up again (`rewarms`): 50 ms.
package let rewarmLimit: UInt64 = 50_000_000

/// The warm-up time after which a strategy is warm: its warm-ups in a block end, before the
/// workload's count, once they add up to this (50 ms), and the block's once every strategy's
/// have. Warm-ups fill SQLite's page cache and size the loops; a read that has run for 50 ms has
/// done both, and `fetch-by-relationship`'s five warm-ups (for its microsecond `rare` case) cost
/// its `popular` case, tens of milliseconds an execution, more time than its timed rounds.
package let warmupTime: UInt64 = 50_000_000

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
