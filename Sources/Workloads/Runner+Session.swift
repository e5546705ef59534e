import Dispatch
import FetchRequests
import Generation
import Models
import StoreFiles
import Strategies

extension Runner {
    /// One step of a session with what it runs: a fetch's request (by fetch and draw) or a save
    /// (by its position among the session's drawn saves).
    private enum SessionStep {
        case read(fetch: Int, request: Int)
        case save(Int)
    }

    /// The session's steps with their requests, its saves drawn once in order (shared draws: no
    /// save changes an object an earlier one deleted), and each fetch's case.
    private func sessionSteps(_ plan: SessionPlan, _ stores: [MeasuredStore]) throws -> (steps: [SessionStep], saves: [SaveRequest], cases: [WorkloadCase]) {
        let cases = try plan.fetches.map { try matchingRows($0.cases(inputs).first ?? WorkloadCase(), stores) }
        var draws = SaveDraws(dataset, seed: dataset.seed ^ 0x5E55_1011, atLeast: plan.saves.reduce(0) { $0 + $1.count })
        var made: [Int] = Array(repeating: 0, count: plan.fetches.count)
        var saves: [SaveRequest] = []
        let steps = try plan.steps.map { step -> SessionStep in
            switch step {
            case let .fetch(fetch):
                defer { made[fetch] += 1 }
                return .read(fetch: fetch, request: made[fetch] % max(1, cases[fetch].requests.count))
            case let .save(save):
                let request = draws.request(plan.saves[save], values: saves.count < plan.saveValues.count ? plan.saveValues[saves.count] : nil)
                try request.checkWhole("the session's save \(saves.count + 1) (of the log's saves in order)")
                saves.append(request)
                return .save(saves.count - 1)
            }
        }
        return (steps, saves, cases)
    }

    /// Each repetition runs the whole session on a fresh copy of the read store. Each layout's
    /// fetch statements are made once and prepared on the copy before the clock starts; each save's
    /// are made and prepared just before it, untimed, from the objects' versions in the copy,
    /// followed from save to save. Only the steps are timed; each answer is digested between them
    /// (an ordered fetch's objects in order, any other's as a set, a page among ties by its
    /// length, a count, a save's changes), then each concrete entity's objects and each
    /// many-to-many's links after the session.
    func measureSession(_ workload: Workload, _ layouts: [any StorageLayout], _ stores: [MeasuredStore]) throws -> [WorkloadResult] {
        guard let plan = workload.session else { throw NameList.Error(description: "\(workload.name) is a session without one") }
        let (steps, saves, cases) = try sessionSteps(plan, stores)
        let queries = try stores.map { store in
            try cases.map { fetchCase in try fetchCase.requests.map { try store.opened.layout.query($0, counts: fetchCase.counts) } }
        }
        let full = !cases.contains(where: \.pagesWithTies)
        var bytes = stores.map(\.bytes)
        let samples = try interleave(workload.name, workload, layouts) { index, repetition, _ in
            let path = storePath(stores[index].name, "session-\(repetition)")
            let copy = try stores[index].copy(to: path)
            defer { copy.remove() }
            let strategy = try copy.opened
            for sql in Set(queries[index].flatMap { $0.map(\.sql) }) { _ = try strategy.database.cachedStatement(sql) }
            let versions = try strategy.versions(of: SaveRequest(changes: saves.flatMap(\.changes)))
            strategy.database.startCountingWork()
            var (elapsed, answer, rows) = try runSession(steps, strategy, queries[index], cases, saves, versions, name: stores[index].name)
            let work = strategy.database.stopCountingWork()
            for number in try Census(counting: strategy).numbers { answer.add(number) }
            if repetition == 0 {
                try StoreFile.checkpoint(strategy.database)
                bytes[index] = fileSize(path)
            }
            return Sample(nanoseconds: elapsed, rows: rows, digest: answer, digestIsFull: full, work: work)
        }
        return makeResults(workload, "", layouts, samples, bytes: bytes)
    }

    /// Runs the steps in order, timing each alone (a save's statements made and prepared before
    /// its clock starts); returns the time, the answers' digest and the rows read and changes made.
    private func runSession(
        _ steps: [SessionStep], _ strategy: LayoutStore, _ queries: [[PreparedQuery]], _ cases: [WorkloadCase], _ saves: [SaveRequest],
        _ versions: [ObjectID: Int64], name: String
    ) throws -> (elapsed: UInt64, answer: AnswerDigest, rows: Int) {
        let database = strategy.database
        var versions = versions
        var elapsed: UInt64 = 0, answer = AnswerDigest(.ordered), rows = 0
        for step in steps {
            switch step {
            case let .read(fetch, request):
                let query = queries[fetch][request], fetchCase = cases[fetch]
                if fetchCase.counts {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let number = try database.number(query)
                    elapsed += DispatchTime.now().uptimeNanoseconds - start
                    answer.add(number)
                    rows += 1
                } else {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let objects = try database.objects(query)
                    elapsed += DispatchTime.now().uptimeNanoseconds - start
                    answer.add(fetchCase.pagesWithTies ? objects.count : Int(truncatingIfNeeded: AnswerDigest(fetchCase.ordered ? .ordered : .unordered, of: objects).value))
                    rows += objects.count
                }
            case let .save(save):
                let prepared = try strategy.prepare(saves[save], versions: versions)
                for id in saves[save].updated { versions[id, default: 1] += 1 }
                try strategy.warm(prepared)
                let start = DispatchTime.now().uptimeNanoseconds
                let made = try strategy.save(prepared)
                elapsed += DispatchTime.now().uptimeNanoseconds - start
                guard made >= saves[save].mustWrite else {
                    throw StoreCheckFailure(description: "\(name): a save of the session made \(made) of its \(saves[save].mustWrite) changes")
                }
                answer.add(made)
                rows += made
            }
        }
        return (elapsed, answer, rows)
    }
}
