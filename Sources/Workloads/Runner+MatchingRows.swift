import FetchRequests
import Strategies

extension Runner {
    /// A logged fetch's case whose values are drawn (`WorkloadCase.targetRows`): of its candidate
    /// requests, the `Workload.fetchDraws` whose answers on the first layout's store come closest to
    /// the rows the log says the fetch returned (ties in the order drawn), run untimed; every layout
    /// answers alike, so every layout times the same requests. Any other case as it is.
    func matchingRows(_ fetchCase: WorkloadCase, _ stores: [MeasuredStore]) throws -> WorkloadCase {
        guard let target = fetchCase.targetRows, fetchCase.requests.count > Workload.fetchDraws, let store = stores.first else { return fetchCase }
        let layoutStore = try store.opened
        let rows = try fetchCase.requests.map { request -> Int in
            if fetchCase.counts { return try layoutStore.count(request) }
            // A dictionary fetch's rows are its groups or distinct values, read; any other fetch's
            // are its objects, counted (a batched fetch's its ID pass's, a prefetching fetch's its
            // own fetch's), then paged.
            if case .dictionary = request.mode { return try layoutStore.fetch(request).count }
            var counted = request
            (counted.mode, counted.sort, counted.limit, counted.offset) = (.plain, [], nil, nil)
            let all = try layoutStore.count(counted)
            return min(request.limit ?? .max, max(0, all - (request.offset ?? 0)))
        }
        func distance(_ index: Int) -> Double { abs(Double(rows[index]) - target) }
        let chosen = rows.indices.sorted { (distance($0), $0) < (distance($1), $1) }.prefix(Workload.fetchDraws).sorted()
        var matched = fetchCase
        matched.requests = chosen.map { fetchCase.requests[$0] }
        matched.targetRows = nil
        return matched
    }
}
