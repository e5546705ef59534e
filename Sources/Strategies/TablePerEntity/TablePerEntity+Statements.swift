import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// Each statement of `table-per-entity`, derived from its layout.
extension TablePerEntity {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    /// The concrete entities a request reads, each one table.
    func entitiesRead(_ request: FetchRequest) -> [Int] {
        MultiTableRead.concrete(model, request.entity, includesSubentities: request.includesSubentities)
    }

    /// Checks that every name the request uses is its entity's (no arm would, when it has no table).
    func check(_ request: FetchRequest) throws {
        if let problem = request.unknownName(in: model) { throw LayoutError(Self.name, problem) }
    }

    /// The WHERE builder of the arm reading `entity`'s table as `t0`.
    func sqlWhere(_ entity: Int, _ request: FetchRequest) -> SQLWhere {
        sqlWhere(entity, sort: request.sort, anyAlias: "t", attribute: { "t0." + (try self.column(entity, $0)) },
                 toOne: { "t0." + self.toOnePlace(entity, try self.toOnePosition(entity, $0)).key }, entityNumber: { "\(entity + 1)" })
    }

    /// `FROM <table> t0 … WHERE …` of one arm, and its sort keys' expressions; its values appended to `values`.
    func armFrom(_ entity: Int, _ request: FetchRequest, _ values: inout [Value]) throws -> (from: String, sort: [String]) {
        var builder = sqlWhere(entity, request)
        let from = try from(entity, request, &builder)
        values += builder.values
        return (from, builder.sort.map(\.expression))
    }

    /// `FROM` and `WHERE` of `request` on `entity`'s table alone, then its `ORDER BY` and page
    /// from the same builder (which orders a key list's to-one, `SQLWhere.orderBy`), and the values.
    func oneTable(_ entity: Int, _ request: FetchRequest) throws -> (sql: String, values: [Value]) {
        var builder = sqlWhere(entity, request)
        let from = try from(entity, request, &builder)
        let tail = builder.orderBy + builder.page(request)
        return (from + tail, builder.values)
    }

    private func from(_ entity: Int, _ request: FetchRequest, _ builder: inout SQLWhere) throws -> String {
        let condition = try builder.condition(request.predicate)
        return "FROM \(tables[entity]) t0\(builder.joinClause)" + (condition.map { " WHERE " + $0 } ?? "")
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        try check(request)
        let entities = entitiesRead(request)
        let distinct = request.predicate.distinct
        guard entities.count > 1 else {
            guard let entity = entities.first else {
                return PreparedQuery(sql: "SELECT 0, 0, 0 WHERE 0", values: [], decoder: RowDecoder { _ in throw CorruptRow("no table holds the request's entity") })
            }
            let (list, decoder) = try tableList(entity)
            let (from, values) = try oneTable(entity, request)
            return PreparedQuery(sql: "SELECT \(distinct)\(list) \(from)", values: values, decoder: decoder)
        }
        let (read, names) = unionList(request.entity)
        // A sort key through to-ones (`author.name`) adds its value to each arm, named `s<index>` in the first.
        let paths = request.sort.indices.filter { request.sort[$0].attribute.contains(".") }
        // The union is ordered by the first arm's names of the sort attributes, or of the to-one
        // whose keys are bound as a key list (a prefetch's batch, as `SQLWhere.orderBy` orders it).
        var orderBy = request.sort.isEmpty ? "" : " ORDER BY " + (try request.sort.enumerated().map { index, key in
            let name = paths.contains(index) ? "s\(index)" : names[Int(read.positions.attributes[try attributePosition(request.entity, key.attribute)])]
            return name + key.orderSuffix
        }).joined(separator: ", ")
        if request.sort.isEmpty, case let .toOneInList(name) = request.predicate {
            orderBy = " ORDER BY " + names[Int(read.positions.toOnes[try toOnePosition(request.entity, name)].key)]
        }
        let (sql, values) = try union(request, entities, orderBy: orderBy) { entity, first, sort in
            armList(read, entity, names: first ? names : nil) + paths.map { ", " + sort[$0] + (first ? " AS s\($0)" : "") }.joined()
        }
        return PreparedQuery(sql: sql, values: values, decoder: unionDecoder(read))
    }

    /// The `UNION ALL` of an arm per table of `entities` (`list`: its select list, given its entity,
    /// whether it is the first and its sort keys' expressions), ordered by `orderBy` and paged as a whole.
    func union(_ request: FetchRequest, _ entities: [Int], orderBy: String, list: (Int, Bool, [String]) throws -> String) throws -> (sql: String, values: [Value]) {
        var values: [Value] = []
        let arms = try entities.enumerated().map { offset, entity in
            let (from, sort) = try armFrom(entity, request, &values)
            return "SELECT \(request.predicate.distinct)\(try list(entity, offset == 0, sort)) \(from)"
        }
        var pager = sqlWhere(request.entity, FetchRequest(entity: request.entity))
        let page = pager.page(request)
        return (arms.joined(separator: " UNION ALL ") + orderBy + page, values + pager.values)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        try check(request)
        let entities = entitiesRead(request)
        var values: [Value] = []
        let arms = try entities.enumerated().map { offset, entity in
            let name = entities.count > 1 && offset == 0 ? " AS n" : ""
            // Core Data counts a whole table without an alias.
            return request.predicate == .all ? "SELECT COUNT(*)\(name) FROM \(tables[entity])"
                : "SELECT \(request.predicate.count)\(name) \(try armFrom(entity, request, &values).from)"
        }
        switch arms.count {
        case 0: return PreparedQuery(sql: "SELECT 0", values: [], decoder: nil)
        case 1: return PreparedQuery(sql: arms[0], values: values, decoder: nil)
        default: return PreparedQuery(sql: "SELECT SUM(n) FROM (\(arms.joined(separator: " UNION ALL ")))", values: values, decoder: nil)
        }
    }
}
