import Generation
import Models
import Strategies
@testable import Workloads
import XCTest

/// `bench run` makes the workload inputs once, counts its cases on them and hands them to the
/// runner, which must then measure exactly what a runner making its own would.
final class RunnerInputsTests: XCTestCase {
    func testARunnerOnGivenInputsMeasuresWhatOneMakingItsOwnDoes() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 300))
        let plan = RunPlan(strategies: [SingleTable.self, TablePerEntity.self], seed: 9, batchSize: 50, repetitions: 1)
        let inputs = WorkloadInputs(dataset: ObjectGenerator(model, seed: plan.seed))
        let given = Runner(plan: plan, inputs: inputs)
        XCTAssertEqual(given.inputs.lookupIDs, inputs.lookupIDs)
        XCTAssertEqual(given.inputs.deleteIDs, inputs.deleteIDs)
        XCTAssertEqual(given.dataset.seed, plan.seed)
        let shared = try given.run()
        let own = try Runner(plan: plan, model: model).run()
        func answers(_ results: [WorkloadResult]) -> [String] {
            results.map { "\($0.strategy) \($0.caseName) \($0.rows) \($0.digest.value) \($0.setting.scale) \($0.work.map { "\($0.vmSteps)" } ?? "-")" }
        }
        XCTAssertEqual(answers(shared), answers(own))
        XCTAssertEqual(shared.count, plan.strategies.count * Workload.caseCount(plan.workloads, on: inputs), "the cases counted on the inputs are the cases run")
    }
}
