import Generation
import Models
import SQLite

/// `table-per-entity` (seeds 000 and 003; EF Core's TPC): the entity hierarchy flattened, the
/// class hierarchy kept in code. Every concrete entity of a hierarchy with sub-entities becomes a
/// root entity of its own holding its inherited attributes and its own; abstract entities get no
/// table; roots without sub-entities (Tag, Owner) stay as they are. The stored model
/// (`storedModel`) is that flattened model, and `CoreDataSchema` of it gives the tables, column
/// names, join tables and DDL, so each table is one dense table with its own `Z_PRIMARYKEY` row.
///
/// - Keys: an object keeps the key the generator gives it (its position in its original
///   hierarchy + 1), so each table's keys are a sparse subset and a key still names one object of
///   the original hierarchy; `Z_MAX` of a table is its highest key. `Z_ENT` holds the flattened
///   entity's number; reads report the original model's entity number.
/// - Constraints and fetch indexes of an entity and its ancestors are copied to every concrete
///   table below them (an `entity` element is dropped; an index left empty is dropped).
/// - A to-one relationship whose destination subtree has several concrete tables keeps its
///   foreign key plus an entity column `Z<n>_NAME` (n: the original destination's number) holding
///   the original model's entity number of the object it reaches.
/// - A many-to-many relationship gets one join table per (concrete source table, concrete
///   destination table) pair, named by Core Data's rule on the flattened model; on a side that
///   reaches several tables the flattened relationships are named after the destination
///   (`books`, `blogPosts`), the original name staying with the original destination.
/// - One entity's read is Core Data's query of its table alone. A read across several concrete
///   entities is one `UNION ALL` with an arm per concrete entity of the subtree and one select
///   list (`Z_ENT` as the original entity number, `Z_PK`, `Z_OPT`, then every attribute and to-one
///   of the subtree, `NULL` where an arm lacks it, named as Core Data's single table would name
///   them), the predicate in every arm and `ORDER BY` / `LIMIT` / `OFFSET` on the whole union, so
///   SQLite merges the arms off each table's index. A count sums one `COUNT(*)` per arm.
public final class TablePerEntity: StorageStrategy {
    public static let name = "table-per-entity"
    public static let summary = "The hierarchy flattened (EF Core's TPC): one dense table per concrete entity, reads across entities one UNION ALL"

    public let model: Model
    public let database: Database
    /// The flattened model Core Data stores (one root per concrete entity).
    public let storedModel: Model
    /// Core Data's layout of `storedModel`.
    public let schema: CoreDataSchema
    public let schemaSQL: [String]
    private let store: CoreDataStore

    /// A to-one relationship's columns in one entity's table.
    struct ToOneColumns {
        var key: String
        /// The column holding the destination's original entity number (several concrete destinations).
        var entity: String?
        /// The destination's entity when there is no entity column.
        var destination: Int
    }

    /// One join table reached from an entity through a many-to-many relationship.
    struct Link {
        var join: String
        /// The join table's column for this entity's key, and for the partner's.
        var this: String
        var other: String
        /// The partner's concrete entity (original index).
        var partner: Int
    }

    /// A relationship as held by one concrete entity.
    struct Held: Hashable {
        var entity: Int
        var owner: Int
        var name: String
    }

    /// Per original entity: the flattened entity (`nil` when abstract).
    private let flat: [Int?]
    /// Per original entity: its table (`""` when abstract).
    private let tables: [String]
    /// Per original concrete entity: the column of each attribute, in `attributes` order.
    private let attributeColumns: [[String]]
    /// Per original concrete entity: the columns of each to-one, in `toOneRelationships` order.
    private let toOneColumns: [[ToOneColumns]]
    /// Per original entity: its concrete entities (itself and descendants), in number order.
    private let concrete: [[Int]]
    /// The join tables of each many-to-many relationship as held by each concrete entity, by partner.
    private let links: [Held: [Link]]
    /// Per concrete entity: its INSERT; per generating relationship (in `relationships` order) the link INSERT per partner.
    private let inserts: [Int: String]
    private let linkInserts: [Int: [[Int: String]]]
    private let versionSQL: [Int: String]

    public init(model: Model, database: Database) throws {
        self.model = model
        self.database = database
        let entities = model.entities
        var concrete = Array(repeating: [Int](), count: entities.count)
        for index in entities.indices.reversed() {
            concrete[index] = (entities[index].isConcrete ? [index] : []) + entities[index].children.flatMap { concrete[$0] }
        }
        self.concrete = concrete
        let (description, records) = Self.flatten(model, concrete)
        do { storedModel = try Model(description) } catch let error as ModelError {
            throw ModelError("the flattened model of '\(model.name)' is not valid: \(error.description)")
        }
        let schema = CoreDataSchema(storedModel)
        self.schema = schema
        store = CoreDataStore(database: database, model: storedModel)

        // Names: each concrete entity's flattened entity, table and columns.
        var flat = [Int?](repeating: nil, count: entities.count)
        var tables = Array(repeating: "", count: entities.count)
        var attributeColumns = Array(repeating: [String](), count: entities.count)
        var toOneColumns = Array(repeating: [ToOneColumns](), count: entities.count)
        var entityColumns: [Int: [String: String]] = [:]
        for entity in entities where entity.isConcrete {
            let index = try LayoutError.required(storedModel.index(of: entity.name), Self.name, "flattened entity \(entity.name)")
            flat[entity.index] = index
            let table = schema.table(of: index)
            tables[entity.index] = table.name
            attributeColumns[entity.index] = entity.attributes.indices.map { schema.column(index, attributeAt: $0) }
            var names = UniqueNames(taken: ["Z_PK", "Z_ENT", "Z_OPT"] + table.fetchOrder.map(\.name))
            toOneColumns[entity.index] = try entity.toOneRelationships.map { relationship in
                let key = try schema.toOneColumns(index, relationship.name).key
                let targets = concrete[relationship.destination]
                guard targets.count > 1 else { return ToOneColumns(key: key, entity: nil, destination: targets.first ?? relationship.destination) }
                let name = names.claim("Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                entityColumns[index, default: [:]][relationship.name] = name
                return ToOneColumns(key: key, entity: name, destination: relationship.destination)
            }
        }
        self.flat = flat
        self.tables = tables
        self.attributeColumns = attributeColumns
        self.toOneColumns = toOneColumns

        // Join tables, by the flattened relationship that names a side.
        var joinBySide: [String: CoreDataSchema.JoinTable] = [:]
        for join in schema.joinTables {
            joinBySide["\(join.first.entity).\(join.first.relationship)"] = join
            joinBySide["\(join.second.entity).\(join.second.relationship)"] = join
        }
        var links: [Held: [Int: Link]] = [:]
        for record in records {
            let index = try LayoutError.required(flat[record.held.entity], Self.name, "flattened entity for \(model.entities[record.held.entity].name)")
            let join = try LayoutError.required(joinBySide["\(index).\(record.flatName)"], Self.name, "join table for \(record.flatName)")
            let (this, other) = join.columns(from: index, record.flatName)
            links[record.held, default: [:]][record.partner] = Link(join: join.name, this: this, other: other, partner: record.partner)
        }
        let sortedLinks = links.mapValues { $0.values.sorted { $0.partner < $1.partner } }
        self.links = sortedLinks

        // DDL: Core Data's of the flattened model, each entity column right after its foreign key.
        var tableSQL: [String] = []
        for root in storedModel.roots {
            let table = schema.table(of: root)
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            for column in table.tableOrder {
                columns.append("\(column.name) \(column.sqlType)")
                if case let .foreignKey(name) = column.role, let entityColumn = entityColumns[root]?[name] {
                    columns.append("\(entityColumn) INTEGER")
                }
            }
            tableSQL.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        schemaSQL = tableSQL + schema.tableSQL.dropFirst(storedModel.roots.count) + schema.indexSQL + CoreDataSchema.bookkeepingSQL

        var inserts: [Int: String] = [:]
        var linkInserts: [Int: [[Int: String]]] = [:]
        var versionSQL: [Int: String] = [:]
        for entity in entities where entity.isConcrete {
            let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + attributeColumns[entity.index]
                + toOneColumns[entity.index].flatMap { [$0.key] + ($0.entity.map { [$0] } ?? []) }
            inserts[entity.index] = "INSERT INTO \(tables[entity.index]) (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            linkInserts[entity.index] = entity.relationships.filter { $0.isManyToMany && $0.generatesLinks }.map { relationship in
                var byPartner: [Int: String] = [:]
                for link in sortedLinks[Held(entity: entity.index, owner: relationship.owner, name: relationship.name)] ?? [] {
                    byPartner[link.partner] = "INSERT INTO \(link.join) (\(link.this), \(link.other)) VALUES (?, ?)"
                }
                return byPartner
            }
            versionSQL[entity.index] = "SELECT Z_OPT FROM \(tables[entity.index]) WHERE Z_PK = ?"
        }
        self.inserts = inserts
        self.linkInserts = linkInserts
        self.versionSQL = versionSQL
    }

    // MARK: The flattened model

    /// A flattened many-to-many relationship: `held` (an original relationship as a concrete
    /// entity holds it) reaching `partner` is `flatName` on the flattened entity.
    struct LinkRecord {
        var held: Held
        var partner: Int
        var flatName: String
    }

    /// `BlogPost` → `blogPosts`, `Category` → `categories`.
    static func plural(_ name: String) -> String {
        let lower = name.prefix(1).lowercased() + name.dropFirst()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return lower.dropLast() + "ies" }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) { return lower + "es" }
        return lower + "s"
    }

    /// The flattened description: one root per concrete entity (its name, every attribute, every
    /// to-one, constraints and indexes of it and its ancestors), many-to-many relationships split
    /// per pair of concrete entities; and where each split relationship went.
    static func flatten(_ model: Model, _ concrete: [[Int]]) -> (ModelDescription, [LinkRecord]) {
        let entities = model.entities
        // Names a flattened entity may not take for a split relationship: its original properties'.
        var reserved: [Int: Set<String>] = [:]
        for index in model.concreteEntities {
            reserved[index] = Set(entities[index].attributes.map { $0.name.uppercased() } + entities[index].relationships.map { $0.name.uppercased() })
        }
        var used: [Int: Set<String>] = [:]
        var assigned: [String: String] = [:]
        func name(on entity: Int, _ relationship: Model.Relationship, partner: Int) -> String {
            let key = "\(entity).\(relationship.owner).\(relationship.name).\(partner)"
            if let known = assigned[key] { return known }
            var candidates: [String] = []
            if concrete[relationship.destination].count == 1 || partner == relationship.destination { candidates.append(relationship.name) }
            candidates += [plural(entities[partner].name), relationship.name + entities[partner].name]
            func free(_ candidate: String) -> Bool {
                let upper = candidate.uppercased()
                guard candidate.count <= 60, used[entity]?.contains(upper) != true else { return false }
                return upper == relationship.name.uppercased() || reserved[entity]?.contains(upper) != true
            }
            var counter = 2
            while !candidates.contains(where: free) {
                candidates.append(String(relationship.name.prefix(50)) + String(counter))
                counter += 1
            }
            let chosen = candidates.first(where: free) ?? relationship.name
            used[entity, default: []].insert(chosen.uppercased())
            assigned[key] = chosen
            return chosen
        }

        // Many-to-many pairs, each from one side: the generating one (else the lower-named).
        var manyToMany: [Int: [RelationshipDescription]] = [:]
        var declared: Set<String> = []
        var records: [LinkRecord] = []
        for entity in entities {
            for relationship in entity.ownRelationships where relationship.isManyToMany {
                guard let inverse = model.inverse(of: relationship) else { continue }
                let canonical = relationship.generatesLinks
                    || (!inverse.generatesLinks && (relationship.owner, relationship.name) <= (inverse.owner, inverse.name))
                guard canonical else { continue }
                for source in concrete[relationship.owner] {
                    for target in concrete[relationship.destination] {
                        let there = name(on: source, relationship, partner: target)
                        let back = name(on: target, inverse, partner: source)
                        for (side, flatName, destination, inverseName, held) in [
                            (source, there, target, back, relationship), (target, back, source, there, inverse),
                        ] where declared.insert("\(side).\(flatName)").inserted {
                            manyToMany[side, default: []].append(RelationshipDescription(
                                flatName, destination: entities[destination].name, inverse: inverseName, toMany: true,
                                deleteRule: held.deleteRule))
                            records.append(LinkRecord(held: Held(entity: side, owner: held.owner, name: held.name), partner: destination, flatName: flatName))
                        }
                    }
                }
            }
        }

        var flattened: [EntityDescription] = []
        for index in model.concreteEntities {
            let entity = entities[index]
            var lineage: [Int] = []
            var current: Int? = index
            while let ancestor = current { lineage.insert(ancestor, at: 0); current = entities[ancestor].parent }
            var constraints: [[String]] = []
            var indexes: [FetchIndex] = []
            var indexNames = Set<String>()
            for ancestor in lineage {
                for constraint in entities[ancestor].uniquenessConstraints where !constraints.contains(constraint) { constraints.append(constraint) }
                for fetchIndex in entities[ancestor].fetchIndexes {
                    let elements = fetchIndex.elements.filter { $0.property != nil }
                    guard !elements.isEmpty, !indexes.contains(where: { $0.elements == elements }) else { continue }
                    var name = fetchIndex.name
                    var counter = 2
                    while indexNames.contains(name.uppercased()) { name = String(fetchIndex.name.prefix(55)) + String(counter); counter += 1 }
                    indexNames.insert(name.uppercased())
                    indexes.append(FetchIndex(name, elements))
                }
            }
            // To-ones keep their names; the destination is a table of the subtree (or the entity
            // itself when none), without an inverse: the flattened model only lays out the columns.
            let toOne = entity.toOneRelationships.map { relationship in
                RelationshipDescription(relationship.name, destination: entities[concrete[relationship.destination].first ?? index].name,
                                        deleteRule: relationship.deleteRule, optional: true, hidden: relationship.isHidden)
            }
            flattened.append(EntityDescription(entity.name, rows: entity.rows, attributes: entity.attributes,
                                               relationships: toOne + (manyToMany[index] ?? []),
                                               uniquenessConstraints: constraints, fetchIndexes: indexes))
        }
        let description = ModelDescription(name: model.name, summary: model.description.summary, entities: flattened)
        return (description, records)
    }

    // MARK: Store

    public func createSchema() throws { try store.createSchema(schemaSQL, strategyName: Self.name) }

    public func insert(_ objects: [ModelObject]) throws {
        try database.transaction {
            var highest: [Int: Int64] = [:]
            for object in objects { highest[object.id.entity] = max(highest[object.id.entity] ?? 0, object.id.key) }
            for (entity, key) in highest.sorted(by: { $0.key < $1.key }) {
                guard let index = flat[entity] else { throw CorruptRow("object of abstract entity '\(model.entities[entity].name)' cannot be stored") }
                try store.reserveKeys(entityNumber: index + 1, upTo: key)
            }
            for object in objects {
                let entity = object.id.entity
                let statement = try database.cachedStatement(try LayoutError.required(inserts[entity], Self.name, "insert for \(model.entities[entity].name)"))
                let number = try LayoutError.required(flat[entity], Self.name, "table for \(model.entities[entity].name)") + 1
                var values: [Value] = [.integer(object.id.key), .integer(Int64(number)), .integer(1)] + object.values
                for (columns, destination) in zip(toOneColumns[entity], object.toOne) {
                    values.append(destination.map { .integer($0.key) } ?? .null)
                    if columns.entity != nil { values.append(destination.map { .integer(Int64($0.entity + 1)) } ?? .null) }
                }
                try statement.bind(values: values)
                try statement.run()
                for (byPartner, destinations) in zip(linkInserts[entity] ?? [], object.links) {
                    for destination in destinations {
                        guard let sql = byPartner[destination.entity] else {
                            throw CorruptRow("no join table links \(model.entities[entity].name) to \(model.entities[destination.entity].name)")
                        }
                        let link = try database.cachedStatement(sql)
                        try link.bind(values: [.integer(object.id.key), .integer(destination.key)])
                        try link.run()
                    }
                }
            }
        }
    }

    // MARK: Reads

    /// The concrete entities a request reads, each one table.
    private func entitiesRead(_ request: FetchRequest) -> [Int] {
        request.readsOneEntity(model) ? (model.entities[request.entity].isConcrete ? [request.entity] : []) : concrete[request.entity]
    }

    /// Checks that every name the request uses is a property of its entity.
    private func check(_ request: FetchRequest) throws {
        let entity = model.entities[request.entity]
        func attribute(_ name: String) throws {
            guard entity.attribute(name) != nil else { throw ModelError("'\(name)' is not an attribute of '\(entity.name)'") }
        }
        func check(_ predicate: FetchPredicate) throws {
            switch predicate {
            case .all, .key, .after: break
            case let .equals(name, _), let .range(name, _, _): try attribute(name)
            case let .toOne(name, _):
                guard entity.relationship(name)?.toMany == false else { throw ModelError("'\(name)' is not a to-one relationship of '\(entity.name)'") }
            case let .anyRelated(name, attributeName, _):
                guard let relationship = entity.relationship(name), relationship.toMany,
                      model.entities[relationship.destination].attribute(attributeName) != nil else {
                    throw ModelError("'\(name).\(attributeName)' is not an attribute reached through a to-many relationship of '\(entity.name)'")
                }
            case let .and(predicates): for predicate in predicates { try check(predicate) }
            }
        }
        for key in request.sort { try attribute(key.attribute) }
        try check(request.predicate)
    }

    private func column(_ entity: Int, _ attribute: String) throws -> String {
        attributeColumns[entity][try LayoutError.required(model.entities[entity].attributeIndex(attribute), Self.name, "attribute '\(attribute)' of \(model.entities[entity].name)")]
    }

    private func toOne(_ entity: Int, _ name: String) throws -> ToOneColumns {
        let position = try LayoutError.required(model.entities[entity].toOneRelationships.firstIndex { $0.name == name }, Self.name, "to-one '\(name)' of \(model.entities[entity].name)")
        return toOneColumns[entity][position]
    }

    /// The WHERE builder of the arm reading `entity`'s table as `t0`.
    private func sqlWhere(_ entity: Int, _ request: FetchRequest) throws -> SQLWhere {
        var aliases = 0
        return SQLWhere(
            attribute: { "t0." + (try self.column(entity, $0)) },
            toOne: { "t0." + (try self.toOne(entity, $0).key) },
            key: "t0.Z_PK",
            related: { name, attribute in
                aliases += 2
                return try self.relatedJoin(entity, name, attribute, aliases - 1)
            },
            sort: try request.sort.map { ("t0." + (try self.column(entity, $0.attribute)), $0.ascending) })
    }

    /// The joins for `ANY relationship.attribute == ?` from `entity`'s table: through the join
    /// table (many-to-many) or the destination's foreign key (one-to-many); through one `UNION ALL`
    /// of the partners' tables when several hold the attribute.
    private func relatedJoin(_ entity: Int, _ name: String, _ attribute: String, _ alias: Int) throws -> (joins: String, expression: String) {
        let relationship = try LayoutError.required(model.entities[entity].relationship(name), Self.name, "relationship '\(name)' of \(model.entities[entity].name)")
        let destination = model.entities[relationship.destination]
        let owner = destination.attributeOwners[try LayoutError.required(destination.attributeIndex(attribute), Self.name, "attribute '\(attribute)' of \(destination.name)")]
        let (first, second) = ("t\(alias)", "t\(alias + 1)")
        /// (table, the column holding this entity's key, the attribute's column) per partner.
        var partners: [(table: String, source: String, value: String, through: (join: String, other: String)?)] = []
        if relationship.isManyToMany {
            for link in links[Held(entity: entity, owner: relationship.owner, name: relationship.name)] ?? []
            where model.entities[owner].subtree.contains(link.partner) {
                partners.append((tables[link.partner], link.this, try column(link.partner, attribute), (link.join, link.other)))
            }
        } else {
            let inverse = try LayoutError.required(model.inverse(of: relationship), Self.name, "inverse of \(relationship.name)")
            for holder in concrete[inverse.owner] where model.entities[owner].subtree.contains(holder) {
                partners.append((tables[holder], try toOne(holder, inverse.name).key, try column(holder, attribute), nil))
            }
        }
        guard partners.count == 1 else {
            guard !partners.isEmpty else { return ("", "NULL") }
            let arms = partners.map { partner in
                if let through = partner.through {
                    return "SELECT j.\(partner.source) AS Z_SOURCE, d.\(partner.value) AS Z_VALUE FROM \(through.join) j JOIN \(partner.table) d ON d.Z_PK = j.\(through.other)"
                }
                return "SELECT d.\(partner.source) AS Z_SOURCE, d.\(partner.value) AS Z_VALUE FROM \(partner.table) d"
            }
            return ("JOIN (\(arms.joined(separator: " UNION ALL "))) \(first) ON \(first).Z_SOURCE = t0.Z_PK", "\(first).Z_VALUE")
        }
        let partner = partners[0]
        if let through = partner.through {
            return ("JOIN \(through.join) \(first) ON t0.Z_PK = \(first).\(partner.source) JOIN \(partner.table) \(second) ON \(second).Z_PK = \(first).\(through.other)",
                    "\(second).\(partner.value)")
        }
        return ("JOIN \(partner.table) \(first) ON \(first).\(partner.source) = t0.Z_PK", "\(first).\(partner.value)")
    }

    /// `FROM <table> t0 … WHERE …` of one arm; its values appended to `values`.
    private func armFrom(_ entity: Int, _ request: FetchRequest, _ values: inout [Value]) throws -> String {
        var builder = try sqlWhere(entity, request)
        let condition = try builder.condition(request.predicate)
        values += builder.values
        return "FROM \(tables[entity]) t0\(builder.joinClause)" + (condition.map { " WHERE " + $0 } ?? "")
    }

    /// How a row becomes an object of one concrete entity: the position of each value and to-one.
    struct Shape {
        var values: [(Int32, AttributeType.Storage)]
        var toOne: [(key: Int32, entity: Int32?, destination: Int)]
    }

    private func decoder(_ shapes: [Int: Shape], fixed: Int?, what: String) -> RowDecoder {
        RowDecoder { row in
            let entity = fixed ?? Int(row.int64(at: 0)) - 1
            guard let shape = shapes[entity] else {
                throw CorruptRow("a row of \(what) has entity number \(entity + 1), which is no concrete entity of the fetched subtree")
            }
            guard !row.isNull(at: 1) else { throw CorruptRow("a row of \(what) has no Z_PK") }
            return ModelObject(
                id: ObjectID(entity: entity, key: row.int64(at: 1)),
                values: shape.values.map { row.value(at: $0.0, as: $0.1) },
                toOne: try shape.toOne.map { column in
                    if row.isNull(at: column.key) { return nil }
                    guard let entityColumn = column.entity else { return ObjectID(entity: column.destination, key: row.int64(at: column.key)) }
                    guard !row.isNull(at: entityColumn) else { throw CorruptRow("a row of \(what) has a to-one key without its entity number") }
                    return ObjectID(entity: Int(row.int64(at: entityColumn)) - 1, key: row.int64(at: column.key))
                })
        }
    }

    /// Core Data's select list of one entity's table (and its entity columns), with its decoder.
    private func tableList(_ entity: Int) throws -> (sql: String, decoder: RowDecoder) {
        var (sql, positions) = schema.selectList(try LayoutError.required(flat[entity], Self.name, "table for \(model.entities[entity].name)"))
        func position(_ column: String) throws -> Int32 { try LayoutError.required(positions[column], Self.name, "column \(column) in the select list of \(tables[entity])") }
        // The list's items are column names and literals, separated by ", ".
        var count = Int32(sql.split(separator: ",").count)
        let info = model.entities[entity]
        var toOne: [(key: Int32, entity: Int32?, destination: Int)] = []
        for columns in toOneColumns[entity] {
            var entityPosition: Int32?
            if let name = columns.entity { sql += ", t0.\(name)"; entityPosition = count; count += 1 }
            toOne.append((try position(columns.key), entityPosition, columns.destination))
        }
        let shape = Shape(values: try info.attributes.indices.map { (try position(attributeColumns[entity][$0]), info.attributes[$0].type.storage) },
                          toOne: toOne)
        return (sql, decoder([entity: shape], fixed: entity, what: tables[entity]))
    }

    /// The select list shared by every arm of a read of `entity`'s subtree: entity number, `Z_PK`,
    /// `Z_OPT`, the entity's attributes and to-ones, then each descendant's own; each item named as
    /// Core Data's single table would name its column.
    struct UnionList {
        enum Item { case attribute(owner: Int, position: Int), key(owner: Int, name: String), entity(owner: Int, name: String) }
        var items: [Item] = []
        var aliases: [String] = ["Z_ENT", "Z_PK", "Z_OPT"]
    }

    private func unionList(_ entity: Int) -> UnionList {
        var list = UnionList()
        var names = UniqueNames(taken: ["Z_ENT", "Z_PK", "Z_OPT"])
        func add(_ item: UnionList.Item, _ base: String) {
            list.items.append(item)
            list.aliases.append(names.claim(base))
        }
        func addToOnes(_ relationships: [Model.Relationship]) {
            for relationship in relationships where !relationship.toMany {
                add(.key(owner: relationship.owner, name: relationship.name), "Z" + relationship.name.uppercased())
                if concrete[relationship.destination].count > 1 {
                    add(.entity(owner: relationship.owner, name: relationship.name), "Z\(relationship.destination + 1)_" + relationship.name.uppercased())
                }
            }
        }
        let info = model.entities[entity]
        for (position, attribute) in info.attributes.enumerated() {
            add(.attribute(owner: info.attributeOwners[position], position: position), "Z" + attribute.name.uppercased())
        }
        addToOnes(info.relationships)
        for descendant in info.subtree.dropFirst() {
            let sub = model.entities[descendant]
            for (position, attribute) in sub.attributes.enumerated() where sub.attributeOwners[position] == descendant {
                add(.attribute(owner: descendant, position: position), "Z" + attribute.name.uppercased())
            }
            addToOnes(sub.ownRelationships)
        }
        return list
    }

    /// The select list of one arm (`concrete` read as `t0`), aliased when it is the first.
    private func armList(_ list: UnionList, _ entity: Int, first: Bool) throws -> String {
        let subtree = { (owner: Int) in self.model.entities[owner].subtree.contains(entity) }
        var items = ["\(entity + 1)", "t0.Z_PK", "t0.Z_OPT"]
        for item in list.items {
            switch item {
            case let .attribute(owner, position): items.append(subtree(owner) ? "t0." + attributeColumns[entity][position] : "NULL")
            case let .key(owner, name): items.append(subtree(owner) ? "t0." + (try toOne(entity, name).key) : "NULL")
            case let .entity(owner, name): items.append(subtree(owner) ? "t0." + (try toOne(entity, name).entity ?? "NULL") : "NULL")
            }
        }
        if first { items = zip(items, list.aliases).map { "\($0) AS \($1)" } }
        return items.joined(separator: ", ")
    }

    private func unionDecoder(_ list: UnionList, _ entities: [Int]) throws -> RowDecoder {
        var keyPositions: [String: Int32] = [:]
        var entityPositions: [String: Int32] = [:]
        for (offset, item) in list.items.enumerated() {
            let position = Int32(offset + 3)
            switch item {
            case .attribute: break
            case let .key(owner, name): keyPositions["\(owner).\(name)"] = position
            case let .entity(owner, name): entityPositions["\(owner).\(name)"] = position
            }
        }
        // An attribute is identified by its owner and position; several owners can share a position.
        var ownedPositions: [String: Int32] = [:]
        for (offset, item) in list.items.enumerated() {
            if case let .attribute(owner, index) = item { ownedPositions["\(owner).\(index)"] = Int32(offset + 3) }
        }
        var shapes: [Int: Shape] = [:]
        for entity in entities {
            let info = model.entities[entity]
            shapes[entity] = Shape(
                values: try info.attributes.enumerated().map { position, attribute in
                    (try LayoutError.required(ownedPositions["\(info.attributeOwners[position]).\(position)"], Self.name, "union column of \(attribute.name)"), attribute.type.storage)
                },
                toOne: try zip(info.toOneRelationships, toOneColumns[entity]).map { relationship, columns in
                    let key = "\(relationship.owner).\(relationship.name)"
                    let entityPosition = columns.entity == nil ? nil : try LayoutError.required(entityPositions[key], Self.name, "union entity column of \(key)")
                    return (try LayoutError.required(keyPositions[key], Self.name, "union key column of \(key)"), entityPosition, columns.destination)
                })
        }
        return decoder(shapes, fixed: nil, what: "the union of \(model.entities[entities[0]].name)'s hierarchy")
    }

    public func fetchQuery(_ request: FetchRequest) throws -> PreparedQuery {
        try check(request)
        let entities = entitiesRead(request)
        let distinct = request.predicate.reachesToMany ? "DISTINCT " : ""
        guard entities.count > 1 else {
            guard let entity = entities.first else {
                return PreparedQuery(sql: "SELECT 0, 0, 0 WHERE 0", values: [], decoder: RowDecoder { _ in throw CorruptRow("no table holds the request's entity") })
            }
            let (list, decoder) = try tableList(entity)
            var builder = try sqlWhere(entity, request)
            var values: [Value] = []
            let from = try armFrom(entity, request, &values)
            let tail = builder.orderBy + builder.page(request)
            return PreparedQuery(sql: "SELECT \(distinct)\(list) \(from)\(tail)", values: values + builder.values, decoder: decoder)
        }
        let list = unionList(request.entity)
        var values: [Value] = []
        let arms = try entities.enumerated().map { offset, entity in
            "SELECT \(distinct)\(try armList(list, entity, first: offset == 0)) \(try armFrom(entity, request, &values))"
        }
        // The union is ordered by the first arm's names of the sort attributes.
        let info = model.entities[request.entity]
        var orderBy = ""
        if !request.sort.isEmpty {
            orderBy = " ORDER BY " + (try request.sort.map { key in
                let position = try LayoutError.required(info.attributeIndex(key.attribute), Self.name, "sort attribute '\(key.attribute)'")
                return list.aliases[position + 3] + (key.ascending ? " ASC" : " DESC")
            }).joined(separator: ", ")
        }
        var pager = try sqlWhere(request.entity, FetchRequest(entity: request.entity))
        let page = pager.page(request)
        return PreparedQuery(sql: arms.joined(separator: " UNION ALL ") + orderBy + page, values: values + pager.values,
                             decoder: try unionDecoder(list, entities))
    }

    public func countQuery(_ request: FetchRequest) throws -> PreparedQuery {
        try check(request)
        let entities = entitiesRead(request)
        let count = request.predicate.reachesToMany ? "COUNT(DISTINCT t0.Z_PK)" : "COUNT(*)"
        var values: [Value] = []
        let arms = try entities.enumerated().map { offset, entity in
            let name = entities.count > 1 && offset == 0 ? " AS n" : ""
            // Core Data counts a whole table without an alias.
            return request.predicate == .all ? "SELECT COUNT(*)\(name) FROM \(tables[entity])"
                : "SELECT \(count)\(name) \(try armFrom(entity, request, &values))"
        }
        switch arms.count {
        case 0: return PreparedQuery(sql: "SELECT 0", values: [], decoder: nil)
        case 1: return PreparedQuery(sql: arms[0], values: values, decoder: nil)
        default: return PreparedQuery(sql: "SELECT SUM(n) FROM (\(arms.joined(separator: " UNION ALL ")))", values: values, decoder: nil)
        }
    }

    // MARK: Writes

    public func update(_ objects: [ObjectVersion], attribute: String, value: Value) throws -> Int {
        var statements: [Int: String] = [:]
        for entity in Set(objects.map(\.id.entity)) {
            guard flat[entity] != nil, let position = model.entities[entity].attributeIndex(attribute) else {
                throw ModelError("'\(attribute)' is not an attribute of concrete entity '\(model.entities[entity].name)'")
            }
            statements[entity] = "UPDATE \(tables[entity]) SET \(attributeColumns[entity][position]) = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
        }
        return try database.transaction {
            var changed = 0
            for object in objects {
                changed += try database.write(try LayoutError.required(statements[object.id.entity], Self.name, "update of \(model.entities[object.id.entity].name)"),
                                              [value, .integer(object.version + 1), .integer(object.id.key), .integer(object.version)])
            }
            return changed
        }
    }

    public func versions(_ objects: [ObjectID]) throws -> [Int64?] {
        try objects.map { object in
            guard let sql = versionSQL[object.entity] else { return nil }
            return try database.rows(sql, [.integer(object.key)]) { $0.int64(at: 0) }.first
        }
    }

    /// A query of no rows that still takes the object's key as `?1`.
    private static let noRelated = "SELECT 0, 0 WHERE 0 AND ?1"

    public func deleteStatements(_ entity: Int) throws -> DeleteStatements {
        guard flat[entity] != nil else { throw ModelError("'\(model.entities[entity].name)' is abstract: its objects are stored as their concrete entities") }
        let table = tables[entity]
        var related: [String] = []
        var clear: [[String]] = []
        for relationship in model.entities[entity].relationships {
            if !relationship.toMany {
                let columns = try toOne(entity, relationship.name)
                let arms = concrete[relationship.destination].map { target in
                    "SELECT \(target + 1), t1.Z_PK FROM \(table) t0 JOIN \(tables[target]) t1 ON t1.Z_PK = t0.\(columns.key) WHERE t0.Z_PK = ?1"
                        + (columns.entity.map { " AND t0.\($0) = \(target + 1)" } ?? "")
                }
                related.append(arms.isEmpty ? Self.noRelated : arms.joined(separator: " UNION ALL "))
                clear.append(relationship.isOneToOne ? try clearInverse(relationship) : [])
            } else if relationship.isManyToMany {
                let joins = links[Held(entity: entity, owner: relationship.owner, name: relationship.name)] ?? []
                let arms = joins.map { link in
                    "SELECT \(link.partner + 1), t1.Z_PK FROM \(link.join) j JOIN \(tables[link.partner]) t1 ON t1.Z_PK = j.\(link.other) WHERE j.\(link.this) = ?1"
                }
                related.append(arms.isEmpty ? Self.noRelated : arms.joined(separator: " UNION ALL "))
                var deletes: [String] = []
                for link in joins {
                    let sql = "DELETE FROM \(link.join) WHERE \(link.this) = ?1"
                    if !deletes.contains(sql) { deletes.append(sql) }
                }
                clear.append(deletes)
            } else {
                let inverse = try LayoutError.required(model.inverse(of: relationship), Self.name, "inverse of \(relationship.name)")
                let holders = concrete[inverse.owner]
                let arms = try holders.map { holder in
                    "SELECT \(holder + 1), t1.Z_PK FROM \(tables[holder]) t1 WHERE t1.\(try toOne(holder, inverse.name).key) = ?1"
                }
                related.append(arms.isEmpty ? Self.noRelated : arms.joined(separator: " UNION ALL "))
                clear.append(try clearInverse(relationship))
            }
        }
        return DeleteStatements(related: related, clear: clear, delete: ["DELETE FROM \(table) WHERE Z_PK = ?1"])
    }

    /// The statements that drop the references to the deleted object (`?1`) that the destinations
    /// hold through the inverse to-one (the many side of a one-to-many, the other side of a
    /// one-to-one): one per concrete table holding that to-one.
    private func clearInverse(_ relationship: Model.Relationship) throws -> [String] {
        guard let inverse = model.inverse(of: relationship) else { return [] }
        return try concrete[inverse.owner].map { holder in
            let columns = try toOne(holder, inverse.name)
            let entityColumn = columns.entity.map { ", \($0) = NULL" } ?? ""
            let orderKey = try model.orderKey(of: inverse).map { ", \(try column(holder, $0)) = NULL" } ?? ""
            return "UPDATE \(tables[holder]) SET \(columns.key) = NULL\(entityColumn)\(orderKey), Z_OPT = Z_OPT + 1 WHERE \(columns.key) = ?1"
        }
    }

    /// SQLite allows 500 arms in one compound SELECT: link counts are summed in statements of this many.
    static let armsPerStatement = 400

    public func countLinks(_ relationship: Model.Relationship) throws -> Int {
        guard relationship.isManyToMany else { return 0 }
        var joins: [String] = []
        var seen = Set<String>()
        for holder in concrete[relationship.owner] {
            for link in links[Held(entity: holder, owner: relationship.owner, name: relationship.name)] ?? [] where seen.insert(link.join).inserted {
                joins.append(link.join)
            }
        }
        var total = 0
        for start in stride(from: 0, to: joins.count, by: Self.armsPerStatement) {
            let arms = joins[start ..< min(start + Self.armsPerStatement, joins.count)].enumerated().map { offset, join in
                "SELECT COUNT(*)\(offset == 0 ? " AS n" : "") FROM \(join)"
            }
            total += try database.number(PreparedQuery(sql: "SELECT SUM(n) FROM (\(arms.joined(separator: " UNION ALL ")))", values: [], decoder: nil))
        }
        return total
    }
}
