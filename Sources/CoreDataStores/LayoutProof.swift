import CoreDataLayout
import Models
import Strategies

/// The suite's `single-table` layout (`CoreDataSchema`) of a store's own model, held against the
/// tables, indexes and `Z_PRIMARYKEY` rows Core Data made for it:
/// `layout: 213 of 213 columns in place, 28 of 28 indexes, Z_PRIMARYKEY 13 of 13`, then each difference.
///
/// Columns a migration appended (after ` , ` in the store's `CREATE TABLE`: Core Data's
/// `ALTER TABLE … ADD COLUMN`) are compared as a set, not by place, and counted apart.
public struct LayoutProof: Sendable {
    public let columns: Int
    public let columnsInPlace: Int
    /// Columns the store holds after a migration's ` , `.
    public let appendedColumns: Int
    public let indexes: Int
    public let indexesInPlace: Int
    public let entities: Int
    public let entitiesInPlace: Int
    /// Of those, the rows that keep the name an entity had before a migration renamed it.
    public let renamedEntities: Int
    /// Some index is in place only as a framework before fetch indexes makes it (its name, or a
    /// uniqueness constraint kept as a clause of its table), not as today's framework would.
    public let earlierIndexNames: Bool
    /// One line for each difference.
    public let differences: [String]
    /// One line for each index the store holds for a reason outside its model, named (the app's
    /// own, a copy an earlier model version left): not a difference of the layout.
    public let explained: [String]

    /// The tables Core Data keeps beside the model's (persistent history, its bookkeeping).
    static let ownTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"]

    public var summary: String {
        "layout: \(columnsInPlace) of \(columns) columns in place\(appendedColumns > 0 ? " (\(appendedColumns) appended by a migration)" : ""), "
            + "\(indexesInPlace) of \(indexes) indexes\(earlierIndexNames ? " (named as a framework before fetch indexes names them)" : ""), "
            + "Z_PRIMARYKEY \(entitiesInPlace) of \(entities)\(renamedEntities > 0 ? " (\(renamedEntities) under the name before a migration renamed it)" : "")"
    }

    public init(model: Model, store: CoreDataStoreFile) {
        let schema = CoreDataSchema(model)
        let tables = Self.compareTables(schema, store)
        let indexes = Self.compareIndexes(schema, store)
        let rtrees = Self.compareRTrees(schema, store)
        let keys = Self.comparePrimaryKeys(model, store)
        columns = tables.columns
        columnsInPlace = tables.inPlace
        appendedColumns = tables.appended
        self.indexes = indexes.count + rtrees.count
        indexesInPlace = indexes.inPlace + rtrees.inPlace
        entities = model.entities.count
        entitiesInPlace = keys.inPlace
        renamedEntities = keys.renamed
        earlierIndexNames = indexes.earlierNames
        differences = tables.differences + indexes.differences + rtrees.differences + keys.differences
        explained = indexes.explained
    }

    /// The layout's name in the differences (the strategy whose layout `CoreDataSchema` is).
    static var layout: String { SingleTable.name }

    static let bookkeepingColumns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

    /// The expected columns (after `Z_PK, Z_ENT, Z_OPT`) of every table against the store's.
    static func compareTables(_ schema: CoreDataSchema, _ store: CoreDataStoreFile) -> (columns: Int, inPlace: Int, appended: Int, differences: [String]) {
        var expectedTables: [(name: String, columns: [String])] = schema.model.roots.map { root in
            let table = schema.table(of: root)
            return (table.name, table.tableOrder.map { "\($0.name) \($0.sqlType)" })
        }
        for join in schema.joinTables {
            expectedTables.append((join.name, ["\(join.first.column) INTEGER", "\(join.second.column) INTEGER"] + (join.orderColumn.map { ["\($0) INTEGER"] } ?? [])))
        }
        let storeTables = Dictionary(store.schema.filter { $0.type == "table" }.map { ($0.name, $0.sql ?? "") }, uniquingKeysWith: { first, _ in first })
        var columns = 0, inPlace = 0, appended = 0
        var differences: [String] = []
        func isBookkeeping(_ column: String) -> Bool { bookkeepingColumns.contains(column.split(separator: " ").first.map(String.init) ?? "") }
        for (name, expected) in expectedTables {
            columns += expected.count
            guard let sql = storeTables[name] else { differences.append("table \(name) is not in the store"); continue }
            let found = Self.columns(ofTable: sql)
            let rest = found.base.filter { !isBookkeeping($0) }
            let appendedNames = Set(found.appended)
            let expectedBase = expected.filter { !appendedNames.contains($0) }
            let explained = found.appended.filter(expected.contains).count
            let placed = zip(expectedBase, rest).filter { $0 == $1 }.count
            appended += explained
            inPlace += placed + explained
            guard placed < expectedBase.count || rest.count != expectedBase.count else { continue }
            if let first = zip(expectedBase, rest).enumerated().first(where: { $1.0 != $1.1 }) {
                differences.append("\(name): column \(first.offset + 4) is \(first.element.1) in the store, \(first.element.0) in \(layout)")
            }
            let missing = expected.filter { !found.base.contains($0) && !appendedNames.contains($0) }
            let extra = (found.base + found.appended).filter { !expected.contains($0) && !isBookkeeping($0) }
            if !missing.isEmpty { differences.append("\(name): \(layout) has \(missing.joined(separator: ", ")), the store does not") }
            if !extra.isEmpty { differences.append("\(name): the store has \(extra.joined(separator: ", ")), \(layout) does not") }
        }
        let expectedNames = Set(expectedTables.map(\.name))
        // An R-tree's virtual table and SQLite's three tables behind it are compared as an index.
        let rtreeTables = Set(rtreeNames(schema).flatMap { name in ["", "_node", "_parent", "_rowid"].map { name + $0 } })
        for name in storeTables.keys.sorted() where !expectedNames.contains(name) && !ownTables.contains(name) && !name.hasPrefix("sqlite_") && !rtreeTables.contains(name) {
            differences.append("table \(name) is in the store, not in \(layout)")
        }
        return (columns, inPlace, appended, differences)
    }

    /// The expected indexes against the store's, by name and definition (whitespace aside).
    static func compareIndexes(_ schema: CoreDataSchema, _ store: CoreDataStoreFile)
        -> (count: Int, inPlace: Int, earlierNames: Bool, differences: [String], explained: [String]) {
        let today = schema.todaysIndexSQL.compactMap(indexName)
        let expected = store.legacyIndexes ? schema.legacyIndexSQL.compactMap(indexName) : today
        // Indexes of the tables Core Data keeps for itself (persistent history's) are not compared.
        let storeIndexes = Dictionary(store.schema.compactMap { entry in entry.type == "index" && !ownTables.contains(entry.table) ? entry.sql.map { (entry.name, normalized($0)) } : nil },
                                      uniquingKeysWith: { first, _ in first })
        var inPlace = 0
        var earlierNames = false
        var differences: [String] = []
        for (name, sql) in expected {
            guard let found = storeIndexes[name] else { differences.append("index \(name) is not in the store"); continue }
            if found == normalized(sql) {
                inPlace += 1
                earlierNames = earlierNames || !today.contains { $0.name == name && normalized($0.sql) == found }
            } else { differences.append("index \(name) is \(found) in the store, \(normalized(sql)) in \(layout)") }
        }
        // A model without fetch indexes: each uniqueness constraint is a clause of its table (a
        // framework before fetch indexes, Moody's 637) or the unique index a later one makes
        // (CoreDataPlus's fixtures of 1044 and 1344, models without fetch indexes): either is in place.
        let constraints = store.legacyIndexes ? legacyConstraints(schema) : []
        let tables = Dictionary(store.schema.filter { $0.type == "table" }.map { ($0.name, normalized($0.sql ?? "")) }, uniquingKeysWith: { first, _ in first })
        var uniqueIndexes: Set<String> = []
        for constraint in constraints {
            if tables[constraint.table]?.contains(constraint.clause) == true {
                inPlace += 1
                earlierNames = true
            } else if let index = indexName(constraint.index), storeIndexes[index.name] == normalized(index.sql) {
                inPlace += 1
                uniqueIndexes.insert(index.name)
            } else {
                differences.append("\(constraint.table): the store has no \(constraint.clause)")
            }
        }
        let expectedNames = Set(expected.map(\.name)).union(uniqueIndexes)
        var explained: [String] = []
        for name in storeIndexes.keys.sorted() where !expectedNames.contains(name) {
            if let reason = reason(forIndex: name, storeIndexes[name] ?? "", expected: expected, model: schema.model) { explained.append("index \(name) \(reason)") }
            else { differences.append("index \(name) is in the store, not in \(layout)") }
        }
        return (expected.count + constraints.count, inPlace, earlierNames, differences, explained)
    }

    /// Why the store holds an index the model does not give, where its name and definition say:
    /// a name Core Data never gives (every name it gives starts with `Z`: Photos' own
    /// `RADAR_10322662_INDEX`), or the columns of an index the layout has on the same table under
    /// another Core Data name (an earlier model version's entity numbers: a migration renamed the
    /// table and left the index, as Photos' `Z_26ASSETS_Z_34ASSETS_INDEX ON "Z_28ASSETS" (Z_3ASSETS,
    /// Z_28ALBUMS)` beside `Z_28ASSETS_Z_3ASSETS_INDEX`), or a fetch index's name of an entity of
    /// the model that declares no such index (an earlier version's, which a migration leaves:
    /// Photos' `Z_Memory_searchIndexRebuildState` beside today's `Z_Memory_bySearchIndexRebuildState`).
    static func reason(forIndex name: String, _ sql: String, expected: [(name: String, sql: String)], model: Model) -> String? {
        guard name.hasPrefix("Z") else { return "is the app's own (Core Data gives no index such a name), not its model's" }
        func definition(_ sql: String) -> String? {
            let sql = normalized(sql)
            return sql.range(of: " ON ").map { String(sql[$0.upperBound...]).replacingOccurrences(of: "\"", with: "") }
        }
        if let own = definition(sql), let copied = expected.first(where: { definition($0.sql) == own }) {
            return "is an earlier model version's copy of \(copied.name) (the same columns of the same table, named by that version's entity numbers), left by a migration"
        }
        if let entity = model.entities.first(where: { name.hasPrefix("Z_\($0.name)_") }) {
            return "is named as a fetch index of \(entity.name), which the model no longer declares: an earlier model version's, left by a migration"
        }
        return nil
    }

    /// The layout's R-trees (`CoreDataSchema.rtreeSQL`: a virtual table and its three triggers
    /// each), by name.
    static func rtrees(_ schema: CoreDataSchema) -> [(name: String, statements: [String])] {
        let statements = schema.rtreeSQL
        return stride(from: 0, to: statements.count, by: 4).map { start in
            let group = Array(statements[start ..< min(start + 4, statements.count)])
            return (String(group[0].dropFirst("CREATE VIRTUAL TABLE ".count).prefix { $0 != " " }), group)
        }
    }

    /// The names of the layout's R-trees.
    static func rtreeNames(_ schema: CoreDataSchema) -> [String] { rtrees(schema).map(\.name) }

    /// Each of the layout's R-trees against the store's: in place when its virtual table and its
    /// triggers are the store's, whitespace aside (an R-tree counts as one index).
    static func compareRTrees(_ schema: CoreDataSchema, _ store: CoreDataStoreFile) -> (count: Int, inPlace: Int, differences: [String]) {
        let found = Dictionary(store.schema.compactMap { entry in entry.sql.map { (entry.name, normalized($0)) } }, uniquingKeysWith: { first, _ in first })
        var inPlace = 0
        var differences: [String] = []
        let trees = rtrees(schema)
        for (name, statements) in trees {
            let missing = statements.filter { sql in
                let object = sql.hasPrefix("CREATE TRIGGER ") ? String(sql.split(separator: " ")[2]) : name
                return found[object] != normalized(sql)
            }
            if missing.isEmpty { inPlace += 1 } else if found[name] == nil {
                differences.append("R-tree \(name) is not in the store")
            } else {
                differences.append("R-tree \(name) is in the store, but not as \(layout) keeps it: \(missing.map { normalized($0) }.joined(separator: "; "))")
            }
        }
        return (trees.count, inPlace, differences)
    }

    /// A framework before fetch indexes keeps a uniqueness constraint in its table:
    /// `CONSTRAINT <C1>_<C2> UNIQUE (<C1>, <C2>)` (Moody's `ZGEOGRAPHICREGION`).
    /// With each, the unique index a later framework makes of it (`Z_<Entity>_UNIQUE_<a>_<b>`).
    static func legacyConstraints(_ schema: CoreDataSchema) -> [(table: String, clause: String, index: String)] {
        let uniqueIndexes = schema.todaysIndexSQL.filter { $0.hasPrefix("CREATE UNIQUE INDEX ") }
        return schema.model.entities.flatMap { entity in
            entity.uniquenessConstraints.map { constraint in
                let columns = constraint.map { schema.column(entity.index, attribute: $0) ?? schema.columns(entity.index, toOne: $0)?.key ?? "Z" + $0.uppercased() }
                let name = CoreDataSchema.uniqueIndexName(entity.name, constraint)
                return (schema.table(of: entity.index).name, "CONSTRAINT \(columns.joined(separator: "_")) UNIQUE (\(columns.joined(separator: ", ")))",
                        uniqueIndexes.first { indexName($0)?.name == name } ?? "")
            }
        }
    }

    /// `Z_PRIMARYKEY`: number, name and parent of every entity. A row may keep the name its entity
    /// had before a migration renamed it (the entity's renaming identifier): a migrated store of
    /// CoreDataPlus's test fixtures keeps `ExpensiveSportCar` for the entity now `LuxuryCar`.
    static func comparePrimaryKeys(_ model: Model, _ store: CoreDataStoreFile) -> (inPlace: Int, renamed: Int, differences: [String]) {
        var (inPlace, renamed) = (0, 0)
        var differences: [String] = []
        let rows = Dictionary(store.primaryKeys.map { ($0.entity, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in model.entities {
            let parent = entity.parent.map { $0 + 1 } ?? 0
            if let row = rows[entity.number], row.name == entity.name, row.parent == parent { inPlace += 1; continue }
            if let row = rows[entity.number], row.name == store.renamings[entity.name], row.parent == parent { (inPlace, renamed) = (inPlace + 1, renamed + 1); continue }
            let found = rows[entity.number].map { "\($0.name) (parent \($0.parent))" } ?? "nothing"
            differences.append("Z_PRIMARYKEY \(entity.number) is \(found) in the store, \(entity.name) (parent \(parent)) in \(layout)")
        }
        return (inPlace, renamed, differences)
    }

    /// The columns of a `CREATE TABLE` statement as `NAME TYPE`, split where a migration appended
    /// (the first ` , `); constraints such as `PRIMARY KEY (…)` left out.
    public static func columns(ofTable sql: String) -> (base: [String], appended: [String]) {
        guard let open = sql.firstIndex(of: "("), let close = sql.lastIndex(of: ")"), open < close else { return ([], []) }
        let body = sql[sql.index(after: open) ..< close]
        var items: [(text: String, appended: Bool)] = []
        var current = "", depth = 0, appended = false, previous: Character = " "
        for character in body {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                items.append((current, appended))
                if previous == " ", !appended { appended = true }
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        items.append((current, appended))
        // The item before the first " , " is the last one of the base table.
        let cleaned = items.map { (text: $0.text.split(whereSeparator: \.isWhitespace).prefix(2).joined(separator: " "), appended: $0.appended) }
            .filter { !$0.text.isEmpty && !["PRIMARY", "UNIQUE", "CHECK", "CONSTRAINT", "FOREIGN"].contains($0.text.split(separator: " ").first.map { $0.uppercased() } ?? "") }
        return (cleaned.filter { !$0.appended }.map(\.text), cleaned.filter(\.appended).map(\.text))
    }

    static func indexName(_ sql: String) -> (name: String, sql: String)? {
        let words = sql.split(separator: " ")
        guard let at = words.firstIndex(of: "INDEX"), words.index(after: at) < words.endIndex else { return nil }
        return (String(words[words.index(after: at)]), sql)
    }

    /// A statement with its whitespace collapsed and none inside parentheses' edges.
    static func normalized(_ sql: String) -> String {
        sql.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
    }
}
