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
