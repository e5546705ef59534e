import Generation
import Models
import SQLite

/// `enum-entity` (one entity with a kind enum in place of sub-entities): every hierarchy with sub-entities is ONE Core Data entity
/// named after its root, with no inheritance. A row's `kind` attribute (`ZKIND`) holds its concrete
/// entity's number in the original model, and the sub-entities' attributes share generic typed
/// slots: `text1, text2, …` (strings, URIs), `number1, …` (integers, booleans, to-one keys),
/// `real1, …` (doubles, floats, decimals, dates), `blob1, …` (UUIDs, binary data).
///
/// Slots: walking from the root's child down to an entity, each entity maps its own attributes
/// (declaration order), then its own to-one relationships (the key, then the destination's entity
/// number when the destination has sub-entities), onto the next free slot of their storage kind;
/// so a property has the same slot in its whole declaring subtree, and a table has as many slots
/// of a kind as the entity that needs most. The root's own attributes and to-ones stay columns of
/// their own; a root's to-one whose destination has sub-entities gets an integer `<name>_kind`.
/// Many-to-many relationships (and one-to-many ones whose to-one side is a root's) become the enum
/// entity's relationships; roots without sub-entities stay as they are, re-pointed. The stored
/// model (`storedModel`) is laid out by `CoreDataSchema`; its `Z_PRIMARYKEY` lists its entities.
///
/// Reads: an entity with its sub-entities is `ZKIND >= a AND ZKIND <= b` (nothing for the root), one
/// entity is `ZKIND = n`; every row is decoded by its kind into the concrete entity's object. Indexes:
/// the model's root constraints and fetch indexes as Core Data makes them (an `entity` element is
/// `ZKIND`), `Z_<Root>_byKind (ZKIND)`, a sub-entity's uniqueness constraint as a partial unique
/// index on its slots `WHERE ZKIND = n` (or `ZKIND >= a AND ZKIND <= b` for a subtree of several
/// kinds: unique among those kinds only, since other kinds store other attributes in the same
/// slots), its fetch indexes on the slots, and `(slot, ZKIND)` on every to-one key slot. Reads
/// write the kind numbers as literals, the same terms as the partial indexes, so SQLite uses them.
///
/// `EnumEntityLayout` derives all of this from the model alone (slots, names, stored model,
/// columns, DDL and INSERTs); this class derives each statement from it.
public final class EnumEntity: StorageLayout {
    public static let name = "enum-entity"
    public static let summary = "No inheritance: one entity per hierarchy, a kind column naming each row's sub-entity, the sub-entities' attributes in generic typed slots they share (text1, number1, …)"

    public let model: Model
    /// Everything derived from the model: the stored model, the slots, the DDL and the INSERTs.
    public let layout: EnumEntityLayout

    public var storedModel: Model { layout.storedModel }
    public var schema: CoreDataSchema { layout.schema }
    public var schemaSQL: [String] { layout.schemaSQL }

    public init(model: Model) throws {
        self.model = model
        layout = try EnumEntityLayout(model: model)
    }

    public func insertPlan(_ entity: Int) -> InsertPlan? {
        guard let insert = layout.inserts[entity] else { return nil }
        let place = layout.places[entity]
        var sources: [InsertStep.Source] = [.key, .constant(Int64(place.stored + 1)), .version] + (place.kind == nil ? [] : [.entityNumber])
        sources += model.entities[entity].attributes.indices.map { .value($0) } + InsertStep.toOnes(insert.storesEntityNumber)
        return InsertPlan(keyEntity: place.stored, steps: [InsertStep(sql: insert.sql, sources: sources)], links: insert.links.map { .one($0) })
    }

    // MARK: Reads

    private func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { "t0." + (try self.layout.column(entity, $0)) },
            toOne: { "t0." + (try self.layout.toOne(entity, $0).key) },
            key: "t0.Z_PK",
            related: { relationship, attribute in try self.relatedJoin(entity, relationship, attribute) },
            sort: try request.sort.map { ("t0." + (try self.layout.column(entity, $0.attribute)), $0.ascending) })
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
        let table = layout.places[destination].table
        let position = try Self.need(model.entities[destination].attributeIndex(attribute), "attribute '\(attribute)' of \(model.entities[destination].name)")
        let column = layout.valueColumns[destination][position]
        if relationship.isManyToMany {
            let stored = try layout.storedRelationship(relationship)
            let join = try schema.join(stored)
            let (this, other) = join.columns(from: stored.owner, stored.name)
            return ("JOIN \(join.name) t1 ON t0.Z_PK = t1.\(this) JOIN \(table) t2 ON t2.Z_PK = t1.\(other)", "t2.\(column)")
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let key = try layout.toOne(destination, inverse.name)
        let kinds = Self.narrower(key.kinds, layout.valueKinds[destination][position])
        let kind = layout.places[destination].kind.map { "t1." + $0 } ?? ""
        let filter = kinds.map { " AND \(kind) >= \($0.lowerBound) AND \(kind) <= \($0.upperBound)" } ?? ""
        return ("JOIN \(table) t1 ON t1.\(key.key) = t0.Z_PK\(filter)", "t1.\(column)")
    }

    /// The kind filter of a request: none for a whole hierarchy or a table of one entity,
    /// `ZKIND >= a AND ZKIND <= b` for a middle entity with its sub-entities, `ZKIND = n` for one entity.
    private func kindFilter(_ request: FetchRequest) -> String? {
        let entity = model.entities[request.entity]
        guard let kind = layout.places[entity.index].kind else { return nil }
        if request.includesSubentities, entity.hasSubentities, entity.isRoot { return nil }
        return EnumEntityLayout.kindCondition("t0.\(kind)", entity, includesSubentities: request.includesSubentities)
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let read = try read(request)
        let (list, decoder) = try selection(request)
        return try read.fetch(request, list: list, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery { try read(request).count(request) }

    /// The read of `request` from its hierarchy's table, the kind filter after the predicate.
    private func read(_ request: FetchRequest) throws -> OneTableRead {
        OneTableRead(builder: try sqlWhere(request), table: layout.places[request.entity].table, predicate: request.predicate,
                     terms: kindFilter(request).map { [$0] } ?? [])
    }

    /// The select list of a request (`ZKIND, Z_PK, Z_OPT`, then the columns its kinds use, in the
    /// table's fetch order) and the decoder that switches on the kind.
    private func selection(_ request: FetchRequest) throws -> (String, RowDecoder) {
        let entity = model.entities[request.entity]
        let place = layout.places[entity.index]
        let kinds = request.includesSubentities ? model.concreteEntities(in: entity.subtree) : (entity.isConcrete ? [entity.index] : [])
        var needed = Set<String>()
        for kind in kinds {
            needed.formUnion(layout.valueColumns[kind])
            for toOne in layout.toOneColumns[kind].values { needed.insert(toOne.key); if let column = toOne.entity { needed.insert(column) } }
        }
        var items = [place.kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK", "t0.Z_OPT"]
        var positions: [String: Int32] = [:]
        for column in schema.table(of: place.stored).fetchOrder where needed.contains(column.name) {
            positions[column.name] = Int32(items.count)
            items.append("t0.\(column.name)")
        }
        func at(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(place.table)") }
        let shapes = try kinds.map { kind in
            let info = model.entities[kind]
            return RowShape(
                entity: kind, attributes: info.attributes,
                positions: try layout.valueColumns[kind].map(at),
                // A value in a shared slot is NULL in the other kinds' rows: a required one must not be.
                required: info.attributes.indices.map { layout.valueKinds[kind][$0] != nil && !info.attributes[$0].optional },
                toOne: try info.toOneRelationships.map { relationship in
                    let columns = try layout.toOne(kind, relationship.name)
                    return RowShape.ToOne(key: try at(columns.key), entity: try columns.entity.map(at), destination: relationship.destination)
                })
        }
        let decoder = RowDecoder(shapes: shapes, fixed: place.kind == nil ? entity.index : nil, table: place.table)
        return (items.joined(separator: ", "), decoder)
    }

    // MARK: Writes

    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        UpdateStep.versioned(layout.places[entity].table, "\(try layout.column(entity, attribute)) = ?", [value])
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(layout.places[entity].table) WHERE Z_PK = ?" }

    private func entityNumber(_ entity: Int, alias: String) -> String {
        layout.places[entity].kind.map { "\(alias).\($0)" } ?? "\(model.entities[entity].root + 1)"
    }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        try DeleteStatements.oneRow(
            layout.places[entity].table, model.entities[entity].relationships,
            destination: { (self.layout.places[$0.destination].table, self.entityNumber($0.destination, alias: "t1")) },
            toOneKey: { try self.layout.toOne(entity, $0.name).key },
            join: { relationship in
                let stored = try self.layout.storedRelationship(relationship)
                let join = try self.schema.join(stored)
                let (this, other) = join.columns(from: stored.owner, stored.name)
                return (join.name, this, other)
            },
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
        guard let inverse = model.inverse(of: relationship), let columns = layout.toOneColumns[destination][inverse.name] else { return ({ _ in "0" }, []) }
        let condition = { (alias: String) -> String in
            let kinds: String
            if let range = columns.kinds, let kind = self.layout.places[destination].kind.map({ alias + $0 }) {
                kinds = " AND \(kind) >= \(range.lowerBound) AND \(kind) <= \(range.upperBound)"
            } else {
                kinds = ""
            }
            return "\(alias)\(columns.key) = ?1\(kinds)"
        }
        let entityColumn = (columns.entity.map { ", \($0) = NULL" } ?? "")
            + (try model.orderKey(of: inverse).map { ", \(try layout.column(destination, $0)) = NULL" } ?? "")
        return (condition, ["UPDATE \(layout.places[destination].table) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(condition(""))"])
    }

    public func linkCountSQL(_ relationship: Model.Relationship) -> [String] {
        guard let stored = layout.storedRelationships[PropertyKey(relationship)], let join = schema.joinTable(stored) else { return [] }
        return ["SELECT COUNT(*) FROM \(join.name)"]
    }
}
