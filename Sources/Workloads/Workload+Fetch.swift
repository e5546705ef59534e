import FetchRequests
import Generation
import Models
import Strategies

extension Workload {
    /// Requests a repetition of a fetch with `%@` runs, each with values drawn anew.
    public static let fetchDraws = 10

    /// An app's own fetch (`bench run --fetch`), measured as a read case like any other: every
    /// layout, answers checked equal, statistics and work counters; a `COUNT` one counts (as
    /// `countForFetchRequest` does). Named as given, else `fetch-N`.
    /// A repetition runs the fetch once, or once per draw of its `%@` (`fetchDraws`). Its answers'
    /// order is checked when its sort is a total order; among ties no layout promises one, and a
    /// page of such an order (LIMIT without a unique last sort key) may hold other objects in each
    /// layout: it is checked as a page of the whole answer (`WorkloadCase.pagesWithTies`).
    public static func fetch(_ spec: FetchSpec, number: Int) -> Workload {
        Workload(name: spec.name ?? "fetch-\(number)", summary: "a fetch of yours: \(spec.text)", warmups: 3, budget: 2, inDefaultRun: false,
                 cases: { inputs in
                     let ordered = spec.isTotallyOrdered(inputs.model)
                     var fetchCase = WorkloadCase(requests: spec.requests(inputs.dataset, seed: inputs.dataset.seed, draws: fetchDraws), counts: spec.counts, ordered: ordered)
                     fetchCase.pagesWithTies = !ordered && (spec.limit != nil || spec.offset != nil)
                     return [fetchCase]
                 })
    }
}
