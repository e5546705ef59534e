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
    /// Each change's statements; a change counts as made when one of them writes a row.
    public var changes: [[(sql: String, values: [Value])]]
    /// Per change, whether its first statement decides it (an update's, on the object's version):
    /// when it writes no row the change is not made and the rest are not run.
    public var gated: [Bool]
}

extension LayoutStore {
    /// The statements of `request` in this layout: each insert's rows, each update's (on the
    /// object's version, `versions`, read beforehand), each delete's own rows (what refers to the
    /// object is the save's other changes, as Core Data sends them).
    public func prepare(_ request: SaveRequest, versions: [ObjectID: Int64]) throws -> PreparedSave {
        var changes: [[(sql: String, values: [Value])]] = [], gated: [Bool] = []
        for change in request.changes {
            if case .update = change { gated.append(true) } else { gated.append(false) }
            switch change {
            case let .insert(object):
                guard let plan = layout.insertPlan(object.id.entity) else { throw LayoutError.abstract(layout.name, model.entities[object.id.entity], "insert") }
                changes.append(plan.steps.map { ($0.sql, $0.values(object)) })
            case let .update(id, attributes, toOnes):
                let version = ObjectVersion(id: id, version: versions[id] ?? 1)
                changes.append(try layout.updatePlan(id.entity, changes: attributes, toOnes: toOnes).map { ($0.sql, $0.values(version)) })
            case let .delete(id):
                changes.append(try layout.deleteStatements(id.entity).delete.map { ($0, [.integer(id.key)]) })
            case let .link(owner, name, destination):
                let entity = model.entities[owner.entity]
                guard let position = entity.linkedRelationships.firstIndex(where: { $0.name == name }), let plan = layout.insertPlan(owner.entity), position < plan.links.count,
                    let sql = plan.links[position].sql(to: destination.entity)
                else { throw LayoutError(layout.name, "no join table links \(entity.name).\(name) to \(model.entities[destination.entity].name)") }
                changes.append([(sql, plan.links[position].values(owner: owner.key, destination: destination.key))])
            case let .unlink(owner, name, destination):
                let relationship = try relationship(owner.entity, name)
                changes.append([(try layout.unlinkSQL(relationship, owner: owner.entity, destination: destination.entity), [.integer(owner.key), .integer(destination.key)])])
            case let .unlinkAll(id, name):
                let entity = model.entities[id.entity]
                guard let index = entity.relationships.firstIndex(where: { $0.name == name && ($0.isManyToMany || model.inverse(of: $0)?.toMany == false) }) else {
                    throw LayoutError(layout.name, "'\(name)' of \(entity.name) is neither a many-to-many nor the inverse of a to-one")
                }
                changes.append(try layout.deleteStatements(id.entity).clear[index].map { ($0, [.integer(id.key)]) })
            }
        }
        return PreparedSave(inserted: request.inserted, changes: changes, gated: gated)
    }

    private func relationship(_ entity: Int, _ name: String) throws -> Model.Relationship {
        guard let found = model.entities[entity].relationship(name) else { throw LayoutError(layout.name, "'\(name)' is not a relationship of \(model.entities[entity].name)") }
        return found
    }

    /// Runs a prepared save as one transaction: the inserted objects' keys reserved, then each
    /// change's statements in order. Returns the changes made: those of which a statement wrote a row.
    public func save(_ prepared: PreparedSave) throws -> Int {
        try database.transaction {
            try reserveKeys(for: prepared.inserted)
            var made = 0
            for (statements, gated) in zip(prepared.changes, prepared.gated) {
                var written = 0
                for (position, (sql, values)) in statements.enumerated() {
                    written += try database.write(sql, values)
                    if gated, position == 0, written == 0 { break }
                }
                if written > 0 { made += 1 }
            }
            return made
        }
    }

    /// Prepares each statement of the save, and the key reservation's, on the connection (loading
    /// its schema), so that a timed save runs them rather than compiles them.
    public func warm(_ prepared: PreparedSave) throws {
        var seen = Set<String>()
        for sql in [CoreDataBookkeeping.readMaxSQL, CoreDataBookkeeping.reserveSQL] + prepared.changes.flatMap({ $0.map(\.sql) }) where seen.insert(sql).inserted {
            _ = try database.cachedStatement(sql)
        }
    }

    /// The versions (`Z_OPT`) of the objects a save updates, read before it.
    public func versions(of request: SaveRequest) throws -> [ObjectID: Int64] {
        let ids = request.updated
        return Dictionary(zip(ids, try versions(ids)).compactMap { id, version in version.map { (id, $0) } }, uniquingKeysWith: { first, _ in first })
    }
}
