import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// What the run is doing now, for progress display.
public enum RunEvent: Sendable {
    case populating(strategy: String, scale: Int)
    /// A case starts: every strategy runs `warmups` untimed and then timed repetitions, interleaved,
    /// until `rule` stops them.
    case measuring(caseName: String, strategies: [String], warmups: Int, rule: StoppingRule)
    /// A strategy is about to run round `round` (1-based, warm-ups included) of the current case.
    case repetition(caseName: String, strategy: String, round: Int, rounds: Int?)
    /// A case is measured: every strategy's result, in plan order.
    case measured([WorkloadResult])
}
