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
/// Everything is derived from the model once, when the layout is built; the statements are
/// derived from it by `OneRowLayout` with what `JSONEntity+Statements.swift` says.
public final class JSONEntity: OneRowLayout {
    public static let name = "json-entity"
    public static let summary = "One entity per hierarchy: the root's attributes as columns, a kind column, every other attribute in one JSON details column"

    public let model: Model
    /// The names of the relationships and attributes the stored model adds or renames.
    let names: StoredNames
    /// The model the store holds (one entity per root of `model`).
    public let storedModel: Model
    /// Core Data's layout of `storedModel`.
    public let schema: CoreDataSchema
    /// Per entity: its hierarchy's table and columns.
    let hierarchies: [Hierarchy]
    /// Per entity, per attribute (in `attributes` order).
    let places: [[RowPlace]]
    /// Per entity: the columns of each to-one relationship (its own and inherited).
    let toOneColumns: [[String: RowToOne]]
    /// Per concrete entity: its INSERT.
    private(set) var insertPlans: [Int: InsertPlan] = [:]
    /// The partial indexes on sub-entities' subtrees.
    private(set) var partialIndexes: [PartialIndex] = []
    /// Every statement that creates an empty store, in order.
    public private(set) var schemaSQL: [String] = []

    /// SQLite allows 127 arguments per function call: 63 key-value pairs per `json_object`.
    static let keysPerObject = 63

    /// Throws `ModelError` when the stored model is one SQLite cannot hold, `LayoutError` when a
    /// lookup the layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        let stored = try StoredRootModel(model, layout: Self.name, names: try StoredNames(model), storing: Self.storedModel)
        names = stored.names
        storedModel = stored.model
        schema = stored.schema
        hierarchies = try stored.roots.map { root in
            Hierarchy(root: root.root, stored: root.stored, table: root.table,
                      kind: try root.column(stored.names.kind[root.root]), details: try root.column(stored.names.details[root.root]))
        }
        places = try Self.places(model, hierarchies, stored.roots)
        toOneColumns = try Self.toOneColumns(model, stored, hierarchies)
        for entity in model.entities where entity.isConcrete { insertPlans[entity.index] = try makeInsertPlan(entity) }
        let extra = try subEntityIndexSQL()
        partialIndexes = extra.partial
        schemaSQL = schema.tableSQL + schema.indexSQL + extra.sql + CoreDataSchema.bookkeepingSQL
    }

    // MARK: The stored model

    /// Per root: the root's attributes (then `kind` and `details` for a hierarchy), the relationships
    /// of its whole subtree re-pointed at the destinations' roots (each with its `<name>Kind`
    /// attribute when it has one), the root's uniqueness constraints and fetch indexes (`entity` as `kind`).
    private static func storedModel(_ model: Model, _ names: StoredNames) throws -> Model {
        let entities = model.entities
        var descriptions: [EntityDescription] = []
        for root in model.roots {
            let info = entities[root]
            var attributes = Array(info.ownAttributes)
            if let kind = names.kind[root], let details = names.details[root] {
                attributes += [Attribute(kind, .integer64), Attribute(details, .string)]
            }
            var relationships: [RelationshipDescription] = []
            for entity in info.hasSubentities ? info.subtree : root ... root {
                for resolved in entities[entity].ownRelationships {
                    var copy = model.declaration(of: resolved)
                    copy.name = names.relationships[PropertyKey(resolved)] ?? resolved.name
                    copy.destination = entities[entities[resolved.destination].root].name
                    if let inverse = model.inverse(of: resolved) { copy.inverse = names.relationships[PropertyKey(inverse)] ?? inverse.name }
                    relationships.append(copy)
                    if let extra = names.entityAttributes[PropertyKey(resolved)] { attributes.append(Attribute(extra, .integer64, optional: true)) }
                }
            }
            let fetchIndexes = info.fetchIndexes.map { index in
                guard let kind = names.kind[root] else { return FetchIndex(index.name, index.elements) }
                return FetchIndex(index.name, index.elements.map { $0.property == nil ? FetchIndex.Element(property: kind, ascending: $0.ascending) : $0 })
            }
            descriptions.append(EntityDescription(info.name, rows: model.objectCount(root), attributes: attributes, relationships: relationships,
                                                  uniquenessConstraints: info.uniquenessConstraints, fetchIndexes: fetchIndexes))
        }
        return try Model(ModelDescription(name: model.name, summary: model.description.summary, entities: descriptions))
    }

    // MARK: Where properties live

    /// Per entity, per attribute: the root's typed column, or (in a hierarchy) a key of `details`.
    private static func places(_ model: Model, _ hierarchies: [Hierarchy], _ roots: [StoredRoot]) throws -> [[RowPlace]] {
        try model.entities.map { entity in
            let hierarchy = hierarchies[entity.index]
            return try entity.attributes.indices.map { position in
                let name = entity.attributes[position].name
                if let details = hierarchy.details, entity.attributeOwners[position] != entity.root { return RowPlace(column: details, key: name) }
                return RowPlace(column: try roots[entity.index].column(name))
            }
        }
    }

    /// Per entity: the key column (and entity-number column) of each to-one, its own and inherited.
    private static func toOneColumns(_ model: Model, _ stored: StoredRootModel<StoredNames>, _ hierarchies: [Hierarchy]) throws -> [[String: RowToOne]] {
        try model.entities.map { entity in
            let hierarchy = hierarchies[entity.index]
            var columns: [String: RowToOne] = [:]
            for relationship in entity.relationships where !relationship.toMany {
                let storedName = try JSONEntity.need(stored.names.relationships[PropertyKey(relationship)], "stored name of \(relationship.name)")
                let key = try stored.schema.toOneColumns(hierarchy.stored, storedName).key
                columns[relationship.name] = RowToOne(key: key, entity: try stored.roots[entity.index].column(stored.names.entityAttributes[PropertyKey(relationship)]))
            }
            return columns
        }
    }

    // MARK: Lookups

    /// The hierarchy (table and columns) `entity` is stored in.
    func hierarchy(_ entity: Int) -> Hierarchy { hierarchies[entity] }

    /// `ZKIND = 4` for a one-entity subtree, else `ZKIND BETWEEN 2 AND 4` (entity numbers).
    static func kindTerm(_ subtree: ClosedRange<Int>, column: String) -> String {
        subtree.count == 1 ? "\(column) = \(subtree.lowerBound + 1)" : "\(column) BETWEEN \(subtree.lowerBound + 1) AND \(subtree.upperBound + 1)"
    }

    // MARK: INSERTs

    /// A concrete entity's INSERT: `Z_PK, Z_ENT, Z_OPT` (and `kind`), the typed columns, each
    /// to-one's key (and entity number), then `details` built from one bound value per key.
    private func makeInsertPlan(_ entity: Model.Entity) throws -> InsertPlan {
        let hierarchy = hierarchies[entity.index]
        let (row, details) = try insertRow(entity)
        let json = hierarchy.details.map { column in
            (column, Self.detailsExpression(details.map { entity.attributes[$0].name }, dropsNulls: details.contains { entity.attributes[$0].optional }),
             details.map { InsertStep.Source.detail($0) })
        }
        let header = InsertStep.header(stored: hierarchy.stored) + (hierarchy.kind.map { [($0, .entityNumber)] } ?? [])
        return InsertPlan(keyEntity: hierarchy.stored, steps: [InsertStep(into: hierarchy.table, header + row, then: json)], links: linkInserts(entity))
    }

    /// The SQL that builds `details` from one bound value per key (see `JSONEntity`'s documentation).
    static func detailsExpression(_ keys: [String], dropsNulls: Bool) -> String {
        guard !keys.isEmpty else { return "'{}'" }
        let pieces = stride(from: 0, to: keys.count, by: keysPerObject).map { start in
            "json_object(" + keys[start ..< min(start + keysPerObject, keys.count)].map { "'\($0)', ?" }.joined(separator: ", ") + ")"
        }
        var expression = dropsNulls ? "json_patch('{}', \(pieces[0]))" : pieces[0]
        for piece in pieces.dropFirst() { expression = "json_patch(\(expression), \(piece))" }
        return expression
    }

    // MARK: Indexes

    /// The kind column's index of each hierarchy, then each sub-entity's constraints and fetch
    /// indexes, partial on its subtree; and those partial indexes.
    private func subEntityIndexSQL() throws -> (sql: [String], partial: [PartialIndex]) {
        var sql: [String] = []
        var partial: [PartialIndex] = []
        var indexNames = Set<String>()
        for entity in storedModel.entities {
            for constraint in entity.uniquenessConstraints { indexNames.insert(CoreDataSchema.uniqueIndexName(entity.name, constraint).uppercased()) }
            for index in entity.fetchIndexes { indexNames.insert("Z_\(entity.name)_\(index.name)".uppercased()) }
        }
        for root in model.roots {
            let hierarchy = hierarchies[root]
            guard let kind = hierarchy.kind else { continue }
            sql.append("CREATE INDEX \(hierarchy.table)_\(kind)_INDEX ON \(hierarchy.table) (\(kind))")
            for index in model.entities[root].subtree.dropFirst() {
                let entity = model.entities[index]
                let term = Self.kindTerm(entity.subtree, column: kind)
                for constraint in entity.uniquenessConstraints {
                    let columns = try constraint.map { try indexElement(index, $0, kind: kind) + " COLLATE BINARY ASC" }
                    let name = Self.indexName("UNIQUE_" + constraint.joined(separator: "_"), model.entities[root].name, entity.name, &indexNames)
                    sql.append("CREATE UNIQUE INDEX \(name) ON \(hierarchy.table) (\(columns.joined(separator: ", "))) WHERE \(term)")
                    partial.append(PartialIndex(root: root, subtree: entity.subtree, properties: Set(constraint)))
                }
                for fetchIndex in entity.fetchIndexes {
                    let columns = try fetchIndex.elements.map { try indexElement(index, $0.property, kind: kind) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC") }
                    let name = Self.indexName(fetchIndex.name, model.entities[root].name, entity.name, &indexNames)
                    sql.append("CREATE INDEX \(name) ON \(hierarchy.table) (\(columns.joined(separator: ", "))) WHERE \(term)")
                    partial.append(PartialIndex(root: root, subtree: entity.subtree, properties: Set(fetchIndex.elements.compactMap(\.property))))
                }
            }
        }
        return (sql, partial)
    }

    /// An index element of a sub-entity: the typed column, the expression reading a key of
    /// `details`, the to-one's foreign key, or `kind` for `entity` (no property).
    private func indexElement(_ entity: Int, _ property: String?, kind: String) throws -> String {
        guard let property else { return kind }
        if property == FetchIndex.primaryKeyName { return "Z_PK" }
        let info = model.entities[entity]
        if let position = info.attributeIndex(property) {
            let place = places[entity][position]
            return place.key.map { "(\(place.column) ->> '$.\($0)')" } ?? place.column
        }
        return try JSONEntity.need(toOneColumns[entity][property], "property '\(property)' of \(info.name)").key
    }

    /// `Z_<Root>_<local>`, with the declaring entity's name inserted when that is taken, then a
    /// counting suffix; the name returned is taken from then on.
    private static func indexName(_ local: String, _ rootName: String, _ entityName: String, _ taken: inout Set<String>) -> String {
        var candidate = "Z_\(rootName)_\(local)"
        if taken.contains(candidate.uppercased()) { candidate = "Z_\(rootName)_\(entityName)_\(local)" }
        var suffix = 1
        let base = candidate
        while taken.contains(candidate.uppercased()) { candidate = base + "_\(suffix)"; suffix += 1 }
        taken.insert(candidate.uppercased())
        return candidate
    }
    /// The select list and decoder of each entity's fetch, made once.
    var readers: [Int: (list: String, decoder: RowDecoder)] = [:]
}

extension JSONEntity {
    /// A root's table.
    struct Hierarchy: Sendable {
        let root: Int
        /// The entity's index in `storedModel`.
        let stored: Int
        let table: String
        /// `ZKIND` and `ZDETAILS` (nil for a root without sub-entities).
        let kind: String?
        let details: String?
    }

    /// A partial index on a sub-entity's subtree.
    struct PartialIndex: Sendable {
        let root: Int
        let subtree: ClosedRange<Int>
        /// The properties it indexes.
        let properties: Set<String>
    }
}
