extension ModelPresets {
    /// EF Core's documentation benchmark of inheritance mapping: a concrete `Root` with two
    /// children, each with two children of its own (`Child1` → `Child1A`, `Child1B`; `Child2` →
    /// `Child2A`, `Child2B`), one integer property each, 5,000 rows of every type, and "load
    /// everything". Published (SQL Server): TPH 149 ms, TPC 158 ms, TPT 313 ms.
    public static let efcoreDocs = ModelDescription(
        name: "efcore-docs",
        summary: "EF Core docs' benchmark: Root > Child1 (> 1A, 1B), Child2 (> 2A, 2B), one integer each, 5,000 rows per type (35,000)",
        entities: [
            EntityDescription("Root", rows: 5_000, attributes: [Attribute("uid", .uuid), Attribute("rootProperty", .integer32)],
                              uniquenessConstraints: [["uid"]]),
        ] + ["1", "2"].flatMap { number in
            [EntityDescription("Child\(number)", parent: "Root", rows: 5_000, attributes: [Attribute("child\(number)Property", .integer32)])]
                + ["A", "B"].map { letter in
                    EntityDescription("Child\(number)\(letter)", parent: "Child\(number)", rows: 5_000,
                                      attributes: [Attribute("child\(number)\(letter)Property", .integer32)])
                }
        }
    )
}
