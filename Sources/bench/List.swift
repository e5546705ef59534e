import ArgumentParser
import Strategies
import Workloads

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lists the strategies and workloads, one line each.")

    func run() {
        print("Strategies (the first is the baseline of every ratio):")
        let strategyWidth = Strategies.names.map(\.count).max() ?? 0
        for type in Strategies.all {
            print("  " + type.name.padding(toLength: strategyWidth, withPad: " ", startingAt: 0) + "  " + type.summary)
        }
        print("\nWorkloads:")
        let workloadWidth = Workload.allCases.map(\.rawValue.count).max() ?? 0
        for workload in Workload.allCases {
            print("  " + workload.rawValue.padding(toLength: workloadWidth, withPad: " ", startingAt: 0) + "  " + workload.summary)
        }
    }
}
