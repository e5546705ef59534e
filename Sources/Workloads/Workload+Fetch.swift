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
    /// With `targetRows` (a logged fetch's rows), a fetch with `%@` draws `candidateDraws` times
    /// as many requests, of which the run keeps those whose answers come closest to it.
    public static func fetch(_ spec: FetchSpec, number: Int, targetRows: Double? = nil) -> Workload {
        let target = spec.hasPlaceholders ? targetRows : nil
        var workload = Workload(name: spec.name ?? "fetch-\(number)", summary: "a fetch of yours: \(spec.text)", warmups: 3, budget: 2, inDefaultRun: false,
                 cases: { inputs in
                     // A prefetch's destinations of one object come in no order a layout promises: its answer is compared as a set.
                     let ordered = spec.isTotallyOrdered(inputs.model) && spec.prefetch == nil
                     let draws = fetchDraws * (target == nil ? 1 : candidateDraws)
                     var fetchCase = WorkloadCase(requests: spec.requests(inputs.dataset, seed: inputs.dataset.seed, draws: draws), counts: spec.counts, ordered: ordered)
                     fetchCase.pagesWithTies = !spec.isTotallyOrdered(inputs.model) && (spec.limit != nil || spec.offset != nil)
                     fetchCase.targetRows = target
                     return [fetchCase]
                 })
        workload.request = spec.text
        return workload
    }
}

extension Workload {
    /// Requests of the logged values it takes at most: the first this many occurrences of a fetch.
    public static let loggedDraws = fetchDraws

    /// Candidates drawn for a logged fetch whose values are drawn to return about the rows it
    /// returned: this many times `fetchDraws`.
    public static let candidateDraws = 4

    /// An app's logged fetch (`bench replay`): as `fetch`, each request with the values one
    /// occurrence of it was logged with (level 2: its statement, `SQLText.squeezed`, and values), in the order the log
    /// makes them, those that fit; where none was logged or none fits, with values drawn as
    /// `fetch` draws them, and with `rows` (the rows the log says it returned), the draws among
    /// `candidateDraws` times as many whose answers come closest to those rows.
    public static func fetch(_ spec: FetchSpec, number: Int, logged: [(sql: String, values: [Value])], rows: Double? = nil) -> Workload {
        let drawn = fetch(spec, number: number, targetRows: rows)
        guard !logged.isEmpty else { return drawn }
        var workload = Workload(name: drawn.name, summary: drawn.summary, warmups: drawn.warmups, budget: drawn.budget, inDefaultRun: false,
                        cases: { inputs in
                            let requests = LoggedValues.requests(spec, logged, inputs.dataset)
                            guard !requests.isEmpty else { return drawn.cases(inputs) }
                            var cases = drawn.cases(inputs)
                            for index in cases.indices { (cases[index].requests, cases[index].targetRows) = (requests, nil) }
                            return cases
                        })
        workload.request = drawn.request
        return workload
    }
}

/// A fetch's requests with the values the log bound, placed where the fetch holds them: each
/// request is kept only when the baseline strategy (Core Data's layout) renders it as the very
/// statement and values logged, so that every layout answers the request the app made.
public enum LoggedValues {
    /// The requests of the first `Workload.loggedDraws` occurrences whose values fit; none when
    /// none does (the fetch's values are then drawn from `dataset`).
    public static func requests(_ spec: FetchSpec, _ logged: [(sql: String, values: [Value])], _ dataset: any Dataset) -> [FetchRequest] {
        guard let layout = try? Strategies.baseline.init(model: dataset.model),
              let template = spec.requests(dataset, seed: dataset.seed, draws: 1).first,
              let positions = positions(template, layout, spec.counts) else { return [] }
        return logged.prefix(Workload.loggedDraws).compactMap { sql, values in
            var held = ArraySlice(positions.map { $0 < values.count ? values[$0] : .null })
            var request = template
            guard let predicate = template.predicate.replacingHeldValues(&held) else { return nil }
            request.predicate = predicate
            guard let query = try? first(request, layout, spec.counts), SQLText.squeezed(query.sql) == sql, query.values == values else { return nil }
            return request
        }
    }

    /// Where each value the request holds is bound in its baseline statement: the request rendered
    /// with a distinct stand-in for each, found once each among the statement's values; `nil` when
    /// one is not bound as it is (a value the statement rewrites, a nil).
    static func positions(_ request: FetchRequest, _ layout: any StorageLayout, _ counts: Bool) -> [Int]? {
        let held = request.predicate.heldValues
        var standIns: [Value] = []
        for (index, value) in held.enumerated() {
            switch value {
            case .integer: standIns.append(.integer(Int64.min / 2 + Int64(index)))
            case .real: standIns.append(.real(-1.0e300 * Double(index + 1)))
            case .text: standIns.append(.text("\u{1}\(index)\u{1}"))
            case .blob: standIns.append(.blob([0xFF, 0xFE, UInt8(index & 0xFF), UInt8(index >> 8 & 0xFF)]))
            case .null: return nil
            }
        }
        var slice = ArraySlice(standIns), marked = request
        guard let predicate = request.predicate.replacingHeldValues(&slice), let query = try? first({ marked.predicate = predicate; return marked }(), layout, counts) else { return nil }
        var positions: [Int] = []
        for standIn in standIns {
            let found = query.values.indices.filter { query.values[$0] == standIn }
            guard found.count == 1 else { return nil }
            positions.append(found[0])
        }
        return positions
    }

    /// The request's first statement in the baseline layout.
    private static func first(_ request: FetchRequest, _ layout: any StorageLayout, _ counts: Bool) throws -> PreparedQuery {
        let query = try layout.query(request, counts: counts)
        return query.statements.first ?? query
    }
}
