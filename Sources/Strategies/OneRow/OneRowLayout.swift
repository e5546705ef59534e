import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

/// A layout that keeps each object in one row of its hierarchy's table, a column telling the
/// rows' entities apart (single-table, enum-entity, json-entity). It says where each property of
/// an entity is; the reads, updates, versions, deletes and link counts are written once from that
/// (`OneRowLayout+Reads.swift`, `OneRowLayout+Writes.swift`).
protocol OneRowLayout: StorageLayout {
    /// Core Data's layout of `storedModel`, whose tables hold the rows.
    var schema: CoreDataSchema { get }
    /// The entity of `storedModel` whose table holds `entity`'s rows.
    func storedEntity(_ entity: Int) -> Int
    /// The column holding each row's entity number (in `model`); nil for a table of one entity.
    func kindColumn(_ entity: Int) -> String?
    /// The expression of a row's entity number (Core Data's `Z_ENT`) in `entity`'s table, `t0`: its
    /// kind column, or the one entity's number. `OneRowLayout.entityNumber` by default.
    func entityNumber(_ entity: Int) -> String
    /// Where attribute `position` of `entity` is kept.
    func place(_ entity: Int, _ position: Int) -> RowPlace
    /// The columns of each to-one of `entity` (inherited ones first), in `toOneRelationships` order.
    func toOnes(_ entity: Int) -> [RowToOne]
    /// Many-to-many `relationship`'s join table as its owner sees it: its name, the owner's column, the other side's.
    func link(_ relationship: Model.Relationship) throws -> (name: String, this: String, other: String)
    /// The conditions after the predicate that select `request`'s entities in the table, and their values.
    func entityTerms(_ request: FetchRequest) -> (sql: [String], values: [Value])
    /// The select list of a fetch of `request` and the decoder of its rows.
    func selection(_ request: FetchRequest) throws -> (list: String, decoder: RowDecoder)
    /// The expression of a row's entity number on the row aliased `alias`.
    func entityNumber(_ entity: Int, alias: String) -> String
    /// Reads the values kept as keys of a JSON column (`RowPlace.key`) into their slots, given the
    /// column's position; nil when the layout keeps none.
    func documentReader(_ entity: Int, _ keys: [(slot: Int, key: String)], column: Int32) -> (@Sendable (Statement, inout [Value]) throws -> Void)?
}

/// Where a one-row layout keeps an attribute: a column, or a key of the JSON object a column
/// holds; `kinds` is the entity-number range whose rows use the column for it when other
/// entities' rows use the same column for something else (a shared slot).
struct RowPlace: Sendable {
    let column: String
    var key: String?
    var kinds: ClosedRange<Int>?

    /// The SQL expression of the value on the row aliased `alias`.
    func sql(_ alias: String) -> String { key.map { "\(alias).\(column) ->> '$.\($0)'" } ?? "\(alias).\(column)" }
}

/// A to-one relationship's columns in a one-row layout: its key, its destination's entity number
/// (when the destination has sub-entities), and the entity-number range whose rows use the key
/// column for it when it is a shared slot.
struct RowToOne: Sendable {
    let key: String
    let entity: String?
    var kinds: ClosedRange<Int>?

    /// `<alias><key> = ?1`, with the kind range of a shared slot (`kind` the table's kind column).
    func condition(_ alias: String, kind: String?) -> String {
        guard let kinds, let kind else { return "\(alias)\(key) = ?1" }
        return "\(alias)\(key) = ?1 AND \(alias)\(kind) >= \(kinds.lowerBound) AND \(alias)\(kind) <= \(kinds.upperBound)"
    }
}

extension OneRowLayout {
    /// The table holding `entity`'s rows.
    func table(_ entity: Int) -> String { schema.table(of: storedEntity(entity)).name }

    func entityNumber(_ entity: Int, alias: String) -> String {
        kindColumn(entity).map { "\(alias).\($0)" } ?? "\(model.entities[entity].root + 1)"
    }

    func documentReader(_ entity: Int, _ keys: [(slot: Int, key: String)], column: Int32) -> (@Sendable (Statement, inout [Value]) throws -> Void)? { nil }

    // MARK: Lookups by name

    /// The position and place of attribute `name` of `entity`.
    func attribute(_ entity: Int, _ name: String) throws -> (position: Int, place: RowPlace) {
        let position = try attributePosition(entity, name)
        return (position, place(entity, position))
    }

    /// The column of attribute `name` of `entity`.
    func column(_ entity: Int, _ name: String) throws -> String { try attribute(entity, name).place.column }

    /// The SQL expression of attribute `name` of `entity` on the row aliased `alias`, and whether
    /// its values are bound as hex text (a UUID or binary value held in a JSON object).
    func expression(_ entity: Int, _ name: String, alias: String) throws -> (sql: String, hex: Bool) {
        let (position, place) = try attribute(entity, name)
        return (place.sql(alias), place.key != nil && model.entities[entity].attributes[position].type.storage == .blob)
    }

    /// A row's entity number in `entity`'s table: its kind column, else the table's one entity's number.
    func entityNumber(_ entity: Int) -> String { kindColumn(entity).map { "t0.\($0)" } ?? "\(model.entities[entity].root + 1)" }

    /// The columns of to-one `name` of `entity`.
    func toOne(_ entity: Int, _ name: String) throws -> RowToOne {
        try toOnes(entity)[toOnePosition(entity, name)]
    }

    /// The columns through which a to-many or one-to-one relationship's destinations point back
    /// at its owner: those of its inverse to-one.
    func inverseKey(of relationship: Model.Relationship) throws -> RowToOne {
        try toOnes(relationship.destination)[inverseToOne(relationship).1]
    }
}
