import CoreDataLayout
import FetchRequests
import Models

/// One statement of a save read through the model's Core Data layout as a change of the request
/// language (`SaveSpec.Change`): an object inserted (`INSERT INTO ZNOTE(Z_PK, Z_ENT, Z_OPT, …)`),
/// updated (`UPDATE ZNOTE SET ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`) or deleted
/// (`DELETE FROM ZNOTE WHERE Z_PK = ?`); `nil` for what bounds or serves the save (its
/// transaction, its key reservation).
enum LogSave {
    static func read(_ statement: LoggedStatement, kind: StatementKind, schema: LogSchema) -> Result<SaveSpec.Change?, NotUnderstood> {
        switch kind {
        case .begin, .commit, .keyReservation: return .success(nil)
        case .insert, .update, .delete: break
        default: return .failure(NotUnderstood("not a save's statement"))
        }
        let tokens = statement.tokens.tokens
        guard let table = statement.tokens.tables.first, statement.tokens.tables.count == 1 else {
            return .failure(NotUnderstood("a save's statement of several tables (a batch update or delete): not replayed yet"))
        }
        let root: Int
        switch schema.tables[table] {
        case let .hierarchy(found, _)?: root = found
        case let .join(join, _)?: return link(tokens, kind: kind, join)
        case nil: return .failure(NotUnderstood("a save's statement of a table outside the model"))
        }
        switch kind {
        case .insert: return insert(tokens, statement.values, root: root, schema: schema)
        case .update: return update(tokens, root: root, schema: schema)
        default: return delete(tokens, root: root)
        }
    }

    /// The entity of an insert: the one its bound `Z_ENT` names (level 2), else the one concrete
    /// entity of the table whose columns are the statement's.
    private static func insert(_ tokens: [SQLTokens.Token], _ values: [BoundValue?], root: Int, schema: LogSchema) -> Result<SaveSpec.Change?, NotUnderstood> {
        guard let columns = insertedColumns(tokens)?.names else { return .failure(NotUnderstood("an INSERT without its column list")) }
        guard columns.prefix(3) == ["Z_PK", "Z_ENT", "Z_OPT"] else { return .failure(NotUnderstood("an INSERT whose columns do not start with Z_PK, Z_ENT, Z_OPT")) }
        let model = schema.model, subtree = model.entities[root].subtree
        if values.count == columns.count, case let .integer(number)? = values[1] {
            guard (1...Int64(model.entities.count)).contains(number) else { return .failure(NotUnderstood("an INSERT whose Z_ENT is no entity of the model")) }
            let entity = Int(number) - 1
            guard subtree.contains(entity), model.entities[entity].isConcrete else { return .failure(NotUnderstood("an INSERT whose Z_ENT is no concrete entity of its table")) }
            return .success(.insert(entity: entity))
        }
        let named = Set(columns)
        let matching = subtree.filter { model.entities[$0].isConcrete && schema.insertColumns(of: $0) == named }
        guard matching.count == 1, let entity = matching.first else {
            return .failure(
                NotUnderstood(
                    matching.isEmpty
                        ? "an INSERT whose columns are no entity's of its table"
                        : "an INSERT whose entity its columns do not tell (several entities have them): log at level 2 for its Z_ENT"))
        }
        return .success(.insert(entity: entity))
    }

    /// An update's attributes and to-ones from its `SET` list (`Z_OPT` aside; a to-one's key and
    /// entity-number columns one change), its entity the deepest of those declaring them (the
    /// table's root for a version alone).
    private static func update(_ tokens: [SQLTokens.Token], root: Int, schema: LogSchema) -> Result<SaveSpec.Change?, NotUnderstood> {
        guard let (assignments, end) = setList(tokens) else { return .failure(NotUnderstood("an UPDATE without SET")) }
        let whereClause = tokens[end...].filter { $0.kind == .word }.map(\.text)
        guard whereClause.first == "WHERE", whereClause.dropFirst().allSatisfy({ ["Z_PK", "Z_OPT", "AND"].contains($0) }), whereClause.contains("Z_PK") else {
            if let cleared = clear(tokens, assignments, whereClause, root: root, schema: schema) { return .success(cleared) }
            return .failure(NotUnderstood("an UPDATE of objects other than one by its Z_PK (a batch update): not replayed yet"))
        }
        let assigned = assignments.map(\.column).filter { $0 != "Z_OPT" }
        let model = schema.model
        var entity = root, attributes: [String] = [], toOnes: [String] = []
        for column in assigned {
            let owner: Int
            if let (declaring, name) = schema.attribute(column, in: root) {
                owner = declaring
                attributes.append(name)
            } else if let (declaring, name, isKey) = schema.toOne(column, in: root) {
                owner = declaring
                // A to-one's entity-number column comes with its key.
                if isKey { toOnes.append(name) }
            } else {
                return .failure(NotUnderstood("an UPDATE of \(SQLTokens.shown(column, else: "a column")), which is no attribute's or to-one's column of its table"))
            }
            if model.entities[owner].subtree.contains(entity) {
                // Declared above or at the entity so far.
            } else if model.entities[entity].subtree.contains(owner) {
                entity = owner
            } else {
                return .failure(NotUnderstood("an UPDATE of properties of two sub-entities"))
            }
        }
        return .success(.update(entity: entity, attributes: attributes, toOnes: toOnes))
    }

    /// Every reference to one object through a to-one cleared, as the suite's delete clears them
    /// (`UPDATE ZITEM SET ZOWNER = NULL, Z_FOK_OWNER = NULL, Z_OPT = Z_OPT + 1 WHERE ZOWNER = ?`;
    /// Core Data clears each object by its `Z_PK`): every link of the object through the to-one's
    /// inverse removed. `nil` for any other UPDATE.
    private static func clear(_ tokens: [SQLTokens.Token], _ assignments: [(column: String, value: Int)], _ whereClause: [String], root: Int, schema: LogSchema) -> SaveSpec.Change? {
        guard whereClause.count == 2, let (declaring, name, isKey) = schema.toOne(whereClause[1], in: root), isKey,
            let relationship = schema.model.entities[declaring].relationship(name), let inverse = schema.model.inverse(of: relationship),
            assignments.contains(where: { $0.column == whereClause[1] })
        else { return nil }
        // Each column set to NULL, the version moved on: `Z_OPT = Z_OPT + 1`.
        for (column, value) in assignments where column != "Z_OPT" {
            guard tokens[value].kind == .word, tokens[value].text == "NULL" else { return nil }
        }
        return .unlink(entity: relationship.destination, relationship: inverse.name, all: true)
    }

    /// An INSERT's column list in order, and where it closes; nil without one.
    static func insertedColumns(_ tokens: [SQLTokens.Token]) -> (names: [String], close: Int)? {
        guard let open = tokens.firstIndex(where: { $0.text == "(" }), let close = tokens[open...].firstIndex(where: { $0.text == ")" }) else { return nil }
        return (tokens[(open + 1)..<close].filter { $0.kind == .word }.map(\.text), close)
    }

    /// An UPDATE's SET list: each column assigned with the position of the token after its `=`,
    /// and where the list ends (its WHERE, or the end); nil without SET.
    static func setList(_ tokens: [SQLTokens.Token]) -> (assignments: [(column: String, value: Int)], end: Int)? {
        guard let set = tokens.firstIndex(where: { $0.kind == .word && $0.text == "SET" }) else { return nil }
        let end = tokens[set...].firstIndex { $0.kind == .word && $0.text == "WHERE" } ?? tokens.endIndex
        let assignments = (set..<end).compactMap { index -> (column: String, value: Int)? in
            index + 2 < end && tokens[index].kind == .word && tokens[index + 1].text == "=" ? (tokens[index].text, index + 2) : nil
        }
        return (assignments, end)
    }

    /// A join table's row inserted (a link added) or deleted: one link by both its columns, or
    /// every link of an object by its side's column alone.
    private static func link(_ tokens: [SQLTokens.Token], kind: StatementKind, _ join: CoreDataSchema.JoinTable) -> Result<SaveSpec.Change?, NotUnderstood> {
        let first = (entity: join.first.entity, relationship: join.first.relationship)
        switch kind {
        case .insert: return .success(.link(entity: first.entity, relationship: first.relationship))
        case .delete:
            let words = tokens.filter { $0.kind == .word }.map(\.text)
            guard let at = words.firstIndex(of: "WHERE") else { return .failure(NotUnderstood("a DELETE of every link of a join table")) }
            let columns = words[(at + 1)...].filter { $0 != "AND" }
            let sides = [join.first, join.second].map { (entity: $0.entity, relationship: $0.relationship, column: join.columns(from: $0.entity, $0.relationship).this) }
            if Set(columns) == Set(sides.map(\.column)), columns.count == 2 { return .success(.unlink(entity: first.entity, relationship: first.relationship)) }
            if columns.count == 1, let side = sides.first(where: { $0.column == columns[0] }) {
                return .success(.unlink(entity: side.entity, relationship: side.relationship, all: true))
            }
            return .failure(NotUnderstood("a DELETE of links other than one by both its columns or an object's by its column"))
        default: return .failure(NotUnderstood("an UPDATE of a join table's row: not replayed yet"))
        }
    }

    /// A delete of one object by its key, of the table's hierarchy.
    private static func delete(_ tokens: [SQLTokens.Token], root: Int) -> Result<SaveSpec.Change?, NotUnderstood> {
        let words = tokens.filter { $0.kind == .word }.map(\.text)
        guard let at = words.firstIndex(of: "WHERE"), words[at...].dropFirst().allSatisfy({ ["Z_PK", "Z_OPT", "AND"].contains($0) }), words[at...].contains("Z_PK") else {
            return .failure(NotUnderstood("a DELETE of objects other than one by its Z_PK (a batch delete): not replayed yet"))
        }
        return .success(.delete(entity: root))
    }
}

extension LogSchema {
    /// The columns an INSERT of an object of `entity` names: its header, each attribute's column,
    /// each to-one's key and entity columns.
    func insertColumns(of entity: Int) -> Set<String> {
        var columns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        let info = model.entities[entity]
        for position in info.attributes.indices { columns.insert(schema.column(entity, attributeAt: position)) }
        for relationship in info.toOneRelationships {
            guard let found = schema.columns(entity, toOne: relationship.name) else { continue }
            columns.insert(found.key)
            if let column = found.entity { columns.insert(column) }
        }
        return columns
    }

    /// The to-one whose key (or entity-number) column of the hierarchy of `root` is `column`: its
    /// declaring entity, name, and whether the column is its key.
    func toOne(_ column: String, in root: Int) -> (entity: Int, name: String, isKey: Bool)? {
        for entity in model.entities[root].subtree {
            for relationship in model.entities[entity].toOneRelationships where relationship.owner == entity {
                guard let columns = schema.columns(entity, toOne: relationship.name) else { continue }
                if columns.key == column { return (entity, relationship.name, true) }
                if columns.entity == column { return (entity, relationship.name, false) }
            }
        }
        return nil
    }

    /// The attribute stored in `column` of the hierarchy of `root`: its declaring entity and name.
    func attribute(_ column: String, in root: Int) -> (entity: Int, name: String)? {
        for entity in model.entities[root].subtree {
            let info = model.entities[entity]
            for (position, attribute) in info.attributes.enumerated() where info.attributeOwners[position] == entity {
                if schema.column(entity, attributeAt: position) == column { return (entity, attribute.name) }
            }
        }
        return nil
    }
}
