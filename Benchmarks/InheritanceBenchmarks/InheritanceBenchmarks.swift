// The package-benchmark suite: one benchmark per (strategy × workload case), named
// "<strategy>.<workload>" or "<strategy>.<workload>.<variant>" (e.g. `single-table.fetch-page`,
// `enum-entity.fetch-by-tag.rare`). Each one runs the main package's own workload code through
// `WorkloadCase`; the measured region is exactly what `bench run` times.
//
// Environment:
//   INHERITANCE_BENCH_SCALE  publications in the dataset (default 20000; `bench run` uses 100000)
//   INHERITANCE_BENCH_SEED   dataset seed (default 42, as `bench run`)
// Compare baselines only at the same scale and seed: the names do not carry them.

import Benchmark
import Dataset
import Foundation
import Strategies
import Workloads

let benchmarks: @Sendable () -> Void = {
    let scale = environmentNumber("INHERITANCE_BENCH_SCALE", default: 20_000, in: 1 ... 10_000_000)
    let seed = environmentNumber("INHERITANCE_BENCH_SEED", default: DatasetConfiguration.defaultSeed, in: 0 ... UInt64.max)
    let dataset = DatasetConfiguration(seed: seed, scale: scale)

    for workload in Workload.allCases {
        for variant in workload.variants {
            for strategy in Strategies.names {
                let name = ([strategy, workload.rawValue] + (variant.isEmpty ? [] : [variant])).joined(separator: ".")
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
                    },
                    setup: {
                        holder.workloadCase = try WorkloadCase(strategy: strategy, workload: workload, variant: variant, dataset: dataset)
                    },
                    teardown: {
                        holder.workloadCase = nil
                    }
                )
            }
        }
    }
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
    var workloadCase: WorkloadCase?
}

/// Warm-ups as `bench run` has them; inserts stop after the runner's repetition count (each one
/// builds a whole store), reads after about a second of iterations. Throughput counts iterations
/// per second in whole numbers, so it is left out for the inserts, which take most of a second each.
func configuration(for workload: Workload) -> Benchmark.Configuration {
    let isInsert = workload.isInsert
    let metrics: [BenchmarkMetric] = isInsert ? [.wallClock, .mallocCountTotal] : [.wallClock, .throughput, .mallocCountTotal]
    // A shared 2-core machine moves timings by tens of percent between runs (p50 may move 25 %);
    // allocation counts hardly move (p25–p75 may move 5 %).
    let thresholds = Dictionary(uniqueKeysWithValues: metrics.map { metric in
        (metric, BenchmarkThresholds(relative: metric == .mallocCountTotal ? BenchmarkThresholds.Relative.default : BenchmarkThresholds.Relative.relaxed))
    })
    return Benchmark.Configuration(
        metrics: metrics,
        warmupIterations: workload.warmups,
        maxDuration: isInsert ? .seconds(10) : .seconds(1),
        maxIterations: isInsert ? workload.defaultRepetitions : 10_000,
        thresholds: thresholds
    )
}
