import Generation
import Models
import SQLite

/// Each statement of `EnumEntity`, derived from its layout.
extension EnumEntity {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    func storedEntity(_ entity: Int) -> Int { hierarchies[entity].stored }

    func kindColumn(_ entity: Int) -> String? { hierarchies[entity].kind }

    func place(_ entity: Int, _ position: Int) -> RowPlace { RowPlace(column: valueColumns[entity][position], kinds: valueKinds[entity][position]) }

    func columns(_ entity: Int, toOne name: String) -> RowToOne? { toOneColumns[entity][name] }

    /// The join table of a many-to-many relationship, kept as the stored model's relationship.
    func link(_ relationship: Model.Relationship) throws -> (name: String, this: String, other: String) {
        try schema.link(try Self.need(storedRelationships[PropertyKey(relationship)], "stored relationship \(relationship.name)"))
    }

    /// The kind filter of a request: none for a whole hierarchy or a table of one entity,
    /// `ZKIND >= a AND ZKIND <= b` for a middle entity with its sub-entities, `ZKIND = n` for one entity.
    func entityTerms(_ request: FetchRequest) -> (sql: [String], values: [Value]) {
        let entity = model.entities[request.entity]
        guard let kind = hierarchies[entity.index].kind, !(request.includesSubentities && entity.hasSubentities && entity.isRoot) else { return ([], []) }
        return ([EnumEntity.kindCondition("t0.\(kind)", entity, includesSubentities: request.includesSubentities)], [])
    }

    /// The select list of a request (`ZKIND, Z_PK, Z_OPT`, then the columns its kinds use, in the
    /// table's fetch order) and the decoder that switches on the kind.
    func selection(_ request: FetchRequest) throws -> (list: String, decoder: RowDecoder) {
        let entity = model.entities[request.entity]
        return try compactSelection(entity.index, request.includesSubentities ? model.concreteEntities(in: entity.subtree) : (entity.isConcrete ? [entity.index] : []))
    }
}
