import CoreDataLayout
import FetchRequests
import Models

extension OneRowLayout {
    /// A partial fetch from the entity's table, read as a full fetch reads it: the asked
    /// attributes (a column, or a key of a JSON column), then the entity number (`0` for a table
    /// of one entity, as Core Data selects it) and `Z_PK`, no `Z_OPT`; with no property, a batched
    /// fetch's ID pass. single-table's is Core Data's (docs/strategies.md, "Core Data's
    /// statements"): `SELECT t0.ZTITLE, t0.ZPUBLISHDATE, t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0`.
    /// A binary value kept in a JSON document is read as its hex text there and decoded.
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let columns = try properties.map { try expression(request.entity, $0, alias: "t0") }
        let kind = kindColumn(request.entity)
        let list = (columns.map(\.sql) + [kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK"]).joined(separator: ", ")
        let hex = Set(columns.indices.filter { columns[$0].hex })
        return try read(request).fetch(request, list: list, decoder: .partial(attributes, fixed: kind == nil ? request.entity : nil, hex: hex, table: table(request.entity)))
    }
}

extension OneRowLayout {
    /// A fetch of dictionaries from the entity's table, as Core Data writes it (docs/strategies.md,
    /// "Core Data's statements"): `SELECT t0.ZYEAR, COUNT(t0.ZYEAR) FROM ZITEM t0 GROUP BY t0.ZYEAR`.
    public func dictionaryQuery(_ request: FetchRequest, _ fetch: DictionaryFetch) throws -> PreparedQuery {
        let sql = try DictionarySQL(fetch, entity: model.entities[request.entity]) { name in
            let expression = try expression(request.entity, name, alias: "t0")
            return (expression.sql, expression.hex)
        }
        return try read(request).dictionary(request, sql)
    }
}

extension OneRowLayout {
    /// A many-to-many prefetch's batch: the join table (`t1`) joined to the destination's rows,
    /// their list as a fetch of the destination selects it, then the source's column, which the
    /// key list selects and orders. single-table's is Core Data's form as docs/strategies.md infers it:
    /// `SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t1.Z_1PUBLICATIONS FROM Z_1TAGS t1 JOIN ZTAG t0 ON
    /// t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS IN (SELECT * FROM _Z_intarray0) ORDER BY t1.Z_1PUBLICATIONS`.
    /// A link names an object of the destination's subtree, so no entity term is needed.
    public func linkedQuery(_ relationship: Model.Relationship) throws -> PreparedQuery {
        let join = try link(relationship)
        let (list, decoder) = try selection(FetchRequest(entity: relationship.destination))
        let source = "t1.\(join.this)"
        let from = "FROM \(join.name) t1 JOIN \(table(relationship.destination)) t0 ON t0.Z_PK = t1.\(join.other)"
        return PreparedQuery(sql: "SELECT \(list), \(source) \(from) WHERE \(source) IN \(KeyList.subquery) ORDER BY \(source)", values: [], decoder: decoder.withSource())
    }
}
