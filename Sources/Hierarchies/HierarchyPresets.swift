/// The described hierarchies `bench run --preset` knows, besides `publications` (the seeds' model,
/// which the hand-written strategies and the full workload set measure).
public enum HierarchyPresets {
    /// The name of the seeds' publication model: not a description, the suite's main run.
    public static let publications = "publications"

    public static let all: [HierarchyDescription] = [efcoreDocs, codingMilitia, timestamps]

    public static var names: [String] { [publications] + all.map(\.name) }

    public static func named(_ name: String) -> HierarchyDescription? { all.first { $0.name == name } }

    /// EF Core's documentation benchmark of inheritance mapping: a concrete root and six children
    /// deriving from it, one integer property each, 5,000 rows of every type, and "load everything".
    /// (Published on SQL Server: TPH 149 ms, TPC 158 ms, TPT 313 ms.) EF's own model nests two of
    /// the children one level deeper; the suite's described hierarchies have one level, so here
    /// all six derive from the root.
    public static let efcoreDocs = HierarchyDescription(
        name: "efcore-docs",
        summary: "EF Core docs' benchmark: a root and 6 children, one integer each, 5,000 rows per type (35,000)",
        base: .init(name: "Root", abstract: false, attributes: [.init("rootProperty", .integer)], rows: 5_000),
        subEntities: (1 ... 6).map { .init(name: "Child\($0)", attributes: [.init("child\($0)Property", .integer)], rows: 5_000) }
    )

    /// The CodingMilitia comparison (PostgreSQL, MySQL, SQL Server): an abstract base with five
    /// properties (four attributes and a foreign key to an owner), ten derived types with five
    /// properties each, 100,000 rows per type: offset and keyset pagination, filter by the foreign
    /// key, single by id, single insert.
    public static let codingMilitia = HierarchyDescription(
        name: "codingmilitia",
        summary: "CodingMilitia's comparison: abstract base with 5 properties (one a foreign key), 10 derived types with 5 each, 100,000 rows per type (1,000,000)",
        base: .init(name: "BaseEntity", abstract: true, attributes: [
            .init("name", .string), .init("createdAt", .date), .init("amount", .double), .init("quantity", .integer),
        ]),
        subEntities: (1 ... 10).map { index in
            .init(name: "Derived\(index)", attributes: [
                .init("d\(index)Text", .string), .init("d\(index)Number", .integer), .init("d\(index)Amount", .double),
                .init("d\(index)Date", .date), .init("d\(index)Flag", .boolean),
            ], rows: 100_000)
        },
        owner: .init(entity: "Owner", relationship: "owner", rows: 1_000)
    )

    /// Seeds 000 and 003's trap: unrelated entities (seed 004's Series, Episode and History, and an
    /// Author) put under one abstract base only to share `uid`, `createdate` and `updatedate`.
    /// `single-table` stores them as Core Data would (one table); `table-per-entity` is the same
    /// entities flattened, each with its own table (what the seeds recommend).
    public static let timestamps = HierarchyDescription(
        name: "timestamps",
        summary: "Unrelated Series, Episode, History and Author under one abstract base that only shares uid, createdate and updatedate (100,000)",
        base: .init(name: "TimestampedEntity", abstract: true, attributes: [.init("createdate", .date), .init("updatedate", .date)]),
        subEntities: [
            .init(name: "Series", attributes: [.init("title", .string), .init("summary", .string), .init("seasonCount", .integer)], rows: 2_000),
            .init(name: "Episode", attributes: [.init("title", .string), .init("number", .integer), .init("duration", .double), .init("airDate", .date)], rows: 40_000),
            .init(name: "History", attributes: [.init("position", .double), .init("watchedAt", .date), .init("finished", .boolean)], rows: 50_000),
            .init(name: "Author", attributes: [.init("name", .string), .init("biography", .string)], rows: 8_000),
        ],
        leaf: "Episode"
    )

    /// The attribute types a synthetic sub-entity cycles through.
    static let syntheticTypes: [HierarchyDescription.AttributeType] = [.string, .integer, .double, .date, .boolean]

    /// A generated hierarchy for sweeps: an abstract base with three shared attributes, and
    /// `subEntities` sub-entities with `attributes` attributes each (names unique to each
    /// sub-entity, types cycling string, integer, double, date, boolean), `rows` rows in all,
    /// shared out with weights `1 / (i + 1)^skew` (skew 0: every type equally common).
    public static func synthetic(subEntities: Int, attributes: Int, skew: Double, rows: Int) -> HierarchyDescription {
        let weights = (0 ..< subEntities).map { 1 / pow(Double($0 + 1), skew) }
        let unscaled = HierarchyDescription(
            name: "synthetic",
            summary: "\(subEntities) sub-entities × \(attributes) attributes, skew \(skew), \(rows) rows",
            base: .init(name: "Item", abstract: true, attributes: [.init("title", .string), .init("createdate", .date), .init("rank", .integer)]),
            subEntities: (1 ... subEntities).map { entity in
                .init(name: "Kind\(entity)", attributes: (1 ... max(1, attributes)).map { attribute in
                    .init("k\(entity)a\(attribute)", syntheticTypes[(attribute - 1) % syntheticTypes.count])
                }, rows: Int((weights[entity - 1] * 1_000_000).rounded()))
            }
        )
        return unscaled.scaled(to: rows)
    }
}

import Foundation
