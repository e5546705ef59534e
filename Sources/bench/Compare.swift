import ArgumentParser
import Foundation
import Reporting
import Strategies

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compares two runs, or the strategies within one run.",
        discussion: """
            bench compare BASE.csv NEW.csv matches rows by strategy and workload and labels each \
            faster, slower or unchanged: slower or faster only when the ratio of medians is beyond \
            --threshold, the Mann-Whitney U test of the repetitions gives p < --alpha, and the ratio's \
            95% interval excludes 1 (without samples files the test cannot run, and the ratio and \
            interval alone decide). Exit status: 0 no change, 2 at least one regression, \
            4 improvements only, 1 an error. bench compare --ratios BASE.csv NEW.csv compares each \
            strategy's ratio to \(Strategies.baseline.name) instead (the median of its rounds' ratios), with the same \
            rule: did the layout's cost relative to \(Strategies.baseline.name) change, whatever the machine did. \
            bench compare --strategies RUN.csv shows every strategy against \(Strategies.baseline.name), each ratio \
            with the 95% interval of its rounds' ratios (exit status 0).
            """
    )

    @Argument(help: "BASE.csv NEW.csv, or one RUN.csv with --strategies.")
    var files: [String] = []

    @Flag(help: "Compare every strategy of one run with \(Strategies.baseline.name).")
    var strategies = false

    @Flag(help: "Compare each strategy's ratio to \(Strategies.baseline.name) between the two runs, not its median.")
    var ratios = false

    @Option(help: "Smallest change that counts, in percent (e.g. 5%): the practical effect on the ratio of medians.")
    var threshold: Percentage = Percentage(value: 0.05)

    @Option(help: "Significance level of the Mann-Whitney U test: a change counts only when p < alpha (between 0 and 1, e.g. 0.01).")
    var alpha: Double = 0.05

    @Option(help: "Output format: text or markdown (a table to paste into a pull request).")
    var format: Comparison.Format = .text

    @Flag(help: "Compare runs even if their seeds, scales or batch sizes differ.")
    var force = false

    func validate() throws {
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1 (e.g. 0.05); got \(alpha)") }
        if strategies {
            guard files.count == 1 else { throw ValidationError("--strategies takes one results CSV; got \(files.count)") }
            if force { throw ValidationError("--force applies to comparing two runs, not to --strategies") }
            if ratios { throw ValidationError("--ratios applies to comparing two runs; --strategies already shows every ratio of one run") }
        } else {
            guard files.count == 2 else {
                throw ValidationError("give two results CSVs (BASE.csv NEW.csv), or one with --strategies; got \(files.count)")
            }
        }
    }

    func run() throws {
        let comparison: Comparison
        let titles: (String, String)
        var warnings: [String] = []
        do {
            let first = try ResultsFile(url: URL(fileURLWithPath: files[0]))
            warnings += first.warnings
            if strategies {
                comparison = try Comparison.strategies(in: first, baseline: Strategies.baseline.name, threshold: threshold.value, alpha: alpha)
                titles = (Strategies.baseline.name, "strategy")
            } else {
                let second = try ResultsFile(url: URL(fileURLWithPath: files[1]))
                warnings += second.warnings
                comparison = ratios
                    ? try Comparison.ratios(base: first, new: second, baseline: Strategies.baseline.name, threshold: threshold.value, alpha: alpha, force: force)
                    : try Comparison.runs(base: first, new: second, threshold: threshold.value, alpha: alpha, force: force)
                titles = ratios ? ("base ratio", "new ratio") : ("base", "new")
            }
        } catch {
            throw reportFailure(error)
        }
        for warning in warnings + comparison.warnings { printError("warning: \(warning)") }
        print(comparison.render(format, baseTitle: titles.0, newTitle: titles.1, threshold: threshold.value, alpha: alpha), terminator: "")
        if !strategies, comparison.exitCode != 0 { throw ExitCode(comparison.exitCode) }
    }
}

/// A percentage option: "5%" or "5" mean 0.05.
struct Percentage: ExpressibleByArgument {
    var value: Double

    init(value: Double) { self.value = value }

    init?(argument: String) {
        let text = argument.hasSuffix("%") ? String(argument.dropLast()) : argument
        guard let percent = Double(text), percent.isFinite, (0 ..< 100).contains(percent) else { return nil }
        value = percent / 100
    }

    var defaultValueDescription: String { String(format: "%g%%", value * 100) }
}

extension Comparison.Format: ExpressibleByArgument {}
