import ArgumentParser
import Models
import Strategies
import Workloads

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the strategies, workloads and preset models, one line each.")

    func run() {
        print("Strategies (the first is the baseline of every ratio):")
        let strategyWidth = Strategies.names.map(\.count).max() ?? 0
        for type in Strategies.all {
            print("  " + type.name.padding(toLength: strategyWidth, withPad: " ", startingAt: 0) + "  " + type.summary)
        }
        print("\nWorkloads (each runs on the models that have what it needs; `bench model` says which):")
        let workloadWidth = Workloads.names.map(\.count).max() ?? 0
        for workload in Workloads.all {
            let summary = workload.inDefaultRun ? workload.summary : workload.summary + " (not in the default run)"
            print("  " + workload.name.padding(toLength: workloadWidth, withPad: " ", startingAt: 0) + "  " + summary)
        }
        print("\nPresets (--preset; the default is publications):")
        let presetWidth = ModelPresets.names.map(\.count).max() ?? 0
        for preset in ModelPresets.all {
            print("  " + preset.name.padding(toLength: presetWidth, withPad: " ", startingAt: 0) + "  " + (preset.summary ?? ""))
        }
    }
}
