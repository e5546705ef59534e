import Models

extension SingleTable {
    /// The request as Core Data sends it. Firing a fault reads the object's root table with the
    /// whole hierarchy's list, by `Z_PK` alone: no `Z_ENT` condition, the object ID naming the
    /// entity already (the logged fault of docs/strategies.md, "Core Data's statements"). Any other
    /// request is sent as it is.
    func sent(_ request: FetchRequest) -> FetchRequest {
        guard request.firesFault else { return request }
        return FetchRequest(entity: schema.table(of: request.entity).root, predicate: request.predicate)
    }
}
