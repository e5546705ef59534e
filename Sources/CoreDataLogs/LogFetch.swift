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
    /// The entity filter's comparisons: `Z_ENT` `=`, `>=` or `<=` a number (nil when bound and not logged).
    var entityTerms: [(op: String, number: Int64?)] = []
    var parameter = 0
    var keyInList = false

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
        if peek("DISTINCT") { throw NotUnderstood("a SELECT DISTINCT (a fetch through a to-many relationship) is not replayed yet") }
        let listStart = position
        try skipToClause(["FROM"])
        let list = Array(tokens[listStart ..< position])
        try expect("FROM")
        let (table, root) = try fromClause()
        if kind == .toManyFault, let joined = try joinTableFault(table) { return .fetch(joined) }
        guard let root else { throw NotUnderstood("a read of \(SQLTokens.shown(table, else: "a table")), which holds no entity's objects, is not replayed") }
        try joins()
        let predicate = accept("WHERE") ? try orExpression(top: true) : ""
        guard !predicate.contains(Self.entityTerm) else { throw NotUnderstood("a comparison of the object's entity (Z_ENT) within the predicate is not replayed yet") }
        if peek("GROUP") || peek("HAVING") { throw NotUnderstood(Self.notYet(.dictionaryFetch)) }
        let sort = accept("ORDER") ? try orderBy() : []
        let (limit, offset) = try page()
        guard position == tokens.count else { throw NotUnderstood("\(nearby) after the statement's clauses is not read") }
        guard Set(paths.keys).isSubset(of: used) else { throw NotUnderstood("a join its condition and sort do not read is not replayed") }
        let shape = try selectShape(list, root: root)
        // A partial fetch (`propertiesToFetch`) is read; other fetches of values are not yet.
        if kind == .dictionaryFetch, case .properties = shape {} else if kind == .dictionaryFetch { throw NotUnderstood(Self.notYet(kind)) }
        if keyInList {
            guard case let .objects(entity) = shape, predicate == Self.keyList, sort.isEmpty else { throw NotUnderstood("a key list read with other conditions is not replayed yet") }
            return .batch(entity: entity, limit: limit)
        }
        let text = try text(shape, root: root, predicate: predicate, sort: sort, limit: limit, offset: offset)
        return shape == .ids ? .ids(String(text.dropFirst(4)), root: root) : .fetch(text)
    }

    static func notYet(_ kind: StatementKind) -> String {
        switch kind {
        case .prefetch: "a prefetch is timed with the fetch that sets it off: not replayed yet"
        case .dictionaryFetch: "a fetch of dictionaries (values, aggregates, groups) is not replayed yet"
        case .begin, .keyReservation, .insert, .update, .delete, .commit: "a save's statements are not replayed yet"
        default: "\(kind.rawValue) is not replayed"
        }
    }

    /// What the select list asks for: objects of an entity (its select list, `CoreDataSchema.selectList`),
    /// keys (an ID pass), a count, or attributes then entity number and key (a partial fetch).
    enum Shape: Equatable { case objects(Int), ids, count, properties([String]) }

    private mutating func selectShape(_ list: [SQLTokens.Token], root: Int) throws -> Shape {
        let items = Self.items(list)
        if items.count == 1, items[0].first?.text == "COUNT" {
            let inside = items[0].dropFirst().map(\.text).joined()
            guard inside == "(*)" || inside.hasSuffix(".Z_PK)") else { throw NotUnderstood("a count of something other than the objects is not replayed") }
            return .count
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
        throw NotUnderstood(Self.notYet(.dictionaryFetch))
    }

    /// The fetch format's text.
    private func text(_ shape: Shape, root: Int, predicate: String, sort: [String], limit: Int?, offset: Int?) throws -> String {
        let (entity, only) = try fetchedEntity(shape, root: root)
        var text = ""
        switch shape {
        case .count: text = "COUNT "
        case .ids: text = "IDS "
        default: break
        }
        text += (only ? "ONLY " : "") + schema.model.entities[entity].name
        if case let .properties(names) = shape { text += " PROPERTIES " + names.joined(separator: ", ") }
        if !predicate.isEmpty { text += " WHERE " + predicate }
        if !sort.isEmpty { text += " SORT BY " + sort.joined(separator: ", ") }
        if let limit { text += " LIMIT \(limit)" }
        if let offset { text += " OFFSET \(offset)" }
        return text
    }

    /// The entity the statement fetches and whether without its sub-entities: from its entity
    /// filter (`Z_ENT = n`: that entity alone; `Z_ENT >= n AND Z_ENT <= m`: it and its
    /// sub-entities; none: the whole hierarchy), the numbers written or bound, else the entity
    /// whose select list it sends.
    private func fetchedEntity(_ shape: Shape, root: Int) throws -> (entity: Int, only: Bool) {
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
            guard written.contains(entityTerms.count) else { throw NotUnderstood("a comparison of the object's entity (Z_ENT) within the predicate is not replayed yet") }
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
                throw NotUnderstood("a comparison of the object's entity (Z_ENT) within the predicate is not replayed yet")
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
    private mutating func fromClause() throws -> (table: String, root: Int?) {
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
    private mutating func joinTableFault(_ table: String) throws -> String? {
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

    // MARK: WHERE

    /// What a comparison of `Z_ENT` reads as until the entity filter is known to be it: Core Data
    /// joins its entity filter to the predicate by AND, at the end of the condition.
    private static let entityTerm = "\u{1}"
    /// What `t0.Z_PK IN (SELECT * FROM _Z_intarray0)` reads as: a batch's keys, the whole condition.
    private static let keyList = "\u{2}"

    /// The condition after WHERE as the fetch format's predicate; with `top`, the entity filter's
    /// terms that end it taken out (`entityTerms`).
    private mutating func orExpression(top: Bool = false) throws -> String {
        var parts = [try andExpression(top: top)]
        var bare = andTerms > 1
        let filtered = entityTerms.count
        while accept("OR") {
            parts.append(try andExpression(top: false))
            bare = bare || andTerms > 1
        }
        if parts.count > 1, filtered > 0 { throw NotUnderstood("a comparison of the object's entity (Z_ENT) within the predicate is not replayed yet") }
        // Core Data puts an AND within an OR in parentheses; one without (a BEGINSWITH[n] range) is not read.
        if parts.count > 1, bare { throw NotUnderstood("an AND within an OR without parentheses (a range of BEGINSWITH[n]) is not read") }
        return parts.count == 1 ? parts[0] : parts.joined(separator: " OR ")
    }

    private mutating func andExpression(top: Bool) throws -> String {
        var parts = [try notExpression()]
        while accept("AND") { parts.append(try notExpression()) }
        andTerms = parts.count
        // The entity filter, as Core Data ends the condition with it: `Z_ENT = ?`, or `Z_ENT >= ?
        // AND Z_ENT <= ?`. Any other comparison of Z_ENT is the predicate's own.
        if top {
            var filter = 0
            if parts.last == Self.entityTerm, let last = entityTerms.last {
                if last.op == "=" {
                    filter = 1
                } else if last.op == "<=", parts.count >= 2, parts[parts.count - 2] == Self.entityTerm, entityTerms.count >= 2, entityTerms[entityTerms.count - 2].op == ">=" {
                    filter = 2
                }
            }
            parts.removeLast(filter)
            entityTerms = Array(entityTerms.suffix(filter))
        }
        return parts.joined(separator: " AND ")
    }

    /// The deepest condition read: a hostile statement's nesting must not exhaust the stack.
    private static let deepest = 100

    private mutating func notExpression() throws -> String {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.deepest else { throw NotUnderstood("a condition nested deeper than \(Self.deepest) is not read") }
        if accept("NOT") { return "NOT (\(try notExpression()))" }
        return try primary()
    }

    private mutating func primary() throws -> String {
        if acceptSymbol("(") {
            if peek("SELECT") { throw NotUnderstood("a subquery (a to-many relationship's CONTAINS or count) is not replayed yet") }
            let inner = try orExpression()
            try expectSymbol(")")
            return "(\(inner))"
        }
        if tokens[safe: position]?.kind == .number, tokens[safe: position + 1].map({ Self.closing.contains($0.text) }) ?? true {
            let value = tokens[position].text
            position += 1
            guard value == "0" || value == "1" else { throw NotUnderstood("a condition \(value) is not read") }
            return value == "1" ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
        return try comparison()
    }

    private static let closing: Set<String> = [")", "AND", "OR", "ORDER", "LIMIT", "OFFSET"]

    private mutating func comparison() throws -> String {
        if let function = tokens[safe: position], function.kind == .word, function.text.hasPrefix("NSCOREDATA") { return try coreDataFunction() }
        let left = try operand()
        if accept("IS") {
            let negated = accept("NOT")
            try expect("NULL")
            return "\(try key(left)) \(negated ? "!=" : "==") nil"
        }
        let negated = accept("NOT")
        if accept("IN") {
            if acceptSymbol("("), peek("SELECT") {
                // `t0.Z_PK IN (SELECT * FROM _Z_intarray0)`: a batch's keys.
                let words = tokens[position...].prefix(4).map(\.text)
                guard words.count == 4, words[1] == "*", words[2] == "FROM", words[3].hasPrefix("_Z_INTARRAY") else {
                    throw NotUnderstood("a subquery (a to-many relationship's CONTAINS or count) is not replayed yet")
                }
                try skipToClose()
                guard case .column(_, "Z_PK") = left, !negated else { throw NotUnderstood("a key list of another column's is not replayed yet (a prefetch)") }
                keyInList = true
                return Self.keyList
            }
            if tokens[safe: position - 1]?.text != "(" { try expectSymbol("(") }
            var values: [String] = []
            repeat { values.append(try value(try operand())) } while acceptSymbol(",")
            try expectSymbol(")")
            return (negated ? "NOT (" : "") + "\(try key(left)) IN {\(values.joined(separator: ", "))}" + (negated ? ")" : "")
        }
        if accept("BETWEEN") {
            let lower = try value(try operand())
            try expect("AND")
            let upper = try value(try operand())
            return (negated ? "NOT (" : "") + "\(try key(left)) BETWEEN {\(lower), \(upper)}" + (negated ? ")" : "")
        }
        guard !negated, let op = tokens[safe: position], op.kind == .symbol, let comparison = Self.comparisons[op.text] else {
            throw NotUnderstood("a condition of a form not read yet near \(nearby)")
        }
        position += 1
        let right = try operand()
        if case let .column(alias, "Z_ENT") = left, (paths[alias ?? ""] ?? "").isEmpty {
            let number: Int64? = switch right {
            case let .literal(text): Int64(text)
            case let .parameter(index): index < statement.values.count ? { if case let .integer(value)? = statement.values[index] { value } else { nil } }() : nil
            default: nil
            }
            entityTerms.append((op.text, number))
            return Self.entityTerm
        }
        switch (left, right) {
        case (.column, .column): return "\(try key(left)) \(comparison) \(try key(right))"
        case (.column, _): return "\(try key(left)) \(comparison) \(try value(right))"
        case (_, .column): return "\(try key(right)) \(Self.flipped[comparison] ?? comparison) \(try value(left))"
        default: throw NotUnderstood("a comparison of two values is not read")
        }
    }

    private static let comparisons = ["=": "==", "==": "==", "<>": "!=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="]
    private static let flipped = ["<": ">", "<=": ">=", ">": "<", ">=": "<="]

    /// `NSCoreDataStringSearch(t0.ZX, ?, flags, locale)` and Core Data's other string functions,
    /// each read only when its numbers are exactly the ones Core Data writes for an operator and
    /// its options (`[c]` 257, `[d]` 384, `[cd]` 385, `[l]` adds 32 and 256, `[n]` 2; BEGINSWITH
    /// adds 8, ENDSWITH 12; LIKE's and MATCHES' `[c]` 1 and `[d]` 2).
    private mutating func coreDataFunction() throws -> String {
        let function = tokens[position].text
        position += 1
        try expectSymbol("(")
        var arguments: [Operand] = []
        repeat { arguments.append(try operand()) } while acceptSymbol(",")
        try expectSymbol(")")
        let arity = ["NSCOREDATASTRINGSEARCH": 4, "NSCOREDATASTRINGCOMPARE": 5, "NSCOREDATALIKE": 3, "NSCOREDATAMATCHES": 3][function]
        let numbers = arguments.dropFirst(2).map { operand -> Int? in if case let .literal(text) = operand { Int(text) } else { nil } }
        guard arguments.count == arity, case .column = arguments[0], numbers.allSatisfy({ $0 != nil }) else {
            throw NotUnderstood("\(SQLTokens.shown(function, else: "a function")) with arguments of a form not read")
        }
        let name = try key(arguments[0]), needle = try value(arguments[1]), given = numbers.compactMap { $0 }
        let unread = NotUnderstood("\(function) with flags Core Data does not write for an operator and its options is not read")
        switch function {
        case "NSCOREDATASTRINGSEARCH":
            let op = [0: "CONTAINS", 8: "BEGINSWITH", 12: "ENDSWITH"][given[0] & 12]
            guard let op, let options = Self.options[Pair(given[0] & ~12, given[1])] else { throw unread }
            return "\(name) \(op)\(options) \(needle)"
        case "NSCOREDATASTRINGCOMPARE":
            guard (1 ... 6).contains(given[0]), let options = Self.options[Pair(given[1], given[2])], !options.isEmpty, options != "[n]" else { throw unread }
            return "\(name) \(["<", "<=", "==", ">=", ">", "!="][given[0] - 1])\(options) \(needle)"
        default:
            guard (0 ... 3).contains(given[0]) else { throw unread }
            let options = (given[0] & 1 != 0 ? "c" : "") + (given[0] & 2 != 0 ? "d" : "")
            return "\(name) \(function == "NSCOREDATALIKE" ? "LIKE" : "MATCHES")\(options.isEmpty ? "" : "[\(options)]") \(needle)"
        }
    }

    /// The options of a string search or comparison by its flags and locale argument, as Core Data
    /// computes them (`StringOptions.compareFlags`).
    private static let options: [Pair: String] = [
        Pair(0, 0): "", Pair(257, 0): "[c]", Pair(384, 0): "[d]", Pair(385, 0): "[cd]", Pair(2, 0): "[n]",
        Pair(288, 1): "[l]", Pair(289, 1): "[cl]", Pair(416, 1): "[dl]", Pair(417, 1): "[cdl]",
    ]

    private struct Pair: Hashable {
        let flags: Int, locale: Int
        init(_ flags: Int, _ locale: Int) { self.flags = flags; self.locale = locale }
    }

    /// An operand: a column of the fetched table, a bound value, a literal.
    enum Operand: Equatable { case column(alias: String?, name: String), parameter(Int), literal(String), string, null }

    private mutating func operand() throws -> Operand {
        guard let token = tokens[safe: position] else { throw NotUnderstood("cut off") }
        position += 1
        switch token.kind {
        case .quoted: throw NotUnderstood("a quoted name or literal is not read")
        case .parameter:
            parameter += 1
            return .parameter(parameter - 1)
        case .number: return .literal(token.text)
        case .string: return .string
        case .symbol:
            if token.text == "-", let number = tokens[safe: position], number.kind == .number {
                position += 1
                return .literal("-" + number.text)
            }
            throw NotUnderstood("an operand '\(token.text)' of a form not read yet")
        case .word:
            if token.text == "NULL" { return .null }
            if acceptSymbol(".") {
                let column = try name()
                guard let table = aliases[token.text], case .hierarchy? = schema.tables[table] else {
                    throw NotUnderstood("a join through a to-many relationship (ANY, a key path through it) is not replayed yet")
                }
                return .column(alias: token.text, name: column)
            }
            guard aliases.count == 1 else { throw NotUnderstood("a column without its table's alias") }
            return .column(alias: nil, name: token.text)
        }
    }

    /// The fetch format's key of a column: an attribute, a to-one relationship, `self` for `Z_PK`;
    /// of a table joined through to-ones, the key path to it first (`author.name`).
    private mutating func key(_ operand: Operand) throws -> String {
        guard case let .column(alias, name) = operand else { throw NotUnderstood("a comparison without a column") }
        let (path, column) = try self.column(alias, name)
        if let alias { used.insert(alias) }
        func along(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        guard let column else { return path.isEmpty ? "self" : path }
        switch column.role {
        case let .attribute(index):
            let attribute = schema.model.entities[column.entity].attributes[index]
            guard !attribute.isOrderKey else { throw NotUnderstood("an ordered relationship's order column \(name) is not replayed yet") }
            return along(attribute.name)
        case let .foreignKey(relationship): return along(relationship)
        case .foreignEntity: throw NotUnderstood("a to-one's entity column \(name) compared is not read")
        }
    }

    /// The key path to the objects an alias reads, and the column `name` of its table (nil for `Z_PK`).
    private func column(_ alias: String?, _ name: String) throws -> (path: String, column: CoreDataSchema.Column?) {
        let alias = alias ?? aliases.keys.first ?? ""
        let path = paths[alias] ?? ""
        if name == "Z_PK" { return (path, nil) }
        guard let table = aliases[alias], case let .hierarchy(root, _)? = schema.tables[table],
              let found = schema.schema.tables[root]?.fetchOrder.first(where: { $0.name == name }) else {
            throw NotUnderstood("column \(SQLTokens.shown(name, else: "named")) is not one the replay reads")
        }
        return (path, found)
    }

    /// `[LEFT OUTER] JOIN ZAUTHOR t1 ON t0.ZAUTHOR = t1.Z_PK`: a key path's step through a to-one
    /// of a table read, its alias then the objects at the path (`paths`). A join through a to-many
    /// (its join table or its destination's foreign key) is not read yet.
    private mutating func joins() throws {
        while accept("JOIN") || (accept("LEFT") && (accept("OUTER") || true) && accept("JOIN")) || (accept("INNER") && accept("JOIN")) {
            let table = try name()
            guard let alias = tokens[safe: position], alias.kind == .word else { throw NotUnderstood("a join without its alias") }
            position += 1
            try expect("ON")
            aliases[alias.text] = table
            let left = try operand()
            try expectSymbol("=")
            let right = try operand()
            // The side naming the joined table's key, and the side naming the foreign key.
            let (joined, foreign): (Operand, Operand) = if case .column(alias.text, "Z_PK") = right { (right, left) } else { (left, right) }
            guard case .column(alias.text, "Z_PK") = joined, case let .column(from?, name) = foreign, from != alias.text, case .hierarchy? = schema.tables[table],
                  case let (path, column?) = try column(from, name), case let .foreignKey(step) = column.role,
                  let relationship = schema.model.entities[column.entity].relationship(step), !relationship.toMany,
                  schema.schema.table(of: relationship.destination).name == table else {
                throw NotUnderstood("a join through a to-many relationship (ANY, a key path through it) is not replayed yet")
            }
            paths[alias.text] = path.isEmpty ? step : path + "." + step
            used.insert(from)
        }
        if peek("CROSS") || peek("LEFT") || peek("INNER") { throw NotUnderstood("a join of a form not read yet") }
    }

    private mutating func attributeName(_ text: String, root: Int) throws -> String {
        guard text.hasPrefix("T0.") else { throw NotUnderstood("a select list that is not an entity's objects, keys, count or attributes is not replayed yet") }
        let name = try key(.column(alias: "T0", name: String(text.dropFirst(3))))
        guard schema.model.entities[root].subtree.contains(where: { schema.model.entities[$0].attribute(name) != nil }) else {
            throw NotUnderstood("a to-one's key fetched as a property is not replayed yet")
        }
        return name
    }

    /// A value: `%@` for a bound one (drawn when the fetch is timed), a number as written, nil.
    private func value(_ operand: Operand) throws -> String {
        switch operand {
        case .parameter, .string: return "%@"
        case let .literal(text): return text
        case .null: throw NotUnderstood("a comparison with NULL other than IS NULL (true of no row) is not read")
        case .column: throw NotUnderstood("a column where a value is expected")
        }
    }

    // MARK: ORDER BY, LIMIT, OFFSET

    private mutating func orderBy() throws -> [String] {
        try expect("BY")
        var keys: [String] = []
        repeat {
            let name = try key(try operand())
            var comparator = ""
            if accept("COLLATE") {
                let collation = try self.name()
                guard let found = Self.collations[collation] else { throw NotUnderstood("a sort by collation \(SQLTokens.shown(collation, else: "named")) is not read") }
                comparator = " " + found
            }
            let descending = accept("DESC")
            if !descending { _ = accept("ASC") }
            keys.append(name + comparator + (descending ? " DESC" : ""))
        } while acceptSymbol(",")
        return keys
    }

    private static let collations = ["NSCOLLATENOCASE": "caseInsensitive", "NSCOLLATELOCALESENSITIVE": "localized",
                                     "NSCOLLATELOCALESENSITIVENOCASE": "localizedCaseInsensitive", "NSCOLLATEFINDERLIKE": "localizedStandard"]

    private mutating func page() throws -> (limit: Int?, offset: Int?) {
        var limit: Int?, offset: Int?
        if accept("LIMIT") { limit = try count("LIMIT") }
        if accept("OFFSET") { offset = try count("OFFSET") }
        return (limit, offset)
    }

    /// A LIMIT's or OFFSET's number: written, or bound (as the suite's statements bind it) and
    /// logged at level 2; a batch's LIMIT bound at level 1 is the rows the log says it returned.
    private mutating func count(_ clause: String) throws -> Int? {
        guard let token = tokens[safe: position] else { throw NotUnderstood("a \(clause) without its number") }
        position += 1
        if token.kind == .number, let number = Int(token.text) { return number }
        // `LIMIT -1 OFFSET ?`: an offset alone.
        if clause == "LIMIT", token.text == "-", tokens[safe: position]?.text == "1" {
            position += 1
            return nil
        }
        guard token.kind == .parameter else { throw NotUnderstood("a \(clause) of a form not read") }
        parameter += 1
        if parameter - 1 < statement.values.count, case let .integer(number)? = statement.values[parameter - 1] {
            guard number >= 0, number <= Int64(Int32.max) else { throw NotUnderstood("a \(clause) out of range") }
            return Int(number)
        }
        // A batch's size at level 1: the rows it returned (a full batch's are its size).
        if clause == "LIMIT", keyInList, let rows = statement.rows { return rows }
        throw NotUnderstood("a bound \(clause) whose value the log leaves out (log with -com.apple.CoreData.SQLDebug 2)")
    }

    // MARK: Tokens

    /// Where the reading stopped, for a reason: a keyword or symbol as written, a literal by its
    /// kind only (a literal may be the app's data).
    private var nearby: String { SQLTokens.describe(tokens[safe: position]) }

    private static let clauseWords: Set<String> = ["WHERE", "JOIN", "LEFT", "INNER", "CROSS", "ORDER", "GROUP", "LIMIT", "OFFSET", "HAVING", "UNION"]

    private func peek(_ word: String) -> Bool { tokens[safe: position].map { $0.kind == .word && $0.text == word } ?? false }

    private mutating func accept(_ word: String) -> Bool {
        guard peek(word) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ word: String) throws {
        guard accept(word) else { throw NotUnderstood("expected \(word) near \(nearby)") }
    }

    private mutating func acceptSymbol(_ symbol: String) -> Bool {
        guard let token = tokens[safe: position], token.kind == .symbol, token.text == symbol else { return false }
        position += 1
        return true
    }

    private mutating func expectSymbol(_ symbol: String) throws {
        guard acceptSymbol(symbol) else { throw NotUnderstood("expected '\(symbol)' near \(nearby)") }
    }

    private mutating func name() throws -> String {
        guard let token = tokens[safe: position], token.kind == .word else { throw NotUnderstood("expected a name near \(nearby)") }
        position += 1
        return token.text
    }

    /// Moves to the first of `words` outside parentheses.
    private mutating func skipToClause(_ words: Set<String>) throws {
        let depth = tokens[safe: position]?.depth ?? 0
        while let token = tokens[safe: position], !(token.kind == .word && token.depth == depth && words.contains(token.text)) { position += 1 }
        guard position < tokens.count else { throw NotUnderstood("no \(words.sorted().joined(separator: " or ")) in the statement") }
    }

    /// Moves past the parenthesis that closes the one just opened.
    private mutating func skipToClose() throws {
        let depth = tokens[position - 1].depth
        while let token = tokens[safe: position], !(token.kind == .symbol && token.text == ")" && token.depth == depth) { position += 1 }
        try expectSymbol(")")
    }

    /// The select list's items, split at its top-level commas.
    private static func items(_ list: [SQLTokens.Token]) -> [[SQLTokens.Token]] {
        let depth = list.first?.depth ?? 0
        var items: [[SQLTokens.Token]] = [[]]
        for token in list {
            if token.kind == .symbol, token.text == ",", token.depth == depth { items.append([]) } else { items[items.count - 1].append(token) }
        }
        return items.filter { !$0.isEmpty }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
