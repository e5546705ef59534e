import Generation
import Models
import SQLite

/// `enum-entity` (seed 001's `ItemData`): every hierarchy with sub-entities is ONE Core Data entity
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
public final class EnumEntity: StorageStrategy {
    public static let name = "enum-entity"
    public static let summary = "One entity per hierarchy with a kind attribute and generic typed slots shared by every sub-entity (seed 001's ItemData)"

    public let model: Model
    public let database: Database
    /// The model as stored: one enum entity per hierarchy, the other roots as they are.
    public let storedModel: Model
    /// Core Data's layout of `storedModel`.
    public let schema: CoreDataSchema
    public let schemaSQL: [String]
    private let store: CoreDataStore

    /// Where an entity's rows live: its table, its stored entity, and the `kind` column (nil for a
    /// root without sub-entities, whose table holds only its own objects).
    struct Place {
        let table: String
        let stored: Int
        let kind: String?
    }

    /// A to-one relationship's columns; `kinds` is the entity-number range of its declaring subtree
    /// when the key is a slot (other kinds use the slot for something else).
    struct ToOne {
        let key: String
        let entity: String?
        let kinds: ClosedRange<Int>?
    }

    private let places: [Place]
    /// Per entity: the column of each of its attributes, and the declaring subtree's kinds when it is a slot.
    private let valueColumns: [[String]]
    private let valueKinds: [[ClosedRange<Int>?]]
    private let toOneColumns: [[String: ToOne]]
    /// The stored model's relationship for each relationship kept as one ("owner.name").
    private let storedRelationships: [String: Model.Relationship]
    /// Per concrete entity: its INSERT, whether each to-one (in `toOneRelationships` order) also
    /// stores its destination's entity number, and the INSERT of each generating many-to-many
    /// relationship's links.
    private let inserts: [Int: String]
    private let insertsEntityNumber: [Int: [Bool]]
    private let linkInserts: [Int: [String]]

    enum Slot: Int, CaseIterable {
        case text, number, real, blob
        init(_ storage: AttributeType.Storage) {
            switch storage {
            case .text: self = .text
            case .integer: self = .number
            case .real: self = .real
            case .blob: self = .blob
            }
        }
        var prefix: String { ["text", "number", "real", "blob"][rawValue] }
        var type: AttributeType { [.string, .integer64, .double, .binary][rawValue] }
    }

    static func key(_ relationship: Model.Relationship) -> String { "\(relationship.owner).\(relationship.name)" }

    /// `base`, else `base_`, `base_2`, … : the first spelling no property of the entity takes (without case).
    static func allocate(_ base: String, _ used: inout Set<String>) -> String {
        var name = base
        var suffix = 1
        while used.contains(name.uppercased()) {
            name = String(base.prefix(55)) + (suffix == 1 ? "_" : "_\(suffix)")
            suffix += 1
        }
        used.insert(name.uppercased())
        return name
    }

    /// `value`, or a `LayoutError` saying that `what` is missing.
    private static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T { try LayoutError.required(value, name, what()) }

    public init(model: Model, database: Database) throws {
        self.model = model
        self.database = database
        let entities = model.entities

        // Slots: per entity, its own attributes' and to-ones' slots; per root, the slots of each kind.
        var after = Array(repeating: [0, 0, 0, 0], count: entities.count)
        var ownAttributeSlots = Array(repeating: [(Slot, Int)](), count: entities.count)
        var ownToOneSlots = Array(repeating: [String: (key: Int, entity: Int?)](), count: entities.count)
        var maxima = Array(repeating: [0, 0, 0, 0], count: entities.count)
        for entity in entities where !entity.isRoot {
            var counters = entity.parent.map { $0 == entity.root ? [0, 0, 0, 0] : after[$0] } ?? [0, 0, 0, 0]
            for attribute in entity.ownAttributes {
                let slot = Slot(attribute.type.storage)
                counters[slot.rawValue] += 1
                ownAttributeSlots[entity.index].append((slot, counters[slot.rawValue]))
            }
            for relationship in entity.ownRelationships where !relationship.toMany {
                counters[Slot.number.rawValue] += 1
                let key = counters[Slot.number.rawValue]
                var entitySlot: Int?
                if entities[relationship.destination].hasSubentities {
                    counters[Slot.number.rawValue] += 1
                    entitySlot = counters[Slot.number.rawValue]
                }
                ownToOneSlots[entity.index][relationship.name] = (key, entitySlot)
            }
            after[entity.index] = counters
            for kind in 0 ..< 4 { maxima[entity.root][kind] = max(maxima[entity.root][kind], counters[kind]) }
        }

        // Names of the stored model's properties.
        var used: [Int: Set<String>] = [:]
        for root in model.roots {
            let entity = entities[root]
            used[root] = Set(entity.attributes.map { $0.name.uppercased() } + entity.relationships.map { $0.name.uppercased() })
        }
        var kindNames: [Int: String] = [:]
        var slotNames: [Int: [[String]]] = [:]
        for root in model.roots where entities[root].hasSubentities {
            kindNames[root] = Self.allocate("kind", &used[root, default: []])
            slotNames[root] = Slot.allCases.map { slot in
                maxima[root][slot.rawValue] == 0 ? [] : (1 ... maxima[root][slot.rawValue]).map { Self.allocate("\(slot.prefix)\($0)", &used[root, default: []]) }
            }
        }
        var toOneKindNames: [String: String] = [:]
        for root in model.roots {
            for relationship in entities[root].relationships where !relationship.toMany && entities[relationship.destination].hasSubentities {
                // A hidden to-one's name starts with a digit: the kind goes first, so that the attribute's name is one.
                let base = relationship.name.count <= 55 && !relationship.isHidden ? relationship.name + "_kind" : "kind_" + relationship.name.prefix(50)
                toOneKindNames[Self.key(relationship)] = Self.allocate(base, &used[root, default: []])
            }
        }
        // Relationships kept as relationships: a root's to-ones, many-to-many ones, and one-to-many
        // ones whose to-one side is declared by a root (a sub-entity's to-one is a slot).
        var keptNames: [String: String] = [:]
        for entity in entities {
            for relationship in entity.ownRelationships {
                let kept: Bool
                if !relationship.toMany { kept = entity.isRoot }
                else if relationship.isManyToMany { kept = true }
                else { kept = model.inverse(of: relationship).map { entities[$0.owner].isRoot } ?? false }
                guard kept else { continue }
                keptNames[Self.key(relationship)] = entity.isRoot ? relationship.name : Self.allocate(relationship.name, &used[entity.root, default: []])
            }
        }

        // The stored model.
        func stored(_ relationship: Model.Relationship) throws -> RelationshipDescription {
            RelationshipDescription(
                try Self.need(keptNames[Self.key(relationship)], "stored name of \(relationship.name)"), destination: entities[entities[relationship.destination].root].name,
                inverse: model.inverse(of: relationship).flatMap { keptNames[Self.key($0)] }, toMany: relationship.toMany,
                ordered: false, deleteRule: relationship.deleteRule, optional: relationship.nullShare > 0,
                nullShare: relationship.nullShare > 0 ? relationship.nullShare : nil, hidden: relationship.isHidden)
        }
        let descriptions = try model.roots.map { root -> EntityDescription in
            let entity = entities[root]
            var attributes = entity.attributes
            var fetchIndexes = entity.fetchIndexes
            if let kind = kindNames[root] {
                attributes.append(Attribute(kind, .integer64))
                for slot in Slot.allCases {
                    attributes += (slotNames[root] ?? [])[slot.rawValue].map { Attribute($0, slot.type, optional: true) }
                }
                fetchIndexes = fetchIndexes.map { index in
                    FetchIndex(index.name, index.elements.map { FetchIndex.Element(property: $0.property ?? kind, ascending: $0.ascending) })
                }
                var indexNames = Set(fetchIndexes.map { $0.name.uppercased() })
                fetchIndexes.append(FetchIndex(Self.allocate("byKind", &indexNames), [FetchIndex.Element(property: kind)]))
            }
            for relationship in entity.relationships {
                if let name = toOneKindNames[Self.key(relationship)] { attributes.append(Attribute(name, .integer64, optional: true)) }
            }
            let relationships = try entity.subtree.flatMap { index in
                try entities[index].ownRelationships.filter { keptNames[Self.key($0)] != nil }.map(stored)
            }
            let hierarchy = entity.hasSubentities
            return EntityDescription(entity.name, abstract: hierarchy ? false : entity.isAbstract,
                                     rows: hierarchy ? model.objectCount(root) : entity.rows, attributes: attributes,
                                     relationships: relationships, uniquenessConstraints: entity.uniquenessConstraints,
                                     fetchIndexes: fetchIndexes)
        }
        do {
            storedModel = try Model(ModelDescription(name: model.name, entities: descriptions))
        } catch let error as ModelError {
            throw ModelError("enum-entity cannot store the model '\(model.name)': \(error.description)")
        }
        schema = CoreDataSchema(storedModel)
        store = CoreDataStore(database: database, model: storedModel)

        // Columns of every entity's properties.
        var places: [Place] = []
        var valueColumns: [[String]] = []
        var valueKinds: [[ClosedRange<Int>?]] = []
        var toOneColumns: [[String: ToOne]] = []
        var storedColumn: [Int: [String: String]] = [:]
        for root in model.roots {
            let index = try Self.need(storedModel.index(of: entities[root].name), "stored entity \(entities[root].name)")
            var columns: [String: String] = [:]
            for position in storedModel.entities[index].attributes.indices {
                columns[storedModel.entities[index].attributes[position].name] = schema.column(index, attributeAt: position)
            }
            storedColumn[root] = columns
        }
        for entity in entities {
            let root = entity.root
            let columns = try Self.need(storedColumn[root], "columns of \(entities[root].name)")
            func column(_ name: String) throws -> String { try Self.need(columns[name], "column of '\(name)' in \(entities[root].name)") }
            let index = try Self.need(storedModel.index(of: entities[root].name), "stored entity \(entities[root].name)")
            places.append(Place(table: schema.table(of: index).name, stored: index, kind: try kindNames[root].map(column)))
            if entity.isRoot {
                valueColumns.append(try entity.attributes.map { try column($0.name) })
                valueKinds.append(entity.attributes.map { _ in nil })
                var toOnes: [String: ToOne] = [:]
                for relationship in entity.relationships where !relationship.toMany {
                    toOnes[relationship.name] = ToOne(key: try schema.toOneColumns(index, relationship.name).key,
                                                      entity: try toOneKindNames[Self.key(relationship)].map(column), kinds: nil)
                }
                toOneColumns.append(toOnes)
                continue
            }
            let names = try Self.need(slotNames[root], "slots of \(entities[root].name)")
            let parent = try Self.need(entity.parent, "parent of \(entity.name)")
            let kinds = entity.number ... entity.subtreeEnd + 1
            valueColumns.append(valueColumns[parent] + (try ownAttributeSlots[entity.index].map { try column(names[$0.0.rawValue][$0.1 - 1]) }))
            valueKinds.append(valueKinds[parent] + ownAttributeSlots[entity.index].map { _ in kinds })
            var toOnes = toOneColumns[parent]
            for (name, slots) in ownToOneSlots[entity.index] {
                let number = names[Slot.number.rawValue]
                toOnes[name] = ToOne(key: try column(number[slots.key - 1]), entity: try slots.entity.map { try column(number[$0 - 1]) }, kinds: kinds)
            }
            toOneColumns.append(toOnes)
        }
        self.places = places
        self.valueColumns = valueColumns
        self.valueKinds = valueKinds
        self.toOneColumns = toOneColumns

        var storedRelationships: [String: Model.Relationship] = [:]
        for entity in entities {
            for relationship in entity.ownRelationships {
                guard let name = keptNames[Self.key(relationship)] else { continue }
                storedRelationships[Self.key(relationship)] = try Self.need(storedModel.entities[places[entity.index].stored].relationship(name), "stored relationship \(name)")
            }
        }
        self.storedRelationships = storedRelationships

        // Statements of the inserts.
        let schema = self.schema
        var inserts: [Int: String] = [:]
        var insertsEntityNumber: [Int: [Bool]] = [:]
        var linkInserts: [Int: [String]] = [:]
        for entity in entities where entity.isConcrete {
            let place = places[entity.index]
            let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + (place.kind.map { [$0] } ?? []) + valueColumns[entity.index]
                + (try entity.toOneRelationships.flatMap { relationship -> [String] in
                    let columns = try Self.need(toOneColumns[entity.index][relationship.name], "to-one '\(relationship.name)' of \(entity.name)")
                    return [columns.key] + (columns.entity.map { [$0] } ?? [])
                })
            insertsEntityNumber[entity.index] = entity.toOneRelationships.map { toOneColumns[entity.index][$0.name]?.entity != nil }
            inserts[entity.index] = "INSERT INTO \(place.table) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            linkInserts[entity.index] = try entity.relationships.filter { $0.isManyToMany && $0.generatesLinks }.map { relationship in
                let storedRelationship = try Self.need(storedRelationships[Self.key(relationship)], "stored relationship \(relationship.name)")
                let join = try schema.join(storedRelationship)
                let (this, other) = join.columns(from: storedRelationship.owner, storedRelationship.name)
                return "INSERT INTO \(join.name) (\(this), \(other)) VALUES (?, ?)"
            }
        }
        self.inserts = inserts
        self.insertsEntityNumber = insertsEntityNumber
        self.linkInserts = linkInserts

        // Indexes the stored model cannot say: a to-one key slot's, and a sub-entity's constraints and fetch indexes.
        var extra: [String] = []
        for root in model.roots where entities[root].hasSubentities {
            let place = places[root]
            var seen = Set<String>()
            for index in entities[root].subtree.dropFirst() {
                for relationship in entities[index].ownRelationships where !relationship.toMany {
                    let key = try Self.need(toOneColumns[index][relationship.name], "to-one '\(relationship.name)'").key
                    if seen.insert(key).inserted, let kind = place.kind {
                        extra.append("CREATE INDEX \(place.table)_\(key)_INDEX ON \(place.table) (\(key), \(kind))")
                    }
                }
            }
        }
        for entity in entities where !entity.isRoot {
            let place = places[entity.index]
            let kind = try Self.need(place.kind, "kind column of \(entity.name)'s table")
            func column(_ name: String) throws -> String {
                if let position = entity.attributeIndex(name) { return valueColumns[entity.index][position] }
                return try Self.need(toOneColumns[entity.index][name], "property '\(name)' of \(entity.name)").key
            }
            for constraint in entity.uniquenessConstraints {
                let columns = try constraint.map { try column($0) + " COLLATE BINARY ASC" }
                let name = "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))"
                // Unique among the constrained entity's kinds only: other kinds store other
                // attributes in the same slots. The kind filter of a read of that entity is written
                // the same way, with the numbers in the SQL, so SQLite sees the partial index applies.
                extra.append("CREATE UNIQUE INDEX \(name) ON \(place.table) (\(columns.joined(separator: ", "))) WHERE \(Self.kindCondition(kind, entity, includesSubentities: true))")
            }
            for index in entity.fetchIndexes {
                let columns = try index.elements.map { (try $0.property.map(column) ?? kind) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC") }
                extra.append("CREATE INDEX Z_\(entity.name)_\(index.name) ON \(place.table) (\(columns.joined(separator: ", ")))")
            }
        }
        schemaSQL = schema.tableSQL + schema.indexSQL + extra + CoreDataSchema.bookkeepingSQL
    }

    public func createSchema() throws { try store.createSchema(schemaSQL, strategyName: Self.name) }

    // MARK: Inserts

    public func insert(_ objects: [ModelObject]) throws {
        try database.transaction {
            var highest: [Int: Int64] = [:]
            for object in objects {
                let stored = places[object.id.entity].stored
                highest[stored] = max(highest[stored] ?? 0, object.id.key)
            }
            for (stored, key) in highest.sorted(by: { $0.key < $1.key }) {
                try store.reserveKeys(entityNumber: stored + 1, upTo: key)
            }
            for object in objects {
                let entity = model.entities[object.id.entity]
                let place = places[entity.index]
                guard let sql = inserts[entity.index] else {
                    throw CorruptRow("cannot insert an object of the abstract entity \(entity.name)")
                }
                let statement = try database.cachedStatement(sql)
                var values: [Value] = [.integer(object.id.key), .integer(Int64(place.stored + 1)), .integer(1)]
                if place.kind != nil { values.append(.integer(Int64(entity.number))) }
                values += object.values
                for (withEntity, destination) in zip(insertsEntityNumber[entity.index] ?? [], object.toOne) {
                    values.append(destination.map { .integer($0.key) } ?? .null)
                    if withEntity {
                        values.append(destination.map { .integer(Int64($0.entity + 1)) } ?? .null)
                    }
                }
                try statement.bind(values: values)
                try statement.run()
                for (sql, destinations) in zip(linkInserts[entity.index] ?? [], object.links) {
                    let link = try database.cachedStatement(sql)
                    for destination in destinations {
                        try link.bind(values: [.integer(object.id.key), .integer(destination.key)])
                        try link.run()
                    }
                }
            }
        }
    }

    // MARK: Reads

    private func column(_ entity: Int, _ attribute: String) throws -> String {
        valueColumns[entity][try Self.need(model.entities[entity].attributeIndex(attribute), "attribute '\(attribute)' of \(model.entities[entity].name)")]
    }

    private func sqlWhere(_ request: FetchRequest) throws -> SQLWhere {
        let entity = request.entity
        return SQLWhere(
            attribute: { "t0." + (try self.column(entity, $0)) },
            toOne: { "t0." + (try Self.need(self.toOneColumns[entity][$0], "to-one '\($0)'").key) },
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
        let table = places[destination].table
        let position = try Self.need(model.entities[destination].attributeIndex(attribute), "attribute '\(attribute)' of \(model.entities[destination].name)")
        let column = valueColumns[destination][position]
        if relationship.isManyToMany {
            let stored = try Self.need(storedRelationships[Self.key(relationship)], "stored relationship \(name)")
            let join = try schema.join(stored)
            let (this, other) = join.columns(from: stored.owner, stored.name)
            return ("JOIN \(join.name) t1 ON t0.Z_PK = t1.\(this) JOIN \(table) t2 ON t2.Z_PK = t1.\(other)", "t2.\(column)")
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let key = try Self.need(toOneColumns[destination][inverse.name], "to-one '\(inverse.name)'")
        let kinds = Self.narrower(key.kinds, valueKinds[destination][position])
        let kind = places[destination].kind.map { "t1." + $0 } ?? ""
        let filter = kinds.map { " AND \(kind) >= \($0.lowerBound) AND \(kind) <= \($0.upperBound)" } ?? ""
        return ("JOIN \(table) t1 ON t1.\(key.key) = t0.Z_PK\(filter)", "t1.\(column)")
    }

    /// The kind filter of a request: none for a whole hierarchy or a table of one entity,
    /// `ZKIND >= a AND ZKIND <= b` for a middle entity with its sub-entities, `ZKIND = n` for one entity.
    private func kindFilter(_ request: FetchRequest) -> (sql: String, values: [Value])? {
        let entity = model.entities[request.entity]
        guard let kind = places[entity.index].kind else { return nil }
        if request.includesSubentities, entity.hasSubentities, entity.isRoot { return nil }
        return (Self.kindCondition("t0.\(kind)", entity, includesSubentities: request.includesSubentities), [])
    }

    /// `kind = n` for one entity (or an entity without sub-entities), `kind >= a AND kind <= b` for a
    /// subtree. Entity numbers are the model's own constants, written into the SQL (never a user's
    /// value), because SQLite matches a partial index's WHERE only against the same literal terms.
    static func kindCondition(_ kind: String, _ entity: Model.Entity, includesSubentities: Bool) -> String {
        includesSubentities && entity.hasSubentities ? "\(kind) >= \(entity.number) AND \(kind) <= \(entity.subtreeEnd + 1)" : "\(kind) = \(entity.number)"
    }

    private func fromWhere(_ request: FetchRequest, _ builder: inout SQLWhere) throws -> String {
        let condition = try builder.condition(request.predicate)
        let filter = kindFilter(request)
        builder.appendValues(filter?.values ?? [])
        let parts = [condition, filter?.sql].compactMap { $0 }
        return "FROM \(places[request.entity].table) t0\(builder.joinClause)" + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "))
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var builder = try sqlWhere(request)
        let (list, decoder) = try selection(request)
        let from = try fromWhere(request, &builder)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let tail = builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(list) \(from)\(tail)", values: builder.values, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        if request.predicate == .all, kindFilter(request) == nil {
            return PreparedQuery(sql: "SELECT COUNT(*) FROM \(places[request.entity].table)", values: [], decoder: nil)
        }
        var builder = try sqlWhere(request)
        let from = try fromWhere(request, &builder)
        let count = request.predicate.reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)"
        return PreparedQuery(sql: "SELECT \(count) \(from)", values: builder.values, decoder: nil)
    }

    /// The select list of a request (`ZKIND, Z_PK, Z_OPT`, then the columns its kinds use, in the
    /// table's fetch order) and the decoder that switches on the kind.
    private func selection(_ request: FetchRequest) throws -> (String, RowDecoder) {
        let entity = model.entities[request.entity]
        let place = places[entity.index]
        let kinds = request.includesSubentities ? model.concreteEntities(in: entity.subtree) : (entity.isConcrete ? [entity.index] : [])
        var needed = Set<String>()
        for kind in kinds {
            needed.formUnion(valueColumns[kind])
            for toOne in toOneColumns[kind].values { needed.insert(toOne.key); if let column = toOne.entity { needed.insert(column) } }
        }
        var items = [place.kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK", "t0.Z_OPT"]
        var positions: [String: Int32] = [:]
        for column in schema.table(of: place.stored).fetchOrder where needed.contains(column.name) {
            positions[column.name] = Int32(items.count)
            items.append("t0.\(column.name)")
        }
        func at(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(place.table)") }
        struct Shape {
            let entity: Int
            let values: [(position: Int32, storage: AttributeType.Storage, required: Bool)]
            let toOne: [(key: Int32, entity: Int32?, destination: Int)]
        }
        var shapes: [Int64: Shape] = [:]
        for kind in kinds {
            let info = model.entities[kind]
            shapes[Int64(info.number)] = Shape(
                entity: kind,
                values: try info.attributes.enumerated().map { position, attribute in
                    (try at(valueColumns[kind][position]), attribute.type.storage,
                     valueKinds[kind][position] != nil && !attribute.optional)
                },
                toOne: try info.toOneRelationships.map { relationship in
                    let columns = try Self.need(toOneColumns[kind][relationship.name], "to-one '\(relationship.name)' of \(info.name)")
                    return (try at(columns.key), try columns.entity.map(at), relationship.destination)
                })
        }
        let table = place.table
        let kindColumn = place.kind
        let only = Int64(entity.number)
        let decoder = RowDecoder { row in
            let number = kindColumn == nil ? only : row.int64(at: 0)
            guard let shape = shapes[number] else {
                throw CorruptRow("a row of \(table) has \(kindColumn ?? "kind") \(row.isNull(at: 0) ? "NULL" : "\(number)"), which is no concrete entity of the fetched subtree")
            }
            var values: [Value] = []
            values.reserveCapacity(shape.values.count)
            for slot in shape.values {
                let value = row.value(at: slot.position, as: slot.storage)
                if slot.required, value.isNull {
                    throw CorruptRow("the \(self.model.entities[shape.entity].name) row Z_PK = \(row.int64(at: 1)) of \(table) has NULL in its required slot \(row.columnName(at: slot.position))")
                }
                values.append(value)
            }
            return ModelObject(
                id: ObjectID(entity: shape.entity, key: row.int64(at: 1)),
                values: values,
                toOne: shape.toOne.map { row.destination(key: $0.key, entity: $0.entity, otherwise: $0.destination) })
        }
        return (items.joined(separator: ", "), decoder)
    }

    // MARK: Writes

    public func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int {
        try database.transaction {
            var changed = 0
            for object in objects {
                let sql = "UPDATE \(places[object.id.entity].table) SET \(try column(object.id.entity, attribute)) = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
                changed += try database.write(sql, [value, .integer(object.version + 1), .integer(object.id.key), .integer(object.version)])
            }
            return changed
        }
    }

    public func versions(_ objects: [ObjectID]) throws -> [Int64?] {
        try objects.map { object in
            try database.rows("SELECT Z_OPT FROM \(places[object.entity].table) WHERE Z_PK = ?", [.integer(object.key)]) { $0.int64(at: 0) }.first
        }
    }

    /// The expression of a related row's entity number in the original model: its kind, or the
    /// number of the one entity its table holds.
    private func entityNumber(_ entity: Int, alias: String) -> String {
        places[entity].kind.map { "\(alias).\($0)" } ?? "\(model.entities[entity].root + 1)"
    }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        let table = places[entity].table
        var related: [String] = []
        var clear: [[String]] = []
        for relationship in model.entities[entity].relationships {
            let destination = relationship.destination
            let destinationTable = places[destination].table
            let number = entityNumber(destination, alias: "t1")
            if !relationship.toMany {
                let key = try Self.need(toOneColumns[entity][relationship.name], "to-one '\(relationship.name)'").key
                related.append("SELECT \(number), t1.Z_PK FROM \(table) t0 JOIN \(destinationTable) t1 ON t1.Z_PK = t0.\(key) WHERE t0.Z_PK = ?1")
                clear.append(relationship.isOneToOne ? try clearInverse(relationship).clear : [])
            } else if relationship.isManyToMany {
                let stored = try Self.need(storedRelationships[Self.key(relationship)], "stored relationship \(relationship.name)")
                let join = try schema.join(stored)
                let (this, other) = join.columns(from: stored.owner, stored.name)
                related.append("SELECT \(number), t1.Z_PK FROM \(join.name) j JOIN \(destinationTable) t1 ON t1.Z_PK = j.\(other) WHERE j.\(this) = ?1")
                clear.append(["DELETE FROM \(join.name) WHERE \(this) = ?1"])
            } else {
                let inverse = try clearInverse(relationship)
                related.append("SELECT \(number), t1.Z_PK FROM \(destinationTable) t1 WHERE \(inverse.condition("t1."))")
                clear.append(inverse.clear)
            }
        }
        return DeleteStatements(related: related, clear: clear, delete: ["DELETE FROM \(table) WHERE Z_PK = ?1"])
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
            if let range = columns.kinds, let kind = self.places[destination].kind.map({ alias + $0 }) {
                kinds = " AND \(kind) >= \(range.lowerBound) AND \(kind) <= \(range.upperBound)"
            } else {
                kinds = ""
            }
            return "\(alias)\(columns.key) = ?1\(kinds)"
        }
        let entityColumn = (columns.entity.map { ", \($0) = NULL" } ?? "")
            + (try model.orderKey(of: inverse).map { ", \(try column(destination, $0)) = NULL" } ?? "")
        return (condition, ["UPDATE \(places[destination].table) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(condition(""))"])
    }

    public func countLinks(_ relationship: Model.Relationship) throws -> Int {
        guard let stored = storedRelationships[Self.key(relationship)], let join = schema.joinTable(stored) else { return 0 }
        return try database.number(PreparedQuery(sql: "SELECT COUNT(*) FROM \(join.name)", values: [], decoder: nil))
    }
}
