import Generation
import Models
import SQLite

/// Each statement of `Joined`, derived from its layout.
extension Joined {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    struct ReaderKey: Hashable { let entity: Int; let includesSubentities: Bool }

    /// The read of `entity` (with its sub-entities when asked and it has any), made once.
    func reader(_ entity: Int, includesSubentities: Bool) throws -> JoinedReader {
        let key = ReaderKey(entity: entity, includesSubentities: includesSubentities && model.entities[entity].hasSubentities)
        if let known = readers[key] { return known }
        let made = try JoinedReader(self, entity: entity, includesSubentities: key.includesSubentities)
        readers[key] = made
        return made
    }

    /// The tables a condition reads, and the aliases its joins through to-many relationships took.
    final class Tracker {
        var entities = Set<Int>()
        var related = 0
    }

    /// The WHERE builder of a request over `reader`'s tables (`union`: over the `UNION ALL`
    /// subquery `t0`, whose columns are named `c<position>`).
    func sqlWhere(_ request: FetchRequest, _ reader: JoinedReader, union: Bool, _ tracker: Tracker) throws -> SQLWhere {
        let entity = request.entity
        func expression(_ owner: Int, _ column: String) throws -> String {
            tracker.entities.insert(owner)
            guard union else { return "\(reader.alias(owner)).\(column)" }
            let start = reader.base[reader.position(of: owner)]
            return "t0.c\(start + Int32(try Self.need(tables[owner].index[column], "column \(column) of \(tables[owner].name)")))"
        }
        func attribute(_ name: String) throws -> String {
            let (owner, column) = try Self.need(attributeColumn(entity, name), "attribute '\(name)' of \(model.entities[entity].name)")
            return try expression(owner, column)
        }
        return SQLWhere(
            attribute: attribute,
            toOne: { name in
                let columns = try Self.need(self.toOneColumn(entity, name), "to-one '\(name)' of \(self.model.entities[entity].name)")
                return try expression(columns.owner, columns.key)
            },
            key: "t0.Z_PK",
            related: { relationship, name in try self.relatedJoin(entity, relationship, name, tracker) },
            sort: try request.sort.map { (try attribute($0.attribute), $0.ascending) })
    }

    /// The joins for `ANY relationship.attribute == ?`: through the join table (many-to-many) or the
    /// table holding the inverse's foreign key (one-to-many), then the table holding the attribute.
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String, _ tracker: Tracker) throws -> (joins: String, expression: String) {
        let relationship = try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
        let (owner, column) = try Self.need(attributeColumn(relationship.destination, attribute), "attribute '\(attribute)' of the destination of \(name)")
        let target = tables[owner].name
        let first = "r\(tracker.related + 1)", second = "r\(tracker.related + 2)"
        tracker.related += 2
        if relationship.isManyToMany {
            let join = try schema.join(relationship)
            let (this, other) = join.columns(from: relationship.owner, relationship.name)
            return ("JOIN \(join.name) \(first) ON \(first).\(this) = t0.Z_PK JOIN \(target) \(second) ON \(second).Z_PK = \(first).\(other)",
                    "\(second).\(column)")
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let foreign = try Self.need(toOneColumn(relationship.destination, inverse.name), "to-one '\(inverse.name)'")
        let holder = tables[foreign.owner].name
        if foreign.owner == owner {
            return ("JOIN \(holder) \(first) ON \(first).\(foreign.key) = t0.Z_PK", "\(first).\(column)")
        }
        return ("JOIN \(holder) \(first) ON \(first).\(foreign.key) = t0.Z_PK JOIN \(target) \(second) ON \(second).Z_PK = \(first).Z_PK",
                "\(second).\(column)")
    }

    /// `Z_ENT = ?` on the root's table when the request reads one entity of a hierarchy (a leaf's
    /// table, or a middle entity's with its sub-entities, holds exactly the objects asked for).
    func entityFilter(_ request: FetchRequest) -> Bool {
        let info = model.entities[request.entity]
        return info.hasSubentities && !request.includesSubentities
    }

    /// `FROM E t0 JOIN <ancestors> <joins> LEFT JOIN <descendants>`, keeping the ancestors in `only` when given.
    func fromClause(_ reader: JoinedReader, only: Set<Int>? = nil, joins: String, descendants: Bool) throws -> String {
        let path = paths[reader.entity]
        var text = "FROM \(tables[reader.entity].name) t0"
        for ancestor in path.dropLast().reversed() where only?.contains(ancestor) ?? true {
            let alias = reader.alias(ancestor)
            text += " JOIN \(tables[ancestor].name) \(alias) ON \(alias).Z_PK = t0.Z_PK"
        }
        text += joins
        if descendants {
            for descendant in reader.descendants {
                let alias = reader.alias(descendant)
                text += " LEFT JOIN \(tables[descendant].name) \(alias) ON \(alias).Z_PK = t0.Z_PK"
            }
        }
        return text
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let reader = try reader(request.entity, includesSubentities: request.includesSubentities)
        let tracker = Tracker()
        let related = 2 * request.predicate.relatedCount
        if reader.needsUnion || reader.entities.count + related > JoinedReader.maximumJoinedTables {
            return try unionQuery(request, reader, tracker)
        }
        var builder = try sqlWhere(request, reader, union: false, tracker)
        var parts = [try builder.condition(request.predicate)].compactMap { $0 }
        if entityFilter(request) {
            let root = model.entities[request.entity].root
            parts.append("\(reader.alias(root)).Z_ENT = ?")
            builder.appendValues([.integer(Int64(request.entity + 1))])
        }
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let from = try fromClause(reader, joins: builder.joinClause, descendants: true)
        let tail = (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")) + builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(reader.selectList) \(from)\(tail)", values: builder.values, decoder: reader.decoder)
    }

    /// A fetch of a subtree too wide to join: one arm per concrete entity (its path of inner joins,
    /// `Z_ENT = ?` when it has sub-entities, NULL for the columns of entities off its path), the
    /// union filtered, sorted and paged as a whole.
    private func unionQuery(_ request: FetchRequest, _ reader: JoinedReader, _ tracker: Tracker) throws -> PreparedQuery {
        let (arms, armValues) = try reader.unionArms(self)
        var builder = try sqlWhere(request, reader, union: true, tracker)
        let condition = try builder.condition(request.predicate)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let from = "FROM (\(arms.joined(separator: " UNION ALL "))) t0" + builder.joinClause
        let tail = (condition.map { " WHERE " + $0 } ?? "") + builder.orderBy + builder.page(request)
        // The arms have no `Z_PK` markers (every table on an arm's path is inner-joined).
        let decoder = reader.needsUnion ? reader.decoder : try JoinedReader.decoder(self, reader.entity, concrete: reader.concrete, base: reader.base, markers: [:])
        return PreparedQuery(sql: "SELECT \(distinct)t0.* \(from)\(tail)", values: armValues + builder.values, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let reader = try reader(request.entity, includesSubentities: request.includesSubentities)
        let filter = entityFilter(request)
        if request.predicate == .all, !filter {
            return PreparedQuery(sql: "SELECT COUNT(*) FROM \(tables[request.entity].name)", values: [], decoder: nil)
        }
        let tracker = Tracker()
        var builder = try sqlWhere(request, reader, union: false, tracker)
        var parts = [try builder.condition(request.predicate)].compactMap { $0 }
        let root = model.entities[request.entity].root
        if filter {
            tracker.entities.insert(root)
            parts.append("\(reader.alias(root)).Z_ENT = ?")
            builder.appendValues([.integer(Int64(request.entity + 1))])
        }
        let count = request.predicate.reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)"
        let from = try fromClause(reader, only: tracker.entities, joins: builder.joinClause, descendants: false)
        return PreparedQuery(sql: "SELECT \(count) \(from)" + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")),
                             values: builder.values, decoder: nil)
    }

    // MARK: Writes

    /// Core Data's `UPDATE … SET <col> = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?` on the root's
    /// table; for a column of a sub-entity's table, the version is checked and bumped on the root's
    /// row, then the column set on the sub-row.
    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        let (owner, column) = try Self.need(attributeColumn(entity, attribute), "attribute '\(attribute)' of \(model.entities[entity].name)")
        let root = tables[model.entities[owner].root].name
        if model.entities[owner].isRoot { return UpdateStep.versioned(root, "\(column) = ?", [value]) }
        return [UpdateStep("UPDATE \(root) SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", [.newVersion, .key, .oldVersion]),
                UpdateStep("UPDATE \(tables[owner].name) SET \(column) = ? WHERE Z_PK = ?", [.value(value), .key])]
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(tables[model.entities[entity].root].name) WHERE Z_PK = ?" }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        var related: [String] = []
        var clear: [[String]] = []
        for relationship in model.entities[entity].relationships {
            let destination = tables[model.entities[relationship.destination].root].name
            if !relationship.toMany {
                let columns = try Self.need(toOneColumn(entity, relationship.name), "to-one '\(relationship.name)'")
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(tables[columns.owner].name) t0 JOIN \(destination) t1 ON t1.Z_PK = t0.\(columns.key) WHERE t0.Z_PK = ?1")
                clear.append(relationship.isOneToOne ? clearInverse(relationship) : [])
            } else if relationship.isManyToMany {
                let join = try schema.join(relationship)
                let (this, other) = join.columns(from: relationship.owner, relationship.name)
                related.append("SELECT t1.Z_ENT, t1.Z_PK FROM \(join.name) j JOIN \(destination) t1 ON t1.Z_PK = j.\(other) WHERE j.\(this) = ?1")
                clear.append(["DELETE FROM \(join.name) WHERE \(this) = ?1"])
            } else {
                let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(relationship.name)")
                let columns = try Self.need(toOneColumn(relationship.destination, inverse.name), "to-one '\(inverse.name)'")
                let holder = tables[columns.owner].name
                related.append(holder == destination
                    ? "SELECT t1.Z_ENT, t1.Z_PK FROM \(destination) t1 WHERE t1.\(columns.key) = ?1"
                    : "SELECT t1.Z_ENT, t1.Z_PK FROM \(holder) t2 JOIN \(destination) t1 ON t1.Z_PK = t2.Z_PK WHERE t2.\(columns.key) = ?1")
                clear.append(clearInverse(relationship))
            }
        }
        // The deepest table first, the base row last (`PRAGMA foreign_keys` stays off).
        let delete = paths[entity].reversed().map { "DELETE FROM \(tables[$0].name) WHERE Z_PK = ?1" }
        return DeleteStatements(related: related, clear: clear, delete: delete)
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// hold through the inverse to-one (the many side of a one-to-many, the other side of a
    /// one-to-one). When the foreign key is in a sub-entity's table and the version in the root's,
    /// the version is bumped first, then the key cleared.
    private func clearInverse(_ relationship: Model.Relationship) -> [String] {
        guard let inverse = model.inverse(of: relationship), let columns = toOneColumn(relationship.destination, inverse.name) else { return [] }
        let destination = tables[model.entities[relationship.destination].root].name
        let holder = tables[columns.owner].name
        // The order key is declared with the to-one, so it is in the same table.
        let entityColumn = (columns.entity.map { ", \($0) = NULL" } ?? "")
            + (model.orderKey(of: inverse).flatMap { attributeColumn(relationship.destination, $0) }.map { ", \($0.column) = NULL" } ?? "")
        if holder == destination {
            return ["UPDATE \(destination) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"]
        }
        return [
            "UPDATE \(destination) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN (SELECT Z_PK FROM \(holder) WHERE \(columns.key) = ?1)",
            "UPDATE \(holder) SET \(columns.key) = NULL\(entityColumn) WHERE \(columns.key) = ?1",
        ]
    }

    public func linkCountSQL(_ relationship: Model.Relationship) -> [String] {
        schema.joinTable(relationship).map { ["SELECT COUNT(*) FROM \($0.name)"] } ?? []
    }
}

extension FetchPredicate {
    /// How many `ANY relationship.attribute == value` conditions the predicate holds (each joins two tables).
    var relatedCount: Int {
        switch self {
        case .anyRelated: 1
        case let .and(predicates): predicates.reduce(0) { $0 + $1.relatedCount }
        default: 0
        }
    }
}
