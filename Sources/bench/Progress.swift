import ArgumentParser
import Generation
import Dispatch
import Foundation
import Models
import Reporting
import SQLite
import Strategies
import Workloads

/// The progress line on a terminal: case, strategy, round, elapsed and estimated time left,
/// rewritten in place. Prints nothing when disabled (a pipe, or --quiet).
final class Progress {
    private let plan: RunPlan
    private let started: Date
    private let enabled: Bool
    private let totalCases: Int
    private var caseNumber = 0
    private var caseStarted = Date()
    private var caseSeconds: Double?
    private var shown = false
    private var lastDraw = Date.distantPast

    init(plan: RunPlan, started: Date, cases: Int, enabled: Bool) {
        self.plan = plan
        self.started = started
        self.enabled = enabled
        totalCases = max(1, cases)
    }

    func show(_ event: RunEvent) {
        guard enabled else { return }
        switch event {
        case let .populating(strategy, scale):
            draw("populating the \(strategy) store with \(scale) objects")
        case let .measuring(_, names, _, rule):
            caseNumber += 1
            caseStarted = Date()
            caseSeconds = rule.caseSeconds(strategies: names.count)
        case let .repetition(caseName, strategy, round, rounds):
            // At most five redraws a second, so that drawing stays negligible between repetitions.
            guard Date().timeIntervalSince(lastDraw) >= 0.2 else { return }
            lastDraw = Date()
            // The share of this case done: by rounds when they are fixed, else by time against the
            // case's budget (a case that becomes precise sooner ends early).
            let withinCase: Double = if let rounds {
                Double(round - 1) / Double(rounds)
            } else {
                min(1, Date().timeIntervalSince(caseStarted) / max(caseSeconds ?? 1, 1e-3))
            }
            let done = (Double(caseNumber - 1) + withinCase) / Double(totalCases)
            let spent = Date().timeIntervalSince(started)
            let left = done > 0.02 ? " · ~" + clock(spent * (1 - done) / done) + " left" : ""
            let roundText = rounds.map { "round \(round)/\($0)" } ?? "round \(round)"
            draw("[\(caseNumber)/\(totalCases)] \(caseName) · \(strategy) · \(roundText) · \(clock(spent)) elapsed\(left)")
        case .measured:
            break
        }
    }

    /// Clears the line so that what follows starts clean.
    func finish() {
        guard enabled, shown else { return }
        writeToStandardError("\r\u{1B}[K")
        shown = false
    }

    private func draw(_ text: String) {
        writeToStandardError("\r\u{1B}[K" + text)
        shown = true
    }
}
