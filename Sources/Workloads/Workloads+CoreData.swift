import Models
import Strategies

/// The workloads of what a Core Data app does besides one fetch request: each strategy
/// answers the same requests, single-table as Core Data sends them (docs/strategies.md, "Core
/// Data's statements").
extension Workloads {
    /// `fault`: the objects of `lookup-id`, each fault fired by object ID. Core Data reads the
    /// hierarchy's whole list by `Z_PK` alone; every other strategy reads the object as `lookup-id` does.
    static let fault = Workload(
        name: "fault", summary: "\(WorkloadInputs.lookupCount) objects' faults fired one by one by object ID (as Core Data logs it: the hierarchy's whole column list by Z_PK alone)",
        warmups: 1, budget: 0.25, planRule: .noScan, needs: always) { inputs in
            [WorkloadCase(requests: inputs.lookupIDs.map(FetchRequest.fault), ordered: true)]
        }

    /// `fetch-own`: `includesSubentities = NO` on an entity that has both sub-entities and objects of its own.
    static let fetchOwn = Workload(
        name: "fetch-own", summary: "the objects of a middle or root entity itself, not its sub-entities' (includesSubentities = NO)",
        warmups: 1, budget: 1, planRule: .noScanUnlessWholeTable,
        needs: { $0.ownObjectsEntity == nil ? "no entity of the main hierarchy has both sub-entities and objects of its own" : nil }) { inputs in
            inputs.model.ownObjectsEntity.map { [WorkloadCase(requests: [FetchRequest(entity: $0, includesSubentities: false)])] } ?? []
        }

    /// `filter-sub-attribute`: `lookup-attribute`'s values looked up on the root, when its attribute
    /// is a sub-entity's own (Book's isbn): Core Data's fetch of the root names the column alone,
    /// no `Z_ENT` condition; every other strategy reads the sub-entity by it, as `lookup-attribute` does.
    static let filterSubAttribute = Workload(
        name: "filter-sub-attribute",
        summary: "\(WorkloadInputs.lookupCount) objects looked up one by one on the main root by a unique attribute only one sub-entity has (as Core Data words it: the root's fetch, no Z_ENT condition)",
        warmups: 1, budget: 0.25, planRule: .noScan,
        needs: { $0.subentityAttribute == nil ? "no sub-entity of the main hierarchy declares its own attribute with a one-attribute uniqueness constraint" : nil }) { inputs in
            guard let (entity, attribute) = inputs.model.subentityAttribute else { return [] }
            return [WorkloadCase(requests: inputs.lookupValues.map { FetchRequest(entity: entity, predicate: .equals(attribute, $0), asRootFetch: true) },
                                 ordered: true)]
        }
}

extension Model {
    /// `filter-sub-attribute`: `lookup-attribute`'s attribute when an entity below the main root
    /// declares it (no other entity of the hierarchy has it), else `nil`.
    public var subentityAttribute: (entity: Int, attribute: String)? {
        guard let (entity, attribute) = lookupAttribute, entity != mainRoot, let position = entities[entity].attributeIndex(attribute),
              entities[entity].attributeOwners[position] == entity else { return nil }
        return (entity, attribute)
    }

    /// `fetch-own`: an entity of the main hierarchy with sub-entities and objects of its own, a
    /// middle entity if one has them (its rows sit among its sub-entities' in every layout), else the root.
    public var ownObjectsEntity: Int? {
        let found = entities[mainRoot].subtree.filter { entities[$0].hasSubentities && entities[$0].isConcrete && entities[$0].rows > 0 }
        return found.first { $0 != mainRoot } ?? found.first
    }
}
