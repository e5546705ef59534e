import CoreDataLayout
import FetchRequests
import Generation
import Models
import SQLite

extension StorageLayout {
    /// The query answering `request` as Core Data runs it: one statement (`fetchQuery`), or the
    /// steps of its mode (`FetchMode`), each step the layout's own statement. Every layout runs a
    /// mode with the same steps, so that their costs compare.
    /// The request's count (`countQuery`) when `counts`, else its objects (`readQuery`).
    public func query(_ request: FetchRequest, counts: Bool) throws -> PreparedQuery {
        counts ? try countQuery(request) : try readQuery(request)
    }

    public func readQuery(_ request: FetchRequest) throws -> PreparedQuery {
        var plain = request
        plain.mode = .plain
        switch request.mode {
        case .plain: return try fetchQuery(request)
        case let .partial(properties): return try partialQuery(plain, properties: properties)
        case let .batched(size, objects): return try batchedQuery(plain, size: size, objects: objects)
        case .sectionedByEntity: return try sectionedQuery(plain)
        case let .prefetching(names): return try prefetchQuery(plain, names)
        case let .dictionary(fetch): return try dictionaryQuery(plain, fetch)
        }
    }

    public var batchesByEntity: Bool { false }

    /// `fetchBatchSize`: the ID pass (`partialQuery` with no properties: entity number and key, in
    /// the request's order), then per batch `<key> IN (SELECT * FROM _Z_intarray0) LIMIT <size>`
    /// with the batch's keys bound (per entity, when `batchesByEntity`), its rows put back in the ID
    /// pass's order, until `objects` are read.
    private func batchedQuery(_ request: FetchRequest, size: Int, objects: Int) throws -> PreparedQuery {
        guard size > 0 else { throw LayoutError(name, "a batch size must be positive, not \(size)") }
        let ids = try partialQuery(request, properties: [])
        func batch(_ entity: Int, _ includesSubentities: Bool) throws -> PreparedQuery {
            try fetchQuery(FetchRequest(entity: entity, includesSubentities: includesSubentities, predicate: .keyInList, limit: size))
        }
        let entities = request.includesSubentities ? model.concreteEntities(in: model.entities[request.entity].subtree) : [request.entity]
        // Per entity number (1-based, as the ID pass reads it), or all under 0.
        let batches: [Int64: PreparedQuery] = batchesByEntity ? Dictionary(uniqueKeysWithValues: try entities.map { (Int64($0 + 1), try batch($0, false)) })
                                                              : [0: try batch(request.entity, request.includesSubentities)]
        return PreparedQuery(.batched(ids: ids, batches: batches, size: size, objects: objects, byEntity: batchesByEntity))
    }

    /// A fetched results controller sectioned by entity: per concrete entity of the request, in
    /// entity-number order, its count (`countQuery`, as `count-by-type`) and its own objects in the
    /// request's order (`fetchQuery` with `includesSubentities = NO`); a section whose objects are
    /// not its count is a corrupt store.
    private func sectionedQuery(_ request: FetchRequest) throws -> PreparedQuery {
        let entities = request.includesSubentities ? model.concreteEntities(in: model.entities[request.entity].subtree) : [request.entity]
        let sections = try entities.map { entity in
            let own = FetchRequest(entity: entity, includesSubentities: false, predicate: request.predicate, sort: request.sort)
            return (count: try countQuery(own), fetch: try fetchQuery(own))
        }
        return PreparedQuery(.sectioned(zip(entities, sections).map { (model.entities[$0].name, $1.count, $1.fetch) }))
    }

    /// `relationshipKeyPathsForPrefetching`: the request's objects, then per relationship named its
    /// destinations by their inverse to-one's key in the objects' keys (Core Data's `WHERE t0.ZITEM
    /// IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZITEM`), or for a many-to-many its links' rows
    /// (`linkedQuery`, each destination once per source, the source's key beside it).
    private func prefetchQuery(_ request: FetchRequest, _ names: [String]) throws -> PreparedQuery {
        let page = try fetchQuery(request)
        let batches = try names.map { name in
            let relationship = try self.relationship(request.entity, name)
            guard relationship.toMany, let inverse = model.inverse(of: relationship), inverse.owner != relationship.owner || inverse.name != name else {
                throw LayoutError(Self.name, "a prefetch reads a to-many relationship with an inverse (not its own), and \(name) is not one")
            }
            if relationship.isManyToMany { return try linkedQuery(relationship) }
            return try fetchQuery(FetchRequest(entity: relationship.destination, predicate: .toOneInList(inverse.name)))
        }
        return PreparedQuery(.prefetching(page: page, batches: batches))
    }

}

extension RowDecoder {
    /// The rows of a partial fetch (`StorageLayout.partialQuery`): the values of `attributes` in
    /// columns 0 ..< n (each read as its storage), then the entity number (or a `0` standing for
    /// entity `fixed`, as Core Data selects it for an entity without sub-entities) and the key.
    /// The object holds those values only, no to-one. The columns at `hex` hold a UUID or binary
    /// value as the hex text of a JSON document.
    static func partial(_ attributes: [Attribute], fixed: Int? = nil, hex: Set<Int> = [], table: String) -> RowDecoder {
        let storages = attributes.map(\.type.storage)
        let entityColumn = Int32(storages.count)
        return RowDecoder { row in
            guard !row.isNull(at: entityColumn), !row.isNull(at: entityColumn + 1) else { throw CorruptRow("a row of \(table) has no entity number or no Z_PK") }
            let values = try storages.enumerated().map { index, storage in
                guard let value = row.value(at: Int32(index), as: storage, hex: hex.contains(index)) else {
                    throw CorruptRow("a row of \(table) holds '\(attributes[index].name)' as text that is not lowercase hex")
                }
                return value
            }
            let entity = fixed ?? Int(row.int64(at: entityColumn)) - 1
            return ModelObject(id: ObjectID(entity: entity, key: row.int64(at: entityColumn + 1)), values: values, toOne: [])
        }
    }
}

extension Statement {
    /// Column `index` read as `storage`; with `hex`, the binary value a JSON document keeps as
    /// lowercase hex text, decoded (nil when the text is not such hex).
    func value(at index: Int32, as storage: AttributeType.Storage, hex: Bool) -> Value? {
        guard hex, case let .text(text) = value(at: index, as: .text) else { return value(at: index, as: storage) }
        return try? .blob(Array(text.utf8).withUnsafeBufferPointer { try FlatJSON.Reader.unhex($0, at: 0) })
    }
}

extension Model {
    /// The attributes of `entity` a partial fetch asks for, by name, in order: every one must be an
    /// attribute of it (a layout's check).
    func partialAttributes(_ entity: Int, _ names: [String], layout: String) throws -> [Attribute] {
        try names.map { name in
            guard let attribute = entities[entity].attribute(name) else { throw LayoutError(layout, "'\(name)' is not an attribute of '\(entities[entity].name)'") }
            return attribute
        }
    }
}
