import Generation
import Models
import SQLite

/// Each statement of `JSONEntity`, derived from its layout.
extension JSONEntity {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    /// The predicate with every value compared with a hex-text expression given as hex text.
    private func convert(_ predicate: FetchPredicate, _ request: FetchRequest) throws -> FetchPredicate {
        let entity = request.entity
        func converted(_ value: Value, _ hex: Bool) -> Value { hex ? value.jsonBindable : value }
        switch predicate {
        case let .equals(name, value):
            return .equals(name, converted(value, try expression(entity, name, alias: "t0").hex))
        case let .range(name, lower, upper):
            let hex = try expression(entity, name, alias: "t0").hex
            return .range(name, converted(lower, hex), converted(upper, hex))
        case let .after(values):
            return .after(try values.enumerated().map { index, value in
                index < request.sort.count ? converted(value, try expression(entity, request.sort[index].attribute, alias: "t0").hex) : value
            })
        case let .anyRelated(relationshipName, name, value):
            let relationship = try Self.need(model.entities[entity].relationship(relationshipName), "relationship '\(relationshipName)'")
            return .anyRelated(relationshipName, name, converted(value, try expression(relationship.destination, name, alias: "t1").hex))
        case let .and(predicates):
            return .and(try predicates.map { try convert($0, request) })
        case .all, .key, .toOne, .keyInList, .toOneInList:
            return predicate
        }
    }

    /// The attributes a predicate compares (for the partial indexes it may use).
    private static func properties(_ predicate: FetchPredicate, sort: [SortKey]) -> Set<String> {
        switch predicate {
        case let .equals(name, _), let .range(name, _, _): return [name]
        case let .toOne(name, _), let .toOneInList(name): return [name]
        case .after: return Set(sort.map(\.attribute))
        case let .and(predicates): return predicates.reduce(into: Set<String>()) { $0.formUnion(properties($1, sort: sort)) }
        case .all, .key, .anyRelated, .keyInList: return []
        }
    }

    private func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { try self.expression(entity, $0, alias: "t0").sql },
            toOne: { "t0." + (try self.toOne(entity, $0).key) },
            key: "t0.Z_PK",
            related: { relationshipName, attribute in try self.relatedJoin(entity, relationshipName, attribute) },
            sort: try request.sort.map { (try self.expression(entity, $0.attribute, alias: "t0").sql, $0.ascending) })
    }

    /// The joins for `ANY relationship.attribute == ?`: through the join table (many-to-many) or the
    /// destination's foreign key (one-to-many).
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String) throws -> (joins: String, expression: String) {
        let relationship = try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
        let destination = hierarchy(relationship.destination).table
        if relationship.isManyToMany {
            let (join, this, other) = try joinTable(relationship)
            return ("JOIN \(join) t1 ON t0.Z_PK = t1.\(this) JOIN \(destination) t2 ON t2.Z_PK = t1.\(other)",
                    try expression(relationship.destination, attribute, alias: "t2").sql)
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let key = try toOne(inverse.owner, inverse.name).key
        return ("JOIN \(destination) t1 ON t1.\(key) = t0.Z_PK", try expression(relationship.destination, attribute, alias: "t1").sql)
    }

    /// The entity filter: none for a whole table, `t0.ZKIND BETWEEN a AND b` for a subtree, `t0.ZKIND = n`
    /// for one entity (literal numbers, so that SQLite can match partial indexes); then the `WHERE` of
    /// every partial index on a wider subtree that covers a property the request compares or sorts by.
    private func entityTerms(_ request: FetchRequest) -> [String] {
        let info = model.entities[request.entity]
        let hierarchy = hierarchy(info.index)
        guard let kind = hierarchy.kind else { return [] }
        let range = request.includesSubentities ? info.subtree : info.index ... info.index
        guard range != model.entities[info.root].subtree else { return [] }
        var terms = [JSONEntity.kindTerm(range, column: "t0.\(kind)")]
        let used = Self.properties(request.predicate, sort: request.sort).union(request.sort.map(\.attribute))
        guard !used.isEmpty else { return terms }
        for index in partialIndexes where index.root == info.root && index.subtree != range
            && index.subtree.contains(range.lowerBound) && index.subtree.contains(range.upperBound) && !index.properties.isDisjoint(with: used) {
            let term = JSONEntity.kindTerm(index.subtree, column: "t0.\(kind)")
            if !terms.contains(term) { terms.append(term) }
        }
        return terms
    }

    /// The read of `request` from its hierarchy's table: the predicate's values as the JSON holds
    /// them, then the kind terms.
    func read(_ request: FetchRequest) throws -> OneTableRead {
        OneTableRead(builder: try sqlWhere(request), table: hierarchy(request.entity).table,
                     predicate: try convert(request.predicate, request), terms: entityTerms(request))
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let read = try read(request)
        let (list, decoder) = try reader(request.entity)
        return try read.fetch(request, list: list, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try read(request).count(request) }

    /// The select list and decoder of a fetch of `entity` (made once per entity).
    private func reader(_ entity: Int) throws -> (list: String, decoder: RowDecoder) {
        if let known = readers[entity] { return known }
        let made = try makeReader(entity)
        readers[entity] = made
        return made
    }

    // MARK: Writes

    /// Core Data's one statement, a typed column set or a key of `details` set (removed, for NULL
    /// in an optional attribute) with `json_set`/`json_remove`.
    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        let info = model.entities[entity]
        let table = hierarchy(entity).table
        let position = try Self.need(info.attributeIndex(attribute), "attribute '\(attribute)' of \(info.name)")
        switch places[entity][position] {
        case let .column(name):
            return UpdateStep.versioned(table, "\(name) = ?", [value])
        case let .detail(key):
            let details = try Self.need(hierarchy(entity).details, "details column of \(table)")
            if value.isNull, info.attributes[position].optional {
                return UpdateStep.versioned(table, "\(details) = json_remove(\(details), '$.\(key)')", [])
            }
            return UpdateStep.versioned(table, "\(details) = json_set(\(details), '$.\(key)', ?)", [value.jsonBindable])
        }
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(hierarchy(entity).table) WHERE Z_PK = ?" }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        func table(_ relationship: Model.Relationship) -> String { hierarchy(model.entities[relationship.destination].root).table }
        return try DeleteStatements.oneRow(
            hierarchy(entity).table, model.entities[entity].relationships,
            destination: { (table($0), self.kindExpression(self.model.entities[$0.destination].root, alias: "t1")) },
            toOneKey: { try self.toOne(entity, $0.name).key },
            join: { try self.joinTable($0) },
            inverse: { relationship in
                let inverse = try Self.need(self.model.inverse(of: relationship), "inverse of \(relationship.name)")
                return ("t1.\(try self.toOne(inverse.owner, inverse.name).key) = ?1", self.clearInverse(relationship, in: table(relationship)))
            })
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// (in `table`) hold through the inverse to-one (the many side of a one-to-many, the other side of a one-to-one).
    private func clearInverse(_ relationship: Model.Relationship, in table: String) -> [String] {
        guard let inverse = model.inverse(of: relationship), let columns = toOneColumns[inverse.owner][inverse.name] else { return [] }
        var entityColumn = columns.entity.map { ", \($0) = NULL" } ?? ""
        // The order key, declared with the to-one: a typed column, or a key of the details.
        if let key = model.orderKey(of: inverse), let position = model.entities[inverse.owner].attributeIndex(key) {
            switch places[inverse.owner][position] {
            case let .column(name): entityColumn += ", \(name) = NULL"
            case let .detail(name):
                if let details = hierarchy(inverse.owner).details { entityColumn += ", \(details) = json_remove(\(details), '$.\(name)')" }
            }
        }
        return ["UPDATE \(table) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"]
    }

    public func linkCountSQL(_ relationship: Model.Relationship) throws -> [String] {
        guard relationship.isManyToMany else { return [] }
        return ["SELECT COUNT(*) FROM \(try joinTable(relationship).name)"]
    }
}
