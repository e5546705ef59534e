import CoreDataLayout
import Models

/// A model as Core Data's log names it: its tables (a hierarchy's, a many-to-many's join table,
/// Core Data's own), each table's columns and the entity numbers, from the model's Core Data
/// layout (`CoreDataSchema`). A statement is read through it: which entities it asks about, and
/// the first name it uses that the model lacks (a log of another model version).
public struct LogSchema: Sendable {
    public enum Table: Sendable {
        /// A root's table, holding its hierarchy's rows.
        case hierarchy(root: Int, columns: Set<String>)
        /// A many-to-many's join table.
        case join(CoreDataSchema.JoinTable, columns: Set<String>)
    }

    public let model: Model
    public let schema: CoreDataSchema
    public let tables: [String: Table]
    /// Per entity, its select list's items as the tokens spell them (`T0.ZTITLE`, `0`).
    let selectLists: [[String]]

    public init(model: Model) {
        self.model = model
        let schema = CoreDataSchema(model)
        self.schema = schema
        var tables: [String: Table] = [:]
        for (root, table) in schema.tables {
            tables[table.name] = .hierarchy(root: root, columns: Set(["Z_PK", "Z_ENT", "Z_OPT"] + table.fetchOrder.map(\.name)))
        }
        for join in schema.joinTables {
            tables[join.name] = .join(join, columns: Set([join.first.column, join.second.column] + (join.orderColumn.map { [$0] } ?? [])))
        }
        self.tables = tables
        selectLists = model.entities.map { entity in schema.selectList(entity.index).sql.split(separator: ",").map { $0.filter { $0 != " " }.uppercased() } }
    }

    /// A name of the statement's that the model's layout lacks, in one sentence.
    public struct Mismatch: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The first table, column or entity number of `statement` that the model lacks; nil when the
    /// model has every one. Core Data's own tables (`Z_PRIMARYKEY`, `Z_METADATA`, history) are
    /// not the model's and are not checked, but an entity number they are asked about is.
    public func mismatch(in statement: LoggedStatement) -> Mismatch? {
        let tokens = statement.tokens.tokens
        let aliases = Self.aliases(tokens)
        for name in Set(aliases.values) where tables[name] == nil && !LoggedStatement.isUpkeepTable(name) && name != "Z_PRIMARYKEY" {
            return Mismatch(description: "table \(SQLTokens.shown(name, else: "named")) is not in the model's layout")
        }
        for (index, token) in tokens.enumerated() where token.kind == .word && Self.isCoreDataColumn(token.text) && aliases[token.text] == nil {
            // `t0.ZNAME`: the alias's table; a bare name: the statement's one table.
            let owner: String? = index >= 2 && tokens[index - 1].text == "." ? aliases[tokens[index - 2].text] : (Set(aliases.values).count == 1 ? aliases.values.first : nil)
            guard let owner, let table = tables[owner] else { continue }
            let columns: Set<String> = switch table {
            case let .hierarchy(_, columns), let .join(_, columns): columns
            }
            if !columns.contains(token.text) { return Mismatch(description: "column \(token.text) is not a column of \(owner) in the model's layout") }
        }
        for number in entityNumbers(tokens, statement.values) where number < 1 || number > model.entities.count {
            return Mismatch(description: "entity number \(number) is not one of the model's (1 to \(model.entities.count))")
        }
        return nil
    }

    /// The entities the statement asks about: the one whose select list it sends (a fetch of an
    /// entity and its sub-entities, as `CoreDataSchema.selectList` writes it) or whose number its
    /// entity filter starts at (`Z_ENT = ?`, `Z_ENT >= ?`: the number bound, or written), else the
    /// root of each hierarchy table it names; the entities of a join table's relationship.
    public func entities(of statement: LoggedStatement) -> [Int] {
        let tokens = statement.tokens
        let filtered = entityNumbers(tokens.tokens, statement.values, comparisons: ["=", ">=", "=="]).first.map { Int($0) - 1 }
        var entities: [Int] = []
        for name in tokens.tables {
            switch tables[name] {
            case let .hierarchy(root, _)?:
                let list = tokens.selectList.map { $0.map(\.text).joined() }
                let exact = model.entities[root].subtree.first { entity in
                    selectLists[entity] == list
                }
                let numbered = filtered.flatMap { model.entities[root].subtree.contains($0) ? $0 : nil }
                entities.append(exact ?? numbered ?? root)
            case let .join(join, _)?:
                entities += [join.first.entity, join.second.entity]
            case nil:
                break
            }
        }
        return entities.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Table names by alias (`t0` → `ZITEM`), each table also by its own name.
    static func aliases(_ tokens: [SQLTokens.Token]) -> [String: String] {
        var aliases: [String: String] = [:]
        for (index, token) in tokens.enumerated() where token.kind == .word && ["FROM", "JOIN", "INTO", "UPDATE"].contains(token.text) {
            var next = index + 1
            while next < tokens.count, tokens[next].kind == .word, ["OR", "REPLACE", "FAIL", "IGNORE"].contains(tokens[next].text) { next += 1 }
            guard next < tokens.count, tokens[next].kind == .word, !tokens[next].text.hasPrefix("_Z_INTARRAY") else { continue }
            let table = tokens[next].text
            aliases[table] = table
            if next + 1 < tokens.count, tokens[next + 1].kind == .word, !reserved.contains(tokens[next + 1].text) { aliases[tokens[next + 1].text] = table }
        }
        return aliases
    }

    private static let reserved: Set<String> = ["WHERE", "JOIN", "LEFT", "INNER", "CROSS", "OUTER", "ON", "ORDER", "GROUP", "LIMIT", "SET", "VALUES", "AS", "USING", "UNION", "HAVING", "OFFSET"]

    /// A name of Core Data's columns: `Z_PK`, `ZNAME`, `Z6_QUOTE`, `Z_1TAGS`' `Z_6TAGS`, `Z_FOK_…`.
    static func isCoreDataColumn(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("Z") && word.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
    }

    /// The entity numbers the statement compares `Z_ENT` with (literals, and bound values where
    /// the log has them) and inserts.
    private func entityNumbers(_ tokens: [SQLTokens.Token], _ values: [BoundValue?], comparisons: Set<String> = ["=", ">=", "<=", "<", ">", "=="]) -> [Int64] {
        var numbers: [Int64] = []
        var parameter = 0
        for (index, token) in tokens.enumerated() {
            let comparesEntity = index >= 2 && tokens[index - 2].text == "Z_ENT" && comparisons.contains(tokens[index - 1].text)
            if token.kind == .parameter {
                if comparesEntity, parameter < values.count, case let .integer(number)? = values[parameter] { numbers.append(number) }
                parameter += 1
            } else if token.kind == .number, comparesEntity, let number = Int64(token.text) {
                numbers.append(number)
            }
        }
        // An insert's entity number, by its column's position.
        if tokens.first?.text == "INSERT", let open = tokens.firstIndex(where: { $0.text == "(" }) {
            let columns = tokens[(open + 1)...].prefix { $0.text != ")" }.filter { $0.kind == .word }.map(\.text)
            if let position = columns.firstIndex(of: "Z_ENT"), position < values.count, case let .integer(number)? = values[position] { numbers.append(number) }
        }
        return numbers
    }
}
