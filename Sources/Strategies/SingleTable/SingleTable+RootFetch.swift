import CoreDataLayout
import FetchRequests
import Models

extension SingleTable {
    /// A request Core Data sends as its root entity's fetch (`FetchRequest.asRootFetch`): the root
    /// table with the whole hierarchy's list and no `Z_ENT` condition, the predicate's columns
    /// `entity`'s. Firing a fault is `… WHERE t0.Z_PK = ?` (the logged fault of docs/strategies.md,
    /// "Core Data's statements"); a filter on a sub-entity's attribute its column's condition alone.
    func rootFetch(_ request: FetchRequest) throws -> PreparedQuery {
        // Only a key names one object whatever the entity: another condition would also select the sub-entities' objects.
        if case .key = request.predicate {} else if !request.includesSubentities, model.entities[request.entity].hasSubentities {
            throw LayoutError(Self.name, "a root fetch answers \(model.entities[request.entity].name) only with its sub-entities, or by key")
        }
        let root = schema.table(of: request.entity).root
        let read = OneTableRead(builder: try sqlWhere(request), table: schema.table(of: root).name, predicate: request.predicate)
        let (list, positions) = schema.selectList(root)
        return try read.fetch(request, list: list, decoder: try decoder(root, model.concreteEntities(in: model.entities[root].subtree), positions))
    }
}
