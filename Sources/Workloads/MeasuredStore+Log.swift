import FetchRequests
import SQLite
import StoreFiles
import Strategies

/// The statements one strategy sent for one case of a run, each request's in turn
/// (`bench run --log-sql`): recorded once, on a connection of its own, before the case is timed.
public struct LoggedCase: Sendable {
    /// The case's name as results name it (`lookup-id`, `fetch-partial/leaf`).
    public var name: String
    public var requests: [LoggedRequest]
    /// Why the case's statements are not in the log (a write, whose timed repetitions are its only runs).
    public var notLogged: String?

    public init(name: String, requests: [LoggedRequest], notLogged: String? = nil) {
        self.name = name; self.requests = requests; self.notLogged = notLogged
    }
}

/// One request of a logged case and every statement SQLite ran for it, in order.
public struct LoggedRequest: Sendable {
    public var request: FetchRequest
    /// Whether the request was counted rather than fetched.
    public var counts: Bool
    public var statements: [StatementTrace.Entry]
}

extension MeasuredStore {
    /// Runs each of the case's requests once on a second connection to the store, its statements
    /// traced (with their values written in when `values`): the measured connection's cache and
    /// statements are untouched, and no timed repetition carries the trace.
    func logged(_ workloadCase: WorkloadCase, name: String, values: Bool) throws -> LoggedCase {
        let layout = try opened.layout
        let database = try StoreFile.open(path)
        let trace = StatementTrace(on: database, values: values)
        defer { _ = trace.stop() }
        let requests = try workloadCase.requests.map { request in
            if workloadCase.counts { _ = try database.number(try layout.countQuery(request)) } else { _ = try database.objects(try layout.readQuery(request)) }
            return LoggedRequest(request: request, counts: workloadCase.counts, statements: trace.take())
        }
        return LoggedCase(name: name, requests: requests)
    }
}
