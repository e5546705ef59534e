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
            guard let open = tokens.firstIndex(where: { $0.text == "(" }), let close = tokens[open...].firstIndex(where: { $0.text == ")" }) else { return [:] }
            let columns = tokens[(open + 1)..<close].filter { $0.kind == .word }.map(\.text)
            // `VALUES(?, ?, …)`: the n-th column's value is the n-th bound.
            guard tokens[close...].filter({ $0.kind == .parameter }).count == columns.count else { return [:] }
            pairs = columns.enumerated().map { ($1, $0) }
        } else {
            // `SET ZA = ?, ZB = ?, Z_OPT = ? WHERE …`: each `column = ?` takes the next value bound.
            var parameter = 0
            for (index, token) in tokens.enumerated() {
                if token.kind == .word, token.text == "WHERE" { break }
                guard token.kind == .parameter else { continue }
                if index >= 2, tokens[index - 1].text == "=", tokens[index - 2].kind == .word { pairs.append((tokens[index - 2].text, parameter)) }
                parameter += 1
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
