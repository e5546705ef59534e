import Generation
@testable import Workloads
import XCTest

/// The ratio to the baseline from paired rounds: known samples, ties, one round, missing rounds,
/// and the verdicts' wording.
final class RatioIntervalTests: XCTestCase {
    func testKnownSamplesGiveTheOrderStatisticIntervalOfTheRoundRatios() throws {
        // Ratios 1.00, 1.10, …, 1.90 in shuffled rounds; 10 pairs: rank 2 (coverage 1 − 2·11/1024).
        let baseline: [UInt64] = Array(repeating: 1_000, count: 10)
        let measured: [UInt64] = [1_500, 1_000, 1_900, 1_200, 1_700, 1_100, 1_300, 1_800, 1_400, 1_600]
        let ratio = try XCTUnwrap(RatioInterval(measured: measured, baseline: baseline))
        XCTAssertEqual(ratio.ratio, 1.45, accuracy: 1e-12)
        XCTAssertEqual(ratio.interval.lowerBound, 1.1, accuracy: 1e-12)
        XCTAssertEqual(ratio.interval.upperBound, 1.8, accuracy: 1e-12)
        XCTAssertEqual(ratio.coverage, 1 - 2 * 11.0 / 1024, accuracy: 1e-12)
        XCTAssertEqual(ratio.rounds, 10)
        guard case let .slower(atLeast) = ratio.verdict else { return XCTFail("\(ratio.verdict)") }
        XCTAssertEqual(atLeast, 0.1, accuracy: 1e-12)
        XCTAssertEqual(ratio.verdictText, "slower by at least 10 %")
    }

    func testPairingCancelsAStepThatSlowsBothStrategies() throws {
        // The host slows every strategy by 40 % from round 6: the medians straddle two levels, the
        // round ratios stay at 0.8.
        let baseline: [UInt64] = (0 ..< 12).map { $0 < 6 ? 1_000 : 1_400 }
        let measured = baseline.map { $0 * 4 / 5 }
        let ratio = try XCTUnwrap(RatioInterval(measured: measured, baseline: baseline))
        XCTAssertEqual(ratio.ratio, 0.8, accuracy: 1e-12)
        XCTAssertEqual(ratio.interval.upperBound - ratio.interval.lowerBound, 0, accuracy: 1e-12)
        XCTAssertEqual(ratio.verdictText, "faster by at least 20 %")
        // Each median's own interval spans the step.
        XCTAssertGreaterThan(try XCTUnwrap(StoppingRule.relativeHalfWidth(baseline)), 0.15)
    }

    func testTiesAreEqualOrderStatistics() throws {
        // Every round the same ratio, 1: a point interval holding 1, precise: no clear difference.
        let tied = try XCTUnwrap(RatioInterval(measured: Array(repeating: 500, count: 8), baseline: Array(repeating: 500, count: 8)))
        XCTAssertEqual(tied.interval, 1 ... 1)
        XCTAssertEqual(tied.verdict, .noClearDifference(within: 0))
        XCTAssertEqual(tied.verdictText, "no clear difference (within 0 %)")
        XCTAssertFalse(tied.isUncertain)
        // Ties at the interval's ends: ranks count the tied values one by one.
        let ratios: [Double] = [0.9, 0.9, 0.9, 1.0, 1.0, 1.0, 1.0, 1.2, 1.2, 1.2]
        let ends = try XCTUnwrap(RatioInterval(ratios: ratios))
        XCTAssertEqual(ends.ratio, 1.0)
        XCTAssertEqual(ends.interval, 0.9 ... 1.2)
        XCTAssertEqual(ends.verdict, .uncertain, "holds 1, half-width 15 %: too uncertain to call")
        XCTAssertEqual(ends.verdictText, "too uncertain to call")
    }

    func testOneRoundHasARatioAndNoInterval() throws {
        let one = try XCTUnwrap(RatioInterval(measured: [3_000], baseline: [1_000]))
        XCTAssertEqual(one.ratio, 3)
        XCTAssertEqual(one.interval, 3 ... 3)
        XCTAssertEqual(one.coverage, 0)
        XCTAssertFalse(one.hasInterval)
        XCTAssertNil(one.relativeHalfWidth)
        XCTAssertTrue(one.isUncertain, "one round cannot call even a 3× difference")
        // Five rounds: the range covers 1 − 2/32 < 95 %, still uncertain.
        let five = try XCTUnwrap(RatioInterval(measured: Array(repeating: 3_000, count: 5), baseline: Array(repeating: 1_000, count: 5)))
        XCTAssertEqual(five.coverage, 1 - 2.0 / 32, accuracy: 1e-12)
        XCTAssertTrue(five.isUncertain)
        // Six: 95 % reached, and a clear verdict.
        let six = try XCTUnwrap(RatioInterval(measured: Array(repeating: 3_000, count: 6), baseline: Array(repeating: 1_000, count: 6)))
        XCTAssertEqual(six.verdictText, "slower: at least 3.0× as long")
    }

    func testRoundsOneStrategyMissedAreLeftOut() throws {
        // Round 2 lacks the strategy, round 4 the baseline: four pairs remain, their ratios 2.
        let measured: [Double?] = [200, 220, nil, 260, 300, 240]
        let baseline: [Double?] = [100, 110, 90, 130, nil, 120]
        let ratio = try XCTUnwrap(RatioInterval(measured: measured, baseline: baseline))
        XCTAssertEqual(ratio.rounds, 4)
        XCTAssertEqual(ratio.ratio, 2)
        XCTAssertEqual(ratio.interval, 2 ... 2)
        // Pairing by round, not by position among the strategy's own samples: dropping round 2's
        // baseline sample instead of leaving it out would pair 260 with 90.
        XCTAssertNil(RatioInterval(measured: [nil, 1], baseline: [1, nil]), "no common round, no ratio")
        XCTAssertNil(RatioInterval(measured: [UInt64](), baseline: []))
        XCTAssertNil(RatioInterval(measured: [5], baseline: [0]), "a zero baseline has no ratio")
    }

    func testVerdictWording() {
        XCTAssertEqual(RatioInterval.text(.faster(atLeast: 0.123)), "faster by at least 12 %")
        XCTAssertEqual(RatioInterval.text(.faster(atLeast: 0.004)), "faster by at least 0.4 %")
        XCTAssertEqual(RatioInterval.text(.slower(atLeast: 0.00033)), "slower by at least 0.033 %", "small, yet clear: the interval excludes 1")
        XCTAssertEqual(RatioInterval.text(.slower(atLeast: 0.49)), "slower by at least 49 %")
        XCTAssertEqual(RatioInterval.text(.slower(atLeast: 0.5)), "slower: at least 1.5× as long")
        XCTAssertEqual(RatioInterval.text(.slower(atLeast: 1.6)), "slower: at least 2.6× as long")
        XCTAssertEqual(RatioInterval.text(.noClearDifference(within: 0.021)), "no clear difference (within 2 %)")
        XCTAssertEqual(RatioInterval.text(.uncertain), "too uncertain to call")
        // The interval decides, not the point: a ratio of 1.08 whose interval holds 1 is no call.
        let straddling = RatioInterval(ratio: 1.08, interval: 0.99 ... 1.2, coverage: 0.96, rounds: 12)
        XCTAssertEqual(straddling.verdict, .uncertain)
        let narrow = RatioInterval(ratio: 1.01, interval: 0.99 ... 1.03, coverage: 0.96, rounds: 12)
        XCTAssertEqual(narrow.verdictText, "no clear difference (within 3 %)")
        let clear = RatioInterval(ratio: 0.7, interval: 0.5 ... 0.97, coverage: 0.96, rounds: 12)
        XCTAssertEqual(clear.verdictText, "faster by at least 3 %", "a wide interval below 1 is still a call")
    }
}
