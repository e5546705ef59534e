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
/// Everything is derived from the model once, when the layout is built; the statements are
/// derived from it by `OneRowLayout` with what `EnumEntity+Statements.swift` says.
public final class EnumEntity: OneRowLayout {
    public static let name = "enum-entity"
    public static let summary = "No inheritance: one entity per hierarchy, a kind column naming each row's sub-entity, the sub-entities' attributes in generic typed slots they share (text1, number1, …)"

    public let model: Model
    /// The slot of each sub-entity's own attribute and to-one, and how many slots each table has.
    let slots: SlotAssignment
    /// The names of the properties the stored model adds or renames.
    let names: SlotNames
    /// The model as stored: one enum entity per hierarchy, the other roots as they are.
    public let storedModel: Model
    /// Core Data's layout of `storedModel`.
    public let schema: CoreDataSchema
    /// Per entity: where its rows live.
    let hierarchies: [Hierarchy]
    /// Per entity: the column of each of its attributes, and the declaring subtree's kinds when it is a slot.
    let valueColumns: [[String]]
    let valueKinds: [[ClosedRange<Int>?]]
    /// Per entity: the columns of each of its to-one relationships (inherited ones included), by name.
    let toOneColumns: [[String: RowToOne]]
    /// The stored model's relationship for each relationship kept as one.
    private(set) var storedRelationships: [PropertyKey: Model.Relationship] = [:]
    /// Per concrete entity: its INSERT statements.
    private(set) var insertPlans: [Int: InsertPlan] = [:]
    /// Every statement that creates an empty store, in order.
    public private(set) var schemaSQL: [String] = []

    /// Throws `ModelError` when the stored model is one SQLite cannot hold, `LayoutError` when a
    /// lookup the layout makes fails (a validated model makes none fail).
    public init(model: Model) throws {
        self.model = model
        slots = SlotAssignment(model)
        let stored = try StoredRootModel(model, layout: Self.name, names: SlotNames(model, slots), storing: Self.storedModel)
        names = stored.names
        storedModel = stored.model
        schema = stored.schema
        hierarchies = try stored.roots.map { Hierarchy(table: $0.table, stored: $0.stored, kind: try $0.column(stored.names.kind[$0.root])) }
        let columns = try Self.propertyColumns(model, stored, slots)
        valueColumns = columns.values
        valueKinds = columns.kinds
        toOneColumns = columns.toOnes
        storedRelationships = try makeStoredRelationships()
        insertPlans = try makeInsertPlans()
        schemaSQL = schema.tableSQL + schema.indexSQL + (try keySlotIndexSQL()) + (try subEntityIndexSQL()) + CoreDataSchema.bookkeepingSQL
    }

    /// `kind = n` for one entity (or an entity without sub-entities), `kind >= a AND kind <= b` for a
    /// subtree. Entity numbers are the model's own constants, written into the SQL (never a user's
    /// value), because SQLite matches a partial index's WHERE only against the same literal terms.
    static func kindCondition(_ kind: String, _ entity: Model.Entity, includesSubentities: Bool) -> String {
        includesSubentities && entity.hasSubentities ? "\(kind) >= \(entity.number) AND \(kind) <= \(entity.subtreeEnd + 1)" : "\(kind) = \(entity.number)"
    }

    // MARK: The stored model

    /// The stored model: per root, its enum entity when it has sub-entities, else the root as it is.
    private static func storedModel(_ model: Model, _ names: SlotNames) throws -> Model {
        let descriptions = try model.roots.map { try storedEntity($0, model, names) }
        do {
            return try Model(ModelDescription(name: model.name, entities: descriptions))
        } catch let error as ModelError {
            throw ModelError("\(EnumEntity.name) cannot store the model '\(model.name)': \(error.description)")
        }
    }

    /// A root's stored entity: its own attributes, then (for a hierarchy) `kind` and the slots, then
    /// the entity-number attributes of its to-ones; its fetch indexes (an `entity` element is `kind`)
    /// and `byKind`; the kept relationships of its whole subtree, re-pointed at the destinations' roots.
    private static func storedEntity(_ root: Int, _ model: Model, _ names: SlotNames) throws -> EntityDescription {
        let entity = model.entities[root]
        var attributes = entity.attributes
        var fetchIndexes = entity.fetchIndexes
        if let kind = names.kind[root] {
            attributes.append(Attribute(kind, .integer64))
            for (slot, slotNames) in zip(Slot.Kind.allCases, names.slots[root] ?? []) {
                attributes += slotNames.map { Attribute($0, slot.type, optional: true) }
            }
            fetchIndexes = fetchIndexes.map { index in
                FetchIndex(index.name, index.elements.map { FetchIndex.Element(property: $0.property ?? kind, ascending: $0.ascending) })
            }
            var indexNames = Set(fetchIndexes.map { $0.name.uppercased() })
            fetchIndexes.append(FetchIndex(SlotNames.allocate("byKind", &indexNames), [FetchIndex.Element(property: kind)]))
        }
        for relationship in entity.relationships {
            if let name = names.toOneKind[PropertyKey(relationship)] { attributes.append(Attribute(name, .integer64, optional: true)) }
        }
        let relationships = try entity.subtree.flatMap { index in
            try model.entities[index].ownRelationships.filter { names.kept[PropertyKey($0)] != nil }.map { try storedRelationship($0, model, names) }
        }
        let hierarchy = entity.hasSubentities
        return EntityDescription(entity.name, abstract: hierarchy ? false : entity.isAbstract,
                                 rows: hierarchy ? model.objectCount(root) : entity.rows, attributes: attributes,
                                 relationships: relationships, uniquenessConstraints: entity.uniquenessConstraints,
                                 fetchIndexes: fetchIndexes)
    }

    /// A kept relationship as the stored model declares it: its kept name, the destination's root,
    /// the inverse's kept name.
    private static func storedRelationship(_ relationship: Model.Relationship, _ model: Model, _ names: SlotNames) throws -> RelationshipDescription {
        RelationshipDescription(
            try EnumEntity.need(names.kept[PropertyKey(relationship)], "stored name of \(relationship.name)"),
            destination: model.entities[model.entities[relationship.destination].root].name,
            inverse: model.inverse(of: relationship).flatMap { names.kept[PropertyKey($0)] }, toMany: relationship.toMany,
            ordered: false, deleteRule: relationship.deleteRule, optional: relationship.nullShare > 0,
            nullShare: relationship.nullShare > 0 ? relationship.nullShare : nil, hidden: relationship.isHidden)
    }

    // MARK: Columns

    /// Per entity: the column of each attribute (a root's own column, else the slot of the
    /// declaring entity, with the kinds of the declaring subtree) and the columns of each to-one.
    private static func propertyColumns(_ model: Model, _ stored: StoredRootModel<SlotNames>, _ slots: SlotAssignment) throws
        -> (values: [[String]], kinds: [[ClosedRange<Int>?]], toOnes: [[String: RowToOne]]) {
        let (names, schema, roots) = (stored.names, stored.schema, stored.roots)
        var values: [[String]] = []
        var kinds: [[ClosedRange<Int>?]] = []
        var toOnes: [[String: RowToOne]] = []
        for entity in model.entities {
            func column(_ name: String) throws -> String { try roots[entity.index].column(name) }
            if entity.isRoot {
                let index = roots[entity.index].stored
                values.append(try entity.attributes.map { try column($0.name) })
                kinds.append(entity.attributes.map { _ in nil })
                var own: [String: RowToOne] = [:]
                for relationship in entity.relationships where !relationship.toMany {
                    own[relationship.name] = RowToOne(key: try schema.toOneColumns(index, relationship.name).key,
                                                   entity: try names.toOneKind[PropertyKey(relationship)].map(column), kinds: nil)
                }
                toOnes.append(own)
                continue
            }
            func slotColumn(_ slot: Slot) throws -> String {
                try column(try EnumEntity.need(names.name(of: slot, in: entity.root), "slot \(slot.kind.prefix)\(slot.number) of \(model.entities[entity.root].name)"))
            }
            let parent = try EnumEntity.need(entity.parent, "parent of \(entity.name)")
            let subtree = entity.number ... entity.subtreeEnd + 1
            values.append(values[parent] + (try slots.attributes[entity.index].map(slotColumn)))
            kinds.append(kinds[parent] + slots.attributes[entity.index].map { _ in subtree })
            var own = toOnes[parent]
            for (name, slot) in slots.toOnes[entity.index] {
                own[name] = RowToOne(key: try slotColumn(slot.key), entity: try slot.entity.map(slotColumn), kinds: subtree)
            }
            toOnes.append(own)
        }
        return (values, kinds, toOnes)
    }

    /// The stored model's relationship for each relationship kept as one.
    private func makeStoredRelationships() throws -> [PropertyKey: Model.Relationship] {
        var stored: [PropertyKey: Model.Relationship] = [:]
        for entity in model.entities {
            for relationship in entity.ownRelationships {
                guard let name = names.kept[PropertyKey(relationship)] else { continue }
                stored[PropertyKey(relationship)] = try EnumEntity.need(storedModel.entities[hierarchies[entity.index].stored].relationship(name), "stored relationship \(name)")
            }
        }
        return stored
    }

    // MARK: Statements

    /// Per concrete entity: its INSERT (`Z_PK, Z_ENT, Z_OPT`, the kind, its attributes, each to-one's
    /// key and entity columns) and the INSERT of each generating many-to-many relationship's links.
    private func makeInsertPlans() throws -> [Int: InsertPlan] {
        var plans: [Int: InsertPlan] = [:]
        for entity in model.entities where entity.isConcrete {
            let hierarchy = hierarchies[entity.index]
            let row = InsertStep.header(stored: hierarchy.stored) + (hierarchy.kind.map { [($0, .entityNumber)] } ?? []) + (try insertRow(entity).row)
            plans[entity.index] = InsertPlan(keyEntity: hierarchy.stored, steps: [InsertStep(into: hierarchy.table, row)], links: linkInserts(entity))
        }
        return plans
    }

    /// The index the stored model cannot say on a to-one key slot: `(slot, kind)`, once per slot.
    private func keySlotIndexSQL() throws -> [String] {
        var sql: [String] = []
        for root in model.roots where model.entities[root].hasSubentities {
            let hierarchy = hierarchies[root]
            var seen = Set<String>()
            for index in model.entities[root].subtree.dropFirst() {
                for relationship in model.entities[index].ownRelationships where !relationship.toMany {
                    let key = try toOne(index, relationship.name).key
                    if seen.insert(key).inserted, let kind = hierarchy.kind {
                        sql.append("CREATE INDEX \(hierarchy.table)_\(key)_INDEX ON \(hierarchy.table) (\(key), \(kind))")
                    }
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
            let hierarchy = hierarchies[entity.index]
            let kind = try EnumEntity.need(hierarchy.kind, "kind column of \(entity.name)'s table")
            func column(_ name: String) throws -> String {
                if let position = entity.attributeIndex(name) { return valueColumns[entity.index][position] }
                return try EnumEntity.need(toOneColumns[entity.index][name], "property '\(name)' of \(entity.name)").key
            }
            for constraint in entity.uniquenessConstraints {
                let columns = try constraint.map { try column($0) + " COLLATE BINARY ASC" }
                let name = CoreDataSchema.uniqueIndexName(entity.name, constraint)
                // Unique among the constrained entity's kinds only: other kinds store other
                // attributes in the same slots. The kind filter of a read of that entity is written
                // the same way, with the numbers in the SQL, so SQLite sees the partial index applies.
                sql.append("CREATE UNIQUE INDEX \(name) ON \(hierarchy.table) (\(columns.joined(separator: ", "))) WHERE \(Self.kindCondition(kind, entity, includesSubentities: true))")
            }
            for index in entity.fetchIndexes {
                let columns = try index.elements.map { (try $0.isPrimaryKey ? "Z_PK" : $0.property.map(column) ?? kind) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC") }
                sql.append("CREATE INDEX Z_\(entity.name)_\(index.name) ON \(hierarchy.table) (\(columns.joined(separator: ", ")))")
            }
        }
        return sql
    }
}

extension EnumEntity {
    /// Where an entity's rows live: its table, its stored entity, and the `kind` column (nil for a
    /// root without sub-entities, whose table holds only its own objects).
    struct Hierarchy: Sendable {
        let table: String
        let stored: Int
        let kind: String?
    }
}
