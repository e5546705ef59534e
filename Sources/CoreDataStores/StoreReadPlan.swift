import CoreDataLayout
import Generation
import Models

/// How a store's objects are read back as the model's objects: per root entity, one SELECT of its
/// table by a range of keys, and where each concrete entity's attributes and to-ones are in its
/// row; per many-to-many relationship whose links an entity's objects hold, the SELECT of its join
/// table's rows by a range of the owners' keys. Names are Core Data's, derived from the model
/// (`CoreDataSchema`), as `bench model` proves them against the store's tables.
struct StoreReadPlan: Sendable {
    struct Attribute: Sendable {
        let name: String
        let column: Int32
        let storage: AttributeType.Storage
        let optional: Bool
    }

    struct ToOne: Sendable {
        let name: String
        let key: Int32
        /// The destination's root: where its key is looked up (its concrete entity is found there).
        let destinationRoot: Int
        let destinationSubtree: ClosedRange<Int>
    }

    /// The join rows of one many-to-many relationship, by a range of its owners' keys.
    struct Links: Sendable {
        let owner: Int
        let name: String
        /// `SELECT owner, destination[, order] …`: the order column of an ordered join table third.
        let sql: String
        let ordered: Bool
        let destinationRoot: Int
        let destinationSubtree: ClosedRange<Int>
    }

    struct Entity: Sendable {
        let attributes: [Attribute]
        let toOnes: [ToOne]
        /// Indexes in `Hierarchy.links`, in `ModelObject.links` order.
        let links: [Int]
    }

    struct Hierarchy: Sendable {
        let root: Int
        let table: String
        /// `SELECT Z_PK, Z_ENT, … FROM table WHERE Z_PK BETWEEN ? AND ? ORDER BY Z_PK`.
        let sql: String
        /// Per concrete entity of the hierarchy (by entity index).
        let entities: [Int: Entity]
        let links: [Links]
    }

    /// Per root entity (by entity index).
    let hierarchies: [Int: Hierarchy]
    /// Core Data's names for the model's properties.
    let schema: CoreDataSchema

    init(_ model: Model) throws {
        let schema = CoreDataSchema(model)
        self.schema = schema
        var hierarchies: [Int: Hierarchy] = [:]
        for root in model.roots {
            var columns: [String] = []
            func position(_ column: String) -> Int32 {
                if let index = columns.firstIndex(of: column) { return Int32(index + 2) }
                columns.append(column)
                return Int32(columns.count + 1)
            }
            var links: [Links] = []
            var entities: [Int: Entity] = [:]
            for index in model.concreteEntities(in: model.entities[root].subtree) {
                let entity = model.entities[index]
                let attributes = entity.attributes.enumerated().map { offset, attribute in
                    Attribute(name: attribute.name, column: position(schema.column(index, attributeAt: offset)), storage: attribute.type.storage,
                              optional: attribute.optional)
                }
                let toOnes = try entity.toOneRelationships.map { relationship in
                    let key = try schema.toOneColumns(index, relationship.name).key
                    let destination = model.entities[relationship.destination]
                    return ToOne(name: relationship.name, key: position(key), destinationRoot: destination.root,
                                 destinationSubtree: destination.subtree)
                }
                let linked = try entity.linkedRelationships.map { relationship in
                    if let known = links.firstIndex(where: { $0.owner == relationship.owner && $0.name == relationship.name }) { return known }
                    let join = try schema.link(relationship)
                    let order = schema.joinTables.first { $0.name == join.name }?.orderColumn
                    let destination = model.entities[relationship.destination]
                    let sql = "SELECT \(join.this), \(join.other)\(order.map { ", \($0)" } ?? "") FROM \(join.name) WHERE \(join.this) BETWEEN ? AND ? "
                        + "ORDER BY \(join.this), \(order.map { "\($0), " } ?? "")\(join.other)"
                    links.append(Links(owner: relationship.owner, name: relationship.name, sql: sql, ordered: order != nil,
                                       destinationRoot: destination.root, destinationSubtree: destination.subtree))
                    return links.count - 1
                }
                entities[index] = Entity(attributes: attributes, toOnes: toOnes, links: linked)
            }
            let table = schema.table(of: root).name
            let list = (["Z_PK", "Z_ENT"] + columns).joined(separator: ", ")
            hierarchies[root] = Hierarchy(root: root, table: table, sql: "SELECT \(list) FROM \(table) WHERE Z_PK BETWEEN ? AND ? ORDER BY Z_PK",
                                          entities: entities, links: links)
        }
        self.hierarchies = hierarchies
    }
}
