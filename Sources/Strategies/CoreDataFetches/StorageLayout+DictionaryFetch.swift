import CoreDataLayout
import FetchRequests

extension StorageLayout {
    /// A fetch of dictionaries over the layout's own partial fetch of the attributes it reads
    /// (`partialQuery`, unsorted and whole, as a common table expression `p(c0, c1, …)`): its
    /// items, groups, HAVING, sort and page written over those columns, so that every layout
    /// answers from the objects its fetch selects. The one-row layouts write Core Data's own form.
    public func dictionaryQuery(_ request: FetchRequest, _ fetch: DictionaryFetch) throws -> PreparedQuery {
        let keys = fetch.keys
        var rows = request
        (rows.sort, rows.limit, rows.offset) = ([], nil, nil)
        let partial = try partialQuery(rows, properties: keys)
        func column(_ name: String) throws -> String {
            guard let index = keys.firstIndex(of: name) else { throw LayoutError(Self.name, "'\(name)' is sorted by and not fetched") }
            return "c\(index)"
        }
        let sql = try DictionarySQL(fetch, entity: model.entities[request.entity]) { (try column($0), false) }
        let orderBy = request.sort.isEmpty ? "" : " ORDER BY " + (try request.sort.map { try column($0.attribute) + $0.orderSuffix }).joined(separator: ", ")
        let page = SQLWhere.page(request)
        let names = (keys.indices.map { "c\($0)" } + ["e", "k"]).joined(separator: ", ")
        let select = "SELECT \(fetch.distinct ? "DISTINCT " : "")\(sql.list.joined(separator: ", ")) FROM p"
        return PreparedQuery(sql: "WITH p(\(names)) AS (\(partial.sql)) \(select)\(sql.groupBy)\(sql.having)\(orderBy)\(page.sql)",
                             values: partial.values + sql.havingValues + page.values, decoder: sql.decoder)
    }
}
