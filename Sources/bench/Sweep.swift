import ArgumentParser
import Dataset
import Foundation
import Hierarchies
import Reporting
import Strategies
import Workloads

struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Varies one parameter of a generated hierarchy and measures every strategy at each value; writes one long-format CSV.",
        discussion: """
            The hierarchy is an abstract base with three shared attributes and --sub-entities sub-entities, each \
            with --attributes attributes of its own (types cycling string, integer, double, date, boolean), \
            --scale objects in all, shared out with weights 1/(i+1)^skew. --parameter picks the one to vary; \
            each row of the CSV carries sweep_parameter and sweep_value. Plot it with plot.gnuplot.
            Example: bench sweep --parameter attributes --values 1,2,4,8,16,32
            """
    )

    enum Parameter: String, CaseIterable, ExpressibleByArgument {
        case scale
        case subEntities = "sub-entities"
        case attributes
        case skew

        var defaultValues: [Double] {
            switch self {
            case .scale: [1_000, 10_000, 100_000, 1_000_000]
            case .subEntities: [2, 4, 8, 16, 32, 64]
            case .attributes: [1, 2, 4, 8, 16, 32]
            case .skew: [0, 0.5, 1, 1.5, 2]
            }
        }

        /// The values this parameter accepts, and whether they must be whole numbers.
        var range: ClosedRange<Double> {
            switch self {
            case .scale: 1 ... Double(DatasetOptions.maximumScale)
            case .subEntities: 2 ... Double(HierarchyDescription.maximumSubEntities)
            case .attributes: 1 ... Double(HierarchyDescription.maximumAttributes)
            case .skew: 0 ... 4
            }
        }
    }

    @Option(help: "The parameter to vary: \(Parameter.allCases.map(\.rawValue).joined(separator: ", ")).")
    var parameter: Parameter

    @Option(help: "Comma-separated values of the parameter (default: scale 1000,10000,100000,1000000; sub-entities 2,4,8,16,32,64; attributes 1,2,4,8,16,32; skew 0,0.5,1,1.5,2).")
    var values: String?

    @Option(help: "Objects in all, when scale is not the parameter (1 to \(DatasetOptions.maximumScale)).")
    var scale: Int = 20_000

    @Option(name: .customLong("sub-entities"), help: "Sub-entities, when they are not the parameter (2 to \(HierarchyDescription.maximumSubEntities)).")
    var subEntities: Int = 4

    @Option(help: "Attributes of each sub-entity, when they are not the parameter (1 to \(HierarchyDescription.maximumAttributes)).")
    var attributes: Int = 4

    @Option(help: "Skew of the type mix, when it is not the parameter (0: every type equally common; 0 to 4).")
    var skew: Double = 0

    @Option(help: "Seed of the dataset generator.")
    var seed: UInt64 = DatasetConfiguration.defaultSeed

    @Option(help: "Objects per transaction when inserting in bulk and when populating stores (1 to 1000000).")
    var batch: Int = RunPlan.defaultBatchSize

    @OptionGroup var strategies: StrategyOptions

    @Option(help: "Comma-separated workloads (default: all of a generated hierarchy's). See `bench list`.")
    var workloads: String?

    @OptionGroup var timing: TimingOptions

    @OptionGroup var output: ResultsOutputOptions

    func validate() throws {
        _ = try points()
        guard (1 ... 1_000_000).contains(batch) else {
            throw ValidationError("--batch must be between 1 and 1000000 objects per transaction; got \(batch)")
        }
        _ = try selectedWorkloads()
    }

    /// The sweep's values, checked: in range, whole where they must be, none twice.
    func points() throws -> [Double] {
        let list: [Double]
        if let values {
            list = try values.split(separator: ",", omittingEmptySubsequences: false).map { text in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard let value = Double(trimmed), value.isFinite else {
                    throw ValidationError("--values must be numbers separated by commas; '\(trimmed)' is not a number")
                }
                return value
            }
        } else {
            list = parameter.defaultValues
        }
        for value in list {
            guard parameter.range.contains(value), parameter == .skew || value == value.rounded() else {
                let kind = parameter == .skew ? "numbers" : "whole numbers"
                throw ValidationError("--values for \(parameter.rawValue) must be \(kind) from \(format(parameter.range.lowerBound)) to \(format(parameter.range.upperBound)); got \(format(value))")
            }
        }
        guard Set(list).count == list.count else { throw ValidationError("--values lists a value twice") }
        try check(scale, in: 1 ... DatasetOptions.maximumScale, "--scale")
        try check(subEntities, in: 2 ... HierarchyDescription.maximumSubEntities, "--sub-entities")
        try check(attributes, in: 1 ... HierarchyDescription.maximumAttributes, "--attributes")
        guard (0 ... 4).contains(skew) else { throw ValidationError("--skew must be from 0 to 4; got \(format(skew))") }
        return list
    }

    private func check(_ value: Int, in range: ClosedRange<Int>, _ name: String) throws {
        guard range.contains(value) else { throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound); got \(value)") }
    }

    /// The generated hierarchy at one value of the parameter.
    func hierarchy(at value: Double) -> HierarchyDescription {
        HierarchyPresets.synthetic(
            subEntities: parameter == .subEntities ? Int(value) : subEntities,
            attributes: parameter == .attributes ? Int(value) : attributes,
            skew: parameter == .skew ? value : skew,
            rows: parameter == .scale ? Int(value) : scale)
    }

    private func selectedWorkloads() throws -> [DescribedWorkload] {
        let sample = hierarchy(at: try points()[0])
        guard let workloads else { return DescribedWorkload.available(for: sample) }
        do { return try DescribedWorkload.parseList(workloads, for: sample) }
        catch { throw ValidationError("\(error)") }
    }

    func run() throws {
        let started = Date()
        let points = try points()
        let workloads = try selectedWorkloads()
        let names = try strategies.names()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inheritance-bench-sweep-\(getpid())-\(UUID().uuidString.prefix(8))")
        let plan = timing.plan(strategies: names, workloads: [], dataset: DatasetConfiguration(seed: seed, scale: scale), batchSize: batch,
                               includeRaw: false, temporaryParent: folder)
        try Execution(plan: plan, started: started, cases: workloads.count * points.count, output: output).run { onEvent in
            (folder, {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                var results: [WorkloadResult] = []
                for value in points {
                    let runner = DescribedRunner(plan: plan, description: hierarchy(at: value), workloads: workloads,
                                                 sweep: (parameter.rawValue, format(value)), onEvent: onEvent)
                    results += try runner.run()
                }
                return results
            })
        }
    }
}

/// 8, 0.5: whole numbers without a fraction.
private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
