/// How Core Data runs a fetch that takes more than one statement (docs/strategies.md, "Core
/// Data's statements"). Every layout runs each mode with the same steps (`StorageLayout.readQuery`);
/// what differs is each step's statement, the layout's own.
public enum FetchMode: Hashable, Sendable {
    /// One statement.
    case plain
    /// `fetchBatchSize`: the ID pass (entity numbers and keys in the request's order), then the
    /// objects in batches of `size` by key list until `objects` have been read, each batch put
    /// back in the ID pass's order in memory.
    case batched(size: Int, objects: Int)
    /// `propertiesToFetch`: the attributes named, in order, then each object's entity number and key.
    case partial([String])
    /// A fetched results controller sectioned by entity: per concrete entity of the request, in
    /// entity-number order, the count of its section and its objects in the request's order.
    case sectionedByEntity
    /// `relationshipKeyPathsForPrefetching`: the request's objects, then per to-many relationship
    /// named its destinations, the objects' keys bound as a key list: by a to-one inverse's key, or
    /// through a many-to-many's links, one row per link with its source's key (`ModelObject.source`).
    case prefetching([String])
    /// A fetch of dictionaries that are not objects' values: distinct values, or aggregates over
    /// groups (`DictionaryFetch`); one statement, each row one dictionary.
    case dictionary(DictionaryFetch)
}
