import FetchRequests
import Foundation
import Generation
import Models
import Strategies

/// Every workload, in the order runs and tables show them. Each applies to a model when the model
/// has what it needs (`Workload.needs`); `bench model` and `bench list` say which and why not.
public enum Workloads {
    public static let singleInsertCount = 1_000

    public static let all: [Workload] = [
        Workload(name: "insert-bulk", summary: "every object with its links, in transactions of --batch objects, into a fresh store",
                 kind: .insertBulk, warmups: 0, budget: 1, minimumRounds: 1),
        Workload(name: "insert-single", summary: "the first \(singleInsertCount) objects of the main hierarchy, one transaction (one save) each, into a fresh store",
                 kind: .insertSingle, warmups: 1, budget: 1.5),
        Workload(name: "fetch-polymorphic", summary: "every object of the main hierarchy, each as its concrete entity (in the model's order, if it has one)",
                 warmups: 1, budget: 9, planRule: .any, needs: always) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, sort: inputs.sort)], ordered: !inputs.sort.isEmpty)]
        },
        Workload(name: "fetch-page", summary: "the first \(WorkloadInputs.pageSize) objects of the main hierarchy in the model's order",
                 warmups: 5, budget: 0.25, planRule: .indexOrder, needs: needsOrder) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, sort: inputs.sort, limit: WorkloadInputs.pageSize)], ordered: true)]
        },
        Workload(name: "page-offset", summary: "a deep page: \(WorkloadInputs.pageSize) objects from the middle of the model's order, skipped to with OFFSET",
                 warmups: 1, budget: 1.5, planRule: .indexOrder, needs: needsOrder) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, sort: inputs.sort, limit: WorkloadInputs.pageSize,
                                                  offset: inputs.deepPageOffset)], ordered: true)]
        },
        Workload(name: "page-keyset", summary: "the same deep page by keyset pagination (after the previous page's last sort values)",
                 warmups: 5, budget: 0.25, planRule: .indexOrder, needs: { model in
                     needsOrder(model) ?? (Set((model.sortKeys ?? []).map(\.ascending)).count > 1 ? "its order mixes ascending and descending keys" : nil)
                 }) { inputs in
            let predicate: FetchPredicate = inputs.deepPageCursor.isEmpty ? .all : .after(inputs.deepPageCursor)
            return [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, predicate: predicate, sort: inputs.sort,
                                                         limit: WorkloadInputs.pageSize)], ordered: true)]
        },
        Workload(name: "fetch-leaf", summary: "every object of one leaf entity (the model's leaf)", warmups: 1, budget: 2,
                 planRule: .noScanUnlessWholeTable, needs: { $0.leaf == nil ? "the main hierarchy has no sub-entities" : nil }) { inputs in
            inputs.model.leaf.map { [WorkloadCase(requests: [FetchRequest(entity: $0)])] } ?? []
        },
        Workload(name: "fetch-branch", summary: "every object of a middle entity (one with a parent and sub-entities) and its sub-entities",
                 warmups: 1, budget: 2, planRule: .noScanUnlessWholeTable,
                 needs: { $0.branch == nil ? "no entity of the main hierarchy has both a parent and sub-entities (depth 1)" : nil }) { inputs in
            inputs.model.branch.map { [WorkloadCase(requests: [FetchRequest(entity: $0)])] } ?? []
        },
        Workload(name: "fetch-by-relationship", summary: "every object reaching a given destination through a to-many relationship (ANY rel.attr == value): the most popular destination, and the rarest",
                 warmups: 5, budget: 1.5, planRule: .noScan,
                 needs: { $0.relationshipLookup == nil ? "no to-many relationship of the main hierarchy reaches an entity with a unique string attribute" : nil }) { inputs in
            guard let (entity, relationship, attribute) = inputs.model.relationshipLookup,
                  let info = inputs.model.entities[entity].relationship(relationship),
                  let position = inputs.model.entities[info.destination].attributeIndex(attribute) else { return [] }
            return [("popular", inputs.dataset.popularDestination(info)), ("rare", inputs.dataset.rareDestination(info))].map { variant, destination in
                let value = destination.map { inputs.dataset.object($0).values[position] } ?? .null
                return WorkloadCase(variant: variant, requests: [FetchRequest(entity: entity, predicate: .anyRelated(relationship, attribute, value))])
            }
        },
        Workload(name: "fetch-ordered", summary: "every member of one object's ordered to-many relationship, in its order (Core Data's order key, Z_FOK_…)",
                 warmups: 5, budget: 0.25, planRule: .noScan,
                 needs: { $0.orderedRelationship == nil ? "no ordered to-many relationship whose inverse is to-one (or absent) reaches objects" : nil }) { inputs in
            guard let (entity, name) = inputs.model.orderedRelationship, let relationship = inputs.model.entities[entity].relationship(name),
                  let inverse = inputs.model.inverse(of: relationship), let key = inputs.model.orderKey(of: inverse),
                  let owner = inputs.dataset.popularDestination(inverse) else { return [] }
            return [WorkloadCase(requests: [FetchRequest(entity: relationship.destination, predicate: .toOne(inverse.name, owner),
                                                         sort: [SortKey(key)])], ordered: true)]
        },
        Workload(name: "count-all", summary: "count of the main hierarchy's objects", warmups: 5, budget: 0.25, needs: always) { inputs in
            [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot)], counts: true, ordered: true)]
        },
        Workload(name: "count-leaf", summary: "count of the leaf entity's objects", warmups: 5, budget: 0.25,
                 planRule: .noScanUnlessWholeTable, needs: { $0.leaf == nil ? "the main hierarchy has no sub-entities" : nil }) { inputs in
            inputs.model.leaf.map { [WorkloadCase(requests: [FetchRequest(entity: $0)], counts: true, ordered: true)] } ?? []
        },
        Workload(name: "count-branch", summary: "count of a middle entity's objects (its sub-entities included)", warmups: 5, budget: 0.25,
                 planRule: .noScanUnlessWholeTable,
                 needs: { $0.branch == nil ? "no entity of the main hierarchy has both a parent and sub-entities (depth 1)" : nil }) { inputs in
            inputs.model.branch.map { [WorkloadCase(requests: [FetchRequest(entity: $0)], counts: true, ordered: true)] } ?? []
        },
        Workload(name: "count-by-type", summary: "one count per concrete entity of the main hierarchy", warmups: 5, budget: 0.25,
                 planRule: .noScanUnlessWholeTable, needs: always) { inputs in
            [WorkloadCase(requests: inputs.model.mainConcreteEntities.map { FetchRequest(entity: $0, includesSubentities: false) },
                          counts: true, ordered: true)]
        },
        Workload(name: "lookup-composite", summary: "the objects of one entity in a date window, served by a fetch index with the entity element",
                 warmups: 5, budget: 0.25, planRule: .noScan,
                 needs: { $0.compositeIndex == nil ? "no fetch index with the 'entity' element and a date attribute below the main root" : nil }) { inputs in
            guard let (entity, attribute) = inputs.model.compositeIndex, let declared = inputs.model.entities[entity].attribute(attribute) else { return [] }
            let spec = declared.values
            let low = spec?.min ?? 126_230_400, high = spec?.max ?? 757_382_400
            let start = (low + (high - low) * 0.45).rounded(), end = (low + (high - low) * 0.5).rounded()
            return [WorkloadCase(requests: [FetchRequest(entity: entity, includesSubentities: false,
                                                         predicate: .range(attribute, .real(start), .real(end)))])]
        },
        Workload(name: "lookup-attribute", summary: "\(WorkloadInputs.lookupCount) objects looked up one by one by a unique attribute",
                 warmups: 1, budget: 0.25, planRule: .noScan,
                 needs: { $0.lookupAttribute == nil ? "no entity of the main hierarchy has a one-attribute uniqueness constraint" : nil }) { inputs in
            guard let (entity, attribute) = inputs.model.lookupAttribute else { return [] }
            return [WorkloadCase(requests: inputs.lookupValues.map { FetchRequest(entity: entity, predicate: .equals(attribute, $0)) }, ordered: true)]
        },
        Workload(name: "lookup-id", summary: "\(WorkloadInputs.lookupCount) objects looked up one by one by object ID (entity and Z_PK): each its own entity's read by key",
                 warmups: 1, budget: 0.25, planRule: .noScan, needs: always) { inputs in
            [WorkloadCase(requests: inputs.lookupIDs.map { FetchRequest(entity: $0.entity, includesSubentities: false, predicate: .key($0.key)) },
                          ordered: true)]
        },
        fault,
        fetchOwn,
        filterSubAttribute,
        fetchBatched,
        prefetch,
        fetchPartial,
        fetchSectioned,
        Workload(name: "search-title", summary: "every object of the main hierarchy whose title-like attribute starts with a prefix (a range on its fetch index)",
                 warmups: 5, budget: 0.25, planRule: .noScan,
                 needs: { $0.titleAttribute == nil ? "no string attribute of the main root leads one of its fetch indexes" : nil }) { inputs in
            guard let prefix = inputs.titlePrefix, let title = inputs.model.titleAttribute else { return [] }
            return [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot,
                                                         predicate: .range(title, .text(prefix.lower), .text(prefix.upper)))])]
        },
        Workload(name: "filter-fk", summary: "every object of the main hierarchy pointing at one destination through a to-one relationship (a foreign key)",
                 warmups: 5, budget: 0.25, planRule: .noScan,
                 needs: { $0.foreignKey == nil ? "the main root declares no to-one relationship" : nil }) { inputs in
            guard let destination = inputs.foreignKeyDestination, let foreignKey = inputs.model.foreignKey else { return [] }
            return [WorkloadCase(requests: [FetchRequest(entity: inputs.model.mainRoot, predicate: .toOne(foreignKey, destination))])]
        },
        Workload(name: "delete-cascade", summary: "\(WorkloadInputs.writeCount) objects of the main hierarchy deleted by object ID, delete rules followed, one save, in a fresh copy of the store each time",
                 kind: .delete, warmups: 0, budget: 1.5, planRule: .noScan,
                 needs: { $0.denyRule.map { "\($0) has the delete rule deny" } }),
        Workload(name: "update", summary: "\(WorkloadInputs.writeCount) objects of the main hierarchy get a new value of one attribute and Z_OPT + 1, one save",
                 kind: .update, warmups: 2, budget: 0.75, planRule: .noScan,
                 needs: { $0.updateAttribute == nil ? "the main root has no attribute outside a uniqueness constraint" : nil }),
    ]

    static let always: @Sendable (Model) -> String? = { _ in nil }

    static func needsOrder(_ model: Model) -> String? {
        model.order == nil ? "the model gives no order and its main root has no unique attribute to sort by" : nil
    }

    public static var names: [String] { all.map(\.name) }
    public static func named(_ name: String) -> Workload? { all.first { $0.name == name } }

    /// The workloads that apply to `model`, in order.
    public static func applicable(to model: Model) -> [Workload] { all.filter { $0.applies(to: model) } }

    /// The workloads `bench run` runs on `model` without `--workloads`: those that apply and are in the default run.
    public static func defaultRun(on model: Model) -> [Workload] { applicable(to: model).filter(\.inDefaultRun) }

    /// Parses `--workloads` for a model: unknown names, and names that do not apply, are one line each.
    public static func parseList(_ text: String, for model: Model) throws -> [Workload] {
        let names = try NameList.parse(text, valid: Self.names, what: "workload")
        return try names.compactMap(named).map { workload in
            let name = workload.name
            if let reason = workload.needs(model) {
                throw NameList.Error(description: "workload \(name) does not apply to the model \(model.name): \(reason); leave it out")
            }
            return workload
        }
    }
}

extension Strategies {
    /// The strategy named `name`; an unknown name is the one error every command gives for it.
    public static func layout(named name: String) throws -> any StorageLayout.Type {
        guard let type = all.first(where: { $0.name == name }) else { throw NameList.unknown(name, valid: names, what: "strategy") }
        return type
    }

    /// The strategies a comma-separated list names, in its order (`--strategies`).
    public static func layouts(named list: String) throws -> [any StorageLayout.Type] {
        try NameList.parse(list, valid: names, what: "strategy").map { try layout(named: $0) }
    }
}

/// Parses `--strategies` and `--workloads` lists with one clear message per mistake.
public enum NameList {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// "unknown strategy 'x'; choose from: single-table, …"
    public static func unknown(_ name: String, valid: [String], what: String) -> Error {
        Error(description: "unknown \(what) '\(name)'; choose from: \(valid.joined(separator: ", "))")
    }

    public static func parse(_ text: String, valid: [String], what: String) throws -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if names.allSatisfy(\.isEmpty) {
            throw Error(description: "the \(what) list is empty; give one or more of: \(valid.joined(separator: ", "))")
        }
        if names.contains(where: \.isEmpty) {
            throw Error(description: "the \(what) list '\(text)' has an empty name; separate names with single commas")
        }
        for name in names where !valid.contains(name) { throw unknown(name, valid: valid, what: what) }
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw Error(description: "\(what) '\(name)' is listed twice")
        }
        return names
    }
}
