import FetchRequests
import Generation
import SQLite

/// A statement a strategy built for a request, with its values: run untimed to build, timed to read.
public struct PreparedQuery: Sendable {
    public var sql: String
    public var values: [Value]
    /// Turns a row into an object (fetches); `nil` for a count, whose one row holds the number.
    public var decoder: RowDecoder?
    /// A fetch of several statements (`FetchMode`), run in its place; `sql` is then its first statement.
    public var program: QueryProgram?

    public init(sql: String, values: [Value], decoder: RowDecoder?, program: QueryProgram? = nil) {
        self.sql = sql; self.values = values; self.decoder = decoder; self.program = program
    }
}

/// How a result row becomes an object: a closure built once per statement shape.
public struct RowDecoder: Sendable {
    public let decode: @Sendable (Statement) throws -> ModelObject
    public init(_ decode: @escaping @Sendable (Statement) throws -> ModelObject) { self.decode = decode }
}

/// A row that does not decode into an object of the model (a corrupt store, an unknown entity).
public struct CorruptRow: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
