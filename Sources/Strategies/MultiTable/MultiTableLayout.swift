import Models

/// A layout that keeps objects in several tables (joined, table-per-entity). It says which tables
/// hold an object's rows, where its key, version and entity number are, where each property is,
/// and which join tables a many-to-many reaches; the updates, versions, deletes, cleared inverses
/// and link counts are written once from that (`MultiTableLayout+Writes.swift`), and so are the
/// predicate forms that go through relationships (`MultiTableLayout+Predicates.swift`).
protocol MultiTableLayout: StorageLayout {
    /// The tables holding an object of `entity`, the one with its version first (an object has a
    /// row in each).
    func rowTables(_ entity: Int) -> [String]
    /// The table holding the key, version and entity number of `entity`'s objects (its own or a
    /// root's); nil when no table holds them (an abstract entity of a layout without its table).
    func identity(_ entity: Int) -> RowIdentity?
    /// The entities under whose identities the objects of `entity`'s subtree are kept: itself,
    /// when one table holds the whole subtree's identities, else each of its concrete entities.
    func holders(_ entity: Int) -> [Int]
    /// The table and column of attribute `position` (in `attributes`) of `entity`'s objects.
    func attributePlace(_ entity: Int, _ position: Int) -> (table: String, column: String)
    /// The table and columns of to-one `position` (in `toOneRelationships`) of `entity`'s objects.
    func toOnePlace(_ entity: Int, _ position: Int) -> (table: String, key: String, entity: String?)
    /// The join tables many-to-many `relationship` reaches from `entity`'s objects, by partner.
    func joinLinks(_ entity: Int, _ relationship: Model.Relationship) throws -> [JoinLink]
    /// Every join table of many-to-many `relationship`, once.
    func joinTableNames(_ relationship: Model.Relationship) -> [String]
}

/// Where the objects of an entity keep their key (`Z_PK`), version (`Z_OPT`) and entity number:
/// a table, and the number as its `Z_ENT` column or a literal (a table of one entity's objects).
struct RowIdentity: Sendable, Equatable {
    enum Number: Sendable, Equatable { case column, literal(Int) }
    let table: String
    let number: Number

    /// The entity number of a row aliased `alias`.
    func number(_ alias: String) -> String {
        switch number {
        case .column: "\(alias).Z_ENT"
        case let .literal(value): "\(value)"
        }
    }
}

/// One join table reached from an entity through a many-to-many relationship: its name, its
/// column for the entity's key and for the partner's, and the partner (an entity whose objects'
/// identities `MultiTableLayout.identity` gives).
struct JoinLink: Sendable {
    var join: String
    var this: String
    var other: String
    var partner: Int
}
