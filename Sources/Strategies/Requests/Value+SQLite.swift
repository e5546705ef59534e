import Generation
import Models
import SQLite

extension Value: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws {
        switch self {
        case .null: try statement.bindNull(at: index)
        case let .integer(value): try statement.bind(value, at: index)
        case let .real(value): try statement.bind(value, at: index)
        case let .text(value): try statement.bind(value, at: index)
        case let .blob(bytes): try bytes.bind(to: statement, at: index)
        }
    }
}

extension Statement {
    /// The value in column `index`, read as `storage` (NULL stays NULL).
    public func value(at index: Int32, as storage: AttributeType.Storage) -> Value {
        if isNull(at: index) { return .null }
        switch storage {
        case .integer: return .integer(int64(at: index))
        case .real: return .real(double(at: index))
        case .text: return .text(string(at: index))
        case .blob: return .blob(bytes(at: index))
        }
    }

    /// Binds `values` at parameters 1, 2, ….
    public func bind(values: [Value]) throws { try bind(values.map { $0 as (any SQLiteBindable)? }) }
}

extension Database {
    /// Every object `query` selects (it must have a decoder).
    public func objects(_ query: PreparedQuery) throws -> [ModelObject] {
        if let program = query.program { return try objects(program) }
        guard let decoder = query.decoder else { throw CorruptRow("the query reads no objects (it has no decoder): \(query.sql)") }
        let statement = try cachedStatement(query.sql)
        try statement.bind(values: query.values)
        defer { statement.reset() }
        var result: [ModelObject] = []
        while try statement.step() { result.append(try decoder.decode(statement)) }
        return result
    }

    /// The number in the first column of `query`'s first row (a count).
    public func number(_ query: PreparedQuery) throws -> Int {
        let statement = try cachedStatement(query.sql)
        try statement.bind(values: query.values)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return Int(statement.int64(at: 0))
    }

    /// Runs a cached write statement with `values` bound; returns the rows it changed.
    public func write(_ sql: String, _ values: [Value]) throws -> Int {
        let statement = try cachedStatement(sql)
        try statement.bind(values: values)
        try statement.run()
        return changes
    }

    /// Every row of a cached statement, each read by `row`.
    public func rows<T>(_ sql: String, _ values: [Value], _ row: (Statement) throws -> T) throws -> [T] {
        let statement = try cachedStatement(sql)
        try statement.bind(values: values)
        defer { statement.reset() }
        var result: [T] = []
        while try statement.step() { result.append(try row(statement)) }
        return result
    }
}

extension Statement {
    /// A to-one destination read from its key column and, when the destination has sub-entities,
    /// the column holding its entity number; `nil` when the key is NULL.
    public func destination(key: Int32, entity: Int32?, otherwise destination: Int) -> ObjectID? {
        isNull(at: key) ? nil : ObjectID(entity: entity.map { Int(int64(at: $0)) - 1 } ?? destination, key: int64(at: key))
    }
}
