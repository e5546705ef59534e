import ArgumentParser
import Generation
import Dispatch
import Foundation
import Models
import Reporting
import SQLite
import Strategies
import Workloads

/// How long each case runs: until its medians are precise enough (the default), a fixed count, or
/// a time budget. Shared by `run` and `sweep`.
struct TimingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Percent: repeat each case until every strategy's ratio to \(Strategies.baseline.name) (every median, without it) has a 95 % interval within ± this much of it, or the case's time is spent (default \(RunPlan.defaultPrecision * 100); 0.1 to 50).",
        valueName: "percent"))
    var precision: Double?

    @Option(name: .customLong("case-time"), help: ArgumentHelp(
        "Seconds: under the default rule, the most wall-clock time per strategy any case may take before it stops short of --precision (default: its share of --run-time in run, its workload's own time in a sweep; 1 to 3600).",
        valueName: "seconds"))
    var caseTime: Double?

    @Option(name: .customLong("run-time"), help: ArgumentHelp(
        "Seconds: under the default rule, the time the whole run aims at; each case gets a share of the time left, weighted by its workload (run default: \(Int(RunPlan.defaultRunTime)); sweep default: none, each workload's own time; in a sweep, per point; 10 to 86400).",
        valueName: "seconds"))
    var runTime: Double?

    @Option(help: ArgumentHelp(
        "Under the default rule and --time-budget, the blocks each case is measured in, each with its stores reopened and its short reads warmed up again; a ratio's interval includes their spread (default \(RunPlan.defaultBlocks); 1 to 10; 1: the rounds' spread alone).",
        valueName: "count"))
    var blocks: Int?

    @Option(help: "Timed repetitions of every workload (1 to 100000), instead of repeating until precise.")
    var repetitions: Int?

    @Option(name: .customLong("time-budget"), help: "Seconds each strategy spends on each workload: repetitions go on until then (instead of fixed counts).")
    var timeBudget: Double?

    @Option(help: "With --time-budget: at least this many timed repetitions (default \(RunPlan.defaultMinRepetitions)).")
    var minRepetitions: Int = RunPlan.defaultMinRepetitions

    @Option(help: "With --time-budget: at most this many timed repetitions (default \(RunPlan.defaultMaxRepetitions)).")
    var maxRepetitions: Int = RunPlan.defaultMaxRepetitions

    func validate() throws {
        if let precision {
            guard precision.isFinite, (0.1 ... 50).contains(precision) else {
                throw ValidationError("--precision must be a percentage from 0.1 to 50 (e.g. 2.5); got \(precision)")
            }
            if repetitions != nil || timeBudget != nil {
                throw ValidationError("--precision conflicts with --\(repetitions != nil ? "repetitions" : "time-budget"): it sets the default rule, which a fixed count or a time budget replaces; give one of them")
            }
        }
        if let caseTime {
            guard caseTime.isFinite, (1 ... 3_600).contains(caseTime) else {
                throw ValidationError("--case-time must be a number of seconds from 1 to 3600; got \(caseTime)")
            }
            if repetitions != nil || timeBudget != nil {
                throw ValidationError("--case-time conflicts with --\(repetitions != nil ? "repetitions" : "time-budget"): it bounds the default rule, which a fixed count or a time budget replaces; give one of them")
            }
        }
        if let runTime {
            guard runTime.isFinite, (10 ... 86_400).contains(runTime) else {
                throw ValidationError("--run-time must be a number of seconds from 10 to 86400; got \(runTime)")
            }
            if let other = caseTime != nil ? "case-time" : repetitions != nil ? "repetitions" : timeBudget != nil ? "time-budget" : nil {
                throw ValidationError("--run-time conflicts with --\(other): a run time shares itself among the cases, which --\(other) times otherwise; give one of them")
            }
        }
        if let blocks {
            guard (1 ... 10).contains(blocks) else { throw ValidationError("--blocks must be from 1 to 10; got \(blocks)") }
            if repetitions != nil {
                throw ValidationError("--blocks conflicts with --repetitions: --repetitions asks for an exact count of rounds, which blocks would divide; give one of them")
            }
        }
        if let repetitions, !(1 ... 100_000).contains(repetitions) {
            throw ValidationError("--repetitions must be between 1 and 100000; got \(repetitions)")
        }
        if let timeBudget {
            guard timeBudget.isFinite, timeBudget > 0, timeBudget <= 3_600 else {
                throw ValidationError("--time-budget must be a number of seconds above 0 and at most 3600; got \(timeBudget)")
            }
            if repetitions != nil {
                throw ValidationError("--repetitions and --time-budget conflict: give a fixed count or a time budget, not both")
            }
        }
        guard (1 ... 100_000).contains(minRepetitions), (1 ... 100_000).contains(maxRepetitions) else {
            throw ValidationError("--min-repetitions and --max-repetitions must be between 1 and 100000")
        }
        guard minRepetitions <= maxRepetitions else {
            throw ValidationError("--min-repetitions (\(minRepetitions)) must not exceed --max-repetitions (\(maxRepetitions))")
        }
    }

    /// - parameter defaultRunTime: the run time when none is given and the default rule applies.
    func plan(strategies: [any StorageLayout.Type], workloads: [Workload], seed: UInt64, batchSize: Int, temporaryParent: URL,
              defaultRunTime: Double? = nil) -> RunPlan {
        let ruleIsDefault = caseTime == nil && repetitions == nil && timeBudget == nil
        var plan = RunPlan(strategies: strategies, workloads: workloads, seed: seed, batchSize: batchSize, repetitions: repetitions,
                           timeBudget: timeBudget, minRepetitions: minRepetitions, maxRepetitions: maxRepetitions,
                           precision: precision.map { $0 / 100 } ?? RunPlan.defaultPrecision, caseTime: caseTime,
                           runTime: runTime ?? (ruleIsDefault ? defaultRunTime : nil), temporaryParent: temporaryParent)
        plan.blocks = blocks ?? RunPlan.defaultBlocks
        return plan
    }
}
