extension ModelPresets {
    /// The CodingMilitia comparison (PostgreSQL, MySQL, SQL Server): an abstract base with five
    /// properties (four attributes and a foreign key to an owner), ten derived types with five
    /// properties each, 100,000 rows per type: offset and keyset pagination, filter by the foreign
    /// key, single by id, single insert. Objects carry a unique `uid` that orders the pages.
    public static let codingMilitia = ModelDescription(
        name: "codingmilitia",
        summary: "CodingMilitia's comparison: abstract base with 5 properties (one a foreign key), 10 derived types with 5 each, 100,000 rows per type (1,000,000)",
        entities: [
            EntityDescription("BaseEntity", abstract: true, attributes: [
                Attribute("uid", .uuid), Attribute("name", .string, values: ValueSpec(.name)), Attribute("createdAt", .date),
                Attribute("amount", .double), Attribute("quantity", .integer64),
            ], relationships: [
                RelationshipDescription("owner", destination: "Owner", inverse: "items"),
            ], uniquenessConstraints: [["uid"]]),
        ] + (1 ... 10).map { index in
            EntityDescription("Derived\(index)", parent: "BaseEntity", rows: 100_000, attributes: [
                Attribute("d\(index)Text", .string), Attribute("d\(index)Number", .integer64), Attribute("d\(index)Amount", .double),
                Attribute("d\(index)Date", .date), Attribute("d\(index)Flag", .boolean),
            ])
        } + [
            EntityDescription("Owner", rows: 1_000, attributes: [Attribute("name", .string, values: ValueSpec(.name))],
                              relationships: [RelationshipDescription("items", destination: "BaseEntity", inverse: "owner", toMany: true)],
                              uniquenessConstraints: [["name"]]),
        ]
    )
}
