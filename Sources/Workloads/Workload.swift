import FetchRequests
import Generation
import Models
import Strategies

/// One workload, as one value: its name, what it needs from a model, how long it may run, whether
/// its answer's order matters, the query-plan rule its statements must keep, and the requests it
/// times. The runner, `bench explain`, `bench list` and `bench model` read these values; adding a
/// workload is one new value in `Workloads.all` plus its tests.
public struct Workload: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Inserts into a fresh store: every object in transactions of `--batch`, or the first
        /// `Workloads.singleInsertCount` of the main hierarchy, one transaction each.
        case insertBulk, insertSingle
        /// Runs fetch (or count) requests against the populated store.
        case read
        /// Changes an attribute of objects of the populated store (run after every other read).
        case update
        /// Deletes objects from a fresh copy of the populated store, following delete rules.
        case delete
        /// Runs one save (`Workload.save`: inserts, updates and deletes as an app's save sends
        /// them) on a fresh copy of the populated store.
        case save
        /// Runs an app's fetches and saves one after another, in the order its log makes them
        /// (`Workload.session`), on a fresh copy of the populated store.
        case session
    }

    /// What `bench explain` requires of a statement's plan.
    public enum PlanRule: Sendable, Equatable {
        /// Any plan (an insert, or reading every row anyway).
        case any
        /// No full scan of a table, except of a table that is the whole answer.
        case noScanUnlessWholeTable
        /// No full scan at all.
        case noScan
        /// No full scan and no sort: the order comes from an index.
        case indexOrder
    }

    public let name: String
    public let summary: String
    public let kind: Kind
    /// Untimed repetitions first (caches, prepared statements).
    public let warmups: Int
    /// Under the default precision rule (neither `--repetitions` nor `--time-budget`), the
    /// wall-clock seconds per strategy one case may take (its untimed work included) before it
    /// stops short of the target precision; with a run time (`--run-time`, the default of
    /// `bench run`), the case's weight in sharing it. Large for the cases whose repetitions take
    /// long and vary (whole-hierarchy fetches), small for the reads timed in loops, which are
    /// precise within a fraction of a second.
    public let budget: Double
    /// Under the default rule, the rounds a case always runs: 6, the fewest with a 95 % interval
    /// of the median, unless one repetition is long enough to be worth less.
    public let minimumRounds: Int
    public let planRule: PlanRule
    /// Why the workload does not apply to a model, or `nil` when it does.
    public let needs: @Sendable (Model) -> String?
    /// The cases the workload measures (one CSV row each) on a model: variants and their requests.
    public let cases: @Sendable (WorkloadInputs) -> [WorkloadCase]
    /// Whether `bench run` without `--workloads` runs it where it applies: a workload that adds
    /// little to the others' answers is left to be asked for by name (docs/workloads.md).
    public let inDefaultRun: Bool
    /// In an app's fetch mix (`--fetches`): how often the app issues this fetch, relative to the
    /// mix's others; nil outside one.
    public var mixWeight: Double?
    /// The save a `.save` workload runs, and the new values a log bound for it.
    public var save: SaveSpec?
    public var saveValues: SaveValues?
    /// What an app's fetch or save asks, in the request language (the fetch format, a `SAVE`;
    /// values as `%@` or as the user wrote them): the results name it beside the case.
    public var request: String?
    /// The steps a `.session` workload runs.
    public var session: SessionPlan?

    public init(name: String, summary: String, kind: Kind = .read, warmups: Int, budget: Double, minimumRounds: Int = 6, planRule: PlanRule = .any,
                inDefaultRun: Bool = true, needs: @escaping @Sendable (Model) -> String? = { _ in nil },
                cases: @escaping @Sendable (WorkloadInputs) -> [WorkloadCase] = { _ in [WorkloadCase()] }) {
        self.name = name; self.summary = summary; self.kind = kind; self.warmups = warmups; self.budget = budget
        self.minimumRounds = minimumRounds; self.inDefaultRun = inDefaultRun
        self.planRule = planRule; self.needs = needs; self.cases = cases
    }

    public var isInsert: Bool { kind == .insertBulk || kind == .insertSingle }
    public func applies(to model: Model) -> Bool { needs(model) == nil }

    /// The cases a run measures of this workload on a model (one CSV row per strategy each), by
    /// variant name ("" for a workload with one case): a read has one per case, a write one.
    public func variants(on inputs: WorkloadInputs) -> [String] { kind == .read ? cases(inputs).map(\.variant) : [kind == .save ? Self.saveVariant : ""] }

    /// How many cases a run of `workloads` measures on a model: the variants of each that applies.
    /// The one answer the runner, the sweep, `bench model` and CI ask.
    public static func caseCount(_ workloads: [Workload], on inputs: WorkloadInputs) -> Int {
        workloads.filter { $0.applies(to: inputs.model) }.reduce(0) { $0 + $1.variants(on: inputs).count }
    }
}

/// One measured case of a workload: a variant name ("" or `popular`, `rare`) and the requests a
/// repetition runs, in order (fetched, or counted), and whether the answer's order is promised.
public struct WorkloadCase: Sendable {
    public var variant: String
    public var requests: [FetchRequest]
    public var counts: Bool
    public var ordered: Bool
    /// A page (a limit or an offset) of an order with ties, or of no order: each layout may
    /// return different objects, so the answers are checked before the timing, request by
    /// request, as pages of one answer (`MeasuredStore.checkPages`), and by row count while timed.
    public var pagesWithTies = false
    /// The rows an app's logged fetch returned (their mean over the log's occurrences), when its
    /// values are drawn: `requests` are then candidates, and the run keeps the `Workload.fetchDraws`
    /// of them whose answers come closest to it (`Runner.matchingRows`).
    public var targetRows: Double?

    public init(variant: String = "", requests: [FetchRequest] = [], counts: Bool = false, ordered: Bool = false) {
        self.variant = variant; self.requests = requests; self.counts = counts; self.ordered = ordered
    }
}
