import CoreDataLayout
import FetchRequests
import Generation
import Models

extension FetchPredicate.Comparison {
    /// The SQL operator.
    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}

extension FetchPredicate.Comparison {
    /// The operator's number in `NSCoreDataStringCompare`: 1 `<`, 2 `<=`, 3 `==`, 4 `>=`, 5 `>`, 6 `!=`.
    var coreDataOperator: Int {
        switch self {
        case .less: 1
        case .lessOrEqual: 2
        case .equal: 3
        case .greaterOrEqual: 4
        case .greater: 5
        case .notEqual: 6
        }
    }
}

extension FetchPredicate.StringOptions {
    /// The `CFStringCompareFlags` Core Data computes for the options: `[c]` 257, `[d]` 384, `[cd]`
    /// 385; `[l]` adds localized and width-insensitive, 288 (`[cdl]` 417).
    var compareFlags: Int {
        // `[n]`: a literal search, case and diacritics as they are (`CONTAINS[n]` 2, `ENDSWITH[n]` 14).
        if normalized { return CoreDataFunctions.literal }
        let flags = diacriticInsensitive ? (caseInsensitive ? CoreDataFunctions.caseInsensitive : 0) | CoreDataFunctions.diacriticInsensitive | CoreDataFunctions.widthInsensitive
            : caseInsensitive ? CoreDataFunctions.caseInsensitive | CoreDataFunctions.widthInsensitive : 0
        return localized ? flags | CoreDataFunctions.localized | CoreDataFunctions.widthInsensitive : flags
    }

    /// The last argument of Core Data's string functions: 1 to use the current locale (`[l]`).
    var locale: Int { localized ? 1 : 0 }
}

extension FetchPredicate.StringOperator {
    /// Core Data's SQL of the operator on `expression`, its value bound: a call of one of its own
    /// functions (`CoreDataFunctions`), the flags `CFStringCompareFlags` as Core Data computes them
    /// (`[c]` 257, `[d]` 384, `[cd]` 385; BEGINSWITH adds anchored, 8; ENDSWITH anchored and
    /// backwards, 12), LIKE's variant `[c]` 1 and `[d]` 2.
    func sql(_ expression: String, _ options: FetchPredicate.StringOptions) -> String {
        let (c, d) = (options.caseInsensitive, options.diacriticInsensitive)
        if self == .like { return "NSCoreDataLike(\(expression), ?, \((c ? 1 : 0) | (d ? 2 : 0)))" }
        if self == .matches { return "NSCoreDataMatches(\(expression), ?, \((c ? 1 : 0) | (d ? 2 : 0)))" }
        var flags = options.compareFlags
        if self == .beginsWith { flags |= CoreDataFunctions.anchored }
        if self == .endsWith { flags |= CoreDataFunctions.anchored | CoreDataFunctions.backwards }
        return "NSCoreDataStringSearch(\(expression), ?, \(flags), \(options.locale))"
    }
}

/// Builds a WHERE clause from a `FetchPredicate` for a layout, given how the layout spells each
/// operand; collects the values to bind in the order their `?` appear. Every strategy uses it,
/// so that the same predicate means the same thing in each.
struct SQLWhere {
    /// The SQL expression of an attribute of the fetched entity (`t0.ZTITLE`, a JSON path, …).
    var attribute: (String) throws -> String
    /// The foreign key expression of a to-one relationship (`t0.ZOWNER`).
    var toOne: (String) throws -> String
    /// The primary key expression (`t0.Z_PK`).
    var key: String
    /// For `ANY relationship.attribute == value`: the joins to add to the FROM clause and the
    /// expression of the destination's attribute, given the number of join aliases taken before.
    var related: (String, String, Int) throws -> (joins: String, expression: String)
    /// The request's sort keys: attributes of the fetched entity, or key paths through its to-ones.
    var sortKeys: [SortKey]
    /// How the layout joins a key path's steps through to-one relationships (`author.name`); nil
    /// where it reads none.
    var keyPaths: KeyPathJoins?
    /// For `relationship.@count`: the layout's count of the objects a to-many relationship of the
    /// fetched entity holds for the row `t0`, a correlated subquery, given the alias it may take.
    var countRelated: ((String, String) throws -> String)?
    /// The row's entity number, Core Data's `Z_ENT` (`entity == %@`): a column, or a literal where
    /// the table holds one entity.
    var entityNumber: (() -> String)?

    /// The expressions of the sort keys and their direction (for keyset pagination, and `orderBy`),
    /// set by `condition`: a key path's joined after the predicate's, `LEFT OUTER`.
    private(set) var sort: [(expression: String, ascending: Bool)] = []
    private(set) var values: [Value] = []
    private(set) var joins: [String] = []
    /// How many `ANY`s the clause being written is inside: a key path may go through a to-many there.
    private(set) var anyDepth = 0
    /// The join aliases taken outside the clause being written (by the query a SUBQUERY's is inside).
    private(set) var aliasBase = 0
    /// A to-one's key bound as a key list (`.toOneInList`): without sort keys, the rows come ordered
    /// by it, as Core Data's prefetch orders them.
    private(set) var listOrder: String?

    /// The condition for the request's `predicate`, or `nil` for `.all`.
    mutating func condition(_ predicate: FetchPredicate) throws -> String? {
        keyPaths?.outer = predicate.keyPathJoins(sortingBy: sortKeys)
        // A keyset (`after`) compares the attributes' expressions; key paths are joined after the predicate's.
        sort = try sortKeys.map { ($0.attribute.contains(".") ? "" : try attribute($0.attribute), $0.ascending) }
        let condition = try clause(predicate)
        for (index, key) in sortKeys.enumerated() where key.attribute.contains(".") { sort[index].expression = try operand(key.attribute) }
        return condition
    }

    /// The expression of a property the predicate names: an attribute or to-one of the fetched
    /// entity (a to-one's key), the object itself (`self`, its key), or a key path through to-one
    /// relationships (`author.name`), its steps joined.
    private mutating func operand(_ name: String) throws -> String {
        if name == FetchPredicate.selfKey { return key }
        if name == FetchPredicate.entityKey, let entityNumber, keyPaths.map({ $0.model.entities[$0.entity].attribute(name) == nil }) ?? true { return entityNumber() }
        guard var keyPaths, let path = keyPaths.model.keyPath(name, from: keyPaths.entity, throughToMany: anyDepth > 0) else { return try attribute(name) }
        guard let step = path.steps.first else { return path.isToOne ? try toOne(name) : try attribute(name) }
        let expression = try keyPaths.expression(path, first: step.toMany ? key : try toOne(step.name), aliasesTaken: aliasBase + 2 * joins.count)
        self.keyPaths = keyPaths
        return expression
    }

    /// The condition of one predicate of the request's.
    private mutating func clause(_ predicate: FetchPredicate) throws -> String? {
        switch predicate {
        case .all:
            return nil
        case let .equals(name, value):
            values.append(value)
            return "\(try operand(name)) = ?"
        case let .range(name, lower, upper):
            // As Core Data words `x >= lower AND x < upper`: an AND, in parentheses only where nested.
            values += [lower, upper]
            let expression = try operand(name)
            return "\(expression) >= ? AND \(expression) < ?"
        case let .after(after):
            values += after
            let ascending = sort.first?.ascending ?? true
            let left = sort.prefix(after.count).map(\.expression)
            let marks = Array(repeating: "?", count: after.count)
            return left.count == 1
                ? "\(left[0]) \(ascending ? ">" : "<") ?"
                : "(\(left.joined(separator: ", "))) \(ascending ? ">" : "<") (\(marks.joined(separator: ", ")))"
        case let .key(value):
            values.append(.integer(value))
            return "\(key) = ?"
        case let .toOne(name, object):
            values.append(.integer(object.key))
            return "\(try toOne(name)) = ?"
        case let .anyRelated(relationship, name, value):
            let (join, expression) = try related(relationship, name, 2 * joins.count + (keyPaths?.made.count ?? 0))
            joins.append(join)
            values.append(value)
            return "\(expression) = ?"
        case .keyInList:
            return "\(key) IN \(KeyList.subquery)"
        case let .toOneInList(name):
            let expression = try toOne(name)
            listOrder = expression
            return "\(expression) IN \(KeyList.subquery)"
        case let .and(predicates):
            let parts = try predicates.compactMap { try clause($0) }
            return parts.isEmpty ? nil : parts.joined(separator: " AND ")
        case .compare, .isNil, .among, .between, .string, .stringCompare, .compareKeys, .bitwise:
            return try comparison(predicate)
        case let .or(predicates):
            // An empty OR is false; a TRUEPREDICATE part makes it true.
            let parts = try predicates.map { try nested($0) }
            return parts.isEmpty ? "0" : "(\(parts.joined(separator: " OR ")))"
        case let .not(inner):
            return "NOT (\(try nested(inner)))"
        case let .any(inner):
            anyDepth += 1
            defer { anyDepth -= 1 }
            return try clause(inner)
        case .holds, .countOf, .subquery:
            return try relationshipCondition(predicate)
        }
    }

    /// A condition on a to-many relationship of the fetched entity itself: holding an object
    /// (Core Data's subquery of the rows the layout goes through it by), or its count.
    private mutating func relationshipCondition(_ predicate: FetchPredicate) throws -> String? {
        switch predicate {
        case let .holds(name, value):
            // Core Data's subquery of the rows the layout goes through the relationship by (`KeyPathJoins.many`).
            guard let keyPaths, let relationship = keyPaths.model.entities[keyPaths.entity].relationship(name), relationship.toMany else {
                throw LayoutError("request", "'\(name)' is not a to-many relationship of the fetched entity")
            }
            let step = try keyPaths.many(keyPaths.entity, relationship, true), alias = "h1"
            values.append(value)
            return "\(key) IN (SELECT \(alias).\(step.from) FROM \(step.source) \(alias) WHERE \(alias).\(step.to) = ?\(step.filter(alias)))"
        case let .countOf(name, comparison, value):
            guard let countRelated else { throw LayoutError("request", "this layout does not count a relationship's objects") }
            let expression = try countRelated(name, keyPaths?.alias(2 * joins.count + (keyPaths?.made.count ?? 0) + 1) ?? "c1")
            values.append(value)
            return "\(expression) \(comparison.sql) ?"
        case let .subquery(name, inner, comparison, value):
            let count = try subqueryCount(name, inner)
            values.append(value)
            return "\(count) \(comparison.sql) ?"
        default:
            return try clause(predicate)
        }
    }

    /// `SUBQUERY(name, $x, inner).@count`: a correlated count of the rows the layout goes through
    /// to-many `name` by (`KeyPathJoins.start`), joined to what `inner`'s key paths read (aliases
    /// after the query's), each row an object the relationship holds.
    private mutating func subqueryCount(_ name: String, _ inner: FetchPredicate) throws -> String {
        guard var paths = keyPaths, let relationship = paths.model.entities[paths.entity].relationship(name), relationship.toMany else {
            throw LayoutError("request", "'\(name)' is not a to-many relationship of the fetched entity")
        }
        paths = KeyPathJoins(model: paths.model, entity: paths.entity, alias: paths.alias, column: paths.column, many: paths.many)
        paths.outer = inner.keyPathJoins
        var sub = SQLWhere(attribute: attribute, toOne: toOne, key: key, related: related, sortKeys: [], keyPaths: nil, countRelated: countRelated, entityNumber: nil)
        sub.aliasBase = aliasBase + 2 * joins.count + (keyPaths?.made.count ?? 0)
        sub.anyDepth = 1
        let counted = try paths.start(relationship, from: key, aliasesTaken: sub.aliasBase)
        sub.keyPaths = paths
        let condition = try sub.clause(inner)
        values += sub.values
        let made = sub.keyPaths ?? paths
        let (from, correlation) = made.subqueryFrom
        // Counted where the objects' own rows are joined, as Core Data counts the destination's `Z_PK`.
        let own = made.made.first { $0.path == name && $0.on == counted }.map { "\($0.alias).Z_PK" } ?? counted
        return "(SELECT COUNT(\(own)) FROM \(from) WHERE (\(correlation)\(condition.map { " AND (\($0))" } ?? "")))"
    }

    /// A comparison of an attribute, as Core Data writes it: `<>` for `!=` (NULL matching neither
    /// `==` nor `!=`), `IS [NOT] NULL`, `IN (?,?,?)`, `(… BETWEEN ? AND ?)`.
    private mutating func comparison(_ predicate: FetchPredicate) throws -> String? {
        switch predicate {
        case let .compare(name, comparison, value):
            let expression = try operand(name)
            values.append(value)
            return "\(expression) \(comparison.sql) ?"
        case let .isNil(name, negated):
            return "\(try operand(name)) IS \(negated ? "NOT " : "")NULL"
        case let .among(name, list):
            let expression = try operand(name)
            values += list
            return "\(expression) IN (\(list.map { _ in "?" }.joined(separator: ",")))"
        case let .between(name, lower, upper):
            let expression = try operand(name)
            values += [lower, upper]
            return "(\(expression) BETWEEN ? AND ?)"
        case let .string(name, op, value, options):
            let expression = try operand(name)
            // `BEGINSWITH[n]`: a range of the column, which an index serves.
            if op == .beginsWith, options.normalized, case let .text(prefix) = value, let end = FetchPredicate.prefixEnd(prefix) {
                values += [value, .text(end)]
                return "\(expression) >= ? AND \(expression) < ?"
            }
            values.append(value)
            return op.sql(expression, options)
        case let .stringCompare(name, comparison, value, options):
            let expression = try operand(name)
            values.append(value)
            // `==[n]`: the strings compared as they are.
            if options.normalized { return "\(expression) \(comparison.sql) ?" }
            return "NSCoreDataStringCompare(\(expression), ?, \(comparison.coreDataOperator), \(options.compareFlags), \(options.locale))"
        case let .compareKeys(name, comparison, other):
            return "\(try operand(name)) \(comparison.sql) \(try operand(other))"
        case let .bitwise(name, mask, comparison, value):
            let expression = try operand(name)
            values += [mask, value]
            return "(\(expression) & ?) \(comparison.sql) ?"
        default:
            return try clause(predicate)
        }
    }

    /// The condition of a predicate inside an OR or a NOT, as Core Data nests it: an AND in its own
    /// parentheses (`(( A AND B) OR C)`), TRUEPREDICATE as `1`.
    private mutating func nested(_ predicate: FetchPredicate) throws -> String {
        guard let inner = try clause(predicate) else { return "1" }
        if case let .and(parts) = predicate, parts.count > 1 { return "(\(inner))" }
        if case .range = predicate { return "(\(inner))" }
        return inner
    }

    /// Values bound after the predicate's (an entity filter's numbers).
    mutating func appendValues(_ more: [Value]) { values += more }

    /// The joins the predicate needs, each preceded by a space: its key paths' steps, then its to-many relationships'.
    var joinClause: String { (keyPaths?.clause ?? "") + joins.map { " " + $0 }.joined() }

    /// ` ORDER BY …` for the request's sort keys, or "": as Core Data writes it, a comparator's
    /// collation after its key, ` DESC` after a descending key and nothing after an ascending one
    /// (`ORDER BY t0.ZAUTHOR, t0.ZTITLE COLLATE NSCollateFinderlike DESC`).
    var orderBy: String {
        if sort.isEmpty, let listOrder { return " ORDER BY \(listOrder)" }
        return sort.isEmpty ? "" : " ORDER BY " + zip(sort, sortKeys).map { $0.expression + $1.orderSuffix }.joined(separator: ", ")
    }

    /// ` LIMIT ? OFFSET ?` as the request asks, its values appended.
    mutating func page(_ request: FetchRequest) -> String {
        let (text, more) = Self.page(request)
        values += more
        return text
    }

    /// ` LIMIT ? OFFSET ?` as the request asks, and its values.
    static func page(_ request: FetchRequest) -> (sql: String, values: [Value]) {
        var text = "", values: [Value] = []
        if let limit = request.limit { text += " LIMIT ?"; values.append(.integer(Int64(limit))) }
        if let offset = request.offset {
            if request.limit == nil { text += " LIMIT -1" }
            text += " OFFSET ?"
            values.append(.integer(Int64(offset)))
        }
        return (text, values)
    }
}

extension FetchPredicate {
    /// Whether the predicate reaches through a to-many relationship (the answer then needs DISTINCT).
    var reachesToMany: Bool {
        switch self {
        case .anyRelated, .any: true
        default: parts.contains { $0.reachesToMany }
        }
    }

    /// `DISTINCT ` before a select list when the predicate reaches through a to-many relationship.
    var distinct: String { reachesToMany ? "DISTINCT " : "" }
    /// A count of the objects the predicate selects: of distinct keys through a to-many relationship.
    var count: String { reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)" }
}

/// A read of one table (`t0`) as Core Data writes it: the joins the predicate needs, then `WHERE`
/// its condition ANDed with `terms` (an entity filter, whose values are bound after the
/// predicate's); a fetch `SELECT [DISTINCT] <list> … ORDER BY … LIMIT …`, a count `COUNT(*)` (of
/// distinct keys through a to-many), or `SELECT COUNT(*) FROM <table>` for a whole table.
/// single-table, enum-entity and json-entity read this way.
struct OneTableRead {
    var builder: SQLWhere
    let table: String
    /// The request's predicate, its values as the layout binds them.
    let predicate: FetchPredicate
    var terms: [String] = []
    var termValues: [Value] = []

    /// `FROM <table> t0 <joins> WHERE …`, its values bound in `builder`.
    private mutating func from() throws -> String {
        let condition = try builder.condition(predicate)
        builder.appendValues(termValues)
        let parts = [condition].compactMap { $0 } + terms
        return "FROM \(table) t0\(builder.joinClause)" + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "))
    }

    func fetch(_ request: FetchRequest, list: String, decoder: RowDecoder) throws -> PreparedQuery {
        var read = self
        let from = try read.from()
        let distinct = request.predicate.distinct
        let tail = read.builder.orderBy + read.builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(list) \(from)\(tail)", values: read.builder.values, decoder: decoder)
    }

    /// A dictionary fetch as Core Data writes it: `SELECT [DISTINCT] <items> FROM … WHERE … GROUP BY
    /// … HAVING … ORDER BY … LIMIT …`, HAVING's values after the WHERE's.
    func dictionary(_ request: FetchRequest, _ sql: DictionarySQL) throws -> PreparedQuery {
        var read = self
        let from = try read.from()
        read.builder.appendValues(sql.havingValues)
        let tail = sql.groupBy + sql.having + read.builder.orderBy + read.builder.page(request)
        return PreparedQuery(sql: "SELECT \(sql.fetch.distinct ? "DISTINCT " : "")\(sql.list.joined(separator: ", ")) \(from)\(tail)", values: read.builder.values, decoder: sql.decoder)
    }

    func count(_ request: FetchRequest) throws -> PreparedQuery {
        // Core Data counts a whole table without an alias.
        if request.predicate == .all, terms.isEmpty { return PreparedQuery(sql: "SELECT COUNT(*) FROM \(table)", values: [], decoder: nil) }
        var read = self
        let from = try read.from()
        let count = request.predicate.count
        return PreparedQuery(sql: "SELECT \(count) \(from)", values: read.builder.values, decoder: nil)
    }
}

extension SortKey {
    /// What follows the key's expression in an `ORDER BY`: its collation, then ` DESC` when descending.
    var orderSuffix: String { (comparator.collation.map { " COLLATE " + $0 } ?? "") + (ascending ? "" : " DESC") }
}
