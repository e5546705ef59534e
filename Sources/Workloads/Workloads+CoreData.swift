import Models
import Strategies

/// The workloads of what a Core Data app does besides one fetch request (issue 29): each strategy
/// answers the same requests, single-table as Core Data sends them (docs/strategies.md, "Core
/// Data's statements").
extension Workloads {
    /// `fault`: the objects of `lookup-id`, each fault fired by object ID. Core Data reads the
    /// hierarchy's whole list by `Z_PK` alone; every other strategy reads the object as `lookup-id` does.
    static let fault = Workload(
        name: "fault", summary: "\(WorkloadInputs.lookupCount) objects' faults fired one by one by object ID (single-table: the hierarchy's whole column list by Z_PK alone, as Core Data logs it)",
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
}

extension Model {
    /// `fetch-own`: an entity of the main hierarchy with sub-entities and objects of its own, a
    /// middle entity if one has them (its rows sit among its sub-entities' in every layout), else the root.
    public var ownObjectsEntity: Int? {
        let found = entities[mainRoot].subtree.filter { entities[$0].hasSubentities && entities[$0].isConcrete && entities[$0].rows > 0 }
        return found.first { $0 != mainRoot } ?? found.first
    }
}
