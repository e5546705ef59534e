import FetchRequests
import Generation
import Models
import SQLite

/// Each statement of `Joined`, derived from its layout.
extension Joined {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    /// The read of `entity` (with its sub-entities when asked and it has any).
    func reader(_ entity: Int, includesSubentities: Bool) -> JoinedReader {
        let made = readers[entity]
        return includesSubentities && made.count > 1 ? made[1] : made[0]
    }

    /// The tables a condition reads.
    final class Tracker {
        var entities = Set<Int>()
    }

    /// The WHERE builder of a request over `reader`'s tables (`union`: over the `UNION ALL`
    /// subquery `t0`, whose columns are named `c<position>`).
    func sqlWhere(_ request: FetchRequest, _ reader: JoinedReader, union: Bool, _ tracker: Tracker) -> SQLWhere {
        let entity = model.entities[request.entity], positions = reader.read.positions
        func expression(_ column: MultiTableRead.Column, _ position: Int32) -> String {
            tracker.entities.insert(column.owner)
            return union ? "t0.c\(position)" : "\(reader.alias(column.owner)).\(columnName(column))"
        }
        return sqlWhere(entity.index, sort: request.sort, anyAlias: "r", attribute: { name in
            let position = try self.attributePosition(entity.index, name)
            return expression(MultiTableRead.Column(owner: entity.attributeOwners[position], property: .attribute(position)), positions.attributes[position])
        }, toOne: { name in
            let position = try self.toOnePosition(entity.index, name)
            return expression(MultiTableRead.Column(owner: entity.toOneRelationships[position].owner, property: .toOneKey(position)), positions.toOnes[position].key)
        }, entityNumber: { self.entityNumber(entity.root, reader, union: union, tracker) })
    }

    /// A row's entity number: the root's `Z_ENT` (the union's), or the literal number of a root
    /// without sub-entities.
    private func entityNumber(_ root: Int, _ reader: JoinedReader, union: Bool, _ tracker: Tracker) -> String {
        guard model.entities[root].hasSubentities else { return "\(root + 1)" }
        if union { return "t0.Z_ENT" }
        tracker.entities.insert(root)
        return "\(reader.alias(root)).Z_ENT"
    }

    /// `Z_ENT = ?` on the root's table when the request reads one entity of a hierarchy (a leaf's
    /// table, or a middle entity's with its sub-entities, holds exactly the objects asked for).
    func entityFilter(_ request: FetchRequest) -> Bool {
        let info = model.entities[request.entity]
        return info.hasSubentities && !request.includesSubentities
    }

    /// `FROM E t0 JOIN <ancestors> <joins> LEFT JOIN <descendants> WHERE <condition> AND <root>.Z_ENT = ?`
    /// of `request` over `reader`'s joins (the entity filter when `entityFilter`), its values bound
    /// in `builder`: a fetch joins every ancestor and descendant, a count or a partial fetch only
    /// the ancestors whose columns it reads (`tracker`).
    func joinedFrom(_ request: FetchRequest, _ reader: JoinedReader, _ builder: inout SQLWhere, _ tracker: Tracker, fetch: Bool) throws -> String {
        var parts = [try builder.condition(request.predicate)].compactMap { $0 }
        if entityFilter(request) {
            let root = model.entities[request.entity].root
            tracker.entities.insert(root)
            parts.append("\(reader.alias(root)).Z_ENT = ?")
            builder.appendValues([.integer(Int64(request.entity + 1))])
        }
        let from = fromClause(reader, joins: builder.joinClause, only: fetch ? nil : tracker.entities)
        return from + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "))
    }

    /// `FROM E t0 JOIN <ancestors> <joins> LEFT JOIN <descendants>`; with `only`, the ancestors in
    /// it and no descendant.
    func fromClause(_ reader: JoinedReader, joins: String, only: Set<Int>? = nil) -> String {
        var text = "FROM \(tables[reader.entity].name) t0"
        for ancestor in paths[reader.entity].dropLast().reversed() where only?.contains(ancestor) ?? true {
            text += " JOIN \(tables[ancestor].name) \(reader.alias(ancestor)) ON \(reader.alias(ancestor)).Z_PK = t0.Z_PK"
        }
        text += joins
        for descendant in reader.descendants where only == nil {
            text += " LEFT JOIN \(tables[descendant].name) \(reader.alias(descendant)) ON \(reader.alias(descendant)).Z_PK = t0.Z_PK"
        }
        return text
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let reader = reader(request.entity, includesSubentities: request.includesSubentities)
        let tracker = Tracker()
        // Its key paths (the sort's too) join three tables a step at most: a to-many's join table,
        // the table keeping the property read next, and an ancestor's for the one after.
        let union = reader.needsUnion(joining: 2 * request.predicate.relatedCount + 3 * request.predicate.keyPathJoins(sortingBy: request.sort).count)
        var builder = sqlWhere(request, reader, union: union, tracker)
        guard !union else {
            // The arms, filtered, sorted and paged as a whole.
            let (arms, armValues) = reader.unionArms(self)
            let condition = try builder.condition(request.predicate)
            let from = "FROM (\(arms.joined(separator: " UNION ALL "))) t0" + builder.joinClause + (condition.map { " WHERE " + $0 } ?? "")
            let tail = builder.orderBy + builder.page(request)
            return PreparedQuery(sql: "SELECT \(request.predicate.distinct)t0.* \(from)\(tail)", values: armValues + builder.values, decoder: reader.unionDecoder)
        }
        let from = try joinedFrom(request, reader, &builder, tracker, fetch: true)
        let tail = builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(request.predicate.distinct)\(reader.selectList) \(from)\(tail)", values: builder.values, decoder: reader.decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        if request.predicate == .all, !entityFilter(request) {
            return PreparedQuery(sql: "SELECT COUNT(*) FROM \(tables[request.entity].name)", values: [], decoder: nil)
        }
        let reader = reader(request.entity, includesSubentities: request.includesSubentities)
        let tracker = Tracker()
        var builder = sqlWhere(request, reader, union: false, tracker)
        let from = try joinedFrom(request, reader, &builder, tracker, fetch: false)
        return PreparedQuery(sql: "SELECT \(request.predicate.count) \(from)", values: builder.values, decoder: nil)
    }
}
