import CoreDataLayout
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
/// (a NULL is an absent key). Strings are escaped by SQLite's JSON writer; a REAL (a date, a
/// double) is bound as the shortest text that reads back as the same double and passed through
/// `json(?)`, which keeps a number as written (SQLite's JSON writer keeps only 15 significant
/// digits of a bound REAL, which loses an app's dates); UUIDs and binary data are bound as
/// lowercase hex strings. An update of such an attribute is `SET ZDETAILS = json_set(ZDETAILS,
/// '$.name', ?)` (`json(?)` for a REAL; `json_remove` for NULL on an optional one).
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
/// Everything is derived from the model once, when the layout is built: the stored model by
/// `OneEntityModel` from the names `storedNames` gives, the statements by `OneRowLayout` with what
/// `JSONEntity+Statements.swift` says.
public struct JSONEntity: OneEntityLayout {
    public static let name = "json-entity"
    public static let summary = "One entity per hierarchy: the root's attributes as columns, a kind column, every other attribute in one JSON details column"

    public let model: Model
    /// The model the store holds (one entity per root of `model`), and where each entity's rows
    /// and properties are in it.
    let stored: OneEntityModel
    /// Core Data's layout of `storedModel`.
    public var schema: CoreDataSchema { stored.schema }
    /// Per concrete entity: its INSERT.
    private(set) var insertPlans: [Int: InsertPlan] = [:]
    /// The partial indexes on sub-entities' subtrees.
    private(set) var partialIndexes: [PartialIndex] = []
    /// Every statement that creates an empty store, in order.
    public private(set) var schemaSQL: [String] = []
    /// The select list and decoder of each entity's fetch.
    private(set) var readers: [(list: String, decoder: RowDecoder)] = []

    /// SQLite allows 127 arguments per function call: 63 key-value pairs per `json_object`.
    static let keysPerObject = 63

    /// Throws `ModelError` when the stored model is one SQLite cannot hold, `LayoutError` when a
    /// lookup the layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        // A sub-entity's own attributes are keys of its root's `details` (the one column the
        // layout adds); every to-one is kept as a relationship of the stored model.
        let places = OneEntityModel.SubEntityPlaces(
            attributes: { entity, root in entity.ownAttributes.map { RowPlace(column: root.added[0], key: $0.name) } },
            toOne: { relationship, _ in throw LayoutError(JSONEntity.name, "no stored relationship for \(relationship.name)") })
        stored = try OneEntityModel(model, layout: Self.name, names: Self.storedNames(model), subEntities: places)
        for entity in model.entities { insertPlans[entity.index] = makeInsertPlan(entity) }
        let extra = try subEntityIndexSQL()
        partialIndexes = extra.partial
        schemaSQL = schema.tableSQL + schema.indexSQL + extra.sql + rtreeSQL() + CoreDataSchema.bookkeepingSQL
        readers = try model.entities.map { try compactSelection($0.index, model.concreteEntities(in: $0.subtree)) }
    }

    /// `ZKIND = 4` for a one-entity subtree, else `ZKIND BETWEEN 2 AND 4` (entity numbers).
    static func kindTerm(_ subtree: ClosedRange<Int>, column: String) -> String {
        subtree.count == 1 ? "\(column) = \(subtree.lowerBound + 1)" : "\(column) BETWEEN \(subtree.lowerBound + 1) AND \(subtree.upperBound + 1)"
    }

    // MARK: INSERTs

    /// `details`, built by SQLite from one bound value per key kept there.
    func documentInsert(_ entity: Model.Entity, _ positions: [Int]) -> (column: String, value: String, sources: [InsertStep.Source])? {
        stored.roots[entity.index].details.map { column in
            (column, Self.detailsExpression(positions.map { entity.attributes[$0].name }, dropsNulls: positions.contains { entity.attributes[$0].optional },
                                            numbers: Set(positions.filter { entity.attributes[$0].type.storage == .real }.map { entity.attributes[$0].name })),
             positions.map { InsertStep.Source.detail($0) })
        }
    }

    /// The SQL that builds `details` from one bound value per key (see `JSONEntity`'s documentation).
    /// `numbers`: the keys of REALs, each bound as text and read by `json(?)`.
    static func detailsExpression(_ keys: [String], dropsNulls: Bool, numbers: Set<String> = []) -> String {
        guard !keys.isEmpty else { return "'{}'" }
        let pieces = stride(from: 0, to: keys.count, by: keysPerObject).map { start in
            "json_object(" + keys[start ..< min(start + keysPerObject, keys.count)].map { "'\($0)', \(numbers.contains($0) ? "json(?)" : "?")" }.joined(separator: ", ") + ")"
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
            let hierarchy = stored.roots[root]
            guard let kind = hierarchy.kind else { continue }
            sql.append("CREATE INDEX \(hierarchy.table)_\(kind)_INDEX ON \(hierarchy.table) (\(kind))")
            for entity in model.entities[root].subtree.dropFirst().map({ model.entities[$0] }) {
                for index in try subEntityIndexes(entity, kind: kind) {
                    let name = Self.indexName(index.name, model.entities[root].name, entity.name, &indexNames)
                    sql.append("CREATE \(index.unique ? "UNIQUE " : "")INDEX \(name) ON \(hierarchy.table) (\(index.columns)) WHERE \(Self.kindTerm(entity.subtree, column: kind))")
                    partial.append(PartialIndex(root: root, subtree: entity.subtree, properties: index.properties))
                }
            }
        }
        return (sql, partial)
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
}

extension StoredRoot {
    /// json-entity's `details` column: the one column it adds to a hierarchy's table (nil for a
    /// root without sub-entities).
    var details: String? { added.first }
}

extension JSONEntity {
    /// A partial index on a sub-entity's subtree.
    struct PartialIndex: Sendable {
        let root: Int
        let subtree: ClosedRange<Int>
        /// The properties it indexes.
        let properties: Set<String>
    }
}
