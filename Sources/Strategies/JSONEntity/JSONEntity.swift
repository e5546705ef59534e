import Generation
import Models
import SQLite

/// `json-entity`: every hierarchy with sub-entities is ONE Core Data entity, named after its root,
/// with no inheritance: the root's own attributes stay typed columns, `kind` (`ZKIND INTEGER`)
/// holds the object's entity number in the original model, and `details` (`ZDETAILS VARCHAR`)
/// holds every other attribute of the object as one flat JSON object keyed by attribute name.
///
/// **The stored model.** The layout derives a `ModelDescription` (`storedModel`) and takes Core Data's
/// layout of it (`CoreDataSchema`) for every name and the DDL: one entity per root of the original
/// model (same names, so the same name order); a JSON entity gets the root's attributes, `kind`
/// and `details`, the relationships of its whole subtree (re-pointed at the destination's root;
/// a name taken by a sibling gets a counting suffix) and the root's uniqueness constraints and
/// fetch indexes (an `entity` element becomes `kind`). A to-one relationship whose destination
/// has sub-entities in the original model also gets an integer attribute `<name>Kind` holding the
/// destination's entity number (Core Data's `Z<n>_NAME` column: the destination is one flat entity
/// now). A name already taken (`kind`, `details`) gets a counting suffix (`kind1`). Roots without
/// sub-entities are stored as Core Data stores them. Entity numbers in `Z_ENT` and `Z_PRIMARYKEY`
/// are the stored model's; `kind` and every answer use the original model's.
///
/// **Indexes.** Core Data's (of the stored model), then: `<TABLE>_ZKIND_INDEX (ZKIND)` for
/// entity-filtered reads; per uniqueness constraint or fetch index declared by a sub-entity, an
/// index `Z_<Root>_<name>` (`Z_<Root>_UNIQUE_<a>_<b>` for a constraint; the declaring entity's
/// name is inserted when that is taken) whose elements are the typed column, the to-one's foreign
/// key, `ZKIND` for `entity`, or the expression `(ZDETAILS ->> '$.name')` for an attribute held in
/// `details`, partial on the declaring entity's subtree (`WHERE ZKIND = 4`,
/// `WHERE ZKIND BETWEEN 2 AND 4`). Queries write the same expressions, and their entity filters
/// as literal entity numbers, so that SQLite sees that a partial index applies; a query of an
/// entity inside a narrower index's subtree repeats that index's `WHERE` term.
///
/// **Writing.** SQLite writes the JSON: each concrete entity's INSERT builds `details` with
/// `json_object('name', ?, …)` from bound values, keys in attribute order. SQLite allows 127
/// arguments per function, so an object of more than 63 keys is built from pieces with
/// `json_patch(json_object(…), json_object(…))`; when the entity has optional attributes the
/// first piece is `json_patch('{}', json_object(…))`, which drops the keys whose value is NULL
/// (a NULL is an absent key). Strings are escaped by SQLite's JSON writer; REALs (dates, doubles)
/// are written with 15 significant digits, exact for the generator's values; UUIDs and binary
/// data are bound as lowercase hex strings. An update of such an attribute is
/// `SET ZDETAILS = json_set(ZDETAILS, '$.name', ?)` (`json_remove` for NULL on an optional one).
///
/// **Reading.** Fetches select `ZKIND`, the typed columns the fetched subtree needs and
/// `ZDETAILS`, and decode `details` in Swift with a strict reader of flat JSON objects (not with
/// `json_extract`, which in SQLite 3.40 cuts a string at its first `\u0000`). A row whose `kind`
/// is no concrete entity of the fetched subtree, or whose `details` is not such an object, holds
/// a key its entity lacks, or lacks a required attribute, throws `CorruptRow`. Predicates and
/// sorts on an attribute held in `details` use `t0.ZDETAILS ->> '$.name'` (a UUID or binary
/// value compared as its hex text).
///
/// A polymorphic fetch is `SELECT t0.ZKIND, t0.Z_PK, t0.Z_OPT, … FROM ZPUBLICATION t0`; a middle
/// entity's adds `WHERE t0.ZKIND BETWEEN 2 AND 4`, one entity's `WHERE t0.ZKIND = 4`.
///
/// `JSONEntityLayout` derives all of this from the model alone (stored names, stored model,
/// where each property lives, DDL, INSERTs, each fetch's select list and decoder, with `FlatJSON`
/// reading `details`); this class derives each statement from it.
public final class JSONEntity: StorageLayout {
    public static let name = "json-entity"
    public static let summary = "One entity per hierarchy: the root's attributes as columns, a kind column, every other attribute in one JSON details column"

    public let model: Model
    /// Everything derived from the model: the stored model, the places, the DDL and the INSERTs.
    public let layout: JSONEntityLayout
    private var readers: [Int: (list: String, decoder: RowDecoder)] = [:]

    public var storedModel: Model { layout.storedModel }
    public var schema: CoreDataSchema { layout.schema }
    public var schemaSQL: [String] { layout.schemaSQL }

    public init(model: Model) throws {
        self.model = model
        layout = try JSONEntityLayout(model: model)
    }

    public func insertPlan(_ entity: Int) -> InsertPlan? {
        guard let plan = layout.inserts[entity] else { return nil }
        var sources: [InsertStep.Source] = [.key, .constant(plan.storedNumber), .version] + (plan.hasKind ? [.entityNumber] : [])
        sources += plan.columnAttributes.map { .value($0) } + InsertStep.toOnes(plan.toOneEntities) + plan.detailAttributes.map { .detail($0) }
        let links = model.entities[entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }.map { relationship -> LinkInsert in
            guard let (join, this, other) = try? layout.joinTable(relationship) else { return .byDestination([:]) }
            return .one("INSERT INTO \(join) (\(this), \(other)) VALUES (?, ?)")
        }
        return InsertPlan(keyEntity: layout.hierarchy(model.entities[entity].root).stored, steps: [InsertStep(sql: plan.sql, sources: sources)], links: links)
    }

    // MARK: Reads

    /// The predicate with every value compared with a hex-text expression given as hex text.
    private func convert(_ predicate: FetchPredicate, _ request: FetchRequest) throws -> FetchPredicate {
        let entity = request.entity
        func converted(_ value: Value, _ hex: Bool) -> Value { hex ? value.jsonBindable : value }
        switch predicate {
        case let .equals(name, value):
            return .equals(name, converted(value, try layout.expression(entity, name, alias: "t0").hex))
        case let .range(name, lower, upper):
            let hex = try layout.expression(entity, name, alias: "t0").hex
            return .range(name, converted(lower, hex), converted(upper, hex))
        case let .after(values):
            return .after(try values.enumerated().map { index, value in
                index < request.sort.count ? converted(value, try layout.expression(entity, request.sort[index].attribute, alias: "t0").hex) : value
            })
        case let .anyRelated(relationshipName, name, value):
            let relationship = try Self.need(model.entities[entity].relationship(relationshipName), "relationship '\(relationshipName)'")
            return .anyRelated(relationshipName, name, converted(value, try layout.expression(relationship.destination, name, alias: "t1").hex))
        case let .and(predicates):
            return .and(try predicates.map { try convert($0, request) })
        case .all, .key, .toOne:
            return predicate
        }
    }

    /// The attributes a predicate compares (for the partial indexes it may use).
    private static func properties(_ predicate: FetchPredicate, sort: [SortKey]) -> Set<String> {
        switch predicate {
        case let .equals(name, _), let .range(name, _, _): return [name]
        case let .toOne(name, _): return [name]
        case .after: return Set(sort.map(\.attribute))
        case let .and(predicates): return predicates.reduce(into: Set<String>()) { $0.formUnion(properties($1, sort: sort)) }
        case .all, .key, .anyRelated: return []
        }
    }

    private func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { try self.layout.expression(entity, $0, alias: "t0").sql },
            toOne: { "t0." + (try self.layout.toOne(entity, $0).key) },
            key: "t0.Z_PK",
            related: { relationshipName, attribute in try self.relatedJoin(entity, relationshipName, attribute) },
            sort: try request.sort.map { (try self.layout.expression(entity, $0.attribute, alias: "t0").sql, $0.ascending) })
    }

    /// The joins for `ANY relationship.attribute == ?`: through the join table (many-to-many) or the
    /// destination's foreign key (one-to-many).
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String) throws -> (joins: String, expression: String) {
        let relationship = try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
        let destination = layout.hierarchy(relationship.destination).table
        if relationship.isManyToMany {
            let (join, this, other) = try layout.joinTable(relationship)
            return ("JOIN \(join) t1 ON t0.Z_PK = t1.\(this) JOIN \(destination) t2 ON t2.Z_PK = t1.\(other)",
                    try layout.expression(relationship.destination, attribute, alias: "t2").sql)
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let key = try layout.toOne(inverse.owner, inverse.name).key
        return ("JOIN \(destination) t1 ON t1.\(key) = t0.Z_PK", try layout.expression(relationship.destination, attribute, alias: "t1").sql)
    }

    /// The entity filter: none for a whole table, `t0.ZKIND BETWEEN a AND b` for a subtree, `t0.ZKIND = n`
    /// for one entity (literal numbers, so that SQLite can match partial indexes); then the `WHERE` of
    /// every partial index on a wider subtree that covers a property the request compares or sorts by.
    private func entityTerms(_ request: FetchRequest) -> [String] {
        let info = model.entities[request.entity]
        let hierarchy = layout.hierarchy(info.index)
        guard let kind = hierarchy.kind else { return [] }
        let range = request.includesSubentities ? info.subtree : info.index ... info.index
        guard range != model.entities[info.root].subtree else { return [] }
        var terms = [JSONEntityLayout.kindTerm(range, column: "t0.\(kind)")]
        let used = Self.properties(request.predicate, sort: request.sort).union(request.sort.map(\.attribute))
        guard !used.isEmpty else { return terms }
        for index in layout.partialIndexes where index.root == info.root && index.subtree != range
            && index.subtree.contains(range.lowerBound) && index.subtree.contains(range.upperBound) && !index.properties.isDisjoint(with: used) {
            let term = JSONEntityLayout.kindTerm(index.subtree, column: "t0.\(kind)")
            if !terms.contains(term) { terms.append(term) }
        }
        return terms
    }

    /// The read of `request` from its hierarchy's table: the predicate's values as the JSON holds
    /// them, then the kind terms.
    private func read(_ request: FetchRequest) throws -> OneTableRead {
        OneTableRead(builder: try sqlWhere(request), table: layout.hierarchy(request.entity).table,
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
        let made = try layout.reader(entity)
        readers[entity] = made
        return made
    }

    // MARK: Writes

    /// Core Data's one statement, a typed column set or a key of `details` set (removed, for NULL
    /// in an optional attribute) with `json_set`/`json_remove`.
    public func updatePlan(_ entity: Int, attribute: String, value: Value) throws -> [UpdateStep] {
        let info = model.entities[entity]
        let table = layout.hierarchy(entity).table
        let position = try Self.need(info.attributeIndex(attribute), "attribute '\(attribute)' of \(info.name)")
        switch layout.places[entity][position] {
        case let .column(name):
            return UpdateStep.versioned(table, "\(name) = ?", [value])
        case let .detail(key):
            let details = try Self.need(layout.hierarchy(entity).details, "details column of \(table)")
            if value.isNull, info.attributes[position].optional {
                return UpdateStep.versioned(table, "\(details) = json_remove(\(details), '$.\(key)')", [])
            }
            return UpdateStep.versioned(table, "\(details) = json_set(\(details), '$.\(key)', ?)", [value.jsonBindable])
        }
    }

    public func versionSQL(_ entity: Int) -> String? { "SELECT Z_OPT FROM \(layout.hierarchy(entity).table) WHERE Z_PK = ?" }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        func table(_ relationship: Model.Relationship) -> String { layout.hierarchy(model.entities[relationship.destination].root).table }
        return try DeleteStatements.oneRow(
            layout.hierarchy(entity).table, model.entities[entity].relationships,
            destination: { (table($0), self.layout.kindExpression(self.model.entities[$0.destination].root, alias: "t1")) },
            toOneKey: { try self.layout.toOne(entity, $0.name).key },
            join: { try self.layout.joinTable($0) },
            inverse: { relationship in
                let inverse = try Self.need(self.model.inverse(of: relationship), "inverse of \(relationship.name)")
                return ("t1.\(try self.layout.toOne(inverse.owner, inverse.name).key) = ?1", self.clearInverse(relationship, in: table(relationship)))
            })
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// (in `table`) hold through the inverse to-one (the many side of a one-to-many, the other side of a one-to-one).
    private func clearInverse(_ relationship: Model.Relationship, in table: String) -> [String] {
        guard let inverse = model.inverse(of: relationship), let columns = layout.toOneColumns[inverse.owner][inverse.name] else { return [] }
        var entityColumn = columns.entity.map { ", \($0) = NULL" } ?? ""
        // The order key, declared with the to-one: a typed column, or a key of the details.
        if let key = model.orderKey(of: inverse), let position = model.entities[inverse.owner].attributeIndex(key) {
            switch layout.places[inverse.owner][position] {
            case let .column(name): entityColumn += ", \(name) = NULL"
            case let .detail(name):
                if let details = layout.hierarchy(inverse.owner).details { entityColumn += ", \(details) = json_remove(\(details), '$.\(name)')" }
            }
        }
        return ["UPDATE \(table) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"]
    }

    public func linkCountSQL(_ relationship: Model.Relationship) throws -> [String] {
        guard relationship.isManyToMany else { return [] }
        return ["SELECT COUNT(*) FROM \(try layout.joinTable(relationship).name)"]
    }
}
