import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// A one-row layout's fetches and counts: its table read as Core Data reads one (`OneTableRead`),
/// the entity terms after the predicate, rows decoded by their entity number.
extension OneRowLayout {
    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery { try rowFetch(request) }

    /// The fetch of `request` from its entity's table.
    func rowFetch(_ request: FetchRequest) throws -> PreparedQuery {
        let read = try read(request)
        let (list, decoder) = try selection(request)
        return try read.fetch(request, list: list, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try read(request).count(request) }

    /// The read of `request` from its entity's table: the predicate (its values as the table holds
    /// them), then the entity terms.
    func read(_ request: FetchRequest) throws -> OneTableRead {
        let terms = entityTerms(request)
        return OneTableRead(builder: try sqlWhere(request), table: table(request.entity), predicate: try bound(request.predicate, request),
                            terms: terms.sql, termValues: terms.values)
    }

    func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { try self.expression(entity, $0, alias: "t0").sql },
            toOne: { "t0." + (try self.toOne(entity, $0).key) },
            key: "t0.Z_PK",
            related: { relationship, attribute, taken in try self.relatedJoin(entity, relationship, attribute, first: taken + 1) },
            sortKeys: request.sort,
            keyPaths: KeyPathJoins(model: model, entity: entity, alias: { "t\($0)" }, column: { entity, name in
                let source = self.table(entity)
                if let relationship = self.model.entities[entity].relationship(name), !relationship.toMany {
                    let key = try self.toOne(entity, name).key
                    return KeyedColumn(source: source) { "\($0).\(key)" }
                }
                return KeyedColumn(source: source) { try self.expression(entity, name, alias: $0).sql }
            }, many: { _, relationship, _ in try self.manyStep(relationship) }),
            countRelated: { name, alias in try self.relatedCount(entity, name, alias: alias) },
            entityNumber: { self.entityNumber(entity) })
    }

    /// Core Data's join through to-many `relationship`: its join table (many-to-many), or the
    /// destination's rows whose inverse key is the object's (one-to-many; a shared slot read only
    /// in the kinds that own it).
    private func manyStep(_ relationship: Model.Relationship) throws -> ManyStep {
        if relationship.isManyToMany {
            let join = try link(relationship)
            return ManyStep(source: join.name, from: join.this, to: join.other)
        }
        let key = try inverseKey(of: relationship)
        let kind = kindColumn(relationship.destination)
        return ManyStep(source: table(relationship.destination), from: key.key, to: "Z_PK") { alias in
            key.kinds.map { " AND \(alias).\(kind ?? "") >= \($0.lowerBound) AND \(alias).\(kind ?? "") <= \($0.upperBound)" } ?? ""
        }
    }

    /// Core Data's count of the objects to-many `name` of `entity` holds for the row `t0`: the
    /// rows of its join table (many-to-many), or of the destination's rows whose inverse key is
    /// `t0`'s (one-to-many; a shared slot read only in the kinds that own it).
    private func relatedCount(_ entity: Int, _ name: String, alias: String) throws -> String {
        let relationship = try self.relationship(entity, name)
        guard relationship.toMany else { throw LayoutError(Self.name, "'\(name)' is not a to-many relationship of '\(model.entities[entity].name)'") }
        if relationship.isManyToMany {
            let join = try link(relationship)
            return "(SELECT COUNT(\(alias).\(join.other)) FROM \(join.name) \(alias) WHERE (t0.Z_PK = \(alias).\(join.this)))"
        }
        let key = try inverseKey(of: relationship)
        let kind = kindColumn(relationship.destination).map { "\(alias)." + $0 } ?? ""
        let filter = key.kinds.map { " AND \(kind) >= \($0.lowerBound) AND \(kind) <= \($0.upperBound)" } ?? ""
        return "(SELECT COUNT(\(alias).Z_PK) FROM \(table(relationship.destination)) \(alias) WHERE (t0.Z_PK = \(alias).\(key.key)\(filter)))"
    }

    /// Core Data's joins for `ANY relationship.attribute == ?`: through the join table
    /// (many-to-many) or the destination's foreign key (one-to-many; a shared slot read only in
    /// the kinds that own it).
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String, first: Int) throws -> (joins: String, expression: String) {
        let relationship = try self.relationship(entity, name)
        let destination = relationship.destination
        let table = table(destination)
        let (t1, t2) = ("t\(first)", "t\(first + 1)")
        if relationship.isManyToMany {
            let join = try link(relationship)
            return ("JOIN \(join.name) \(t1) ON t0.Z_PK = \(t1).\(join.this) JOIN \(table) \(t2) ON \(t2).Z_PK = \(t1).\(join.other)",
                    try expression(destination, attribute, alias: t2).sql)
        }
        let key = try inverseKey(of: relationship)
        let place = try self.attribute(destination, attribute).place
        // The narrower of the key's and the value's kinds (they nest: both hold one entity's subtree).
        let kinds = [key.kinds, place.kinds].compactMap { $0 }.min { $0.count < $1.count }
        let kind = kindColumn(destination).map { "\(t1)." + $0 } ?? ""
        let filter = kinds.map { " AND \(kind) >= \($0.lowerBound) AND \(kind) <= \($0.upperBound)" } ?? ""
        return ("JOIN \(table) \(t1) ON \(t1).\(key.key) = t0.Z_PK\(filter)", place.sql(t1))
    }

    /// The predicate with every value compared with a hex-text expression given as hex text.
    private func bound(_ predicate: FetchPredicate, _ request: FetchRequest) throws -> FetchPredicate {
        let entity = request.entity
        func converted(_ value: Value, _ hex: Bool) -> Value { hex ? value.hexText : value }
        switch predicate {
        case .equals, .range, .compare, .among, .between, .isNil, .string, .stringCompare:
            return try predicate.mappingAttributeValues { name, value in
                // An object's key (of a to-one, or `self`) is bound as it is.
                let path = model.keyPath(name, from: entity, throughToMany: true)
                guard name != FetchPredicate.selfKey, path != nil || name != FetchPredicate.entityKey, path?.isToOne != true else { return value }
                return converted(value, try expression(path?.entity ?? entity, path?.name ?? name, alias: "t0").hex)
            }
        case let .after(values):
            return .after(try values.enumerated().map { index, value in
                index < request.sort.count ? converted(value, try expression(entity, request.sort[index].attribute, alias: "t0").hex) : value
            })
        case let .anyRelated(relationshipName, name, value):
            let relationship = try self.relationship(entity, relationshipName)
            return .anyRelated(relationshipName, name, converted(value, try expression(relationship.destination, name, alias: "t1").hex))
        case let .and(predicates):
            return .and(try predicates.map { try bound($0, request) })
        case let .or(predicates):
            return .or(try predicates.map { try bound($0, request) })
        case let .not(inner):
            return .not(try bound(inner, request))
        case let .any(inner):
            return .any(try bound(inner, request))
        case let .subquery(name, inner, comparison, value):
            return .subquery(name, try bound(inner, request), comparison, value)
        case .all, .key, .toOne, .keyInList, .toOneInList, .countOf, .compareKeys, .holds, .bitwise:
            return predicate
        }
    }

    // MARK: Rows

    /// `kind` (or `0`), `Z_PK`, `Z_OPT`, then the columns any of `concrete` reads, in the table's
    /// fetch order; and the decoder of those rows as a fetch of `entity`.
    func compactSelection(_ entity: Int, _ concrete: [Int]) throws -> (list: String, decoder: RowDecoder) {
        var needed = Set<String>()
        for index in concrete {
            let info = model.entities[index]
            for position in info.attributes.indices { needed.insert(place(index, position).column) }
            for columns in toOnes(index) {
                needed.insert(columns.key)
                if let other = columns.entity { needed.insert(other) }
            }
        }
        var items = [kindColumn(entity).map { "t0.\($0)" } ?? "0", "t0.Z_PK", "t0.Z_OPT"]
        var positions: [String: Int32] = [:]
        for column in schema.table(of: storedEntity(entity)).fetchOrder where needed.contains(column.name) {
            positions[column.name] = Int32(items.count)
            items.append("t0.\(column.name)")
        }
        return (items.joined(separator: ", "), try decoder(entity, concrete, positions))
    }

    /// Decodes rows of a fetch of `entity` as the concrete entities `concrete`, each column at its
    /// position in `positions`.
    func decoder(_ entity: Int, _ concrete: [Int], _ positions: [String: Int32]) throws -> RowDecoder {
        let table = table(entity)
        func at(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(table)") }
        let shapes = try concrete.map { index in
            let info = model.entities[index]
            var columns: [RowShape.Column] = [], keys: [(slot: Int, key: String)] = [], document: String?
            for (position, attribute) in info.attributes.enumerated() {
                let place = place(index, position)
                if let key = place.key {
                    keys.append((position, key))
                    document = place.column
                } else {
                    // A value in a shared slot is NULL in the other kinds' rows: a required one must not be.
                    columns.append(RowShape.Column(slot: position, position: try at(place.column), storage: attribute.type.storage,
                                                   required: place.kinds != nil && !attribute.optional))
                }
            }
            return RowShape(
                entity: index, valueCount: info.attributes.count, columns: columns,
                toOne: try zip(info.toOneRelationships, toOnes(index)).map { relationship, columns in
                    RowShape.ToOne(key: try at(columns.key), entity: try columns.entity.map(at), destination: relationship.destination)
                },
                rest: try document.flatMap { documentReader(index, keys, column: try at($0)) })
        }
        return RowDecoder(shapes: shapes, fixed: kindColumn(entity) == nil ? entity : nil, table: table)
    }
}
