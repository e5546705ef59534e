import FetchRequests
import Generation
import Models
import SQLite

/// Each statement of `EnumEntity`, derived from its layout.
extension EnumEntity {
    public func insertPlan(_ entity: Int) -> InsertPlan? { insertPlans[entity] }

    /// The kind filter of a request: none for a whole hierarchy or a table of one entity,
    /// `ZKIND >= a AND ZKIND <= b` for a middle entity with its sub-entities, `ZKIND = n` for one entity.
    func entityTerms(_ request: FetchRequest) -> (sql: [String], values: [Value]) {
        let entity = model.entities[request.entity]
        guard let kind = kindColumn(entity.index), !(request.includesSubentities && entity.hasSubentities && entity.isRoot) else { return ([], []) }
        return ([EnumEntity.kindCondition("t0.\(kind)", entity, includesSubentities: request.includesSubentities)], [])
    }

    /// The select list of a request (`ZKIND, Z_PK, Z_OPT`, then the columns its kinds use, in the
    /// table's fetch order) and the decoder that switches on the kind.
    func selection(_ request: FetchRequest) throws -> (list: String, decoder: RowDecoder) {
        let entity = model.entities[request.entity]
        return try compactSelection(entity.index, request.includesSubentities ? model.concreteEntities(in: entity.subtree) : (entity.isConcrete ? [entity.index] : []))
    }
}
