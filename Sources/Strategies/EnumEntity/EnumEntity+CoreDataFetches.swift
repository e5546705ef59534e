import Models

extension EnumEntity {
    /// A partial fetch: the asked attributes' slots, then the kind and `Z_PK`, read as a full fetch reads.
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let columns = try properties.map { "t0." + (try column(request.entity, $0)) }
        let hierarchy = hierarchies[request.entity]
        let list = (columns + [hierarchy.kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK"]).joined(separator: ", ")
        return try read(request).fetch(request, list: list, decoder: .partial(attributes, fixed: hierarchy.kind == nil ? request.entity : nil, table: hierarchy.table))
    }
}
