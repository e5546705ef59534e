@testable import Workloads
import XCTest

final class TimeShareTests: XCTestCase {
    /// Each case gets the time left in proportion to its weight among the cases still to come,
    /// per strategy; time a case leaves unspent goes to the cases after it.
    func testCasesShareTheTimeLeftByWeight() {
        var share = TimeShare(seconds: 100, weights: [1, 3, 6], start: 0)
        // At the start: 100 s × 1/10, for 5 strategies.
        XCTAssertEqual(share.next(weight: 1, strategies: 5, now: 0), 2, accuracy: 1e-9)
        // 10 s later (the first case took its 10 s): 90 s × 3/9 over 5 strategies.
        XCTAssertEqual(share.next(weight: 3, strategies: 5, now: 10_000_000_000), 6, accuracy: 1e-9)
        // The second was precise after 5 s of its 30: the last gets all of the 85 s left.
        XCTAssertEqual(share.next(weight: 6, strategies: 5, now: 15_000_000_000), 17, accuracy: 1e-9)
        XCTAssertEqual(share.remainingWeight, 0)
    }

    /// Past the run's end, a case still gets the floor (it runs its minimum rounds).
    func testALateCaseGetsTheFloor() {
        var share = TimeShare(seconds: 10, weights: [1, 1], start: 0)
        XCTAssertEqual(share.next(weight: 1, strategies: 2, now: 30_000_000_000), TimeShare.floor)
        XCTAssertEqual(share.next(weight: 1, strategies: 2, now: 40_000_000_000), TimeShare.floor)
    }

    /// `bench run`'s default plan shares its run time; --case-time, --repetitions and --time-budget do not.
    func testOnlyTheDefaultRuleSharesARunTime() {
        XCTAssertTrue(RunPlan(runTime: 80).sharesRunTime)
        XCTAssertFalse(RunPlan().sharesRunTime, "no run time: each workload's own budget")
        XCTAssertFalse(RunPlan(caseTime: 5, runTime: 80).sharesRunTime)
        XCTAssertFalse(RunPlan(repetitions: 3, runTime: 80).sharesRunTime)
        XCTAssertFalse(RunPlan(timeBudget: 1, runTime: 80).sharesRunTime)
        let fetch = Workloads.named("fetch-polymorphic")!
        guard case let .precision(_, budget, _, _) = RunPlan(runTime: 80).stoppingRule(for: fetch, share: 2.5).mode else { return XCTFail() }
        XCTAssertEqual(budget, 2.5, "the share is the case's budget")
        guard case let .precision(_, own, _, _) = RunPlan(caseTime: 7).stoppingRule(for: fetch, share: 2.5).mode else { return XCTFail() }
        XCTAssertEqual(own, 7, "--case-time wins")
    }
}
