import CoreDataLayout
import Models

/// The WHERE clause of a read statement as the fetch format's predicate: AND, OR and NOT, the
/// comparisons, Core Data's string functions, and each column as the key it holds (through the
/// to-one steps a join made); the entity filter that ends it taken apart.
extension LogFetch {
    /// What the n-th comparison of `Z_ENT` reads as until it is known to be the entity filter
    /// (Core Data joins it to the predicate by AND, at the end of the condition) or the predicate's
    /// own (`entity == %@`).
    static func entityMarker(_ index: Int) -> String { "\u{1}\(index)\u{1}" }
    /// What `t0.Z_PK IN (SELECT * FROM _Z_intarray0)` reads as: a batch's keys, the whole condition.
    static let keyList = "\u{2}"

    /// The condition after WHERE as the fetch format's predicate; with `top`, the entity filter's
    /// terms that end it taken out (`entityTerms`).
    mutating func orExpression(top: Bool = false) throws -> String {
        var parts = [try andExpression(top: top)]
        var bare = andTerms > 1
        while accept("OR") {
            parts.append(try andExpression(top: false))
            bare = bare || andTerms > 1
        }
        // Within an OR, a comparison of the entity is the predicate's own.
        if parts.count > 1 { (entityTerms, filterMarkers) = ([], []) }
        // Core Data puts an AND within an OR in parentheses; one without (a BEGINSWITH[n] range) is not read.
        if parts.count > 1, bare { throw NotUnderstood("an AND within an OR without parentheses (a range of BEGINSWITH[n]) is not read") }
        return parts.count == 1 ? parts[0] : parts.joined(separator: " OR ")
    }

    mutating func andExpression(top: Bool) throws -> String {
        var parts = [try notExpression()]
        while accept("AND") { parts.append(try notExpression()) }
        andTerms = parts.count
        // The entity filter, as Core Data ends the condition with it: `Z_ENT = ?`, or `Z_ENT >= ?
        // AND Z_ENT <= ?` (kept in the text until the fetched entity says it is the filter,
        // `resolved`). Any other comparison of Z_ENT is the predicate's own.
        if top {
            let terms = allEntityTerms
            func marker(_ back: Int) -> Int? { parts.count > back ? terms.indices.first { Self.entityMarker($0) == parts[parts.count - 1 - back] } : nil }
            var filter: [Int] = []
            if let last = marker(0) {
                if allEntityTerms[last].op == "=" {
                    filter = [last]
                } else if allEntityTerms[last].op == "<=", let before = marker(1), allEntityTerms[before].op == ">=" {
                    filter = [before, last]
                }
            }
            entityTerms = filter.map { allEntityTerms[$0] }
            filterMarkers = filter.map(Self.entityMarker)
        }
        return parts.joined(separator: " AND ")
    }

    /// The deepest condition read: a hostile statement's nesting must not exhaust the stack.
    static let deepest = 100

    mutating func notExpression() throws -> String {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.deepest else { throw NotUnderstood("a condition nested deeper than \(Self.deepest) is not read") }
        if accept("NOT") { return "NOT (\(try notExpression()))" }
        return try primary()
    }

    mutating func primary() throws -> String {
        if acceptSymbol("(") {
            if peek("SELECT") { return try countOf() }
            if let bits = try bitwise() { return bits }
            // `NOT (a AND b)`: Core Data parenthesizes an AND under NOT (`NOT ((a AND b))`) but not a
            // BEGINSWITH[n]'s range (`NOT (x >= ? AND x < ?)`), which the fetch format cannot say.
            if tokens[safe: position - 2]?.text == "NOT", let open = tokens[safe: position - 1], Self.hasBareAnd(tokens[position...], depth: open.depth + 1) {
                throw NotUnderstood("an AND under NOT without parentheses of its own (a range of BEGINSWITH[n]) is not read")
            }
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

    static let closing: Set<String> = [")", "AND", "OR", "ORDER", "LIMIT", "OFFSET"]

    /// Whether the parenthesis whose contents start `tokens` (at `depth`) holds an AND of its own,
    /// not a BETWEEN's.
    static func hasBareAnd(_ tokens: ArraySlice<SQLTokens.Token>, depth: Int) -> Bool {
        var afterBetween = false
        for token in tokens where token.kind == .word {
            if token.depth < depth { return false }
            guard token.depth == depth else { continue }
            if token.text == "BETWEEN" { afterBetween = true } else if token.text == "AND" {
                if !afterBetween { return true }
                afterBetween = false
            }
        }
        return false
    }

    /// After `(`: `t0.ZFLAGS & ?) <op> ?`, the bits of an integer attribute (`(flags & %@) == %@`);
    /// nil, nothing read, when the parenthesis holds anything else.
    mutating func bitwise() throws -> String? {
        guard let column = tokens[safe: position], column.kind == .word, tokens[safe: position + 1]?.text == "." || tokens[safe: position + 1]?.text == "&" else { return nil }
        let start = position
        let left = try operand()
        guard case .column = left, acceptSymbol("&") else {
            position = start
            return nil
        }
        let mask = try value(try operand())
        try expectSymbol(")")
        guard let op = tokens[safe: position], op.kind == .symbol, let comparison = Self.comparisons[op.text] else { throw NotUnderstood("a bitwise condition of a form not read yet") }
        position += 1
        return "(\(try key(left)) & \(mask)) \(comparison) \(try value(try operand()))"
    }

    mutating func comparison() throws -> String {
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
                guard words.count == 4, words[1] == "*", words[2] == "FROM", words[3].hasPrefix("_Z_INTARRAY") else { return try holds(left, negated: negated) }
                try skipToClose()
                guard case .column(_, "Z_PK") = left, !negated else { throw NotUnderstood("a key list of another column's is not replayed yet (a prefetch)") }
                keyInList = true
                return Self.keyList
            }
            if tokens[safe: position - 1]?.text != "(" { try expectSymbol("(") }
            var values: [String] = []
            repeat { values.append(try value(try operand())) } while acceptSymbol(",")
            try expectSymbol(")")
            // `t0.Z_ENT IN (?, ?)`: the object's entity among some (`entity IN {%@, %@}`).
            let name = if case let .column(alias, "Z_ENT") = left, (paths[alias ?? ""] ?? "").isEmpty { "entity" } else { try key(left) }
            return (negated ? "NOT (" : "") + "\(name) IN {\(values.joined(separator: ", "))}" + (negated ? ")" : "")
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
            allEntityTerms.append((op.text, number))
            return Self.entityMarker(allEntityTerms.count - 1)
        }
        switch (left, right) {
        case (.column, .column): return "\(try key(left)) \(comparison) \(try key(right))"
        case (.column, _): return "\(try key(left)) \(comparison) \(try value(right))"
        case (_, .column): return "\(try key(right)) \(Self.flipped[comparison] ?? comparison) \(try value(left))"
        default: throw NotUnderstood("a comparison of two values is not read")
        }
    }

    static let comparisons = ["=": "==", "==": "==", "<>": "!=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="]
    static let flipped = ["<": ">", "<=": ">=", ">": "<", ">=": "<="]

    /// `NSCoreDataStringSearch(t0.ZX, ?, flags, locale)` and Core Data's other string functions,
    /// each read only when its numbers are exactly the ones Core Data writes for an operator and
    /// its options (`[c]` 257, `[d]` 384, `[cd]` 385, `[l]` adds 32 and 256, `[n]` 2; BEGINSWITH
    /// adds 8, ENDSWITH 12; LIKE's and MATCHES' `[c]` 1 and `[d]` 2).
    mutating func coreDataFunction() throws -> String {
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
    static let options: [Pair: String] = [
        Pair(0, 0): "", Pair(257, 0): "[c]", Pair(384, 0): "[d]", Pair(385, 0): "[cd]", Pair(2, 0): "[n]",
        Pair(288, 1): "[l]", Pair(289, 1): "[cl]", Pair(416, 1): "[dl]", Pair(417, 1): "[cdl]",
    ]

    struct Pair: Hashable {
        let flags: Int, locale: Int
        init(_ flags: Int, _ locale: Int) { self.flags = flags; self.locale = locale }
    }

    /// An operand: a column of the fetched table, a bound value, a literal.
    enum Operand: Equatable { case column(alias: String?, name: String), parameter(Int), literal(String), string, null }

    mutating func operand() throws -> Operand {
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
                guard let table = aliases[token.text], schema.tables[table] != nil else {
                    throw NotUnderstood("a column of a table the statement does not read")
                }
                return .column(alias: token.text, name: column)
            }
            guard aliases.count == 1 else { throw NotUnderstood("a column without its table's alias") }
            return .column(alias: nil, name: token.text)
        }
    }

    /// The fetch format's key of a column: an attribute, a to-one relationship, `self` for `Z_PK`;
    /// of a table joined through to-ones, the key path to it first (`author.name`).
    mutating func key(_ operand: Operand) throws -> String {
        guard case let .column(alias, name) = operand else { throw NotUnderstood("a comparison without a column") }
        let (path, column) = try self.column(alias, name)
        if let alias { used.insert(alias) }
        // A column of the objects a to-many reaches is compared as of any of them (`ANY tags.name`).
        let any = alias.map { toMany.contains($0) } ?? false ? "ANY " : ""
        func along(_ key: String) -> String { any + (path.isEmpty ? key : path + "." + key) }
        guard let column else { return path.isEmpty ? "self" : any + path }
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
    func column(_ alias: String?, _ name: String) throws -> (path: String, column: CoreDataSchema.Column?) {
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
    /// of a table read, its alias then the objects at the path (`paths`). Through a to-many: its
    /// destination's table by the inverse's foreign key (`JOIN ZNOTE t1 ON t0.Z_PK = t1.ZFOLDER`),
    /// or a many-to-many's join table then its destination (`JOIN Z_1TAGS t1 ON t0.Z_PK =
    /// t1.Z_1ITEMS JOIN ZTAG t2 ON t1.Z_6TAGS = t2.Z_PK`); the destination's alias is then one of
    /// `toMany`, its columns compared as of any of the objects (`ANY`).
    mutating func joins() throws {
        var linking: [String: (from: String, table: CoreDataSchema.JoinTable, column: String)] = [:]
        let unread = NotUnderstood("a join of a form not read yet")
        while accept("JOIN") || (accept("LEFT") && (accept("OUTER") || true) && accept("JOIN")) || (accept("INNER") && accept("JOIN")) {
            let table = try name()
            guard let alias = tokens[safe: position], alias.kind == .word, aliases[alias.text] == nil else { throw NotUnderstood("a join without its alias") }
            position += 1
            try expect("ON")
            aliases[alias.text] = table
            let left = try operand()
            try expectSymbol("=")
            let right = try operand()
            guard case let .column(leftAlias?, leftName) = left, case let .column(rightAlias?, rightName) = right else { throw unread }
            // The joined table's side, and the side of a table read before.
            let (joined, earlier) = leftAlias == alias.text ? ((leftAlias, leftName), (rightAlias, rightName)) : ((rightAlias, rightName), (leftAlias, leftName))
            guard joined.0 == alias.text, earlier.0 != alias.text else { throw unread }
            // Through a to-many, the table read before is named first (`t0.Z_PK = t1.ZFOLDER`, `t1.Z_6TAGS = t2.Z_PK`), as the fetch format's ANY sends it.
            let earlierFirst = leftAlias == earlier.0
            if case let .join(joinTable, _)? = schema.tables[table] {
                guard earlierFirst else { throw unread }
                // A many-to-many's link rows, by the key of the objects read before.
                guard earlier.1 == "Z_PK" else { throw unread }
                linking[alias.text] = (earlier.0, joinTable, joined.1)
                continue
            }
            guard case .hierarchy? = schema.tables[table] else { throw unread }
            if let link = linking.removeValue(forKey: earlier.0) {
                guard earlierFirst else { throw unread }
                try manyToMany(alias.text, table: table, link: link, other: earlier.1, joinedColumn: joined.1)
            } else if joined.1 == "Z_PK" {
                try toOne(alias.text, table: table, from: earlier.0, column: earlier.1)
            } else {
                guard earlierFirst else { throw unread }
                try oneToMany(alias.text, table: table, from: earlier.0, key: earlier.1, column: joined.1)
            }
        }
        if peek("CROSS") || peek("LEFT") || peek("INNER") || !linking.isEmpty { throw unread }
    }

    /// A to-one step: the table read before names the joined one's key in its foreign key.
    private mutating func toOne(_ alias: String, table: String, from: String, column name: String) throws {
        guard case let (path, column?) = try column(from, name), case let .foreignKey(step) = column.role,
              let relationship = schema.model.entities[column.entity].relationship(step), !relationship.toMany,
              schema.schema.table(of: relationship.destination).name == table, !toMany.contains(from) else {
            throw NotUnderstood("a join of a form not read yet")
        }
        paths[alias] = path.isEmpty ? step : path + "." + step
        used.insert(from)
    }

    /// A one-to-many step: the joined table's foreign key (the inverse to-one) names the key of the objects read before.
    private mutating func oneToMany(_ alias: String, table: String, from: String, key: String, column name: String) throws {
        guard key == "Z_PK", !toMany.contains(from), case let (_, column?) = try self.column(alias, name), case let .foreignKey(step) = column.role,
              let inverse = schema.model.entities[column.entity].relationship(step), !inverse.toMany,
              let relationship = schema.model.inverse(of: inverse), relationship.toMany, schema.schema.table(of: relationship.destination).name == table,
              schema.schema.table(of: relationship.owner).name == aliases[from] else {
            throw NotUnderstood("a join of a form not read yet")
        }
        try reach(alias, through: relationship.name, from: from)
    }

    /// A many-to-many step: the link rows' other column names the joined table's key.
    private mutating func manyToMany(_ alias: String, table: String, link: (from: String, table: CoreDataSchema.JoinTable, column: String), other: String, joinedColumn: String) throws {
        guard joinedColumn == "Z_PK", !toMany.contains(link.from) else { throw NotUnderstood("a join of a form not read yet") }
        for side in [link.table.first, link.table.second] where link.table.columns(from: side.entity, side.relationship) == (link.column, other) {
            guard let relationship = schema.model.entities[side.entity].relationship(side.relationship), schema.schema.table(of: relationship.destination).name == table,
                  schema.schema.table(of: side.entity).name == aliases[link.from] else { continue }
            return try reach(alias, through: relationship.name, from: link.from)
        }
        throw NotUnderstood("a join of a form not read yet")
    }

    /// The objects a to-many `relationship` of the objects `from` reads reach, read by `alias`.
    private mutating func reach(_ alias: String, through relationship: String, from: String) throws {
        let path = paths[from] ?? ""
        paths[alias] = path.isEmpty ? relationship : path + "." + relationship
        toMany.insert(alias)
        used.insert(from)
    }

    mutating func attributeName(_ text: String, root: Int) throws -> String {
        guard text.hasPrefix("T0.") else { throw NotUnderstood("a select list that is not an entity's objects, keys, count or attributes is not replayed yet") }
        let name = try key(.column(alias: "T0", name: String(text.dropFirst(3))))
        guard schema.model.entities[root].subtree.contains(where: { schema.model.entities[$0].attribute(name) != nil }) else {
            throw NotUnderstood("a to-one's key fetched as a property is not replayed yet")
        }
        return name
    }

    /// A value: `%@` for a bound one (drawn when the fetch is timed), a number as written, nil.
    func value(_ operand: Operand) throws -> String {
        switch operand {
        case .parameter, .string: return "%@"
        case let .literal(text): return text
        case .null: throw NotUnderstood("a comparison with NULL other than IS NULL (true of no row) is not read")
        case .column: throw NotUnderstood("a column where a value is expected")
        }
    }
}
