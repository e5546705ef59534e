import ArgumentParser
import Foundation
import Generation
import Models
import Reporting
import SQLite
import StoreFiles
import Strategies
import Workloads

struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Varies one parameter of a generated model and measures every strategy at each value; writes one long-format CSV.",
        discussion: """
            The model is an abstract root with a unique uid, a title (with a fetch index), a date and a rank, over \
            --sub-entities concrete leaf entities, each with --attributes attributes of its own (types cycling string, \
            integer, double, date, boolean), --depth levels of inheritance (abstract middle entities with one attribute \
            each split the leaves in two at every level), --scale objects in all, shared out with weights 1/(i+1)^skew. \
            --parameter picks the one to vary; each row of the CSV carries sweep_parameter and sweep_value. Plot it with plot.gnuplot.
            Example: bench sweep --parameter attributes --values 1,2,4,8,16,32
            """
    )

    enum Parameter: String, CaseIterable, ExpressibleByArgument {
        case scale
        case subEntities = "sub-entities"
        case attributes
        case skew
        case depth

        var defaultValues: [Double] {
            switch self {
            case .scale: [1_000, 10_000, 100_000, 1_000_000]
            case .subEntities: [2, 4, 8, 16, 32, 64]
            case .attributes: [1, 2, 4, 8, 16, 32]
            case .skew: [0, 0.5, 1, 1.5, 2]
            case .depth: [1, 2, 3, 4, 5, 6]
            }
        }

        /// The values this parameter accepts, and whether they must be whole numbers.
        var range: ClosedRange<Double> {
            switch self {
            case .scale: 1 ... Double(DatasetOptions.maximumScale)
            case .subEntities: 2 ... Double(Sweep.maximumLeaves)
            case .attributes: 1 ... Double(Sweep.maximumAttributes)
            case .skew: 0 ... 4
            case .depth: 1 ... 6
            }
        }
    }

    @Option(help: "The parameter to vary: \(Parameter.allCases.map(\.rawValue).joined(separator: ", ")).")
    var parameter: Parameter

    @Option(help: "Comma-separated values of the parameter (default: scale 1000,10000,100000,1000000; sub-entities 2,4,8,16,32,64; attributes 1,2,4,8,16,32; skew 0,0.5,1,1.5,2).")
    var values: String?

    @Option(help: "Objects in all, when scale is not the parameter (1 to \(DatasetOptions.maximumScale)).")
    var scale: Int = 20_000

    @Option(name: .customLong("sub-entities"), help: "Sub-entities, when they are not the parameter (2 to \(Sweep.maximumLeaves)).")
    var subEntities: Int = 4

    @Option(help: "Attributes of each sub-entity, when they are not the parameter (1 to \(Sweep.maximumAttributes)).")
    var attributes: Int = 4

    @Option(help: "Levels of inheritance below the root, when they are not the parameter (1 to 6; the leaves stay --sub-entities).")
    var depth: Int = 1

    @Option(help: "Skew of the type mix, when it is not the parameter (0: every type equally common; 0 to 4).")
    var skew: Double = 0

    @OptionGroup var generator: GeneratorOptions

    @Option(help: "Where the objects come from: generated only (a sweep makes each point's objects; a store's own are one dataset, for bench run --data store).")
    var data: DatasetOptions.DataSource = .generated

    @OptionGroup var strategies: StrategyOptions

    @Option(help: "Comma-separated workloads (default: all of a generated hierarchy's, or none with --fetch). See `bench list`.")
    var workloads: String?

    @Option(name: .customLong("fetch"), help: ArgumentHelp("A fetch of yours, measured at every point as `bench run --fetch` measures it: the generated model's entities are Item "
        + "(uid, title, createdate, rank) and its leaves Kind1, Kind2, …: 'Item WHERE title BEGINSWITH %@ SORT BY createdate DESC, uid LIMIT 20'. Repeatable.", valueName: "fetch"))
    var fetches: [String] = []

    @OptionGroup var timing: TimingOptions

    @OptionGroup var output: ResultsOutputOptions

    @OptionGroup var storeFolder: StoreFolderOptions

    func validate() throws {
        try output.checkForce()
        if data == .store {
            throw ValidationError("--data store does not apply to bench sweep: a sweep generates each point's objects; measure a store's own objects with bench run --data store --model App.sqlite")
        }
        _ = try points()
        _ = try selectedWorkloads()
        for value in try points() {
            do { _ = try FetchOptions.workloads(fetches, try Model(hierarchy(at: value))) }
            catch { throw ValidationError("\(error) (at \(parameter.rawValue) = \(format(value)); a fetch must fit every point's model)") }
        }
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
        try check(subEntities, in: 2 ... Sweep.maximumLeaves, "--sub-entities")
        try check(attributes, in: 1 ... Sweep.maximumAttributes, "--attributes")
        try check(depth, in: 1 ... 6, "--depth")
        for value in list { try Self.checkSQLiteLimits(hierarchy(at: value)) }
        guard (0 ... 4).contains(skew) else { throw ValidationError("--skew must be from 0 to 4; got \(format(skew))") }
        return list
    }

    private func check(_ value: Int, in range: ClosedRange<Int>, _ name: String) throws {
        guard range.contains(value) else { throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound); got \(value)") }
    }

    /// The generated hierarchy at one value of the parameter.
    static let maximumLeaves = 250
    static let maximumAttributes = 64

    func hierarchy(at value: Double) -> ModelDescription {
        SyntheticModel.make(
            leaves: parameter == .subEntities ? Int(value) : subEntities,
            attributes: parameter == .attributes ? Int(value) : attributes,
            skew: parameter == .skew ? value : skew,
            rows: parameter == .scale ? Int(value) : scale,
            depth: parameter == .depth ? Int(value) : depth)
    }

    /// A model every strategy can store: the model's own limits, and each strategy's (SQLite's columns, joins, arguments).
    static func checkSQLiteLimits(_ description: ModelDescription) throws {
        do {
            let model = try Model(description)
            for type in Strategies.all { _ = try type.init(model: model) }
        } catch {
            throw ValidationError("the generated model cannot be stored: \(error); sweep smaller values")
        }
    }

    /// The workloads that apply to at least one point of the sweep (each point runs those that apply to it).
    private func selectedWorkloads() throws -> [Workload] {
        let models = try points().map { try Model(hierarchy(at: $0)) }
        guard let workloads else { return fetches.isEmpty ? Workloads.all.filter { workload in models.contains { workload.applies(to: $0) } } : [] }
        let names: [String]
        do { names = try NameList.parse(workloads, valid: Workloads.names, what: "workload") }
        catch { throw ValidationError("\(error)") }
        return try names.compactMap(Workloads.named).map { workload in
            guard models.contains(where: { workload.applies(to: $0) }) else {
                throw ValidationError("workload \(workload.name) applies to no point of this sweep: \(workload.needs(models[0]) ?? "it needs what no point has"); leave it out")
            }
            return workload
        }
    }

    func run() throws {
        let started = Date()
        let points = try points()
        let workloads = try selectedWorkloads()
        let layouts = try strategies.layouts()
        // One point's stores exist at a time: the largest decides where they all go.
        // Each point's model and workload inputs (a pass over its main hierarchy) are made once: the
        // cases are counted on them, and the point's runner uses them.
        let models = try points.map { try Model(hierarchy(at: $0)) }
        let largest = models.map(\.estimatedStoreBytes).max() ?? 0
        storeFolder.removeLeftovers(quiet: output.quiet)
        let stores = storeFolder.forTiming(storeBytes: largest, strategies: layouts.count)
        let folder = PrivateStoreFolder(command: "sweep", in: stores.url)
        // Each point runs the workloads that apply to it, then the fetches read against its own
        // model (its entities' numbers differ).
        let pointWorkloads = try models.map { workloads + (try FetchOptions.workloads(fetches, $0)) }
        let plan = timing.plan(strategies: layouts, workloads: pointWorkloads.first ?? workloads, seed: generator.seed, batchSize: generator.batch, temporaryParent: folder.url)
        let inputs = models.map { WorkloadInputs(dataset: ObjectGenerator($0, seed: plan.seed)) }
        let cases = zip(pointWorkloads, inputs).reduce(0) { $0 + Workload.caseCount($1.0, on: $1.1) }
        try Execution(plan: plan, started: started, cases: cases, output: output, stores: stores,
                      privateFolder: folder).run { onEvent in
            {
                var results: [WorkloadResult] = []
                for ((value, inputs), workloads) in zip(zip(points, inputs), pointWorkloads) {
                    var pointPlan = plan
                    pointPlan.workloads = workloads
                    let runner = Runner(plan: pointPlan, inputs: inputs, sweep: (parameter.rawValue, format(value)), onEvent: onEvent)
                    results += try runner.run()
                }
                return results
            }
        }
    }
}

/// 8, 0.5: whole numbers without a fraction.
private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}
