import FetchRequests
import Generation
import Models

/// A one-row layout's inserts, updates, versions, deletes and link counts.
extension OneRowLayout {
    /// The columns of an INSERT of an object of `entity` after its header: each attribute's column
    /// (bound from its value), each to-one's; and the positions of the attributes kept in a JSON
    /// object, in order.
    func insertRow(_ entity: Model.Entity) -> (row: [(column: String, source: InsertStep.Source)], document: [Int]) {
        var row: [(column: String, source: InsertStep.Source)] = [], document: [Int] = []
        for position in entity.attributes.indices {
            let place = place(entity.index, position)
            if place.key == nil { row.append((place.column, .value(position))) } else { document.append(position) }
        }
        row += InsertStep.toOnes(toOnes(entity.index).map { ($0.key, $0.entity) })
        return (row, document)
    }

    /// The INSERT of each generating many-to-many relationship's links (with each member's order
    /// key where the join table has an order column).
    func linkInserts(_ entity: Model.Entity) -> [LinkInsert] {
        entity.linkedRelationships.map { (try? link($0)).map(schema.linkInsert) ?? .byDestination([:]) }
    }

    /// Core Data's one statement: each column set, or each key of a JSON object set with
    /// `json_set` (removed with `json_remove`, for NULL in an optional attribute), the keys of one
    /// column nested in one assignment; then each to-one's key and entity-number columns.
    public func updatePlan(_ entity: Int, changes: [AttributeChange], toOnes: [ToOneChange]) throws -> [UpdateStep] {
        var assignments: [(column: String, expression: String, values: [Value])] = []
        for change in changes {
            let (position, place) = try attribute(entity, change.name)
            let column = place.column
            let slot = assignments.firstIndex { $0.column == column } ?? {
                assignments.append((column, column, []))
                return assignments.count - 1
            }()
            guard let key = place.key else {
                assignments[slot] = (column, "?", [change.value])
                continue
            }
            let inner = assignments[slot].expression
            if change.value.isNull, model.entities[entity].attributes[position].optional {
                assignments[slot].expression = "json_remove(\(inner), '$.\(key)')"
            } else {
                let parameter = model.entities[entity].attributes[position].type.storage == .real ? "json(?)" : "?"
                assignments[slot].expression = "json_set(\(inner), '$.\(key)', \(parameter))"
                assignments[slot].values.append(change.value.jsonBindable)
            }
        }
        for change in toOnes {
            let toOne = try toOne(entity, change.name)
            let columns = [toOne.key] + (toOne.entity.map { [$0] } ?? [])
            for (column, value) in zip(columns, UpdateStep.toOneValues(change.destination, entityColumn: toOne.entity != nil)) {
                assignments.append((column, "?", [value]))
            }
        }
        return UpdateStep.versioned(table(entity), assignments.map { "\($0.column) = \($0.expression)" }.joined(separator: ", "), assignments.flatMap(\.values))
    }

    public func unlinkSQL(_ relationship: Model.Relationship, owner: Int, destination: Int) throws -> String {
        let join = try link(relationship)
        return "DELETE FROM \(join.name) WHERE \(join.this) = ? AND \(join.other) = ?"
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(table(entity)) WHERE Z_PK = ?" }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        try DeleteStatements.oneRow(
            table(entity), model.entities[entity].relationships,
            destination: { (self.table($0.destination), self.entityNumber($0.destination, alias: "t1")) },
            toOneKey: { try self.toOne(entity, $0.name).key },
            join: { try self.link($0) },
            inverse: { relationship in
                let key = try self.inverseKey(of: relationship)
                return (key.condition("t1.", kind: self.kindColumn(relationship.destination)), self.clearInverse(relationship, key))
            })
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// hold through the inverse to-one `key` (the many side of a one-to-many, the other side of a
    /// one-to-one): its key and entity number, and its order key, set to NULL.
    private func clearInverse(_ relationship: Model.Relationship, _ key: RowToOne) -> [String] {
        guard let inverse = model.inverse(of: relationship) else { return [] }
        let destination = relationship.destination
        var cleared = key.entity.map { ", \($0) = NULL" } ?? ""
        if let orderKey = model.orderKey(of: inverse), let position = model.entities[destination].attributeIndex(orderKey) {
            let place = place(destination, position), column = place.column
            cleared += place.key.map { ", \(column) = json_remove(\(column), '$.\($0)')" } ?? ", \(column) = NULL"
        }
        return DeleteStatements.clearing(table(destination), key: key.key, cleared: cleared, condition: key.condition("", kind: kindColumn(destination)), version: table(destination))
    }

    public func linkCountSQL(_ relationship: Model.Relationship) -> [String] {
        guard relationship.isManyToMany, let join = try? link(relationship) else { return [] }
        return ["SELECT COUNT(*) FROM \(join.name)"]
    }
}
