import CoreDataLayout
import Models

/// A read statement of Core Data's, read back through the model's Core Data layout as the fetch
/// an app made, written in the fetch format (`FetchSpec`: `[COUNT | IDS] [ONLY] Entity [PROPERTIES
/// …] [WHERE predicate] [SORT BY …] [LIMIT n] [OFFSET n]`). Each `?` and string literal becomes
/// `%@` (a value drawn from the data when the fetch is timed), so the text holds no value of the
/// app's; a number the statement itself writes stays. What it cannot read yet (a join through a
/// to-many, a subquery, a dictionary fetch, a form Core Data does not write) is a `NotUnderstood`
/// saying so.
struct LogFetch {
    /// What the statement reads: a fetch's text, or a batch of the ID pass before it.
    enum Reading: Equatable {
        case fetch(String)
        /// An ID pass of `root`'s hierarchy: the fetch's text after `IDS ` (a batched fetch when batches follow).
        case ids(String, root: Int)
        /// `t0.Z_PK IN (SELECT * FROM _Z_intarray0)`: objects of `entity` by the keys of the ID pass before.
        case batch(entity: Int, limit: Int?)
    }

    let schema: LogSchema
    let statement: LoggedStatement
    let tokens: [SQLTokens.Token]
    var position = 0
    /// The alias of each table read (`t0` → its table).
    var aliases: [String: String] = [:]
    /// The key path to the objects each alias of a joined table reads (`t1` → `author`).
    var paths: [String: String] = [:]
    /// The aliases whose columns the condition or the sort reads.
    var used: Set<String> = []
    /// The terms of the AND read last.
    var andTerms = 0
    /// Whether more than one entity sends the statement's select list.
    var ambiguousList = false
    /// How deep the condition's parentheses and NOTs go.
    var depth = 0
    /// Every comparison of the row's `Z_ENT` (`=`, `>=`, `<=`, … a number, nil when bound and not
    /// logged); those that end the condition as an entity filter would (`entityTerms`, their
    /// markers in the predicate's text `filterMarkers`).
    var allEntityTerms: [(op: String, number: Int64?)] = []
    var entityTerms: [(op: String, number: Int64?)] = []
    var filterMarkers: [String] = []
    var parameter = 0
    var keyInList = false
    /// The aliases of the objects a to-many relationship reaches (their columns compared as `ANY`).
    var toMany: Set<String> = []

    init(schema: LogSchema, statement: LoggedStatement) {
        self.schema = schema
        self.statement = statement
        tokens = statement.tokens.tokens
    }

    static func read(_ statement: LoggedStatement, kind: StatementKind, schema: LogSchema) -> Result<Reading, NotUnderstood> {
        var reader = LogFetch(schema: schema, statement: statement)
        do { return .success(try reader.read(kind)) } catch let error as NotUnderstood { return .failure(error) } catch { return .failure(NotUnderstood("\(error)")) }
    }

    // MARK: The statement

    mutating func read(_ kind: StatementKind) throws -> Reading {
        guard [.fetch, .idPass, .batch, .fault, .toManyFault, .count, .dictionaryFetch].contains(kind) else { throw NotUnderstood(Self.notYet(kind)) }
        try expect("SELECT")
        // Each object once, though a to-many's join reads it once per object reached.
        let distinct = accept("DISTINCT")
        try skipToClause(["FROM"])
        try expect("FROM")
        let (table, root) = try fromClause()
        if kind == .toManyFault, let joined = try joinTableFault(table) { return .fetch(joined) }
        guard let root else { throw NotUnderstood("a read of \(SQLTokens.shown(table, else: "a table")), which holds no entity's objects, is not replayed") }
        try joins()
        let predicate = accept("WHERE") ? try orExpression(top: true) : ""
        if peek("HAVING") { throw NotUnderstood("a HAVING without GROUP BY is not read") }
        let grouping = accept("GROUP") ? try groupBy() : ""
        let sort = accept("ORDER") ? try orderBy() : []
        let (limit, offset) = try page()
        guard position == tokens.count else { throw NotUnderstood("\(nearby) after the statement's clauses is not read") }
        guard Set(paths.keys).isSubset(of: used) else { throw NotUnderstood("a join its condition and sort do not read is not replayed") }
        let shape = try selectShape(root: root, distinct: distinct && toMany.isEmpty)
        // Through a to-many, objects once each (DISTINCT, or a count of distinct keys); else neither.
        let countsDistinct = statement.tokens.selectList.first.map { $0.count > 2 && $0[2].text == "DISTINCT" } ?? false
        if case .dictionary = shape {
            guard toMany.isEmpty else { throw NotUnderstood("a fetch of dictionaries through a to-many relationship is not replayed yet") }
        } else if !grouping.isEmpty {
            throw NotUnderstood("a GROUP BY of objects is not read")
        } else if !(toMany.isEmpty ? !distinct && !countsDistinct : (shape == .count ? countsDistinct : distinct)) {
            throw NotUnderstood(toMany.isEmpty ? "a SELECT DISTINCT of objects read without a to-many join is not read" : "a join through a to-many relationship without DISTINCT is not read")
        }
        // A partial fetch (`propertiesToFetch`) and a fetch of dictionaries are read.
        if kind == .dictionaryFetch {
            switch shape {
            case .properties, .dictionary: break
            default: throw NotUnderstood(Self.notYet(kind))
            }
        }
        if keyInList {
            guard case let .objects(entity) = shape, predicate == Self.keyList, sort.isEmpty else { throw NotUnderstood("a key list read with other conditions is not replayed yet") }
            return .batch(entity: entity, limit: limit)
        }
        let text = try text(shape, root: root, predicate: predicate, grouping: grouping, sort: sort, limit: limit, offset: offset)
        return shape == .ids ? .ids(String(text.dropFirst(4)), root: root) : .fetch(text)
    }

    static func notYet(_ kind: StatementKind) -> String {
        switch kind {
        case .prefetch: "a prefetch is read with the fetch that sets it off (the statement before it), not alone"
        case .dictionaryFetch: "a fetch of values other than distinct attributes, aggregates and groups is not replayed yet"
        case .begin, .keyReservation, .insert, .update, .delete, .commit: "a save's statements are not replayed yet"
        default: "\(kind.rawValue) is not replayed"
        }
    }

    /// What the select list asks for: objects of an entity (its select list, `CoreDataSchema.selectList`),
    /// keys (an ID pass), a count, attributes then entity number and key (a partial fetch), or
    /// dictionaries (PROPERTIES items of distinct attributes or aggregates).
    enum Shape: Equatable { case objects(Int), ids, count, properties([String]), dictionary(String) }

    mutating func selectShape(root: Int, distinct: Bool) throws -> Shape {
        let items = statement.tokens.selectList
        if items.count == 1, items[0].first?.text == "COUNT" {
            let inside = items[0].dropFirst().map(\.text).joined()
            if inside == "(*)" || inside.hasSuffix(".Z_PK)") { return .count }
            // `COUNT(t0.ZX)`: an aggregate alone (`count:(x)`).
            if let items = try dictionaryItems(root: root, distinct: distinct) { return .dictionary(items) }
            throw NotUnderstood("a count of something other than the objects is not replayed")
        }
        let texts = items.map { $0.map(\.text).joined() }
        if texts.count == 2, ["0", "T0.Z_ENT"].contains(texts[0]), texts[1] == "T0.Z_PK" { return .ids }
        let matching = schema.model.entities[root].subtree.filter { schema.selectLists[$0] == texts }
        if let entity = matching.first {
            // Entities with no columns of their own send their parent's list: which one, only a number says.
            ambiguousList = matching.count > 1
            return .objects(entity)
        }
        if texts.count > 2, texts.suffix(2) == ["T0.Z_ENT", "T0.Z_PK"] {
            var names: [String] = []
            for text in texts.dropLast(2) { names.append(try attributeName(text, root: root)) }
            return .properties(names)
        }
        if let items = try dictionaryItems(root: root, distinct: distinct) { return .dictionary(items) }
        throw NotUnderstood(Self.notYet(.dictionaryFetch))
    }

    /// The fetch format's text.
    func text(_ shape: Shape, root: Int, predicate: String, grouping: String = "", sort: [String], limit: Int?, offset: Int?) throws -> String {
        let (entity, only, predicate) = try resolved(shape, root: root, predicate: predicate)
        var text = ""
        switch shape {
        case .count: text = "COUNT "
        case .ids: text = "IDS "
        default: break
        }
        text += (only ? "ONLY " : "") + schema.model.entities[entity].name
        if case let .properties(names) = shape { text += " PROPERTIES " + names.joined(separator: ", ") }
        if case let .dictionary(items) = shape { text += " PROPERTIES " + items }
        if !predicate.isEmpty { text += " WHERE " + predicate }
        text += grouping
        if !sort.isEmpty { text += " SORT BY " + sort.joined(separator: ", ") }
        if let limit { text += " LIMIT \(limit)" }
        if let offset { text += " OFFSET \(offset)" }
        return text
    }

    /// The entity the statement fetches and whether without its sub-entities: from its entity
    /// filter (`Z_ENT = n`: that entity alone; `Z_ENT >= n AND Z_ENT <= m`: it and its
    /// sub-entities; none: the whole hierarchy), the numbers written or bound, else the entity
    /// whose select list it sends. Throws `NotTheEntityFilter` when the terms are no filter Core Data
    /// writes for the entity (they compare the object's entity in the predicate).
    func fetchedEntity(_ shape: Shape, root: Int, _ entityTerms: [(op: String, number: Int64?)]) throws -> (entity: Int, only: Bool) {
        let selected: Int? = if case let .objects(entity) = shape { entity } else { nil }
        guard let first = entityTerms.first else {
            // Without an entity filter Core Data fetches a root; an entity whose fetch writes one sent it.
            if let selected, selected != root, schema.schema.entityFilter(selected, includesSubentities: true) != nil {
                throw NotUnderstood("a fetch of an entity's columns without its entity filter is not read")
            }
            return (selected ?? root, false)
        }
        let subtree = schema.model.entities[root].subtree
        // `Z_ENT = ?` is the entity alone (`ONLY`) unless its fetch with sub-entities is written so (a leaf's).
        func only(_ entity: Int) -> Bool { first.op == "=" && schema.schema.entityFilter(entity, includesSubentities: true)?.values.count != 1 }
        // The terms are the entity filter only when Core Data writes one for the entity so: else
        // they compare the object's entity in the predicate (`entity == %@`).
        func checked(_ entity: Int) throws -> (entity: Int, only: Bool) {
            let written = [true, false].compactMap { schema.schema.entityFilter(entity, includesSubentities: $0)?.values.count }
            guard written.contains(entityTerms.count) else { throw NotTheEntityFilter() }
            return (entity, only(entity))
        }
        if let number = first.number {
            guard number >= 1, number <= Int64(schema.model.entities.count), subtree.contains(Int(number) - 1) else {
                throw NotUnderstood("an entity number that is not of \(schema.model.entities[root].name)'s hierarchy")
            }
            let entity = Int(number) - 1
            // Both bounds of a range, where logged, must be the entity's own (a log of another model version's are not).
            let bounds = schema.schema.entityFilter(entity, includesSubentities: true)?.values ?? []
            if entityTerms.count == 2, bounds.count == 2, zip(entityTerms, bounds).contains(where: { term, bound in term.number.map { $0 != bound } ?? false }) {
                throw NotUnderstood("an entity filter whose numbers are not an entity's range (a log of another model version?)")
            }
            // A fetch sends its entity's select list: another entity's number is compared in the predicate.
            if let selected, schema.selectLists[selected] != schema.selectLists[entity] {
                throw NotTheEntityFilter()
            }
            return try checked(entity)
        }
        if let selected {
            guard !ambiguousList else { throw NotUnderstood("which of the entities sending this select list its Z_ENT = ? names is in the bound values (log with -com.apple.CoreData.SQLDebug 2)") }
            return try checked(selected)
        }
        throw NotUnderstood("which entity its Z_ENT = ? names is in the bound values, which a level-1 log leaves out (log with -com.apple.CoreData.SQLDebug 2)")
    }

    // MARK: FROM

    /// The table after FROM and its alias; the root entity when it is a hierarchy's table.
    mutating func fromClause() throws -> (table: String, root: Int?) {
        let table = try name()
        if let alias = tokens[safe: position], alias.kind == .word, !Self.clauseWords.contains(alias.text) {
            aliases[alias.text] = table
            position += 1
        }
        aliases[table] = table
        if case let .hierarchy(root, _)? = schema.tables[table] { return (table, root) }
        return (table, nil)
    }

    /// Core Data's to-many fault of a many-to-many: `SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0
    /// ON t0.Z_PK = t1.Z_2TAGS WHERE t1.Z_1ITEMS = ?`, read as the IDs of the destination's objects
    /// whose inverse holds the object (`IDS Tag WHERE items CONTAINS %@`).
    mutating func joinTableFault(_ table: String) throws -> String? {
        guard case let .join(join, _)? = schema.tables[table] else { return nil }
        let unread = NotUnderstood("a to-many fault through \(table) in a form not read yet")
        // From here: JOIN <destination> T0 ON T0 . Z_PK = <j> . <other> WHERE <j> . <this> = ?, and the end.
        let words = Array(tokens[position...].map(\.text)), list = statement.tokens.selectList.map { $0.map(\.text).joined() }
        guard let joinAlias = aliases.first(where: { $0.value == table && $0.key != table })?.key, words.count == 17, tokens.last?.kind == .parameter,
              words[0] == "JOIN", words[2 ... 9] == ["T0", "ON", "T0", ".", "Z_PK", "=", joinAlias, "."], words[11 ... 13] == ["WHERE", joinAlias, "."], words[15] == "=",
              list == ["0", "T0.Z_PK"] || list == ["T0.Z_ENT", "T0.Z_PK"] else { throw unread }
        for side in [join.first, join.second] where join.columns(from: side.entity, side.relationship) == (words[14], words[10]) {
            guard let relationship = schema.model.entities[side.entity].relationship(side.relationship), let inverse = schema.model.inverse(of: relationship),
                  schema.schema.table(of: relationship.destination).name == words[1] else { continue }
            return "IDS \(schema.model.entities[relationship.destination].name) WHERE \(inverse.name) CONTAINS %@"
        }
        throw unread
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
