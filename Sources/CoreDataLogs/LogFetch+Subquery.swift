/// A to-many relationship of the fetched entity compared through a subquery, as Core Data writes
/// it: holding an object (`t0.Z_PK IN (SELECT h1.Z_1ITEMS FROM Z_1TAGS h1 WHERE h1.Z_2TAGS = ?)`,
/// `tags CONTAINS %@`) or its count (`(SELECT COUNT(t1.Z_2TAGS) FROM Z_1TAGS t1 WHERE (t0.Z_PK =
/// t1.Z_1ITEMS)) > ?`, `tags.@count > %@`); through a many-to-many's join table, or the
/// destination's table by the inverse's key. A count with a condition of its own (`SUBQUERY(…)`)
/// is not read yet.
extension LogFetch {
    /// After `t0.Z_PK [NOT] IN (`: `SELECT h1.<this> FROM <source> h1 WHERE h1.<other> = ? …)`.
    mutating func holds(_ left: Operand, negated: Bool) throws -> String {
        let unread = NotUnderstood("a to-many relationship's CONTAINS in a form not read yet")
        guard case let .column(alias, "Z_PK") = left, alias.map({ aliases[$0] != nil && paths[$0] == nil }) ?? true else { throw unread }
        try expect("SELECT")
        let inner = try name()
        try expectSymbol(".")
        let this = try name()
        try expect("FROM")
        let source = try name()
        guard try name() == inner else { throw unread }
        try expect("WHERE")
        guard try name() == inner else { throw unread }
        try expectSymbol(".")
        let other = try name()
        try expectSymbol("=")
        guard case .parameter = try operand() else { throw unread }
        try skipEntityFilter(inner)
        try expectSymbol(")")
        let relationship = try toMany(source: source, this: this, other: other)
        return negated ? "NOT (\(relationship) CONTAINS %@)" : "\(relationship) CONTAINS %@"
    }

    /// After `(` and before `SELECT COUNT(`: `SELECT COUNT(t1.<other>) FROM <source> t1 WHERE
    /// (t0.Z_PK = t1.<this>))`, then its comparison.
    mutating func countOf() throws -> String {
        let unread = NotUnderstood("a subquery of a form not read yet (a count with a condition of its own: SUBQUERY(…).@count)")
        try expect("SELECT")
        try expect("COUNT")
        try expectSymbol("(")
        let inner = try name()
        try expectSymbol(".")
        let counted = try name()
        try expectSymbol(")")
        try expect("FROM")
        let source = try name()
        guard try name() == inner else { throw unread }
        try expect("WHERE")
        try expectSymbol("(")
        let outer = try name()
        guard aliases[outer] != nil, paths[outer] == nil else { throw unread }
        try expectSymbol(".")
        try expect("Z_PK")
        try expectSymbol("=")
        guard try name() == inner else { throw unread }
        try expectSymbol(".")
        let this = try name()
        try skipEntityFilter(inner)
        guard acceptSymbol(")"), acceptSymbol(")") else { throw unread }
        let relationship = try toMany(source: source, this: this, other: counted)
        guard let op = tokens[safe: position], op.kind == .symbol, let comparison = Self.comparisons[op.text] else { throw unread }
        position += 1
        return "\(relationship).@count \(comparison) \(try value(try operand()))"
    }

    /// `AND <alias>.Z_ENT …` terms of the destination's entity filter, passed over (the
    /// relationship says the destination); their values counted as bound.
    private mutating func skipEntityFilter(_ alias: String) throws {
        while accept("AND") {
            guard try name() == alias else { throw NotUnderstood("a subquery's condition of a form not read yet") }
            try expectSymbol(".")
            try expect("Z_ENT")
            guard let op = tokens[safe: position], op.kind == .symbol, Self.comparisons[op.text] != nil else { throw NotUnderstood("a subquery's condition of a form not read yet") }
            position += 1
            _ = try operand()
        }
    }

    /// The to-many relationship whose rows `source` holds, `this` the fetched object's key and
    /// `other` the destination's: a many-to-many's join table, or the destination's table by the
    /// inverse to-one's key (`other` its `Z_PK`).
    func toMany(source: String, this: String, other: String) throws -> String {
        let model = schema.model
        switch schema.tables[source] {
        case let .join(join, _)?:
            for side in [join.first, join.second] where join.columns(from: side.entity, side.relationship) == (this, other) { return side.relationship }
        case let .hierarchy(root, _)?:
            guard let (entity, name, isKey) = schema.toOne(this, in: root), isKey, ["Z_PK", this].contains(other),
                let toOne = model.entities[entity].relationship(name), let inverse = model.inverse(of: toOne), inverse.toMany
            else { break }
            return inverse.name
        case nil: break
        }
        throw NotUnderstood("a subquery of \(SQLTokens.shown(source, else: "a table")) that is no to-many relationship's rows is not read")
    }
}
