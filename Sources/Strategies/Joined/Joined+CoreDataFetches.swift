import FetchRequests
import Models

extension Joined {
    /// A partial fetch: the asked attributes from the tables on the entity's path that hold them
    /// (its own table `t0`, and an ancestor's only when an asked attribute, the predicate, the sort
    /// or the entity number needs it), then the entity number (the root's `Z_ENT` for a subtree,
    /// a literal for one entity) and `Z_PK`. The ID pass of the hierarchy reads the root's table alone.
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let reader = reader(request.entity, includesSubentities: request.includesSubentities)
        let tracker = Tracker()
        var builder = sqlWhere(request, reader, union: false, tracker)
        let columns = try properties.map { try builder.attribute($0) }
        let root = model.entities[request.entity].root
        let subtree = request.includesSubentities && model.entities[request.entity].hasSubentities
        if subtree { tracker.entities.insert(root) }
        let list = columns + [subtree ? "\(reader.alias(root)).Z_ENT" : "\(request.entity + 1)", "t0.Z_PK"]
        let from = try joinedFrom(request, reader, &builder, tracker, fetch: false)
        let tail = builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(request.predicate.distinct)\(list.joined(separator: ", ")) \(from)\(tail)", values: builder.values,
                             decoder: .partial(attributes, table: tables[request.entity].name))
    }
}

extension Joined {
    /// A many-to-many prefetch's batch: the destination's fetch (its table, its ancestors' and its
    /// descendants' as a fetch of it joins them, or their union when too wide) joined to the join
    /// table (`j`) by its key, the source's column last, selected and ordered by the key list.
    public func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery {
        let join = try schema.join(relationship)
        let (this, other) = join.columns(from: relationship.owner, relationship.name)
        let reader = reader(relationship.destination, includesSubentities: true)
        let link = " JOIN \(join.name) j ON j.\(other) = t0.Z_PK"
        let tail = " WHERE j.\(this) IN \(KeyList.subquery) ORDER BY j.\(this)"
        guard reader.needsUnion(joining: 1) else {
            let from = fromClause(reader, joins: link)
            return PreparedQuery(sql: "SELECT \(reader.selectList), j.\(this) \(from)\(tail)", values: [], decoder: reader.decoder.withSource())
        }
        let (arms, values) = reader.unionArms(self)
        return PreparedQuery(sql: "SELECT t0.*, j.\(this) FROM (\(arms.joined(separator: " UNION ALL "))) t0\(link)\(tail)", values: values, decoder: reader.unionDecoder.withSource())
    }
}
