import FetchRequests
import Foundation
import Generation
import SQLite
import Strategies

/// `bench run --log-sql` for writes: each write case is run once on the baseline strategy, before
/// it is timed, on a store of its own (a fresh one for an insert, a copy of the read store
/// otherwise) that is removed after; its statements are traced with their values, transaction by
/// transaction. No timed repetition carries the trace, and the read store is left as it was.
extension Runner {
    /// The most statements a write case's log holds: whole transactions are logged until it is
    /// reached, and the case names the rest (a bulk insert of a large scale is many thousands).
    static let loggedWriteStatements = 20_000

    /// The log of an insert case: its transactions, as `measureInsert` makes them, into a fresh store.
    func loggedInsert(_ workload: Workload, _ layout: any StorageLayout) throws -> LoggedCase {
        let transactions = workload.kind == .insertBulk ? dataset.batches(of: plan.batchSize) : AnySequence(inputs.singleInsertObjects.map { [$0] })
        let store = try MeasuredStore(layout, path: storePath(layout.name, "log-\(workload.name)"))
        defer { store.remove() }
        let strategy = try store.opened
        try strategy.createSchema()
        let all = workload.kind == .insertBulk ? (dataset.totalCount + plan.batchSize - 1) / max(1, plan.batchSize) : inputs.singleInsertObjects.count
        var saves: [[StatementTrace.Entry]] = [], statements = 0
        // Whole transactions (the first however large) until the cap; the rest are not made at all.
        for transaction in transactions {
            guard statements < Self.loggedWriteStatements else { break }
            let save = try Self.traced(strategy.database) { try strategy.insert(transaction) }
            statements += save.count
            saves.append(save)
        }
        let rest = saves.count < all ? "its first \(saves.count) of \(all) transactions are logged (a case's log holds whole transactions up to about \(Self.loggedWriteStatements) statements)" : nil
        return LoggedCase(name: workload.name, requests: [], saves: saves, notLogged: rest)
    }

    /// The log of an update, a delete or a save: run on a copy of the baseline's read store.
    func loggedChange(_ workload: Workload, _ store: MeasuredStore) throws -> LoggedCase {
        let copy = try store.copy(to: storePath(store.name, "log-\(workload.name)"))
        defer { copy.remove() }
        let strategy = try copy.opened
        let database = strategy.database
        let save: [StatementTrace.Entry]
        switch workload.kind {
        case .update:
            guard let attribute = model.updateAttribute else { throw NameList.Error(description: "update does not apply to \(model.name)") }
            let (objects, value) = (inputs.updateObjects(round: 0), inputs.updateValue(round: 0))
            save = try Self.traced(database) { _ = try strategy.update(objects, attribute: attribute, value: value) }
        case .delete:
            save = try Self.traced(database) { _ = try strategy.delete(inputs.deleteIDs) }
        case .save:
            guard let spec = workload.save else { throw NameList.Error(description: "\(workload.name) is a save without one") }
            let request = spec.request(dataset, seed: dataset.seed, values: workload.saveValues)
            let prepared = try strategy.prepare(request, versions: try strategy.versions(of: request))
            save = try Self.traced(database) { _ = try strategy.save(prepared) }
        default:
            return LoggedCase(name: workload.name, requests: [], notLogged: "a replayed session: its fetches and saves are the log's own")
        }
        return LoggedCase(name: workload.name, requests: [], saves: [save])
    }

    /// The statements `body` runs on `database`, each with its bound values.
    private static func traced(_ database: Database, _ body: () throws -> Void) throws -> [StatementTrace.Entry] {
        let trace = StatementTrace(on: database, values: true)
        defer { _ = trace.stop() }
        try body()
        return trace.take()
    }
}
