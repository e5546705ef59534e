import FetchRequests
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

/// The Core Data workloads that take more than one statement (`FetchMode`): each strategy runs the
/// same steps, each step its own statement.
extension Workloads {
    /// `fetch-batched`'s `fetchBatchSize`, Core Data's usual 20, and the objects it reads.
    public static let batchSize = 20
    public static let batchedObjects = 1_000

    /// `fetch-batched`: a fetched results controller scrolled through its first objects.
    static let fetchBatched = Workload(
        name: "fetch-batched",
        summary: "the main hierarchy in the model's order with fetchBatchSize \(batchSize): the ID pass, then batches by a key list (Core Data's _Z_intarray0) until \(batchedObjects) objects are read",
        warmups: 1, budget: 1, planRule: .any, needs: needsOrder) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, sort: inputs.sort, mode: .batched(size: batchSize, objects: batchedObjects))],
                          ordered: true)]
        }

    /// `prefetch`: `fetch-page`'s page with its to-many relationships prefetched.
    static let prefetch = Workload(
        name: "prefetch",
        summary: "fetch-page's \(WorkloadInputs.pageSize) objects, then per to-many relationship of the main root its destinations in one batch by the page's keys (a many-to-many's through its links, each destination with its source's key)",
        warmups: 5, budget: 0.25, planRule: .noScan, inDefaultRun: false,
        needs: { needsOrder($0) ?? ($0.prefetchedRelationships.isEmpty ? "the main root has no to-many relationship with an inverse" : nil) }) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, sort: inputs.sort, limit: WorkloadInputs.pageSize,
                                                  mode: .prefetching(inputs.model.prefetchedRelationships))])]
        }

    /// `fetch-partial`: `propertiesToFetch` of two attributes, of the hierarchy and of the leaf.
    static let fetchPartial = Workload(
        name: "fetch-partial",
        summary: "two attributes and the object ID of every object (propertiesToFetch): of the main hierarchy, and of the leaf entity",
        warmups: 1, budget: 1, planRule: .noScanUnlessWholeTable,
        needs: { $0.partialProperties($0.mainRoot).isEmpty ? "the main root has no attribute that is not binary" : nil }) { inputs in
            let model = inputs.model
            let hierarchy = WorkloadCase(variant: "hierarchy", requests: [FetchRequest(entity: model.mainRoot, mode: .partial(model.partialProperties(model.mainRoot)))])
            guard let leaf = model.leaf else { return [hierarchy] }
            return [hierarchy, WorkloadCase(variant: "leaf", requests: [FetchRequest(entity: leaf, mode: .partial(model.partialProperties(leaf)))])]
        }

    /// `fetch-sectioned`: a fetched results controller sectioned by entity.
    static let fetchSectioned = Workload(
        name: "fetch-sectioned",
        summary: "every object of the main hierarchy sectioned by entity: per concrete entity its count and its own objects in the model's order",
        warmups: 1, budget: 1, planRule: .any, inDefaultRun: false, needs: needsOrder) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, sort: inputs.sort, mode: .sectionedByEntity)], ordered: true)]
        }
}

extension Model {
    /// `prefetch`: the main root's to-many relationships with an inverse, by name: a to-one inverse,
    /// or a many-to-many other than one that is its own inverse (its links are kept one way).
    public var prefetchedRelationships: [String] {
        entities[mainRoot].relationships.filter { relationship in
            guard relationship.toMany, let inverse = inverse(of: relationship) else { return false }
            return inverse.owner != relationship.owner || inverse.name != relationship.name
        }.map(\.name)
    }

    /// `fetch-partial`: the two attributes asked of `entity` (fewer if it has fewer), none binary:
    /// for the main root its title-like attribute, then its first sort key, then its others in
    /// order; for another entity the root's first, then its own first attribute (Book: title, isbn).
    public func partialProperties(_ entity: Int) -> [String] {
        func readable(_ owner: Int) -> [String] { entities[owner].attributes.filter { $0.type.storage != .blob }.map(\.name) }
        let root = entities[entity].root
        let rootNames = readable(root)
        let preferred = ([titleAttribute] + (sortKeys ?? []).map { Optional($0.attribute) }).compactMap { $0 }.filter(rootNames.contains)
        var names: [String] = []
        let own = entity == root ? [] : readable(entity).filter { !rootNames.contains($0) }
        for name in preferred + rootNames where !names.contains(name) { names.append(name) }
        if let first = own.first { names = Array(names.prefix(1)) + [first] }
        return Array(names.prefix(2))
    }
}
