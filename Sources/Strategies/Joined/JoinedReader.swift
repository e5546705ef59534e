import Generation
import Models
import SQLite

/// What every read of one entity (with or without its sub-entities) shares: the tables, their
/// aliases, the columns read (`MultiTableRead`: each table's own, in `entities` order), and
/// joined's two forms of the select list: the joins of a fetch, or past SQLite's 64 tables the
/// arms of a `UNION ALL`, one per concrete entity.
struct JoinedReader {
    let entity: Int
    /// The depth of `entity` in its hierarchy: its path from the root is `depth + 1` tables.
    let depth: Int
    /// The tables read: the path from the root, then the descendants (when included), in entity-number order.
    let entities: [Int]
    let descendants: [Int]
    let read: MultiTableRead
    /// `Z_ENT, Z_PK, Z_OPT`, every entity's own columns (then the left-joined tables' `Z_PK`).
    let selectList: String
    /// The decoder of the joins' rows (of the union's when `needsUnion`).
    let decoder: RowDecoder
    /// The decoder of the union's rows, which have no `Z_PK` markers (every table on an arm's path is inner-joined).
    let unionDecoder: RowDecoder
    /// Whether a fetch must be a `UNION ALL` of one arm per concrete entity (too many tables to join).
    let needsUnion: Bool

    /// SQLite joins at most 64 tables in one SELECT.
    static let maximumJoinedTables = 64

    /// The read of `entity` in `layout`, with its sub-entities when `includesSubentities` and it has any.
    init(_ layout: Joined, entity: Int, includesSubentities: Bool) {
        let model = layout.model
        let info = model.entities[entity]
        let descendants = includesSubentities && info.hasSubentities ? Array(info.subtree.dropFirst()) : []
        let entities = layout.paths[entity] + descendants
        let read = MultiTableRead(model, entity: entity, includesSubentities: includesSubentities, columns: entities.flatMap { member in
            layout.tables[member].properties.map { MultiTableRead.Column(owner: member, property: $0) }
        })
        let root = Self.alias(at: 0, depth: info.depth)
        let columns = read.columns.map { "\(Self.alias(at: Self.position(of: $0.owner, info, model), depth: info.depth)).\(layout.columnName($0))" }
        var items = [model.entities[info.root].hasSubentities ? "\(root).Z_ENT" : "0", "t0.Z_PK", "\(root).Z_OPT"] + columns
        let needsUnion = entities.count > Self.maximumJoinedTables
        if !needsUnion { items += descendants.indices.map { "\(Self.alias(at: info.depth + 1 + $0, depth: info.depth)).Z_PK" } }
        self.entity = entity
        self.needsUnion = needsUnion
        depth = info.depth
        self.entities = entities
        self.descendants = descendants
        self.read = read
        selectList = items.joined(separator: ", ")
        let fixed = model.entities[info.root].hasSubentities ? nil : entity, table = layout.tables[entity].name
        func destination(_ member: Int, _ toOne: Int) -> Int { model.entities[member].toOneRelationships[toOne].destination }
        unionDecoder = read.decoder(fixed: fixed, table: table, destination: destination)
        // Each left-joined table's `Z_PK` follows the columns; those on a concrete entity's path must not be NULL.
        let markers = Int32(3 + columns.count - entity - 1)
        decoder = needsUnion ? unionDecoder : read.decoder(fixed: fixed, table: table, destination: destination) { member in
            layout.paths[member].filter { $0 > entity }.map { markers + Int32($0) }
        }
    }

    /// The position in `entities` of `member` (on the path, or a descendant when they are read):
    /// the path by depth, then the descendants, whose numbers follow the entity's (a subtree's are contiguous).
    static func position(of member: Int, _ entity: Model.Entity, _ model: Model) -> Int {
        member > entity.index ? entity.depth + member - entity.index : model.entities[member].depth
    }

    func position(of member: Int) -> Int { Self.position(of: member, read.model.entities[entity], read.model) }

    /// The alias of the table at `position` in `entities`: `t0` the entity read, `t1`, `t2`, … its
    /// ancestors upward, then the descendants in entity-number order.
    static func alias(at position: Int, depth: Int) -> String { "t\(position <= depth ? depth - position : position)" }

    /// The alias of `member`'s table (on the path, or a descendant when they are read).
    func alias(_ member: Int) -> String { Self.alias(at: position(of: member), depth: depth) }

    /// Whether a fetch joining `extra` more tables (a predicate's, a join table) must be the union.
    func needsUnion(joining extra: Int) -> Bool { needsUnion || entities.count + extra > Self.maximumJoinedTables }

    /// The arms of a fetch of a subtree too wide to join: one per concrete entity (its path of
    /// inner joins, `Z_ENT = ?` when it has sub-entities, NULL for the columns of entities off its
    /// path), the first naming the columns (`Z_ENT, Z_PK, Z_OPT`, then `c<position>`), and the
    /// values their `Z_ENT = ?` bind.
    func unionArms(_ layout: Joined) -> (arms: [String], values: [Value]) {
        var values: [Value] = []
        let names = ["Z_ENT", "Z_PK", "Z_OPT"] + read.columns.indices.map { "c\($0 + 3)" }
        let arms = read.concrete.enumerated().map { number, member in
            let path = layout.paths[member]
            // `s0` the arm's entity, `s1`, `s2`, … its ancestors upward.
            func alias(_ ancestor: Int) -> String { "s\(path.count - 1 - read.model.entities[ancestor].depth)" }
            let root = alias(path[0])
            let list = read.arm(member, ["\(root).Z_ENT", "s0.Z_PK", "\(root).Z_OPT"], names: number == 0 ? names : nil) {
                "\(alias($0.owner)).\(layout.columnName($0))"
            }
            var arm = "SELECT \(list) FROM \(layout.tables[member].name) s0"
            for ancestor in path.dropLast().reversed() {
                arm += " JOIN \(layout.tables[ancestor].name) \(alias(ancestor)) ON \(alias(ancestor)).Z_PK = s0.Z_PK"
            }
            if read.model.entities[member].hasSubentities {
                arm += " WHERE \(root).Z_ENT = ?"
                values.append(.integer(Int64(member + 1)))
            }
            return arm
        }
        return (arms, values)
    }
}
