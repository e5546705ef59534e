import Models

extension Joined {
    /// A partial fetch: the asked attributes from the tables on the entity's path that hold them
    /// (its own table `t0`, and an ancestor's only when an asked attribute, the predicate, the sort
    /// or the entity number needs it), then the entity number (the root's `Z_ENT` for a subtree,
    /// a literal for one entity) and `Z_PK`. The ID pass of the hierarchy reads the root's table alone.
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let reader = try reader(request.entity, includesSubentities: request.includesSubentities)
        let tracker = Tracker()
        var builder = try sqlWhere(request, reader, union: false, tracker)
        let columns = try properties.map { try builder.attribute($0) }
        let info = model.entities[request.entity]
        let rootAlias = reader.alias(info.root)
        var parts = [try builder.condition(request.predicate)].compactMap { $0 }
        if entityFilter(request) {
            parts.append("\(rootAlias).Z_ENT = ?")
            builder.appendValues([.integer(Int64(request.entity + 1))])
            tracker.entities.insert(info.root)
        }
        let subtree = request.includesSubentities && info.hasSubentities
        if subtree { tracker.entities.insert(info.root) }
        let list = columns + [subtree ? "\(rootAlias).Z_ENT" : "\(request.entity + 1)", "t0.Z_PK"]
        let from = try fromClause(reader, only: tracker.entities, joins: builder.joinClause, descendants: false)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let tail = (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")) + builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(list.joined(separator: ", ")) \(from)\(tail)", values: builder.values,
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
        let reader = try reader(relationship.destination, includesSubentities: true)
        let link = " JOIN \(join.name) j ON j.\(other) = t0.Z_PK"
        let tail = " WHERE j.\(this) IN \(KeyList.subquery) ORDER BY j.\(this)"
        guard reader.needsUnion || reader.entities.count + 1 > JoinedReader.maximumJoinedTables else {
            let from = try fromClause(reader, joins: link, descendants: true)
            return PreparedQuery(sql: "SELECT \(reader.selectList), j.\(this) \(from)\(tail)", values: [], decoder: reader.decoder.withSource())
        }
        let (arms, values) = try reader.unionArms(self)
        // The arms have no `Z_PK` markers (every table on an arm's path is inner-joined).
        let decoder = reader.needsUnion ? reader.decoder : try JoinedReader.decoder(self, reader.entity, concrete: reader.concrete, base: reader.base, markers: [:])
        return PreparedQuery(sql: "SELECT t0.*, j.\(this) FROM (\(arms.joined(separator: " UNION ALL "))) t0\(link)\(tail)", values: values, decoder: decoder.withSource())
    }
}
