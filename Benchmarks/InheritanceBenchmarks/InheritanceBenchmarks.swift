// The package-benchmark suite: one benchmark per (strategy × workload case) that applies to the
// model, named "<strategy>.<workload>" or "<strategy>.<workload>.<variant>" (e.g.
// `single-table.fetch-page`, `enum-entity.fetch-by-relationship.rare`). Each one runs the main
// package's own workload code through `HarnessCase`; the measured region is exactly what `bench run` times.
//
// Environment:
//   INHERITANCE_BENCH_PRESET objects' model: a preset name (default publications)
//   INHERITANCE_BENCH_SCALE  objects in its hierarchies (default 20000; `bench run` uses the preset's own)
//   INHERITANCE_BENCH_SEED   dataset seed (default 42, as `bench run`)
// Compare baselines only at the same scale and seed: the names do not carry them.

import Benchmark
import Foundation
import Models
import SQLite
import Strategies
import Workloads

let benchmarks: @Sendable () -> Void = {
    let scale = environmentNumber("INHERITANCE_BENCH_SCALE", default: 20_000, in: 1 ... 10_000_000)
    let seed = environmentNumber("INHERITANCE_BENCH_SEED", default: RunPlan.defaultSeed, in: 0 ... UInt64.max)
    let presetName = ProcessInfo.processInfo.environment["INHERITANCE_BENCH_PRESET"] ?? "publications"
    guard let preset = ModelPresets.named(presetName), let model = try? Model(preset.scaled(to: scale)) else {
        fatalError("INHERITANCE_BENCH_PRESET=\(presetName) is not one of \(ModelPresets.names.joined(separator: ", "))")
    }

    for workload in Workloads.applicable(to: model) {
        for variant in HarnessCase.variants(workload, model: model, seed: seed) {
            for strategy in Strategies.all {
                let name = ([strategy.name, workload.name] + (variant.isEmpty ? [] : [variant])).joined(separator: ".")
                // Built in setup (untimed: for a read workload this populates the store), released
                // in teardown, which removes its temporary folder.
                let holder = CaseHolder()
                Benchmark(
                    name,
                    configuration: configuration(for: workload),
                    closure: { benchmark in
                        guard let workloadCase = holder.workloadCase else {
                            return benchmark.error("\(name): setup did not create the workload case")
                        }
                        // Inserts: the fresh store and the objects are prepared before the measured
                        // region; run() marks the region around the strategy calls alone.
                        try workloadCase.prepareRepetition()
                        let rows = try workloadCase.run(
                            startMeasurement: benchmark.startMeasurement,
                            stopMeasurement: benchmark.stopMeasurement
                        )
                        blackHole(rows)
                        // SQLite's own work, counted outside the measured region.
                        if let work = workloadCase.lastWork {
                            for (metric, value) in zip(workMetrics, [work.vmSteps, work.fullScanSteps, work.sorts, work.cacheMisses]) {
                                benchmark.measurement(metric, Int(value))
                            }
                        }
                    },
                    setup: {
                        holder.workloadCase = try HarnessCase(strategy: strategy, workload: workload, variant: variant, model: model, seed: seed)
                    },
                    teardown: {
                        holder.workloadCase = nil
                    }
                )
            }
        }
    }
    layoutBenchmarks()
}

/// The value of an environment variable, or `fallback` when it is unset or empty; stops with a
/// message naming the variable when it is not a number in `range`.
func environmentNumber<N: FixedWidthInteger>(_ name: String, default fallback: N, in range: ClosedRange<N>) -> N {
    guard let text = ProcessInfo.processInfo.environment[name], !text.isEmpty else { return fallback }
    guard let value = N(text), range.contains(value) else {
        fatalError("\(name)=\(text) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
}

/// Keeps a benchmark's workload case from its setup to its teardown.
final class CaseHolder: @unchecked Sendable {
    var workloadCase: HarnessCase?
}

/// SQLite's work counts as custom metrics: they do not depend on the machine, so their
/// thresholds allow no change at all (any change is a change in what the statements do).
let workMetrics: [BenchmarkMetric] = ["vm_steps", "fullscan_steps", "sorts", "cache_misses"].map {
    .custom($0, polarity: .prefersSmaller, useScalingFactor: false)
}

/// Warm-ups as `bench run` has them; inserts stop after the rounds the default rule always runs
/// (`RunPlan.stoppingRule(for:)`'s minimum: `insert-bulk` 1, `insert-single` 6; each one builds a
/// whole store), reads after about a second of iterations. Throughput counts iterations per second
/// in whole numbers, so it is left out for the inserts, which take most of a second each.
func configuration(for workload: Workload) -> Benchmark.Configuration {
    let isInsert = workload.isInsert
    let minimumRounds = RunPlan().stoppingRule(for: workload).minimum
    let metrics: [BenchmarkMetric] = (isInsert ? [.wallClock, .mallocCountTotal] : [.wallClock, .throughput, .mallocCountTotal]) + workMetrics
    // A shared 2-core machine moves timings by tens of percent between runs (p50 may move 25 %);
    // allocation counts hardly move (p25–p75 may move 5 %); SQLite's work counts do not move.
    var thresholds = Dictionary(uniqueKeysWithValues: metrics.map { metric in
        (metric, BenchmarkThresholds(relative: metric == .mallocCountTotal ? BenchmarkThresholds.Relative.default : BenchmarkThresholds.Relative.relaxed))
    })
    for metric in workMetrics { thresholds[metric] = BenchmarkThresholds(absolute: [.p50: 0]) }
    return Benchmark.Configuration(
        metrics: metrics,
        warmupIterations: workload.warmups,
        maxDuration: isInsert ? .seconds(10) : .seconds(1),
        maxIterations: isInsert ? max(1, minimumRounds) : 10_000,
        thresholds: thresholds
    )
}

/// Layout derivation, timed: every strategy's `init(model:)` on wide models (250 leaf
/// entities four levels deep with 7 attributes each; 250 roots of 64 attributes; `AppModel`'s 250
/// entities shaped like a large app's, which should take under 100 ms per strategy), named
/// `layout.<strategy>.<model>`. Derivation must stay linear in the model's size.
let layoutBenchmarks: @Sendable () -> Void = {
    let models: [(String, Model)] = [
        ("250-leaves-depth-4", try! Model(SyntheticModel.make(leaves: 250, attributes: 7, skew: 1, rows: 100_000, depth: 4))),
        ("250-roots-x-64", try! Model(ModelDescription(name: "roots", entities: (1 ... 250).map { number in
            EntityDescription("Root\(number)", rows: 10, attributes: (1 ... 64).map { Attribute("a\($0)", .integer64) })
        }))),
        ("app250", try! Model(AppModel.make())),
    ]
    for (name, model) in models {
        for type in Strategies.all {
            Benchmark("layout.\(type.name).\(name)", configuration: .init(metrics: [.wallClock], maxDuration: .seconds(2), maxIterations: 50)) { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(try type.init(model: model).schemaSQL.count)
                }
            }
        }
    }
}
