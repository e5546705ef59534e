import CoreDataLayout
import FetchRequests
import Generation
import Models

/// A multi-table layout's updates, versions, deletes and link counts, from where it keeps each
/// object's rows, identity and properties.
extension MultiTableLayout {
    /// Core Data's `UPDATE … SET <col> = ?, …, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?` for the
    /// columns in the table holding the version (the version alone there when none is); then
    /// each other table's columns set in one statement of its own, in the order first named.
    public func updatePlan(_ entity: Int, changes: [AttributeChange], toOnes: [ToOneChange]) throws -> [UpdateStep] {
        guard let version = identity(entity)?.table else { throw LayoutError.abstract(Self.name, model.entities[entity], "update") }
        var tables: [(table: String, columns: [String], values: [Value])] = [(version, [], [])]
        func set(_ table: String, _ column: String, _ value: Value) {
            let slot = tables.firstIndex { $0.table == table } ?? {
                tables.append((table, [], []))
                return tables.count - 1
            }()
            tables[slot].columns.append("\(column) = ?")
            tables[slot].values.append(value)
        }
        for change in changes {
            guard let position = model.entities[entity].attributeIndex(change.name) else {
                throw LayoutError(Self.name, "'\(change.name)' is not an attribute of concrete entity '\(model.entities[entity].name)'")
            }
            let place = attributePlace(entity, position)
            set(place.table, place.column, change.value)
        }
        for change in toOnes {
            let place = toOnePlace(entity, try toOnePosition(entity, change.name))
            let columns = [place.key] + (place.entity.map { [$0] } ?? [])
            for (column, value) in zip(columns, UpdateStep.toOneValues(change.destination, entityColumn: place.entity != nil)) { set(place.table, column, value) }
        }
        let first = tables[0].columns.isEmpty
            ? UpdateStep("UPDATE \(version) SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", [.newVersion, .key, .oldVersion])
            : UpdateStep.versioned(version, tables[0].columns.joined(separator: ", "), tables[0].values)[0]
        return [first] + tables.dropFirst().map { UpdateStep("UPDATE \($0.table) SET \($0.columns.joined(separator: ", ")) WHERE Z_PK = ?", $0.values.map { .value($0) } + [.key]) }
    }

    /// The join table holding the links from `owner`'s objects to `destination`'s.
    public func unlinkSQL(_ relationship: Model.Relationship, owner: Int, destination: Int) throws -> String {
        let links = try joinLinks(owner, relationship)
        guard let link = links.first(where: { $0.partner == destination }) ?? links.first(where: { model.entities[$0.partner].subtree.contains(destination) }) else {
            throw LayoutError(Self.name, "no join table links \(model.entities[owner].name).\(relationship.name) to \(model.entities[destination].name)")
        }
        return "DELETE FROM \(link.join) WHERE \(link.this) = ? AND \(link.other) = ?"
    }

    public func versionSQL(_ entity: Int) -> String? { identity(entity).map { "SELECT Z_OPT FROM \($0.table) WHERE Z_PK = ?" } }

    /// Per relationship, its related objects as one `UNION ALL` of an arm per table holding their
    /// identities, and the statements clearing references to the object; then its rows, the
    /// deepest table first (`PRAGMA foreign_keys` stays off).
    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        guard identity(entity) != nil else { throw LayoutError.abstract(Self.name, model.entities[entity], "delete") }
        var statements = DeleteStatements(related: [], clear: [], delete: rowTables(entity).reversed().map { "DELETE FROM \($0) WHERE Z_PK = ?1" })
        for relationship in model.entities[entity].relationships {
            let arms: [String]
            if !relationship.toMany {
                let place = toOnePlace(entity, try toOnePosition(entity, relationship.name))
                let targets = holders(relationship.destination)
                arms = targets.compactMap { target in
                    guard let identity = identity(target) else { return nil }
                    // Several tables hold the destinations: the entity column says which one a key is in.
                    let filter = targets.count > 1 ? place.entity.map { " AND t0.\($0) = \(target + 1)" } ?? "" : ""
                    return "SELECT \(identity.number("t1")), t1.Z_PK FROM \(place.table) t0 JOIN \(identity.table) t1 ON t1.Z_PK = t0.\(place.key) WHERE t0.Z_PK = ?1" + filter
                }
                statements.clear.append(relationship.isOneToOne ? try clearInverse(relationship) : [])
            } else if relationship.isManyToMany {
                let links = try joinLinks(entity, relationship)
                arms = links.compactMap { link in
                    identity(link.partner).map { "SELECT \($0.number("t1")), t1.Z_PK FROM \(link.join) j JOIN \($0.table) t1 ON t1.Z_PK = j.\(link.other) WHERE j.\(link.this) = ?1" }
                }
                var deletes: [String] = []
                for link in links where !deletes.contains("DELETE FROM \(link.join) WHERE \(link.this) = ?1") { deletes.append("DELETE FROM \(link.join) WHERE \(link.this) = ?1") }
                statements.clear.append(deletes)
            } else {
                let (inverse, position) = try inverseToOne(relationship)
                arms = holders(inverse.owner).compactMap { holder in
                    let place = toOnePlace(holder, position)
                    return identity(holder).map { identity in
                        identity.table == place.table ? "SELECT \(identity.number("t1")), t1.Z_PK FROM \(place.table) t1 WHERE t1.\(place.key) = ?1"
                            : "SELECT \(identity.number("t1")), t1.Z_PK FROM \(place.table) t2 JOIN \(identity.table) t1 ON t1.Z_PK = t2.Z_PK WHERE t2.\(place.key) = ?1"
                    }
                }
                statements.clear.append(try clearInverse(relationship))
            }
            statements.related.append(arms.isEmpty ? "SELECT 0, 0 WHERE 0 AND ?1" : arms.joined(separator: " UNION ALL "))
        }
        return statements
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// hold through the inverse to-one (the many side of a one-to-many, the other side of a
    /// one-to-one), in each table holding it: its key, entity number and order key set to NULL.
    private func clearInverse(_ relationship: Model.Relationship) throws -> [String] {
        guard model.inverse(of: relationship) != nil else { return [] }
        let (inverse, position) = try inverseToOne(relationship)
        // The order key is declared with the to-one, so it is in the same table.
        let orderKey = try model.orderKey(of: inverse).map { try attributePosition(inverse.owner, $0) }
        return holders(inverse.owner).flatMap { holder -> [String] in
            let place = toOnePlace(holder, position)
            guard let version = identity(holder)?.table else { return [] }
            let cleared = (place.entity.map { ", \($0) = NULL" } ?? "") + (orderKey.map { ", \(attributePlace(holder, $0).column) = NULL" } ?? "")
            return DeleteStatements.clearing(place.table, key: place.key, cleared: cleared, condition: "\(place.key) = ?1", version: version)
        }
    }

    /// SQLite allows 500 arms in one compound SELECT: link counts are summed in statements of this many.
    static var armsPerStatement: Int { 400 }

    public func linkCountSQL(_ relationship: Model.Relationship) -> [String] {
        guard relationship.isManyToMany else { return [] }
        let joins = joinTableNames(relationship)
        guard joins.count > 1 else { return joins.map { "SELECT COUNT(*) FROM \($0)" } }
        return stride(from: 0, to: joins.count, by: Self.armsPerStatement).map { start in
            let arms = joins[start ..< min(start + Self.armsPerStatement, joins.count)].enumerated().map { offset, join in
                "SELECT COUNT(*)\(offset == 0 ? " AS n" : "") FROM \(join)"
            }
            return "SELECT SUM(n) FROM (\(arms.joined(separator: " UNION ALL ")))"
        }
    }
}
