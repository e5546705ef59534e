import Generation
import Models
import SQLite

/// What every read of one entity (with or without its sub-entities) shares: the tables, their
/// aliases, the select list, the FROM clause and the row decoder.
struct JoinedReader {
    let model: Model
    let entity: Int
    /// The depth of `entity` in its hierarchy: its path from the root is `depth + 1` tables.
    let depth: Int
    /// The tables read: the path from the root, then the descendants (when included), in entity-number order.
    let entities: [Int]
    let descendants: [Int]
    /// Position in the select list of the first own column of each entity in `entities`, at its position there.
    let base: [Int32]
    /// `Z_ENT, Z_PK, Z_OPT`, every entity's own columns (then the left-joined tables' `Z_PK`).
    let selectList: String
    let decoder: RowDecoder
    /// The concrete entities whose objects the read returns.
    let concrete: [Int]
    /// Whether a fetch must be a `UNION ALL` of one arm per concrete entity (too many tables to join).
    let needsUnion: Bool

    /// SQLite joins at most 64 tables in one SELECT.
    static let maximumJoinedTables = 64

    /// The read of `entity` in `layout`, with its sub-entities when `includesSubentities` and it has any.
    init(_ layout: Joined, entity: Int, includesSubentities: Bool) throws {
        let model = layout.model
        let info = model.entities[entity]
        let descendants = includesSubentities && info.hasSubentities ? Array(info.subtree.dropFirst()) : []
        let entities = layout.paths[entity] + descendants
        let root = Self.alias(at: 0, depth: info.depth)
        var items = [model.entities[info.root].hasSubentities ? "\(root).Z_ENT" : "0", "t0.Z_PK", "\(root).Z_OPT"]
        var base: [Int32] = []
        for (position, member) in entities.enumerated() {
            base.append(Int32(items.count))
            let name = Self.alias(at: position, depth: info.depth)
            items += layout.tables[member].fetchOrder.map { "\(name).\($0.name)" }
        }
        let needsUnion = entities.count > Self.maximumJoinedTables
        var markers: [Int: Int32] = [:]
        if !needsUnion {
            for (offset, descendant) in descendants.enumerated() {
                markers[descendant] = Int32(items.count)
                items.append("\(Self.alias(at: info.depth + 1 + offset, depth: info.depth)).Z_PK")
            }
        }
        let concrete = includesSubentities && info.hasSubentities ? model.concreteEntities(in: info.subtree) : (info.isConcrete ? [entity] : [])
        self.model = model
        self.entity = entity
        depth = info.depth
        self.entities = entities
        self.descendants = descendants
        self.base = base
        selectList = items.joined(separator: ", ")
        decoder = try Self.decoder(layout, entity, concrete: concrete, base: base, markers: markers)
        self.concrete = concrete
        self.needsUnion = needsUnion
    }

    /// The position in `entities` of `member` (on the path, or a descendant when they are read):
    /// the path by depth, then the descendants, whose numbers follow the entity's (a subtree's are contiguous).
    static func position(of member: Int, _ entity: Model.Entity, _ model: Model) -> Int {
        member > entity.index ? entity.depth + member - entity.index : model.entities[member].depth
    }

    func position(of member: Int) -> Int { Self.position(of: member, model.entities[entity], model) }

    /// The alias of the table at `position` in `entities`: `t0` the entity read, `t1`, `t2`, … its
    /// ancestors upward, then the descendants in entity-number order.
    static func alias(at position: Int, depth: Int) -> String { "t\(position <= depth ? depth - position : position)" }

    /// The alias of `member`'s table (on the path, or a descendant when they are read).
    func alias(_ member: Int) -> String { Self.alias(at: position(of: member), depth: depth) }

    /// Materialises a row as its concrete entity (named by `Z_ENT`). A row whose entity is unknown
    /// to the read, or whose sub-row is missing on its path, throws `CorruptRow`.
    static func decoder(_ layout: Joined, _ entity: Int, concrete: [Int], base: [Int32], markers: [Int: Int32]) throws -> RowDecoder {
        let model = layout.model
        func position(_ owner: Int, _ column: String) throws -> Int32 {
            let start = base[Self.position(of: owner, model.entities[entity], model)]
            return start + Int32(try Joined.need(layout.tables[owner].index[column], "column \(column) of \(layout.tables[owner].name)"))
        }
        let shapes = try concrete.map { member in
            let info = model.entities[member]
            return RowShape(
                entity: member, attributes: info.attributes,
                positions: try info.attributes.indices.map { index in
                    let owner = info.attributeOwners[index]
                    return try position(owner, layout.attributeColumns[owner][index])
                },
                toOne: try zip(info.toOneRelationships, layout.toOneColumns[member]).map { relationship, columns in
                    let owner = relationship.owner
                    return RowShape.ToOne(key: try position(owner, columns.key), entity: try columns.entity.map { try position(owner, $0) }, destination: relationship.destination)
                },
                markers: layout.paths[member].compactMap { markers[$0] })
        }
        let hasHierarchy = model.entities[model.entities[entity].root].hasSubentities
        return RowDecoder(shapes: shapes, fixed: hasHierarchy ? nil : entity, table: layout.tables[entity].name)
    }

    /// The arms of a fetch of a subtree too wide to join: one per concrete entity (its path of
    /// inner joins, `Z_ENT = ?` when it has sub-entities, NULL for the columns of entities off its
    /// path), the first naming the columns (`Z_ENT, Z_PK, Z_OPT`, then `c<position>`), and the
    /// values their `Z_ENT = ?` bind.
    func unionArms(_ layout: Joined) throws -> (arms: [String], values: [Value]) {
        var armValues: [Value] = []
        var arms: [String] = []
        for (number, member) in concrete.enumerated() {
            let path = layout.paths[member]
            let onPath = Set(path)
            // `s0` the arm's entity, `s1`, `s2`, … its ancestors upward.
            func alias(_ ancestor: Int) -> String { "s\(path.count - 1 - model.entities[ancestor].depth)" }
            let root = alias(path[0])
            var items = ["\(root).Z_ENT", "s0.Z_PK", "\(root).Z_OPT"]
            for entity in entities {
                let columns = layout.tables[entity].fetchOrder
                if onPath.contains(entity) {
                    let name = alias(entity)
                    items += columns.map { "\(name).\($0.name)" }
                } else {
                    items += columns.map { _ in "NULL" }
                }
            }
            if number == 0 {
                items = items.enumerated().map { position, item in
                    item + " AS " + (position < 3 ? ["Z_ENT", "Z_PK", "Z_OPT"][position] : "c\(position)")
                }
            }
            var arm = "SELECT \(items.joined(separator: ", ")) FROM \(layout.tables[member].name) s0"
            for ancestor in path.dropLast().reversed() {
                let name = alias(ancestor)
                arm += " JOIN \(layout.tables[ancestor].name) \(name) ON \(name).Z_PK = s0.Z_PK"
            }
            if model.entities[member].hasSubentities {
                arm += " WHERE \(root).Z_ENT = ?"
                armValues.append(.integer(Int64(member + 1)))
            }
            arms.append(arm)
        }
        return (arms, armValues)
    }
}
