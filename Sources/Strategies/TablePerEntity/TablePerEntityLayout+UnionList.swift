extension TablePerEntityLayout {
    /// The select list shared by every arm of a read of `entity`'s subtree: entity number, `Z_PK`,
    /// `Z_OPT`, the entity's attributes and to-ones, then each descendant's own; each item named as
    /// Core Data's single table would name its column.
    struct UnionList: Sendable {
        enum Item: Sendable, Equatable { case attribute(owner: Int, position: Int), key(PropertyKey), entity(PropertyKey) }
        var items: [Item] = []
        var aliases: [String] = ["Z_ENT", "Z_PK", "Z_OPT"]
    }
}
