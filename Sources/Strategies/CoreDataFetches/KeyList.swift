import Generation
import SQLite

/// A list of keys bound for one statement as Core Data binds an integer array (`_Z_intarray0`,
/// a virtual table of its own; SQLite 3.40 as the system has it has no `carray`): a temporary
/// table of that name, emptied and filled before each statement that reads it. The statements
/// read it as `IN (SELECT * FROM _Z_intarray0)`, as Core Data's do.
public enum KeyList {
    public static let create = "CREATE TEMP TABLE IF NOT EXISTS _Z_intarray0 (value INTEGER)"
    static let subquery = "(SELECT * FROM _Z_intarray0)"
    static let clear = "DELETE FROM _Z_intarray0"
    static let insert = "INSERT INTO _Z_intarray0 (value) VALUES (?)"

    /// Whether `sql` is one of the statements filling the list, which Core Data's logs show as
    /// `Bound intarray` alone (the statement emptying it stands for that line).
    public static func fills(_ sql: String) -> Bool { sql == insert || sql == create }

    /// Makes the list `keys` (the table made on first use, on a read-only connection too: a
    /// temporary table is not in the store's file).
    public static func bind<Keys: Sequence>(_ keys: Keys, in database: Database) throws where Keys.Element == Int64 {
        try database.cachedStatement(create).run()
        try database.cachedStatement(clear).run()
        let statement = try database.cachedStatement(insert)
        for key in keys {
            try statement.bind(values: [.integer(key)])
            try statement.run()
        }
    }
}

/// The steps of a fetch Core Data runs as several statements, as data: each step's statement is
/// the layout's, and the store runs the steps (`Database.objects`, `QueryProgram+Run.swift`),
/// binding key lists between them, the same way for every layout.
public indirect enum QueryProgram: Sendable {
    /// `fetchBatchSize`: the ID pass (entity numbers and keys), then per batch of `size` keys the
    /// batch's fetch by key list (`batches` by entity number when `byEntity`, else under 0), until
    /// `objects` are read, each batch put back in the ID pass's order.
    case batched(ids: PreparedQuery, batches: [Int64: PreparedQuery], size: Int, objects: Int, byEntity: Bool)
    /// Per section: its name, its count and its objects, which must be as many.
    case sectioned([(name: String, count: PreparedQuery, fetch: PreparedQuery)])
    /// The page, then each batch with the page's keys bound as the key list.
    case prefetching(page: PreparedQuery, batches: [PreparedQuery])
    /// The objects of each statement in turn (under one key list already bound).
    case concatenated([PreparedQuery])

    /// Every SELECT the program runs, in order (for `bench explain` and the tests that pin them).
    public var statements: [PreparedQuery] {
        switch self {
        case let .batched(ids, batches, _, _, _): [ids] + batches.sorted { $0.key < $1.key }.map(\.value)
        case let .sectioned(sections): sections.flatMap { [$0.count, $0.fetch] }
        case let .prefetching(page, batches): [page] + batches.flatMap(\.statements)
        case let .concatenated(statements): statements
        }
    }
}

extension PreparedQuery {
    /// A query running `program`, its first statement's SQL, values and decoder its own.
    init(_ program: QueryProgram) {
        let first = program.statements.first
        self.init(sql: first?.sql ?? "", values: first?.values ?? [], decoder: first?.decoder, program: program)
    }

    /// The SELECTs the query runs: its program's, or itself.
    public var statements: [PreparedQuery] { program?.statements ?? [self] }
}
