import Foundation
import Workloads

/// The samples file: every timed repetition, one per line (long format). `repetition` is the
/// round (1-based, warm-ups not counted); `position` is the strategy's place in that round's
/// shuffled order (0-based; empty when unknown).
public enum SamplesCSV {
    public static let columns = ["run_id", "hierarchy", "sweep_value", "strategy", "workload", "variant", "repetition", "position", "ns"]
    /// The columns before `position` was added; files with them are still read.
    public static let columnsWithoutPosition = columns.filter { $0 != "position" }

    public static var header: String { CSV.line(columns) }

    public static func rows(_ result: WorkloadResult, runID: String) -> String {
        result.samples.enumerated().map { index, ns in
            CSV.line([runID, result.setting.hierarchy, result.setting.sweepValue, result.strategy, result.workload, result.variant,
                      String(index + 1), index < result.positions.count ? String(result.positions[index]) : "", String(ns)])
        }.joined()
    }

    /// `results/x.csv` → `results/x.samples.csv`
    public static func url(besides results: URL) -> URL {
        results.deletingPathExtension().appendingPathExtension("samples.csv")
    }
}
