import FetchRequests
import Generation
import SQLite
import StoreFiles
import Strategies

/// The statements one strategy sent for one case of a run, each request's in turn
/// (`bench run --log-sql`): recorded once, on a connection of its own, before the case is timed.
public struct LoggedCase: Sendable {
    /// The case's name as results name it (`lookup-id`, `fetch-partial/leaf`).
    public var name: String
    public var requests: [LoggedRequest]
    /// A write case's transactions, each every statement it ran (with its bound values), in order.
    public var saves: [[StatementTrace.Entry]]
    /// Why the case's statements, or some of them, are not in the log.
    public var notLogged: String?

    public init(name: String, requests: [LoggedRequest], saves: [[StatementTrace.Entry]] = [], notLogged: String? = nil) {
        self.name = name; self.requests = requests; self.saves = saves; self.notLogged = notLogged
    }
}

/// One request of a logged case and every statement SQLite ran for it, in order (those filling
/// a key list left out: the statement emptying it stands for Core Data's `Bound intarray`).
public struct LoggedRequest: Sendable {
    public var request: FetchRequest
    public var statements: [StatementTrace.Entry]
    /// The values each of its statements binds, by its SQL, as the request holds them.
    public var values: [String: [Value]]
}

extension MeasuredStore {
    /// Runs each of the case's requests once on a second connection to the store (Core Data's
    /// functions registered on it as on every store's), its statements traced: the measured
    /// connection's cache and statements are untouched, and no timed repetition carries the trace.
    func logged(_ workloadCase: WorkloadCase, name: String) throws -> LoggedCase {
        let store = LayoutStore(try opened.layout, database: try StoreFile.open(path))
        let database = store.database
        let trace = StatementTrace(on: database)
        defer { _ = trace.stop() }
        let requests = try workloadCase.requests.map { request in
            let query = try store.layout.query(request, counts: workloadCase.counts)
            if workloadCase.counts { _ = try database.number(query) } else { _ = try database.objects(query) }
            let values = Dictionary(query.statements.map { ($0.sql, $0.values) }) { first, _ in first }
            return LoggedRequest(request: request, statements: trace.take().filter { !KeyList.fills($0.sql) }, values: values)
        }
        return LoggedCase(name: name, requests: requests)
    }
}
