import ArgumentParser
import Hierarchies
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
        print("\nPresets (--preset; the same five strategies, derived from each description):")
        let presetWidth = HierarchyPresets.names.map(\.count).max() ?? 0
        print("  " + HierarchyPresets.publications.padding(toLength: presetWidth, withPad: " ", startingAt: 0)
            + "  the seeds' publication model and the workloads above (default)")
        for preset in HierarchyPresets.all {
            print("  " + preset.name.padding(toLength: presetWidth, withPad: " ", startingAt: 0) + "  " + (preset.summary ?? ""))
        }
        print("\nWorkloads of a preset, a --hierarchy file or a sweep:")
        let describedWidth = DescribedWorkload.allCases.map(\.rawValue.count).max() ?? 0
        for workload in DescribedWorkload.allCases {
            print("  " + workload.rawValue.padding(toLength: describedWidth, withPad: " ", startingAt: 0) + "  " + workload.summary)
        }
    }
}
