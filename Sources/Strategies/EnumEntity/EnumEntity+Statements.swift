import Generation
import Models
import SQLite

/// Each statement of `EnumEntity`, derived from its layout.
extension EnumEntity {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    // MARK: Reads

    private func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { "t0." + (try self.column(entity, $0)) },
            toOne: { "t0." + (try self.toOne(entity, $0).key) },
            key: "t0.Z_PK",
            related: { relationship, attribute in try self.relatedJoin(entity, relationship, attribute) },
            sort: try request.sort.map { ("t0." + (try self.column(entity, $0.attribute)), $0.ascending) })
    }

    /// The kind range both of two (possibly absent) ranges allow (they nest: both contain one entity's subtree).
    private static func narrower(_ a: ClosedRange<Int>?, _ b: ClosedRange<Int>?) -> ClosedRange<Int>? {
        guard let a else { return b }
        guard let b else { return a }
        return a.count <= b.count ? a : b
    }

    /// The joins for `ANY relationship.attribute == ?`: through the join table (many-to-many) or the
    /// destination's key (one-to-many; a key or attribute slot is read only in the kinds that own it).
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String) throws -> (joins: String, expression: String) {
        let relationship = try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
        let destination = relationship.destination
        let table = hierarchies[destination].table
        let position = try Self.need(model.entities[destination].attributeIndex(attribute), "attribute '\(attribute)' of \(model.entities[destination].name)")
        let column = valueColumns[destination][position]
        if relationship.isManyToMany {
            let join = try joinTable(relationship)
            return ("JOIN \(join.name) t1 ON t0.Z_PK = t1.\(join.this) JOIN \(table) t2 ON t2.Z_PK = t1.\(join.other)", "t2.\(column)")
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let key = try toOne(destination, inverse.name)
        let kinds = Self.narrower(key.kinds, valueKinds[destination][position])
        let kind = hierarchies[destination].kind.map { "t1." + $0 } ?? ""
        let filter = kinds.map { " AND \(kind) >= \($0.lowerBound) AND \(kind) <= \($0.upperBound)" } ?? ""
        return ("JOIN \(table) t1 ON t1.\(key.key) = t0.Z_PK\(filter)", "t1.\(column)")
    }

    /// The kind filter of a request: none for a whole hierarchy or a table of one entity,
    /// `ZKIND >= a AND ZKIND <= b` for a middle entity with its sub-entities, `ZKIND = n` for one entity.
    private func kindFilter(_ request: FetchRequest) -> String? {
        let entity = model.entities[request.entity]
        guard let kind = hierarchies[entity.index].kind else { return nil }
        if request.includesSubentities, entity.hasSubentities, entity.isRoot { return nil }
        return EnumEntity.kindCondition("t0.\(kind)", entity, includesSubentities: request.includesSubentities)
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let read = try read(request)
        let (list, decoder) = try selection(request)
        return try read.fetch(request, list: list, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try read(request).count(request) }

    /// The read of `request` from its hierarchy's table, the kind filter after the predicate.
    func read(_ request: FetchRequest) throws -> OneTableRead {
        OneTableRead(builder: try sqlWhere(request), table: hierarchies[request.entity].table, predicate: request.predicate,
                     terms: kindFilter(request).map { [$0] } ?? [])
    }

    /// The select list of a request (`ZKIND, Z_PK, Z_OPT`, then the columns its kinds use, in the
    /// table's fetch order) and the decoder that switches on the kind.
    private func selection(_ request: FetchRequest) throws -> (String, RowDecoder) {
        let entity = model.entities[request.entity]
        let hierarchy = hierarchies[entity.index]
        let kinds = request.includesSubentities ? model.concreteEntities(in: entity.subtree) : (entity.isConcrete ? [entity.index] : [])
        var needed = Set<String>()
        for kind in kinds {
            needed.formUnion(valueColumns[kind])
            for toOne in toOneColumns[kind].values { needed.insert(toOne.key); if let column = toOne.entity { needed.insert(column) } }
        }
        var items = [hierarchy.kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK", "t0.Z_OPT"]
        var positions: [String: Int32] = [:]
        for column in schema.table(of: hierarchy.stored).fetchOrder where needed.contains(column.name) {
            positions[column.name] = Int32(items.count)
            items.append("t0.\(column.name)")
        }
        func at(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(hierarchy.table)") }
        let shapes = try kinds.map { kind in
            let info = model.entities[kind]
            return RowShape(
                entity: kind, attributes: info.attributes,
                positions: try valueColumns[kind].map(at),
                // A value in a shared slot is NULL in the other kinds' rows: a required one must not be.
                required: info.attributes.indices.map { valueKinds[kind][$0] != nil && !info.attributes[$0].optional },
                toOne: try info.toOneRelationships.map { relationship in
                    let columns = try toOne(kind, relationship.name)
                    return RowShape.ToOne(key: try at(columns.key), entity: try columns.entity.map(at), destination: relationship.destination)
                })
        }
        let decoder = RowDecoder(shapes: shapes, fixed: hierarchy.kind == nil ? entity.index : nil, table: hierarchy.table)
        return (items.joined(separator: ", "), decoder)
    }

    // MARK: Writes

    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        UpdateStep.versioned(hierarchies[entity].table, "\(try column(entity, attribute)) = ?", [value])
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(hierarchies[entity].table) WHERE Z_PK = ?" }

    private func entityNumber(_ entity: Int, alias: String) -> String {
        hierarchies[entity].kind.map { "\(alias).\($0)" } ?? "\(model.entities[entity].root + 1)"
    }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        try DeleteStatements.oneRow(
            hierarchies[entity].table, model.entities[entity].relationships,
            destination: { (self.hierarchies[$0.destination].table, self.entityNumber($0.destination, alias: "t1")) },
            toOneKey: { try self.toOne(entity, $0.name).key },
            join: joinTable,
            inverse: { relationship in
                let inverse = try self.clearInverse(relationship)
                return (inverse.condition("t1."), inverse.clear)
            })
    }

    /// The condition selecting the destinations that reference the deleted object (`?1`) through the
    /// inverse to-one (the many side of a one-to-many, the other side of a one-to-one), and the
    /// statements that drop those references. A key slot is read only in the kinds that own it; a
    /// key column of its own needs no kind filter.
    private func clearInverse(_ relationship: Model.Relationship) throws -> (condition: (String) -> String, clear: [String]) {
        let destination = relationship.destination
        guard let inverse = model.inverse(of: relationship), let columns = toOneColumns[destination][inverse.name] else { return ({ _ in "0" }, []) }
        let condition = { (alias: String) -> String in
            let kinds: String
            if let range = columns.kinds, let kind = self.hierarchies[destination].kind.map({ alias + $0 }) {
                kinds = " AND \(kind) >= \(range.lowerBound) AND \(kind) <= \(range.upperBound)"
            } else {
                kinds = ""
            }
            return "\(alias)\(columns.key) = ?1\(kinds)"
        }
        let entityColumn = (columns.entity.map { ", \($0) = NULL" } ?? "")
            + (try model.orderKey(of: inverse).map { ", \(try column(destination, $0)) = NULL" } ?? "")
        return (condition, ["UPDATE \(hierarchies[destination].table) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(condition(""))"])
    }

    public func linkCountSQL(_ relationship: Model.Relationship) -> [String] {
        guard let stored = storedRelationships[PropertyKey(relationship)], let join = schema.joinTable(stored) else { return [] }
        return ["SELECT COUNT(*) FROM \(join.name)"]
    }
}
