import Models

/// What deleting one object of an entity takes in a layout, each statement binding the object's
/// key as `?1`.
public struct DeleteStatements: Sendable {
    /// Per relationship of the entity (in `relationships` order): a query of the related objects
    /// (rows `Z_ENT, Z_PK`), for cascade and deny.
    public var related: [String]
    /// Per relationship: the statements that drop references to the object from elsewhere
    /// (the destination's foreign key set to NULL, join-table rows deleted).
    public var clear: [[String]]
    /// The statements that delete the object's own row(s).
    public var delete: [String]
    public init(related: [String], clear: [[String]], delete: [String]) { self.related = related; self.clear = clear; self.delete = delete }

    /// The statements of an object kept in one row of `table` (single-table, enum-entity,
    /// json-entity). Per relationship: its destinations' table and the expression of a row's entity
    /// number there (`destination`, aliased `t1`); a to-one through its key (`toOneKey`), a
    /// many-to-many through its join table (`join`), a one-to-many through its destinations'
    /// condition on their inverse key, with the statements clearing it (`inverse`, also used for
    /// the other side of a one-to-one).
    static func oneRow(_ table: String, _ relationships: [Model.Relationship],
                       destination: (Model.Relationship) throws -> (table: String, number: String),
                       toOneKey: (Model.Relationship) throws -> String,
                       join: (Model.Relationship) throws -> (name: String, this: String, other: String),
                       inverse: (Model.Relationship) throws -> (condition: String, clear: [String])) throws -> DeleteStatements {
        var statements = DeleteStatements(related: [], clear: [], delete: ["DELETE FROM \(table) WHERE Z_PK = ?1"])
        for relationship in relationships {
            let (target, number) = try destination(relationship)
            if !relationship.toMany {
                statements.related.append("SELECT \(number), t1.Z_PK FROM \(table) t0 JOIN \(target) t1 ON t1.Z_PK = t0.\(try toOneKey(relationship)) WHERE t0.Z_PK = ?1")
                statements.clear.append(relationship.isOneToOne ? try inverse(relationship).clear : [])
            } else if relationship.isManyToMany {
                let link = try join(relationship)
                statements.related.append("SELECT \(number), t1.Z_PK FROM \(link.name) j JOIN \(target) t1 ON t1.Z_PK = j.\(link.other) WHERE j.\(link.this) = ?1")
                statements.clear.append(["DELETE FROM \(link.name) WHERE \(link.this) = ?1"])
            } else {
                let (condition, clear) = try inverse(relationship)
                statements.related.append("SELECT \(number), t1.Z_PK FROM \(target) t1 WHERE \(condition)")
                statements.clear.append(clear)
            }
        }
        return statements
    }
}

extension DeleteStatements {
    /// The statements setting the key column `key` of the rows of `table` that match `condition`
    /// to NULL (with the assignments `cleared`, such as `, ZKIND = NULL`) and bumping their
    /// version: one UPDATE when `version`, the table holding it, is `table`; else the version
    /// bumped there first, then the key cleared. Every layout clears an inverse with it.
    static func clearing(_ table: String, key: String, cleared: String, condition: String, version: String) -> [String] {
        guard version != table else { return ["UPDATE \(table) SET \(key) = NULL\(cleared), Z_OPT = Z_OPT + 1 WHERE \(condition)"] }
        return ["UPDATE \(version) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (SELECT Z_PK FROM \(table) WHERE \(condition))",
                "UPDATE \(table) SET \(key) = NULL\(cleared) WHERE \(condition)"]
    }
}
