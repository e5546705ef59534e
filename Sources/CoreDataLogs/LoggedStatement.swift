/// One statement of a log with what the lines after it say of it: its bound values (level 2), the
/// time and rows the device logged, and the fault, to-many fault, prefetch or entity it was for.
public struct LoggedStatement: Sendable {
    /// The line the statement starts on.
    public let line: Int
    /// Its SQL, runs of white space (a statement broken over lines) as one space.
    public internal(set) var sql: String
    /// Bound values by index (0-based, as the log numbers them); nil where the log has none.
    public internal(set) var values: [BoundValue?] = []
    /// The time SQLite took, as logged (`sql connection fetch time`).
    public internal(set) var connectionSeconds: Double?
    /// The whole request's time, as logged (`total fetch execution time`, `total count request execution time`).
    public internal(set) var totalSeconds: Double?
    /// The rows it returned, or the count it answered, as logged.
    public internal(set) var rows: Int?
    /// The entity of the object a fault fired for.
    public internal(set) var faultEntity: String?
    /// The relationship (and its owner's entity) a to-many fault fired for.
    public internal(set) var toMany: (relationship: String, entity: String?)?
    /// The key path a prefetch followed.
    public internal(set) var prefetchKey: String?
    /// The entity level 2 names the fetch of (`on entity 'E'`).
    public internal(set) var fetchEntity: String?
    /// Whether keys were bound as an array (`_Z_intarray`).
    public internal(set) var boundIntarray = false

    /// Its SQL's tokens, cut once by the reader (a log repeats its statements: the reader keeps the
    /// tokens of the ones it met last).
    var tokens: SQLTokens { cut ?? SQLTokens(sql) }
    var cut: SQLTokens?

    init(line: Int, sql: String) {
        self.line = line
        self.sql = sql
    }

    /// The device's own time for the statement: the request's total where logged, else SQLite's.
    public var loggedSeconds: Double? { totalSeconds ?? connectionSeconds }

    /// Whether the log printed bound values for it (level 2 or more).
    public var hasValues: Bool { !values.isEmpty }

    /// Whether a total time is still to come for it: a fetch whose rows SQLite returned (its
    /// connection time is logged) and whose request has not ended (a prefetch or fault it set off
    /// may run first).
    var awaitsTotal: Bool { connectionSeconds != nil && totalSeconds == nil }

    mutating func note(_ annotation: LogAnnotation) {
        switch annotation {
        case let .connectionTime(seconds): connectionSeconds = (connectionSeconds ?? 0) + seconds
        case let .fetchTotal(seconds, count), let .countTotal(seconds, count):
            totalSeconds = seconds
            rows = count
        case let .executionTime(seconds), let .cancelled(seconds): totalSeconds = seconds
        case let .faultFulfilled(entity): faultEntity = entity ?? faultEntity ?? ""
        case let .toManyFault(relationship, entity, count):
            toMany = (relationship, entity)
            rows = count ?? rows
        case let .prefetch(key, count):
            prefetchKey = key
            rows = count ?? rows
        case .intarray: boundIntarray = true
        case let .fetchUsing(entity, count):
            fetchEntity = entity
            rows = count ?? rows
        case let .bind(index, value):
            if values.count <= index { values += Array(repeating: nil, count: index + 1 - values.count) }
            values[index] = value
        case .other: break
        }
    }
}
