import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// A save's statements in one layout, made before it is timed: the objects whose keys it reserves
/// and each statement with its values, in order.
public struct PreparedSave: Sendable {
    /// The objects inserted, whose keys the save reserves first, as Core Data's save does.
    public var inserted: [ModelObject]
    /// Each change's statements; a change counts as made when its first statement writes a row.
    public var changes: [[(sql: String, values: [Value])]]
}

extension LayoutStore {
    /// The statements of `request` in this layout: each insert's rows, each update's (on the
    /// object's version, `versions`, read beforehand), each delete's own rows (what refers to the
    /// object is the save's other changes, as Core Data sends them).
    public func prepare(_ request: SaveRequest, versions: [ObjectID: Int64]) throws -> PreparedSave {
        var changes: [[(sql: String, values: [Value])]] = []
        for change in request.changes {
            switch change {
            case let .insert(object):
                guard let plan = layout.insertPlan(object.id.entity) else { throw LayoutError.abstract(layout.name, model.entities[object.id.entity], "insert") }
                changes.append(plan.steps.map { ($0.sql, $0.values(object)) })
            case let .update(id, attributes, toOnes):
                let version = ObjectVersion(id: id, version: versions[id] ?? 1)
                changes.append(try layout.updatePlan(id.entity, changes: attributes, toOnes: toOnes).map { ($0.sql, $0.values(version)) })
            case let .delete(id):
                changes.append(try layout.deleteStatements(id.entity).delete.map { ($0, [.integer(id.key)]) })
            }
        }
        return PreparedSave(inserted: request.inserted, changes: changes)
    }

    /// Runs a prepared save as one transaction: the inserted objects' keys reserved, then each
    /// change's statements in order. Returns the changes made.
    public func save(_ prepared: PreparedSave) throws -> Int {
        try database.transaction {
            try reserveKeys(for: prepared.inserted)
            var made = 0
            for statements in prepared.changes {
                var first = true
                for (sql, values) in statements {
                    let written = try database.write(sql, values)
                    if first, written > 0 { made += 1 }
                    first = false
                }
            }
            return made
        }
    }

    /// The versions (`Z_OPT`) of the objects a save updates, read before it.
    public func versions(of request: SaveRequest) throws -> [ObjectID: Int64] {
        let ids = request.updated
        return Dictionary(zip(ids, try versions(ids)).compactMap { id, version in version.map { (id, $0) } }, uniquingKeysWith: { first, _ in first })
    }
}
