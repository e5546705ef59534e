import Models

extension Model {
    /// About how many bytes one strategy's store of this model takes: per object a row header and
    /// key columns, 9 bytes a number or a to-one key, 48 a text or a blob, doubled for the indexes
    /// and the pages' free space. Generous on purpose (the publication model's 50,200 objects take
    /// 17–19 MiB per store; this says about 34 MiB): it decides whether the stores fit in memory.
    public var estimatedStoreBytes: Int64 {
        entities.reduce(Int64(0)) { total, entity in
            let columns = entity.attributes.reduce(64) { width, attribute in
                width + (attribute.type.storage == .text || attribute.type.storage == .blob ? 48 : 9)
            } + 9 * entity.toOneRelationships.count
            return total + Int64(entity.rows) * Int64(columns) * 2
        }
    }
}
