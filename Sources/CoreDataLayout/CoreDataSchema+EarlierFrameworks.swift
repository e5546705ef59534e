import Models

/// Core Data's layout as a framework before fetch indexes (Core Data 637 to about 750: iOS 9 and
/// 10, macOS 10.11 and 10.12) wrote it, for a model read from such a store
/// (`ModelDescription.legacyIndexes`): the tables as today's, but a uniqueness constraint kept as
/// a clause of its table; indexes named after their table and columns, without collation.
extension CoreDataSchema {
    /// Whether the model's store was laid out by a framework before fetch indexes.
    public var legacyIndexes: Bool { model.description.legacyIndexes == true }

    /// Each uniqueness constraint of `root`'s hierarchy as that framework keeps it in the table:
    /// `CONSTRAINT <C1>_<C2> UNIQUE (<C1>, <C2>)` (objc.io's Moody store's `ZGEOGRAPHICREGION`).
    public func legacyConstraintClauses(root: Int) -> [String] {
        model.entities[root].subtree.flatMap { entity in
            model.entities[entity].uniquenessConstraints.map { constraint in
                let columns = constraint.map { indexColumn(entity, FetchIndex.Element(property: $0)) }
                return "CONSTRAINT \(columns.joined(separator: "_")) UNIQUE (\(columns.joined(separator: ", ")))"
            }
        }
    }

    /// The indexes as that framework writes them, table by table as the Moody store holds them: an
    /// indexed attribute's `<TABLE>_<COLUMN>_INDEX ON <TABLE> (<COLUMN>)`, the to-one keys' and the
    /// `Z_ENT` index as today, then a compound index's `<TABLE>_<C1>_<C2> ON <TABLE> (<C1>, <C2>)`;
    /// then the join tables' as today. No index for a uniqueness constraint (a clause of its table).
    public var legacyIndexSQL: [String] {
        var sql: [String] = []
        for root in model.roots {
            let table = self.table(of: root)
            let indexes = model.entities[root].subtree.flatMap { entity in
                model.entities[entity].fetchIndexes.filter { makesIndex($0, of: entity) }.map { index in index.elements.map { indexColumn(entity, $0) } }
            }
            for columns in indexes where columns.count == 1 {
                sql.append("CREATE INDEX \(table.name)_\(columns[0])_INDEX ON \(table.name) (\(columns[0]))")
            }
            sql += keyIndexSQL(root)
            for columns in indexes where columns.count > 1 {
                sql.append("CREATE INDEX \(([table.name] + columns).joined(separator: "_")) ON \(table.name) (\(columns.joined(separator: ", ")))")
            }
        }
        return sql + joinIndexSQL
    }
}
