/// Runs warm-ups then timed repetitions of one case, round by round across strategies, and
/// checks that every answer equals the first strategy's and never changes.
///
/// Repetition *r* of every strategy runs before repetition *r + 1* of any, starting each round
/// with the next strategy in turn, so that a slow phase of a shared machine falls on all
/// strategies alike. `fixed` is the number of timed rounds, or `nil` under `plan`'s time budget.
package func interleaveRounds(
    _ caseName: String, _ names: [String], warmups: Int, fixed: Int?, plan: RunPlan,
    onEvent: (RunEvent) throws -> Void,
    _ repetition: (_ strategy: Int, _ repetition: Int) throws -> Sample
) throws -> (timed: [[UInt64]], answers: [Sample]) {
    try onEvent(.measuring(caseName: caseName, strategies: names, warmups: warmups, repetitions: fixed))
    var timed = Array(repeating: [UInt64](), count: names.count)
    var answers: [Sample?] = Array(repeating: nil, count: names.count)
    var spent: UInt64 = 0
    var round = 0
    while round < warmups || plan.wantsAnotherRound(fixed: fixed, rounds: round - warmups, spent: spent, strategies: names.count) {
        for offset in names.indices {
            let index = (round + offset) % names.count
            try onEvent(.repetition(caseName: caseName, strategy: names[index], round: round + 1, rounds: fixed.map { $0 + warmups }))
            let sample = try repetition(index, round)
            if let answer = answers[index], answer.rows != sample.rows
                || (answer.digestIsFull == sample.digestIsFull && answer.digest != sample.digest) {
                throw BenchmarkFailure.unstableAnswer(strategy: names[index], caseName: caseName)
            }
            // Keep the fullest answer: later insert repetitions digest their counts only.
            if answers[index]?.digestIsFull != true || sample.digestIsFull { answers[index] = sample }
            if round >= warmups {
                timed[index].append(sample.nanoseconds)
                spent += sample.nanoseconds
            }
        }
        if round == 0 { try checkAgreement(caseName, names, answers.map { $0! }) }
        round += 1
    }
    return (timed, answers.map { $0! })
}

private func checkAgreement(_ caseName: String, _ names: [String], _ answers: [Sample]) throws {
    // An answer without a full digest (the raw reference's fetch builds no objects) must match in rows.
    for index in answers.indices.dropFirst() where answers[index].rows != answers[0].rows
        || (answers[index].digestIsFull && answers[index].digest != answers[0].digest) {
        throw BenchmarkFailure.disagreement(
            caseName: caseName, first: names[0], firstDigest: answers[0].digest.description, firstRows: answers[0].digest.count,
            second: names[index], secondDigest: answers[index].digest.description, secondRows: answers[index].digest.count)
    }
}
