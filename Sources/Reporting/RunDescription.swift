import Foundation

/// The model and the run context of a results file in a sentence or two, from its rows' fields
/// (the CSV columns): what was measured, and where and how.
public enum RunDescription {
    /// "publications, 20000 objects, seed 42, batch 1000, each workload's own repetitions"
    public static func model(_ file: ResultsFile) -> String {
        let models = file.values("hierarchy").filter { !$0.isEmpty }
        var parts = [models.isEmpty ? "publications" : models.joined(separator: ", ")]
        if let parameter = file.values("sweep_parameter").first(where: { !$0.isEmpty }) {
            parts.append("sweep of \(parameter) over \(file.values("sweep_value").joined(separator: ", "))")
        }
        let scales = file.values("scale")
        parts.append("\(scales.joined(separator: ", ")) object\(scales == ["1"] ? "" : "s")")
        if file.values("data").contains("store") { parts.append("the store's own objects") }
        parts.append("seed \(file.values("seed").joined(separator: ", "))")
        parts.append("batch \(file.values("batch").joined(separator: ", "))")
        let budgets = file.values("time_budget_s").filter { !$0.isEmpty }
        let repetitions = file.values("iterations")
        if !budgets.isEmpty {
            parts.append("time budget \(budgets.joined(separator: ", ")) s per strategy and case")
        }
        let counts = repetitions.compactMap(Int.init)
        if let low = counts.min(), let high = counts.max() {
            parts.append(low == high ? "\(low) timed repetition\(low == 1 ? "" : "s") per row" : "\(low)–\(high) timed repetitions per row")
        }
        return parts.joined(separator: ", ")
    }

    /// "run 20261122T063000Z-ab12cd at 2026-11-22T06:30:00Z on host (CPU, 2 cores, 7.8 GiB), Debian …, Linux 6.1;
    /// SQLite 3.40.1, Swift 6.3 release build, commit abc123 (uncommitted changes)"
    public static func context(_ file: ResultsFile) -> String {
        func value(_ column: String) -> String { file.values(column).joined(separator: " / ") }
        var machine: [String] = []
        if !value("cpu_model").isEmpty { machine.append(value("cpu_model")) }
        if let cores = file.values("cpu_cores").first, cores != "0" { machine.append("\(cores) cores") }
        if let memory = file.values("memory_bytes").first.flatMap(Double.init), memory > 0 {
            machine.append(String(format: "%.1f GiB", memory / 1_073_741_824))
        }
        var text = "run \(value("run_id"))"
        if !value("timestamp").isEmpty { text += " at \(value("timestamp"))" }
        text += " on \(value("host"))"
        if !machine.isEmpty { text += " (\(machine.joined(separator: ", ")))" }
        let system = [value("os"), value("kernel")].filter { !$0.isEmpty }
        if !system.isEmpty { text += ", " + system.joined(separator: ", ") }
        let dirty = file.values("git_dirty") == ["true"] ? " (uncommitted changes)" : ""
        text += "; SQLite \(value("sqlite_version")), "
        if !value("swift_version").isEmpty { text += "Swift \(value("swift_version")) " }
        text += "\(value("build")) build, commit \(value("git_commit"))\(dirty)"
        return text
    }

    /// Whether any row was measured with a debug build.
    public static func isDebug(_ file: ResultsFile) -> Bool { file.values("build").contains("debug") }
}
