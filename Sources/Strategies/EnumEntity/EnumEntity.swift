import CoreDataLayout
import Generation
import Models
import SQLite

/// `enum-entity` (one entity with a kind enum in hierarchy of sub-entities): every hierarchy with sub-entities is ONE Core Data entity
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
/// Everything is derived from the model once, when the layout is built: the stored model by
/// `OneEntityModel` from the names `SlotNames` gives and the slots `SlotAssignment` gives, the
/// statements by `OneRowLayout` with what `EnumEntity+Statements.swift` says.
public struct EnumEntity: OneEntityLayout {
    public static let name = "enum-entity"
    public static let summary = "No inheritance: one entity per hierarchy, a kind column naming each row's sub-entity, the sub-entities' attributes in generic typed slots they share (text1, number1, …)"

    public let model: Model
    /// The slot of each sub-entity's own attribute and to-one, and how many slots each table has.
    let slots: SlotAssignment
    /// The names of the properties the stored model adds or renames.
    let names: SlotNames
    /// The model as stored (one enum entity per hierarchy, the other roots as they are), and where
    /// each entity's rows and properties are in it.
    let stored: OneEntityModel
    /// Core Data's layout of `storedModel`.
    public var schema: CoreDataSchema { stored.schema }
    /// Per concrete entity: its INSERT statements.
    private(set) var insertPlans: [Int: InsertPlan] = [:]
    /// Every statement that creates an empty store, in order.
    public private(set) var schemaSQL: [String] = []

    /// Throws `ModelError` when the stored model is one SQLite cannot hold, `LayoutError` when a
    /// lookup the layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        let slots = SlotAssignment(model)
        self.slots = slots
        names = SlotNames(model, slots)
        stored = try OneEntityModel(model, layout: Self.name, names: names.stored(model), subEntities: Self.slotPlaces(model, slots))
        for entity in model.entities { insertPlans[entity.index] = makeInsertPlan(entity) }
        schemaSQL = schema.tableSQL + schema.indexSQL + keySlotIndexSQL() + (try subEntityIndexSQL()) + rtreeSQL() + CoreDataSchema.bookkeepingSQL
    }

    /// `kind = n` for one entity (or an entity without sub-entities), `kind >= a AND kind <= b` for a
    /// subtree. Entity numbers are the model's own constants, written into the SQL (never a user's
    /// value), because SQLite matches a partial index's WHERE only against the same literal terms.
    static func kindCondition(_ kind: String, _ entity: Model.Entity, includesSubentities: Bool) -> String {
        includesSubentities && entity.hasSubentities ? "\(kind) >= \(entity.number) AND \(kind) <= \(entity.subtreeEnd + 1)" : "\(kind) = \(entity.number)"
    }

    /// A sub-entity's own attributes and to-ones are in the slots `slots` gives them, read only in
    /// the rows of the declaring subtree's kinds. (Its to-ones are never kept as relationships.)
    private static func slotPlaces(_ model: Model, _ slots: SlotAssignment) -> OneEntityModel.SubEntityPlaces {
        OneEntityModel.SubEntityPlaces(
            attributes: { entity, root in
                slots.attributes[entity.index].map { RowPlace(column: slots.column($0, in: root), kinds: entity.number ... entity.subtreeEnd + 1) }
            },
            toOne: { relationship, root in
                let entity = model.entities[relationship.owner]
                let slot = try EnumEntity.need(slots.toOnes[entity.index][relationship.name], "slot of \(entity.name).\(relationship.name)")
                return RowToOne(key: slots.column(slot.key, in: root), entity: slot.entity.map { slots.column($0, in: root) }, kinds: entity.number ... entity.subtreeEnd + 1)
            })
    }

    // MARK: Indexes

    /// The index the stored model cannot say on a to-one key slot: `(slot, kind)`, once per slot.
    private func keySlotIndexSQL() -> [String] {
        var sql: [String] = []
        for root in model.roots {
            let hierarchy = stored.roots[root]
            guard let kind = hierarchy.kind else { continue }
            var seen = Set<String>()
            for index in model.entities[root].subtree.dropFirst() {
                for (relationship, columns) in zip(model.entities[index].toOneRelationships, stored.toOnes[index])
                where relationship.owner == index && seen.insert(columns.key).inserted {
                    sql.append("CREATE INDEX \(hierarchy.table)_\(columns.key)_INDEX ON \(hierarchy.table) (\(columns.key), \(kind))")
                }
            }
        }
        return sql
    }

    /// The indexes the stored model cannot say of a sub-entity: its uniqueness constraints as
    /// partial unique indexes on its slots, and its fetch indexes on the slots.
    private func subEntityIndexSQL() throws -> [String] {
        var sql: [String] = []
        for entity in model.entities where !entity.isRoot {
            let hierarchy = stored.roots[entity.index]
            // A sub-entity's root has sub-entities, so a kind column.
            guard let kind = hierarchy.kind else { continue }
            for index in try subEntityIndexes(entity, kind: kind) {
                // Unique among the constrained entity's kinds only: other kinds store other
                // attributes in the same slots. The kind filter of a read of that entity is written
                // the same way, with the numbers in the SQL, so SQLite sees the partial index applies.
                let condition = index.unique ? " WHERE \(Self.kindCondition(kind, entity, includesSubentities: true))" : ""
                sql.append("CREATE \(index.unique ? "UNIQUE " : "")INDEX Z_\(entity.name)_\(index.name) ON \(hierarchy.table) (\(index.columns))" + condition)
            }
        }
        return sql
    }
}
