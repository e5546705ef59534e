import FetchRequests
import Generation
import Models

extension TablePerEntity {
    /// A partial fetch: per concrete entity read, its table's columns of the asked attributes, its
    /// entity number (a literal) and `Z_PK`; several tables as one `UNION ALL`, ordered by the sort
    /// attributes' columns added after those (`c<position>`, the first arm's names).
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        try check(request)
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let entities = entitiesRead(request)
        let distinct = request.predicate.distinct
        let decoder = RowDecoder.partial(attributes, table: "the tables of \(model.entities[request.entity].name)")
        func items(_ entity: Int, sort: [String] = []) throws -> [String] {
            try properties.map { "t0." + (try column(entity, $0)) } + ["\(entity + 1)", "t0.Z_PK"] + sort
        }
        guard entities.count > 1 else {
            guard let entity = entities.first else { return PreparedQuery(sql: "SELECT \((properties.map { _ in "NULL" } + ["0", "0"]).joined(separator: ", ")) WHERE 0", values: [], decoder: decoder) }
            let (from, values) = try oneTable(entity, request)
            return PreparedQuery(sql: "SELECT \(distinct)\(try items(entity).joined(separator: ", ")) \(from)", values: values, decoder: decoder)
        }
        let orderBy = request.sort.isEmpty ? "" : " ORDER BY " + request.sort.enumerated().map { "c\(properties.count + 2 + $0)" + $1.orderSuffix }.joined(separator: ", ")
        let (sql, values) = try union(request, entities, orderBy: orderBy) { entity, first, sort in
            let list = try items(entity, sort: sort)
            return (first ? list.enumerated().map { "\($1) AS c\($0)" } : list).joined(separator: ", ")
        }
        return PreparedQuery(sql: sql, values: values, decoder: decoder)
    }
}

extension TablePerEntity {
    /// Its fetch by key of a hierarchy asks every table; the ID pass says each object's table.
    public var batchesByEntity: Bool { true }
}

extension TablePerEntity {
    /// A many-to-many prefetch's batch: per destination table, the join tables linking it to the
    /// relationship's holders, each arm that table's list and the source's column (`j`), one `UNION
    /// ALL` ordered by the source; one statement per destination table (each has its own list).
    public func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery {
        let byPartner = Dictionary(grouping: joinTables(relationship), by: \.partner)
        let statements = try byPartner.keys.sorted().map { partner in
            let (list, decoder) = try tableList(partner)
            let arms = byPartner[partner, default: []].enumerated().map { offset, link in
                "SELECT \(list), j.\(link.this)\(offset == 0 ? " AS Z_SOURCE" : "") FROM \(link.join) j JOIN \(tables[partner]) t0 ON t0.Z_PK = j.\(link.other) WHERE j.\(link.this) IN \(KeyList.subquery)"
            }
            return PreparedQuery(sql: arms.joined(separator: " UNION ALL ") + " ORDER BY Z_SOURCE", values: [], decoder: decoder.withSource())
        }
        guard statements.count != 1 else { return statements[0] }
        return PreparedQuery(.concatenated(statements))
    }
}
