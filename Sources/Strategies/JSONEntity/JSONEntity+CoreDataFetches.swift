import Models

extension JSONEntity {
    /// A partial fetch: the asked attributes' expressions (a typed column, or the document's key),
    /// then the kind and `Z_PK`, read as a full fetch reads. A binary attribute (hex text in the
    /// document) is not asked for by any workload and is refused.
    public func partialQuery(_ request: FetchRequest, properties: [String]) throws -> PreparedQuery {
        let attributes = try model.partialAttributes(request.entity, properties, layout: Self.name)
        let columns = try properties.map { name in
            let expression = try expression(request.entity, name, alias: "t0")
            guard !expression.hex else { throw LayoutError(Self.name, "a partial fetch of the binary attribute '\(name)' is not supported") }
            return expression.sql
        }
        let list = (columns + [kindExpression(model.entities[request.entity].root, alias: "t0"), "t0.Z_PK"]).joined(separator: ", ")
        return try read(request).fetch(request, list: list, decoder: .partial(attributes, table: hierarchy(request.entity).table))
    }
}
