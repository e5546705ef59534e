import Models

extension SingleTable {
    /// Core Data's partial fetch: the asked properties' columns first, then `t0.Z_ENT, t0.Z_PK`
    /// (`0` for a hierarchy of one entity), no `Z_OPT`; the read's predicate, entity filter, sort
    /// and page as a full fetch has them. With no property it is the ID pass of a batched fetch,
    /// `SELECT t0.Z_ENT, t0.Z_PK FROM … ORDER BY …` (docs/strategies.md, "Core Data's statements").
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let columns = try properties.map { "t0." + (try schema.attributeColumn(request.entity, $0)) }
        let table = schema.table(of: request.entity)
        let fixed = model.entities[table.root].hasSubentities ? nil : request.entity
        let list = (columns + [fixed == nil ? "t0.Z_ENT" : "0", "t0.Z_PK"]).joined(separator: ", ")
        return try read(request).fetch(request, list: list, decoder: .partial(attributes, fixed: fixed, table: table.name))
    }
}
