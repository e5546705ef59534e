/// What a statement of Core Data's log does, told from its SQL and the annotations after it,
/// without a model.
public enum StatementKind: String, Sendable, CaseIterable, Comparable {
    /// Objects of a fetch request (`SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM ZITEM t0 WHERE …`).
    case fetch
    /// A batched fetch's first pass: the keys alone (`SELECT t0.Z_ENT, t0.Z_PK FROM …`).
    case idPass = "ID pass"
    /// A batch of objects by key (`WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)` or `IN (?, …)`).
    case batch
    /// One object's fault fired (`WHERE t0.Z_PK = ?`, `fault fulfilled from database`).
    case fault
    /// A to-many relationship's fault fired (`to-many relationship fault "tags" … fulfilled`).
    case toManyFault = "to-many fault"
    /// Related objects prefetched (`Prefetching with key 'tags'`).
    case prefetch
    /// A count request (`SELECT COUNT(*) FROM …`).
    case count
    /// A fetch of values rather than objects (dictionary results, aggregates, `GROUP BY`).
    case dictionaryFetch = "dictionary fetch"
    /// A save's transaction opened (`BEGIN EXCLUSIVE`).
    case begin
    /// A save's keys reserved (`SELECT Z_MAX FROM Z_PRIMARYKEY …`, `UPDATE OR FAIL Z_PRIMARYKEY …`).
    case keyReservation = "key reservation"
    /// Rows inserted (an object's, or a join table's).
    case insert
    /// Rows updated (an object's values and version).
    case update
    /// Rows deleted.
    case delete
    /// A transaction ended (`COMMIT`, `ROLLBACK`).
    case commit
    /// Opening and keeping the store: pragmas, the schema, `Z_METADATA`, `Z_MODELCACHE`, persistent
    /// history. Understood, not replayed (a layout's store does its own).
    case storeUpkeep = "store upkeep"

    public static func < (a: StatementKind, b: StatementKind) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }

    /// Whether a replay times it: every kind but the store's upkeep.
    public var isReplayed: Bool { self != .storeUpkeep }

    /// Whether it reads (rather than writes or bounds a transaction).
    public var isRead: Bool { [.fetch, .idPass, .batch, .fault, .toManyFault, .prefetch, .count, .dictionaryFetch].contains(self) }
}

/// Why a statement of the log is not understood.
public struct NotUnderstood: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension LoggedStatement {
    /// The tables Core Data keeps for itself: the store's metadata, model cache, key counters and
    /// SQLite's catalogue (`Z_PRIMARYKEY` is a save's when it reserves keys).
    static let upkeepTables: Set<String> = ["Z_METADATA", "Z_MODELCACHE", "SQLITE_MASTER", "SQLITE_SCHEMA", "SQLITE_SEQUENCE", "SQLITE_STAT1"]

    /// Persistent history's tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`) and
    /// CloudKit mirroring's (`ANSCK…`): Core Data's, not the model's.
    static func isUpkeepTable(_ name: String) -> Bool {
        upkeepTables.contains(name) || ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"].contains(name) || name.hasPrefix("ANSCK")
    }

    /// What the statement does, or why that is not known.
    public func kind() -> Result<StatementKind, NotUnderstood> { kind(tokens) }

    func kind(_ tokens: SQLTokens) -> Result<StatementKind, NotUnderstood> {
        if tokens.unfinished { return .failure(NotUnderstood("cut off: the statement ends inside it (an open quote or parenthesis, or a clause without its end)")) }
        guard let verb = tokens.verb else { return .failure(NotUnderstood("no SQL in it")) }
        let tables = tokens.tables
        switch verb {
        case "BEGIN", "SAVEPOINT": return .success(.begin)
        case "COMMIT", "END", "ROLLBACK", "RELEASE": return .success(.commit)
        case "PRAGMA", "CREATE", "DROP", "ALTER", "ANALYZE", "VACUUM", "REINDEX", "ATTACH", "DETACH": return .success(.storeUpkeep)
        default: break
        }
        if tables.contains("Z_PRIMARYKEY") {
            // Opening a new store writes a row per entity; a save reads and moves the counters.
            return .success(verb == "INSERT" || verb == "DELETE" ? .storeUpkeep : .keyReservation)
        }
        if !tables.isEmpty, tables.allSatisfy(Self.isUpkeepTable) { return .success(.storeUpkeep) }
        switch verb {
        case "INSERT", "REPLACE": return .success(.insert)
        case "UPDATE": return .success(.update)
        case "DELETE": return .success(.delete)
        case "SELECT", "WITH": return selectKind(tokens)
        default: return .failure(NotUnderstood("\(SQLTokens.shown(verb, else: "a statement of another word")) is not a statement Core Data sends"))
        }
    }

    private func selectKind(_ tokens: SQLTokens) -> Result<StatementKind, NotUnderstood> {
        guard !tokens.tables.isEmpty else { return .failure(NotUnderstood("a SELECT that reads no table")) }
        if toMany != nil { return .success(.toManyFault) }
        if prefetchKey != nil { return .success(.prefetch) }
        let list = tokens.selectList
        let grouped = tokens.contains(words: ["GROUP", "BY"])
        if list.count == 1, list[0].first?.text == "COUNT", !grouped { return .success(.count) }
        let header = list.prefix(3).map { item in item.last.map { $0.text } ?? "" }
        let objectHeader = list.count >= 2 && (header[0] == "Z_ENT" || header[0] == "0") && header[1] == "Z_PK"
        guard objectHeader, !grouped else { return .success(.dictionaryFetch) }
        if list.count == 2 { return .success(.idPass) }
        if faultEntity != nil { return .success(.fault) }
        if tokens.contains(words: ["Z_PK", "IN"]) && (tokens.tokens.contains { $0.text.hasPrefix("_Z_INTARRAY") } || tokens.contains(words: ["Z_PK", "IN", "(", "?"])) { return .success(.batch) }
        return .success(.fetch)
    }
}
