import FetchRequests
import Generation

extension LogSave {
    /// The new attribute values an INSERT or an UPDATE of one object binds (level 2), by attribute
    /// name: each attribute's column paired with its logged value, where the value is in a form a
    /// store binds (bytes are printed in one of Core Data's own). Empty for any other statement
    /// and at level 1.
    static func values(_ statement: LoggedStatement, kind: StatementKind, schema: LogSchema) -> [String: Value] {
        guard [.insert, .update].contains(kind), !statement.values.isEmpty, let table = statement.tokens.tables.first,
            case let .hierarchy(root, _)? = schema.tables[table]
        else { return [:] }
        let tokens = statement.tokens.tokens
        var pairs: [(column: String, parameter: Int)] = []
        if kind == .insert {
            guard let (columns, close) = LogSave.insertedColumns(tokens) else { return [:] }
            // `VALUES(?, ?, …)`: the n-th column's value is the n-th bound.
            guard tokens[close...].filter({ $0.kind == .parameter }).count == columns.count else { return [:] }
            pairs = columns.enumerated().map { ($1, $0) }
        } else if let (assignments, _) = LogSave.setList(tokens) {
            // `SET ZA = ?, ZB = ?, Z_OPT = ? WHERE …`: a `column = ?` takes the value bound at its `?`'s place.
            pairs = assignments.compactMap { column, value in
                tokens[value].kind == .parameter ? (column, tokens[..<value].count { $0.kind == .parameter }) : nil
            }
        }
        var values: [String: Value] = [:]
        for (column, parameter) in pairs where parameter < statement.values.count {
            guard let (_, name) = schema.attribute(column, in: root), let value = statement.values[parameter]?.value else { continue }
            values[name] = value
        }
        return values
    }
}
