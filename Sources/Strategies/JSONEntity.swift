import Generation
import Models
import SQLite

/// `json-entity`: every hierarchy with sub-entities is ONE Core Data entity, named after its root,
/// with no inheritance: the root's own attributes stay typed columns, `kind` (`ZKIND INTEGER`)
/// holds the object's entity number in the original model, and `details` (`ZDETAILS VARCHAR`)
/// holds every other attribute of the object as one flat JSON object keyed by attribute name.
///
/// **The stored model.** `init` derives a `ModelDescription` (`storedModel`) and takes Core Data's
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
public final class JSONEntity: StorageStrategy {
    public static let name = "json-entity"
    public static let summary = "One entity per hierarchy: the root's attributes as columns, a kind column, every other attribute in one JSON details column"

    public let model: Model
    public let database: Database
    /// The model the store holds (one entity per root of `model`).
    public let storedModel: Model
    /// Core Data's layout of `storedModel`.
    public let schema: CoreDataSchema
    public let schemaSQL: [String]
    private let store: CoreDataStore

    /// SQLite allows 127 arguments per function call: 63 key-value pairs per `json_object`.
    static let keysPerObject = 63

    /// A root's table.
    private struct Hierarchy {
        let root: Int
        /// The entity's index in `storedModel`.
        let stored: Int
        let table: String
        /// `ZKIND` and `ZDETAILS` (nil for a root without sub-entities).
        let kind: String?
        let details: String?
    }

    /// Where an attribute of an entity is kept.
    private enum Place: Equatable {
        case column(String)
        /// A key of `details`.
        case detail(String)
    }

    /// A partial index on a sub-entity's subtree.
    private struct PartialIndex {
        let root: Int
        let subtree: ClosedRange<Int>
        /// The properties it indexes.
        let properties: Set<String>
    }

    /// One concrete entity's INSERT and where its values come from.
    private struct Insert {
        let sql: String
        let storedNumber: Int64
        let hasKind: Bool
        /// Attribute positions bound to typed columns, then those written into `details`.
        let columnAttributes: [Int]
        let detailAttributes: [Int]
        /// Per to-one relationship: whether the destination's entity number is bound too.
        let toOneEntities: [Bool]
    }

    /// Per entity: its hierarchy's table and columns.
    private let hierarchyOf: [Hierarchy]

    private func hierarchy(_ entity: Int) -> Hierarchy { hierarchyOf[entity] }
    /// Per entity, per attribute (in `attributes` order).
    private let places: [[Place]]
    /// Per entity: the columns of each to-one relationship (its own and inherited).
    private let toOneColumns: [[String: (key: String, entity: String?)]]
    /// Per declaring entity: each relationship's name in the stored model.
    private let storedNames: [[String: String]]
    private let partialIndexes: [PartialIndex]
    private let inserts: [Int: Insert]
    /// Decoders and select lists, made once per fetched entity.
    private var readers: [Int: (list: String, decoder: RowDecoder)] = [:]

    /// `value`, or a `LayoutError` saying that `what` is missing.
    private static func need<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T { try LayoutError.required(value, name, what()) }

    public init(model: Model, database: Database) throws {
        self.model = model
        self.database = database
        let entities = model.entities

        // Pass 1: the stored names of relationships and of the added attributes.
        var storedNames = Array(repeating: [String: String](), count: entities.count)
        var entityAttributes = Array(repeating: [String: String](), count: entities.count)
        var kindNames: [Int: String] = [:]
        var detailsNames: [Int: String] = [:]
        for root in model.roots {
            let info = entities[root]
            var used = Set(info.ownAttributes.map { $0.name.uppercased() } + info.ownRelationships.map { $0.name.uppercased() })
            func unique(_ base: String) -> String {
                var candidate = String(base.prefix(60))
                var suffix = 1
                while used.contains(candidate.uppercased()) {
                    let digits = String(suffix)
                    candidate = String(base.prefix(60 - digits.count)) + digits
                    suffix += 1
                }
                used.insert(candidate.uppercased())
                return candidate
            }
            for relationship in info.ownRelationships { storedNames[root][relationship.name] = relationship.name }
            if info.hasSubentities {
                for entity in info.subtree.dropFirst() {
                    for relationship in entities[entity].ownRelationships { storedNames[entity][relationship.name] = unique(relationship.name) }
                }
                kindNames[root] = unique("kind")
                detailsNames[root] = unique("details")
            }
            for entity in info.hasSubentities ? info.subtree : root ... root {
                for relationship in entities[entity].relationships where relationship.owner == entity && !relationship.toMany
                    && entities[relationship.destination].hasSubentities {
                    let stored = try Self.need(storedNames[entity][relationship.name], "stored name of \(relationship.name)")
                    // A hidden to-one's name starts with a digit: the kind goes first, so that the attribute's name is one.
                    entityAttributes[entity][relationship.name] = unique(relationship.isHidden ? "kind" + stored : stored + "Kind")
                }
            }
        }

        // Pass 2: the stored model's entities.
        var descriptions: [EntityDescription] = []
        for root in model.roots {
            let info = entities[root]
            var attributes = Array(info.ownAttributes)
            if let kind = kindNames[root], let details = detailsNames[root] {
                attributes += [Attribute(kind, .integer64), Attribute(details, .string)]
            }
            var relationships: [RelationshipDescription] = []
            for entity in info.hasSubentities ? info.subtree : root ... root {
                for resolved in entities[entity].ownRelationships {
                    var copy = model.declaration(of: resolved)
                    copy.name = storedNames[entity][resolved.name] ?? resolved.name
                    copy.destination = entities[entities[resolved.destination].root].name
                    if let inverse = model.inverse(of: resolved) { copy.inverse = storedNames[inverse.owner][inverse.name] ?? inverse.name }
                    relationships.append(copy)
                    if let extra = entityAttributes[entity][resolved.name] { attributes.append(Attribute(extra, .integer64, optional: true)) }
                }
            }
            let fetchIndexes = info.fetchIndexes.map { index in
                guard let kind = kindNames[root] else { return index }
                return FetchIndex(index.name, index.elements.map { $0.property == nil ? FetchIndex.Element(property: kind, ascending: $0.ascending) : $0 })
            }
            descriptions.append(EntityDescription(info.name, rows: model.objectCount(root), attributes: attributes, relationships: relationships,
                                                  uniquenessConstraints: info.uniquenessConstraints, fetchIndexes: fetchIndexes))
        }
        let storedModel = try Model(ModelDescription(name: model.name, summary: model.description.summary, entities: descriptions))
        self.storedModel = storedModel
        let schema = CoreDataSchema(storedModel)
        self.schema = schema
        store = CoreDataStore(database: database, model: storedModel)
        self.storedNames = storedNames

        // Where every attribute and to-one of every entity is.
        var hierarchies: [Int: Hierarchy] = [:]
        var columnByAttribute: [Int: [String: String]] = [:]
        for root in model.roots {
            let stored = try Self.need(storedModel.index(of: entities[root].name), "stored entity \(entities[root].name)")
            let storedEntity = storedModel.entities[stored]
            let columns = Dictionary(storedEntity.attributes.indices.map { (storedEntity.attributes[$0].name, schema.column(stored, attributeAt: $0)) },
                                     uniquingKeysWith: { first, _ in first })
            columnByAttribute[root] = columns
            hierarchies[root] = Hierarchy(root: root, stored: stored, table: schema.table(of: stored).name,
                                          kind: try kindNames[root].map { try Self.need(columns[$0], "kind column") },
                                          details: try detailsNames[root].map { try Self.need(columns[$0], "details column") })
        }
        hierarchyOf = try entities.map { try Self.need(hierarchies[$0.root], "hierarchy of \($0.name)") }
        let places: [[Place]] = try entities.map { entity in
            let hierarchy = try Self.need(hierarchies[entity.root], "hierarchy of entity \(entity.root)")
            return try entity.attributes.indices.map { position in
                let name = entity.attributes[position].name
                if hierarchy.details != nil && entity.attributeOwners[position] != entity.root { return .detail(name) }
                return .column(try Self.need(columnByAttribute[entity.root]?[name], "column of '\(name)' in \(entity.name)"))
            }
        }
        self.places = places
        let toOneColumns: [[String: (key: String, entity: String?)]] = try entities.map { entity in
            let hierarchy = try Self.need(hierarchies[entity.root], "hierarchy of entity \(entity.root)")
            var columns: [String: (key: String, entity: String?)] = [:]
            for relationship in entity.relationships where !relationship.toMany {
                let storedName = try Self.need(storedNames[relationship.owner][relationship.name], "stored name of \(relationship.name)")
                let key = try schema.toOneColumns(hierarchy.stored, storedName).key
                columns[relationship.name] = (key, try entityAttributes[relationship.owner][relationship.name].map {
                    try Self.need(columnByAttribute[entity.root]?[$0], "column of '\($0)'")
                })
            }
            return columns
        }
        self.toOneColumns = toOneColumns

        // The INSERT of each concrete entity.
        var inserts: [Int: Insert] = [:]
        for entity in entities where entity.isConcrete {
            let hierarchy = try Self.need(hierarchies[entity.root], "hierarchy of entity \(entity.root)")
            let entityPlaces = places[entity.index]
            let columnAttributes = entity.attributes.indices.filter { if case .column = entityPlaces[$0] { true } else { false } }
            let detailAttributes = entity.attributes.indices.filter { if case .detail = entityPlaces[$0] { true } else { false } }
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"] + (hierarchy.kind.map { [$0] } ?? [])
            columns += columnAttributes.map { position -> String in
                if case let .column(name) = entityPlaces[position] { return name }
                return ""
            }
            var toOneEntities: [Bool] = []
            for relationship in entity.toOneRelationships {
                let pair = try Self.need(toOneColumns[entity.index][relationship.name], "to-one '\(relationship.name)' of \(entity.name)")
                columns.append(pair.key)
                if let other = pair.entity { columns.append(other) }
                toOneEntities.append(pair.entity != nil)
            }
            var marks = Array(repeating: "?", count: columns.count)
            if let details = hierarchy.details {
                columns.append(details)
                let keys = detailAttributes.map { entity.attributes[$0].name }
                let anyOptional = detailAttributes.contains { entity.attributes[$0].optional }
                marks.append(Self.detailsExpression(keys, dropsNulls: anyOptional))
            }
            inserts[entity.index] = Insert(
                sql: "INSERT INTO \(hierarchy.table) (\(columns.joined(separator: ", "))) VALUES (\(marks.joined(separator: ", ")))",
                storedNumber: Int64(hierarchy.stored + 1), hasKind: hierarchy.kind != nil, columnAttributes: columnAttributes,
                detailAttributes: detailAttributes, toOneEntities: toOneEntities)
        }
        self.inserts = inserts

        // Indexes: the kind column's, then each sub-entity's constraints and fetch indexes, partial on its subtree.
        var extra: [String] = []
        var partial: [PartialIndex] = []
        var indexNames = Set<String>()
        for entity in storedModel.entities {
            for constraint in entity.uniquenessConstraints { indexNames.insert("Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))".uppercased()) }
            for index in entity.fetchIndexes { indexNames.insert("Z_\(entity.name)_\(index.name)".uppercased()) }
        }
        for root in model.roots {
            let hierarchy = try Self.need(hierarchies[root], "hierarchy of entity \(root)")
            guard let kind = hierarchy.kind else { continue }
            extra.append("CREATE INDEX \(hierarchy.table)_\(kind)_INDEX ON \(hierarchy.table) (\(kind))")
            let rootName = entities[root].name
            for index in entities[root].subtree.dropFirst() {
                let entity = entities[index]
                func element(_ property: String?) throws -> String {
                    guard let property else { return kind }
                    if let position = entity.attributeIndex(property) {
                        switch places[index][position] {
                        case let .column(name): return name
                        case let .detail(key): return "(\(try Self.need(hierarchy.details, "details column")) ->> '$.\(key)')"
                        }
                    }
                    return try Self.need(toOneColumns[index][property], "property '\(property)' of \(entity.name)").key
                }
                func name(_ local: String) -> String {
                    var candidate = "Z_\(rootName)_\(local)"
                    if indexNames.contains(candidate.uppercased()) { candidate = "Z_\(rootName)_\(entity.name)_\(local)" }
                    var suffix = 1
                    let base = candidate
                    while indexNames.contains(candidate.uppercased()) { candidate = base + "_\(suffix)"; suffix += 1 }
                    indexNames.insert(candidate.uppercased())
                    return candidate
                }
                let term = Self.kindTerm(entity.subtree, column: kind)
                for constraint in entity.uniquenessConstraints {
                    let columns = try constraint.map { try element($0) + " COLLATE BINARY ASC" }
                    extra.append("CREATE UNIQUE INDEX \(name("UNIQUE_" + constraint.joined(separator: "_"))) ON \(hierarchy.table) (\(columns.joined(separator: ", "))) WHERE \(term)")
                    partial.append(PartialIndex(root: root, subtree: entity.subtree, properties: Set(constraint)))
                }
                for fetchIndex in entity.fetchIndexes {
                    let columns = try fetchIndex.elements.map { try element($0.property) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC") }
                    extra.append("CREATE INDEX \(name(fetchIndex.name)) ON \(hierarchy.table) (\(columns.joined(separator: ", "))) WHERE \(term)")
                    partial.append(PartialIndex(root: root, subtree: entity.subtree, properties: Set(fetchIndex.elements.compactMap(\.property))))
                }
            }
        }
        partialIndexes = partial
        schemaSQL = schema.tableSQL + schema.indexSQL + extra + CoreDataSchema.bookkeepingSQL
    }

    /// `ZKIND = 4` for a one-entity subtree, else `ZKIND BETWEEN 2 AND 4` (entity numbers).
    private static func kindTerm(_ subtree: ClosedRange<Int>, column: String) -> String {
        subtree.count == 1 ? "\(column) = \(subtree.lowerBound + 1)" : "\(column) BETWEEN \(subtree.lowerBound + 1) AND \(subtree.upperBound + 1)"
    }

    /// The SQL that builds `details` from one bound value per key (see the type's documentation).
    static func detailsExpression(_ keys: [String], dropsNulls: Bool) -> String {
        guard !keys.isEmpty else { return "'{}'" }
        let pieces = stride(from: 0, to: keys.count, by: keysPerObject).map { start in
            "json_object(" + keys[start ..< min(start + keysPerObject, keys.count)].map { "'\($0)', ?" }.joined(separator: ", ") + ")"
        }
        var expression = dropsNulls ? "json_patch('{}', \(pieces[0]))" : pieces[0]
        for piece in pieces.dropFirst() { expression = "json_patch(\(expression), \(piece))" }
        return expression
    }

    public func createSchema() throws { try store.createSchema(schemaSQL, strategyName: Self.name) }

    // MARK: Insert

    public func insert(_ objects: [ModelObject]) throws {
        try database.transaction {
            var highest: [Int: Int64] = [:]
            for object in objects {
                let root = model.entities[object.id.entity].root
                highest[root] = max(highest[root] ?? 0, object.id.key)
            }
            for (root, key) in highest.sorted(by: { $0.key < $1.key }) {
                try store.reserveKeys(entityNumber: hierarchy(root).stored + 1, upTo: key)
            }
            var values: [Value] = []
            for object in objects {
                guard let plan = inserts[object.id.entity] else {
                    throw ModelError("cannot insert an object of '\(model.entities[object.id.entity].name)', which is abstract")
                }
                values.removeAll(keepingCapacity: true)
                values += [.integer(object.id.key), .integer(plan.storedNumber), .integer(1)]
                if plan.hasKind { values.append(.integer(Int64(object.id.entity + 1))) }
                for position in plan.columnAttributes { values.append(object.values[position]) }
                for (destination, hasEntity) in zip(object.toOne, plan.toOneEntities) {
                    values.append(destination.map { .integer($0.key) } ?? .null)
                    if hasEntity { values.append(destination.map { .integer(Int64($0.entity + 1)) } ?? .null) }
                }
                for position in plan.detailAttributes { values.append(Self.jsonBindable(object.values[position])) }
                let statement = try database.cachedStatement(plan.sql)
                try statement.bind(values: values)
                try statement.run()
                try insertLinks(object)
            }
        }
    }

    /// The join-table rows of the many-to-many relationships whose links this object's side generates.
    private func insertLinks(_ object: ModelObject) throws {
        guard !object.links.isEmpty else { return }
        let generating = model.entities[object.id.entity].relationships.filter { $0.isManyToMany && $0.generatesLinks }
        for (relationship, destinations) in zip(generating, object.links) where !destinations.isEmpty {
            let (join, this, other) = try joinTable(relationship)
            let statement = try database.cachedStatement("INSERT INTO \(join) (\(this), \(other)) VALUES (?, ?)")
            for destination in destinations {
                try statement.bind(values: [.integer(object.id.key), .integer(destination.key)])
                try statement.run()
            }
        }
    }

    /// A value as `json_object` and `json_set` take it: a blob as its lowercase hex text.
    static func jsonBindable(_ value: Value) -> Value {
        guard case let .blob(bytes) = value else { return value }
        return .text(hex(bytes))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    // MARK: Names

    /// The stored relationship of an original one.
    private func storedRelationship(_ relationship: Model.Relationship) throws -> Model.Relationship {
        let hierarchy = hierarchy(relationship.owner)
        let name = try Self.need(storedNames[relationship.owner][relationship.name], "stored name of \(relationship.name)")
        return try Self.need(storedModel.entities[hierarchy.stored].relationship(name), "stored relationship \(name)")
    }

    /// The join table of a many-to-many relationship: its name, this side's column and the other's.
    private func joinTable(_ relationship: Model.Relationship) throws -> (name: String, this: String, other: String) {
        let stored = try storedRelationship(relationship)
        let join = try schema.join(stored)
        let (this, other) = join.columns(from: stored.owner, stored.name)
        return (join.name, this, other)
    }

    /// The SQL expression of an attribute of `entity` on the row aliased `alias`, and whether its
    /// bound values must be hex text (a UUID or binary attribute held in `details`).
    private func expression(_ entity: Int, _ attribute: String, alias: String) throws -> (sql: String, hex: Bool) {
        let info = model.entities[entity]
        let position = try Self.need(info.attributeIndex(attribute), "attribute '\(attribute)' of \(info.name)")
        switch places[entity][position] {
        case let .column(name): return ("\(alias).\(name)", false)
        case let .detail(key):
            let details = try Self.need(hierarchy(info.index).details, "details column of \(info.name)'s table")
            return ("\(alias).\(details) ->> '$.\(key)'", info.attributes[position].type.storage == .blob)
        }
    }

    /// The row's original entity number: `ZKIND`, or the root's number for a table without sub-entities.
    private func kindExpression(_ root: Int, alias: String) -> String {
        hierarchy(root).kind.map { "\(alias).\($0)" } ?? "\(root + 1)"
    }

    // MARK: Reads

    /// The predicate with every value compared with a hex-text expression given as hex text.
    private func convert(_ predicate: FetchPredicate, _ request: FetchRequest) throws -> FetchPredicate {
        let entity = request.entity
        func converted(_ value: Value, _ hex: Bool) -> Value { hex ? Self.jsonBindable(value) : value }
        switch predicate {
        case let .equals(name, value):
            return .equals(name, converted(value, try expression(entity, name, alias: "t0").hex))
        case let .range(name, lower, upper):
            let hex = try expression(entity, name, alias: "t0").hex
            return .range(name, converted(lower, hex), converted(upper, hex))
        case let .after(values):
            return .after(try values.enumerated().map { index, value in
                index < request.sort.count ? converted(value, try expression(entity, request.sort[index].attribute, alias: "t0").hex) : value
            })
        case let .anyRelated(relationshipName, name, value):
            let relationship = try Self.need(model.entities[entity].relationship(relationshipName), "relationship '\(relationshipName)'")
            return .anyRelated(relationshipName, name, converted(value, try expression(relationship.destination, name, alias: "t1").hex))
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
            attribute: { try self.expression(entity, $0, alias: "t0").sql },
            toOne: { "t0." + (try Self.need(self.toOneColumns[entity][$0], "to-one '\($0)'").key) },
            key: "t0.Z_PK",
            related: { relationshipName, attribute in try self.relatedJoin(entity, relationshipName, attribute) },
            sort: try request.sort.map { (try self.expression(entity, $0.attribute, alias: "t0").sql, $0.ascending) })
    }

    /// The joins for `ANY relationship.attribute == ?`: through the join table (many-to-many) or the
    /// destination's foreign key (one-to-many).
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String) throws -> (joins: String, expression: String) {
        let relationship = try Self.need(model.entities[entity].relationship(name), "relationship '\(name)' of \(model.entities[entity].name)")
        let destination = hierarchy(relationship.destination).table
        if relationship.isManyToMany {
            let (join, this, other) = try joinTable(relationship)
            return ("JOIN \(join) t1 ON t0.Z_PK = t1.\(this) JOIN \(destination) t2 ON t2.Z_PK = t1.\(other)",
                    try expression(relationship.destination, attribute, alias: "t2").sql)
        }
        let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(name)")
        let key = try Self.need(toOneColumns[inverse.owner][inverse.name], "to-one '\(inverse.name)'").key
        return ("JOIN \(destination) t1 ON t1.\(key) = t0.Z_PK", try expression(relationship.destination, attribute, alias: "t1").sql)
    }

    /// The entity filter: none for a whole table, `t0.ZKIND BETWEEN a AND b` for a subtree, `t0.ZKIND = n`
    /// for one entity (literal numbers, so that SQLite can match partial indexes); then the `WHERE` of
    /// every partial index on a wider subtree that covers a property the request compares or sorts by.
    private func entityTerms(_ request: FetchRequest) -> [String] {
        let info = model.entities[request.entity]
        let hierarchy = hierarchy(info.index)
        guard let kind = hierarchy.kind else { return [] }
        let range = request.includesSubentities ? info.subtree : info.index ... info.index
        guard range != model.entities[info.root].subtree else { return [] }
        var terms = [Self.kindTerm(range, column: "t0.\(kind)")]
        let used = Self.properties(request.predicate, sort: request.sort).union(request.sort.map(\.attribute))
        guard !used.isEmpty else { return terms }
        for index in partialIndexes where index.root == info.root && index.subtree != range
            && index.subtree.contains(range.lowerBound) && index.subtree.contains(range.upperBound) && !index.properties.isDisjoint(with: used) {
            let term = Self.kindTerm(index.subtree, column: "t0.\(kind)")
            if !terms.contains(term) { terms.append(term) }
        }
        return terms
    }

    /// `FROM … WHERE predicate AND entity filter`, the values bound so far in `builder`.
    private func fromWhere(_ request: FetchRequest, _ builder: inout SQLWhere) throws -> String {
        let condition = try builder.condition(try convert(request.predicate, request))
        let parts = [condition].compactMap { $0 } + entityTerms(request)
        let table = hierarchy(request.entity).table
        return "FROM \(table) t0\(builder.joinClause)" + (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "))
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var builder = try sqlWhere(request)
        let (list, decoder) = try reader(request.entity)
        let from = try fromWhere(request, &builder)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        let tail = builder.orderBy + builder.page(request)
        return PreparedQuery(sql: "SELECT \(distinct)\(list) \(from)\(tail)", values: builder.values, decoder: decoder)
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var builder = try sqlWhere(request)
        let from = try fromWhere(request, &builder)
        if request.predicate == .all, entityTerms(request).isEmpty {
            return PreparedQuery(sql: "SELECT COUNT(*) FROM \(hierarchy(request.entity).table)", values: [], decoder: nil)
        }
        let count = request.predicate.reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)"
        return PreparedQuery(sql: "SELECT \(count) \(from)", values: builder.values, decoder: nil)
    }

    /// How one concrete entity's row becomes an object.
    private struct Shape {
        let entity: Int
        let valueCount: Int
        /// (value slot, result column, storage) of each attribute in a typed column.
        let columns: [(slot: Int, column: Int32, storage: AttributeType.Storage)]
        let details: Details?
        let toOne: [(key: Int32, entity: Int32?, destination: Int)]
    }

    /// The keys of an entity's `details` and the value slot, storage and optionality of each.
    struct Details {
        let column: Int32
        let keys: [[UInt8]]
        let slots: [Int]
        let storages: [AttributeType.Storage]
        let optional: [Bool]
        let lookup: [[UInt8]: Int]
    }

    /// The select list and decoder of a fetch of `entity` (made once per entity).
    private func reader(_ entity: Int) throws -> (list: String, decoder: RowDecoder) {
        if let known = readers[entity] { return known }
        let info = model.entities[entity]
        let hierarchy = hierarchy(info.index)
        let concrete = model.concreteEntities(in: info.subtree)
        // The columns any concrete entity of the subtree reads, in the table's fetch order.
        var needed = Set<String>()
        for index in concrete {
            for place in places[index] { if case let .column(name) = place { needed.insert(name) } }
            for (_, columns) in toOneColumns[index] { needed.insert(columns.key); if let other = columns.entity { needed.insert(other) } }
            if let details = hierarchy.details, places[index].contains(where: { if case .detail = $0 { true } else { false } }) {
                needed.insert(details)
            }
        }
        var items = [hierarchy.kind.map { "t0.\($0)" } ?? "0", "t0.Z_PK", "t0.Z_OPT"]
        var positions: [String: Int32] = [:]
        for column in schema.table(of: hierarchy.stored).fetchOrder where needed.contains(column.name) {
            positions[column.name] = Int32(items.count)
            items.append("t0.\(column.name)")
        }
        func at(_ column: String) throws -> Int32 { try Self.need(positions[column], "column \(column) in the select list of \(hierarchy.table)") }
        var shapes = [Shape?](repeating: nil, count: info.subtree.count)
        for index in concrete {
            let entityInfo = model.entities[index]
            var columns: [(slot: Int, column: Int32, storage: AttributeType.Storage)] = []
            var keys: [[UInt8]] = [], slots: [Int] = [], storages: [AttributeType.Storage] = [], optional: [Bool] = []
            for (position, attribute) in entityInfo.attributes.enumerated() {
                switch places[index][position] {
                case let .column(name): columns.append((position, try at(name), attribute.type.storage))
                case let .detail(key):
                    keys.append(Array(key.utf8)); slots.append(position); storages.append(attribute.type.storage); optional.append(attribute.optional)
                }
            }
            let details = keys.isEmpty ? nil : Details(
                column: try at(try Self.need(hierarchy.details, "details column of \(hierarchy.table)")), keys: keys, slots: slots, storages: storages, optional: optional,
                lookup: Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }))
            shapes[index - info.index] = Shape(
                entity: index, valueCount: entityInfo.attributes.count, columns: columns, details: details,
                toOne: try entityInfo.toOneRelationships.map { relationship in
                    let pair = try Self.need(toOneColumns[index][relationship.name], "to-one '\(relationship.name)' of \(entityInfo.name)")
                    return (try at(pair.key), try pair.entity.map(at), relationship.destination)
                })
        }
        let first = info.index
        let hasKind = hierarchy.kind != nil
        let table = hierarchy.table
        let decoder = RowDecoder { row in
            let kind = hasKind ? row.int64(at: 0) : Int64(first + 1)
            let offset = Int(truncatingIfNeeded: kind) - 1 - first
            guard kind == Int64(offset + 1 + first), offset >= 0, offset < shapes.count, let shape = shapes[offset] else {
                throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1))) has kind \(row.isNull(at: 0) ? "NULL" : String(kind)), which is no concrete entity of the fetched subtree")
            }
            var values = [Value](repeating: .null, count: shape.valueCount)
            for column in shape.columns { values[column.slot] = row.value(at: column.column, as: column.storage) }
            if let details = shape.details {
                guard !row.isNull(at: details.column) else {
                    throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1)), kind \(kind)) has NULL details")
                }
                var text = row.string(at: details.column)
                do {
                    try text.withUTF8 { try FlatJSON.read($0, details, into: &values) }
                } catch let error as FlatJSON.SyntaxError {
                    throw CorruptRow("a row of \(table) (Z_PK \(row.int64(at: 1)), kind \(kind)) has details that do not decode: \(error)")
                }
            }
            return ModelObject(
                id: ObjectID(entity: shape.entity, key: row.int64(at: 1)),
                values: values,
                toOne: shape.toOne.map { row.destination(key: $0.key, entity: $0.entity, otherwise: $0.destination) })
        }
        let made = (items.joined(separator: ", "), decoder)
        readers[entity] = made
        return made
    }

    // MARK: Writes

    public func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int {
        try database.transaction {
            var changed = 0
            for object in objects {
                let info = model.entities[object.id.entity]
                let hierarchy = hierarchy(info.index)
                guard let position = info.attributeIndex(attribute) else {
                    throw ModelError("'\(attribute)' is not an attribute of '\(info.name)'")
                }
                let assignment: String
                var values: [Value]
                switch places[object.id.entity][position] {
                case let .column(name):
                    assignment = "\(name) = ?"
                    values = [value]
                case let .detail(key):
                    let details = try Self.need(hierarchy.details, "details column of \(hierarchy.table)")
                    if value.isNull, info.attributes[position].optional {
                        assignment = "\(details) = json_remove(\(details), '$.\(key)')"
                        values = []
                    } else {
                        assignment = "\(details) = json_set(\(details), '$.\(key)', ?)"
                        values = [Self.jsonBindable(value)]
                    }
                }
                values += [.integer(object.version + 1), .integer(object.id.key), .integer(object.version)]
                changed += try database.write("UPDATE \(hierarchy.table) SET \(assignment), Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", values)
            }
            return changed
        }
    }

    public func versions(_ objects: [ObjectID]) throws -> [Int64?] {
        try objects.map { object in
            let table = hierarchy(object.entity).table
            return try database.rows("SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", [.integer(object.key)]) { $0.int64(at: 0) }.first
        }
    }

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        let table = hierarchy(entity).table
        var related: [String] = []
        var clear: [[String]] = []
        for relationship in model.entities[entity].relationships {
            let destinationRoot = model.entities[relationship.destination].root
            let destination = hierarchy(destinationRoot).table
            let kind = kindExpression(destinationRoot, alias: "t1")
            if !relationship.toMany {
                let key = try Self.need(toOneColumns[entity][relationship.name], "to-one '\(relationship.name)'").key
                related.append("SELECT \(kind), t1.Z_PK FROM \(table) t0 JOIN \(destination) t1 ON t1.Z_PK = t0.\(key) WHERE t0.Z_PK = ?1")
                clear.append(relationship.isOneToOne ? clearInverse(relationship, in: destination) : [])
            } else if relationship.isManyToMany {
                let (join, this, other) = try joinTable(relationship)
                related.append("SELECT \(kind), t1.Z_PK FROM \(join) j JOIN \(destination) t1 ON t1.Z_PK = j.\(other) WHERE j.\(this) = ?1")
                clear.append(["DELETE FROM \(join) WHERE \(this) = ?1"])
            } else {
                let inverse = try Self.need(model.inverse(of: relationship), "inverse of \(relationship.name)")
                let columns = try Self.need(toOneColumns[inverse.owner][inverse.name], "to-one '\(inverse.name)'")
                related.append("SELECT \(kind), t1.Z_PK FROM \(destination) t1 WHERE t1.\(columns.key) = ?1")
                clear.append(clearInverse(relationship, in: destination))
            }
        }
        return DeleteStatements(related: related, clear: clear, delete: ["DELETE FROM \(table) WHERE Z_PK = ?1"])
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// (in `table`) hold through the inverse to-one (the many side of a one-to-many, the other side of a one-to-one).
    private func clearInverse(_ relationship: Model.Relationship, in table: String) -> [String] {
        guard let inverse = model.inverse(of: relationship), let columns = toOneColumns[inverse.owner][inverse.name] else { return [] }
        var entityColumn = columns.entity.map { ", \($0) = NULL" } ?? ""
        // The order key, declared with the to-one: a typed column, or a key of the details.
        if let key = model.orderKey(of: inverse), let position = model.entities[inverse.owner].attributeIndex(key) {
            switch places[inverse.owner][position] {
            case let .column(name): entityColumn += ", \(name) = NULL"
            case let .detail(name):
                if let details = hierarchy(inverse.owner).details { entityColumn += ", \(details) = json_remove(\(details), '$.\(name)')" }
            }
        }
        return ["UPDATE \(table) SET \(columns.key) = NULL\(entityColumn), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"]
    }

    public func countLinks(_ relationship: Model.Relationship) throws -> Int {
        guard relationship.isManyToMany else { return 0 }
        let (join, _, _) = try joinTable(relationship)
        return try database.number(PreparedQuery(sql: "SELECT COUNT(*) FROM \(join)", values: [], decoder: nil))
    }
}

extension JSONEntity {
    /// A strict reader of the flat JSON objects in `details` (RFC 8259): one object whose values are
    /// strings, numbers or `null`, such as `{"isbn":"978…","pageCount":321}`. It accepts every
    /// spelling of such an object (whitespace, key order, `\/`, `\u` escapes, surrogate pairs) and
    /// rejects anything else: a value of the wrong type for its attribute (a fraction for an
    /// integer, an odd or upper-case hex string for a UUID), arrays, nested objects, `true`, a key
    /// given twice or not of the entity, raw control characters in a string, a lone surrogate, an
    /// integer outside 64 bits, text after the object. Keys are expected in the order SQLite wrote
    /// them (attribute order); any other order costs a dictionary lookup per key.
    enum FlatJSON {
        struct SyntaxError: Error, CustomStringConvertible {
            var offset: Int
            var expected: String
            var description: String { "expected \(expected) at byte \(offset)" }
        }

        /// Reads `bytes` into `values` at the slots `details` gives; an absent optional key stays NULL.
        static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ details: Details, into values: inout [Value]) throws {
            var reader = Reader(bytes: bytes)
            var seen = [Bool](repeating: false, count: details.keys.count)
            var next = 0
            reader.skipWhitespace()
            try reader.expect(UInt8(ascii: "{"))
            reader.skipWhitespace()
            if !reader.consume(UInt8(ascii: "}")) {
                repeat {
                    reader.skipWhitespace()
                    let start = reader.index
                    let key = try reader.stringContent()
                    let slot: Int? = key.withBytes { name in
                        if next < details.keys.count, details.keys[next].elementsEqual(name) { return next }
                        return details.lookup[Array(name)]
                    }
                    guard let slot else { throw SyntaxError(offset: start, expected: "a key of the entity's attributes") }
                    guard !seen[slot] else { throw SyntaxError(offset: start, expected: "a key not given before") }
                    seen[slot] = true
                    next = slot + 1
                    reader.skipWhitespace()
                    try reader.expect(UInt8(ascii: ":"))
                    reader.skipWhitespace()
                    values[details.slots[slot]] = try reader.value(details.storages[slot])
                    reader.skipWhitespace()
                } while reader.consume(UInt8(ascii: ","))
                try reader.expect(UInt8(ascii: "}"))
            }
            reader.skipWhitespace()
            guard reader.index == bytes.count else { throw SyntaxError(offset: reader.index, expected: "the end of the text") }
            for slot in seen.indices where !seen[slot] && !details.optional[slot] {
                throw SyntaxError(offset: reader.index, expected: "the required key \"\(String(decoding: details.keys[slot], as: UTF8.self))\" before the end")
            }
        }

        /// A string literal's content: the bytes between the quotes when it has no escape, else the decoded bytes.
        enum StringContent {
            case raw(UnsafeBufferPointer<UInt8>)
            case decoded([UInt8])

            func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
                switch self {
                case let .raw(bytes): try body(bytes)
                case let .decoded(bytes): try bytes.withUnsafeBufferPointer(body)
                }
            }
        }

        struct Reader {
            let bytes: UnsafeBufferPointer<UInt8>
            var index = 0

            init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

            var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

            /// JSON's whitespace: space, LF, CR, TAB.
            mutating func skipWhitespace() {
                while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
            }

            mutating func consume(_ byte: UInt8) -> Bool {
                guard peek == byte else { return false }
                index += 1
                return true
            }

            mutating func expect(_ byte: UInt8) throws {
                guard consume(byte) else { throw SyntaxError(offset: index, expected: "'\(Character(Unicode.Scalar(byte)))'") }
            }

            /// A value of an attribute stored as `storage`, or `null`.
            mutating func value(_ storage: AttributeType.Storage) throws -> Value {
                if peek == UInt8(ascii: "n") {
                    let start = index
                    for byte in "null".utf8 { guard consume(byte) else { throw SyntaxError(offset: start, expected: "a value") } }
                    return .null
                }
                switch storage {
                case .integer: return .integer(try integer())
                case .real: return .real(try number())
                case .text:
                    let end = index
                    let content = try stringContent()
                    guard let text = content.withBytes({ String(validating: $0, as: UTF8.self) }) else {
                        throw SyntaxError(offset: end, expected: "a string of valid UTF-8")
                    }
                    return .text(text)
                case .blob:
                    let start = index
                    return .blob(try stringContent().withBytes { try Self.unhex($0, at: start) })
                }
            }

            /// Lowercase hex digits, two per byte.
            static func unhex(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> [UInt8] {
                guard text.count % 2 == 0 else { throw SyntaxError(offset: offset, expected: "an even number of hex digits") }
                func digit(_ byte: UInt8) throws -> UInt8 {
                    switch byte {
                    case 0x30 ... 0x39: return byte - 0x30
                    case 0x61 ... 0x66: return byte - 0x61 + 10
                    default: throw SyntaxError(offset: offset, expected: "lowercase hex digits")
                    }
                }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(text.count / 2)
                var position = 0
                while position < text.count {
                    bytes.append(try digit(text[position]) << 4 | digit(text[position + 1]))
                    position += 2
                }
                return bytes
            }

            /// `-? (0 | [1-9][0-9]*)` within Int64; a fraction or an exponent is not an integer here.
            mutating func integer() throws -> Int64 {
                let start = index
                let negative = consume(UInt8(ascii: "-"))
                var value: Int64 = 0
                var digits = 0
                while let byte = peek, byte >= 0x30, byte <= 0x39 {
                    if digits == 1, value == 0 { throw SyntaxError(offset: index, expected: "no digit after a leading 0") }
                    let digit = Int64(byte - 0x30)
                    let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
                    guard !overflow, !overflow2 else { throw SyntaxError(offset: start, expected: "an integer within 64 bits") }
                    value = next
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { throw SyntaxError(offset: start, expected: "an integer") }
                if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    throw SyntaxError(offset: index, expected: "an integer (no fraction or exponent)")
                }
                return value
            }

            /// A JSON number, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a finite `Double`.
            mutating func number() throws -> Double {
                let start = index
                func digits() -> Int {
                    let first = index
                    while let byte = peek, byte >= 0x30, byte <= 0x39 { index += 1 }
                    return index - first
                }
                _ = consume(UInt8(ascii: "-"))
                let leadingZero = peek == UInt8(ascii: "0")
                let whole = digits()
                guard whole > 0, !(leadingZero && whole > 1) else { throw SyntaxError(offset: start, expected: "a number") }
                if consume(UInt8(ascii: ".")) { guard digits() > 0 else { throw SyntaxError(offset: index, expected: "a digit after '.'") } }
                if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                    if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                    guard digits() > 0 else { throw SyntaxError(offset: index, expected: "a digit in the exponent") }
                }
                guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self)), value.isFinite else {
                    throw SyntaxError(offset: start, expected: "a finite number")
                }
                return value
            }

            /// A string literal, escapes decoded; a raw control character (below U+0020) is an error.
            mutating func stringContent() throws -> StringContent {
                try expect(UInt8(ascii: "\""))
                let start = index
                // Most strings have no escape: hand back the bytes in place.
                while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    guard byte >= 0x20 else { throw SyntaxError(offset: index, expected: "an escaped control character") }
                    index += 1
                }
                guard let stop = peek else { throw SyntaxError(offset: index, expected: "'\"'") }
                if stop == UInt8(ascii: "\"") {
                    index += 1
                    return .raw(UnsafeBufferPointer(rebasing: bytes[start ..< index - 1]))
                }
                var decoded = Array(bytes[start ..< index])
                while true {
                    guard let byte = peek else { throw SyntaxError(offset: index, expected: "'\"'") }
                    index += 1
                    switch byte {
                    case UInt8(ascii: "\""):
                        return .decoded(decoded)
                    case UInt8(ascii: "\\"):
                        guard let escape = peek else { throw SyntaxError(offset: index, expected: "an escape") }
                        index += 1
                        switch escape {
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                        case UInt8(ascii: "b"): decoded.append(0x08)
                        case UInt8(ascii: "f"): decoded.append(0x0C)
                        case UInt8(ascii: "n"): decoded.append(0x0A)
                        case UInt8(ascii: "r"): decoded.append(0x0D)
                        case UInt8(ascii: "t"): decoded.append(0x09)
                        case UInt8(ascii: "u"):
                            var scalar = try hex4()
                            if (0xD800 ..< 0xDC00).contains(scalar) {
                                // A high surrogate must be followed by an escaped low one: together, one scalar.
                                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                                    throw SyntaxError(offset: index, expected: "a low surrogate")
                                }
                                let low = try hex4()
                                guard (0xDC00 ..< 0xE000).contains(low) else { throw SyntaxError(offset: index - 4, expected: "a low surrogate") }
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            }
                            guard let unicode = Unicode.Scalar(scalar) else { throw SyntaxError(offset: index - 4, expected: "a Unicode scalar") }
                            decoded.append(contentsOf: String(unicode).utf8)
                        default: throw SyntaxError(offset: index - 1, expected: "an escape")
                        }
                    default:
                        guard byte >= 0x20 else { throw SyntaxError(offset: index - 1, expected: "an escaped control character") }
                        decoded.append(byte)
                    }
                }
            }

            /// Four hex digits of a `\u` escape.
            mutating func hex4() throws -> UInt32 {
                var value: UInt32 = 0
                for _ in 0 ..< 4 {
                    guard let byte = peek else { throw SyntaxError(offset: index, expected: "a hex digit") }
                    let digit: UInt32
                    switch byte {
                    case 0x30 ... 0x39: digit = UInt32(byte - 0x30)
                    case 0x41 ... 0x46: digit = UInt32(byte - 0x41 + 10)
                    case 0x61 ... 0x66: digit = UInt32(byte - 0x61 + 10)
                    default: throw SyntaxError(offset: index, expected: "a hex digit")
                    }
                    value = value << 4 | digit
                    index += 1
                }
                return value
            }
        }
    }
}
