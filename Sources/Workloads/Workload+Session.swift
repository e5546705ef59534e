import FetchRequests
import Models

/// An app's session as its log made it: its fetches and saves, in order.
public struct SessionPlan: Sendable {
    public enum Step: Sendable, Equatable {
        /// A fetch (its position in `fetches`) and a save (in `saves`).
        case fetch(Int), save(Int)
    }

    /// The fetches, as the workloads that time each alone: the k-th time the session makes one,
    /// it runs the k-th of its case's requests, round and round.
    public var fetches: [Workload]
    public var saves: [SaveSpec]
    public var steps: [Step]
    /// The new values the log bound for each save step in turn (the k-th save step's), where kept.
    public var saveValues: [SaveValues?]

    public init(fetches: [Workload], saves: [SaveSpec], steps: [Step], saveValues: [SaveValues?] = []) {
        self.fetches = fetches; self.saves = saves; self.steps = steps; self.saveValues = saveValues
    }
}

extension Workload {
    /// The name of the session's case.
    public static let sessionName = "session"

    /// The log's fetches and saves, one after another in its order, as one repetition on a fresh
    /// copy of the populated store (copied untimed): each fetch's statements and each save's made
    /// untimed, each save's objects drawn once for the whole session (none an earlier save
    /// deleted), the objects' versions followed from save to save. Only the steps are timed; each
    /// fetch's answer and each save's changes are digested between them, untimed.
    public static func session(_ plan: SessionPlan) -> Workload {
        let saves = plan.steps.filter { if case .save = $0 { true } else { false } }.count
        var workload = Workload(
            name: sessionName, summary: "the log's \(plan.steps.count - saves) fetches and \(saves) saves, in its order", kind: .session,
            warmups: 1, budget: 6, inDefaultRun: false)
        workload.session = plan
        return workload
    }
}
