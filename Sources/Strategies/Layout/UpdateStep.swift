import FetchRequests
import Generation

/// One statement of an update. The first statement's changes are the objects updated; the ones
/// after it run only for an object it changed.
public struct UpdateStep: Sendable {
    public enum Source: Sendable { case value(Value), newVersion, key, oldVersion }
    public let sql: String
    public let sources: [Source]

    public init(_ sql: String, _ sources: [Source]) { self.sql = sql; self.sources = sources }

    /// Core Data's one statement: `SET <assignment>, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`.
    /// With no assignment, the version alone (a save that changed only a to-many of the object).
    static func versioned(_ table: String, _ assignment: String, _ values: [Value]) -> [UpdateStep] {
        let set = assignment.isEmpty ? "" : assignment + ", "
        return [UpdateStep("UPDATE \(table) SET \(set)Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", values.map { .value($0) } + [.newVersion, .key, .oldVersion])]
    }

    /// A to-one's key column and entity-number column (where it has one) set to `destination`.
    static func toOneValues(_ destination: ObjectID?, entityColumn: Bool) -> [Value] {
        let key: Value = destination.map { .integer($0.key) } ?? .null
        return entityColumn ? [key, destination.map { .integer(Int64($0.entity + 1)) } ?? .null] : [key]
    }

    func values(_ object: ObjectVersion) -> [Value] {
        sources.map { source in
            switch source {
            case let .value(value): value
            case .newVersion: .integer(object.version + 1)
            case .key: .integer(object.id.key)
            case .oldVersion: .integer(object.version)
            }
        }
    }
}

/// An object and the version (`Z_OPT`) a save expects it to have.
public struct ObjectVersion: Hashable, Sendable {
    public var id: ObjectID
    public var version: Int64
    public init(id: ObjectID, version: Int64) { self.id = id; self.version = version }
}
