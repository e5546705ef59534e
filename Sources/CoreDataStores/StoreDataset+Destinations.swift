import Generation
import Models
import SQLite

extension StoreDataset {
    /// The destination the most objects point at through the relationship: of a to-one, the one
    /// its owners name most often; of a many-to-many, the one with the most links; of a to-many
    /// whose inverse is a to-one, the first (by key) that has an owner. Ties go to the lowest key.
    public func popularDestination(_ relationship: Model.Relationship) -> ObjectID? { destination(relationship, busiest: true) }

    /// The destination the fewest objects point at (of those any points at): ties to the lowest key;
    /// of a to-many whose inverse is a to-one, the last that has an owner.
    public func rareDestination(_ relationship: Model.Relationship) -> ObjectID? { destination(relationship, busiest: false) }

    private func destination(_ relationship: Model.Relationship, busiest: Bool) -> ObjectID? {
        let schema = plan.schema, destination = model.entities[relationship.destination]
        let order = busiest ? "DESC" : "ASC"
        /// `Z_ENT IN (…)` of an entity's subtree, its store numbers bound.
        func among(_ entity: Int) -> (sql: String, numbers: [Int64]) {
            let numbers = model.concreteEntities(in: model.entities[entity].subtree).compactMap { self.numbers[$0] }
            return ("Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", ")))", numbers)
        }
        var query: (sql: String, numbers: [Int64])?
        if !relationship.toMany, let column = schema.columns(relationship.owner, toOne: relationship.name)?.key {
            let owners = among(relationship.owner)
            query = ("SELECT \(column) FROM \(schema.table(of: relationship.owner).name) WHERE \(column) IS NOT NULL AND \(owners.sql) GROUP BY \(column) ORDER BY COUNT(*) \(order), \(column) LIMIT 1",
                     owners.numbers)
        } else if relationship.isManyToMany, let link = try? schema.link(relationship) {
            query = ("SELECT \(link.other) FROM \(link.name) GROUP BY \(link.other) ORDER BY COUNT(*) \(order), \(link.other) LIMIT 1", [])
        } else if let inverse = model.inverse(of: relationship), !inverse.toMany, let column = schema.columns(inverse.owner, toOne: inverse.name)?.key {
            let members = among(relationship.destination)
            query = ("SELECT Z_PK FROM \(schema.table(of: relationship.destination).name) WHERE \(column) IS NOT NULL AND \(members.sql) ORDER BY Z_PK \(busiest ? "ASC" : "DESC") LIMIT 1",
                     members.numbers)
        }
        if let query, let key = connection.read({ database in try database.scalarInt(query.sql, query.numbers) }) ?? nil,
           let entity = hierarchies[destination.root]?.entity(of: key), destination.subtree.contains(entity) {
            return ObjectID(entity: entity, key: key)
        }
        // Nothing points at any: the first (or last) object of the destination's subtree.
        guard let keys = hierarchies[destination.root] else { return nil }
        let positions = busiest ? Array(keys.keys.indices) : keys.keys.indices.reversed()
        return positions.first { destination.subtree.contains(Int(keys.entities[$0])) }.map { ObjectID(entity: Int(keys.entities[$0]), key: keys.keys[$0]) }
    }
}
