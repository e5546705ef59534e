extension ModelPresets {
    /// The publication model: `Publication` (concrete) and its sub-entities `Book`,
    /// `AcademicPaper`, `WebArticle` and `BlogPost` (both of which declare `url`, on purpose), and
    /// `Tag`, many-to-many with every publication (0–5 distinct tags each, Zipf-popular).
    /// 10 % Publication, 30 % Book, 20 % each of the others, 50,000 publications in all (so that
    /// the default run fits its time on a slow 2-core machine; `--scale 100000` doubles them); 200 tags.
    public static let publications = ModelDescription(
        name: "publications",
        summary: "the publication model: Publication and its 4 sub-entities (Book, AcademicPaper, WebArticle, BlogPost), 0-5 Zipf-popular tags each (50,000 publications, 200 tags)",
        entities: [
            EntityDescription("Publication", rows: 5_000, attributes: [
                Attribute("uid", .uuid),
                Attribute("title", .string, values: ValueSpec(.words, min: 3, max: 8)),
                // 2005-01-01 ..< 2025-01-01, in seconds since 2001 (millisecond resolution).
                Attribute("publishDate", .date, values: ValueSpec(.range, min: 126_230_400, max: 757_382_400)),
                Attribute("createdate", .date, values: ValueSpec(.range, min: 126_230_400, max: 757_382_400)),
                Attribute("updatedate", .date, values: ValueSpec(.range, min: 126_230_400, max: 757_382_400)),
            ], relationships: [
                RelationshipDescription("tags", destination: "Tag", inverse: "publications", toMany: true,
                                        count: FanOut(min: 0, max: 5), popularity: 1.0),
            ],
            // Objects are identified by uid; newest-first reads and title prefixes have fetch indexes.
            uniquenessConstraints: [["uid"]],
            fetchIndexes: [FetchIndex("byPublishDate", "publishDate", "uid"), FetchIndex("byTitle", "title")]),
            EntityDescription("Book", parent: "Publication", rows: 15_000, attributes: [
                Attribute("isbn", .string, values: ValueSpec(.isbn)),
                Attribute("pageCount", .integer32, values: ValueSpec(.range, min: 48, max: 1_201)),
            ], uniquenessConstraints: [["isbn"]],
            // Books in a date window: the (entity, publishDate) index.
            fetchIndexes: [FetchIndex("byEntityAndPublishDate", "entity", "publishDate")]),
            EntityDescription("AcademicPaper", parent: "Publication", rows: 10_000, attributes: [
                Attribute("paperType", .integer16, values: ValueSpec(.range, min: 0, max: 12)),
                Attribute("doi", .string, values: ValueSpec(.doi)),
            ]),
            EntityDescription("WebArticle", parent: "Publication", rows: 10_000, attributes: [
                Attribute("url", .string, values: ValueSpec(.url)),
                Attribute("wordCount", .integer32, values: ValueSpec(.range, min: 200, max: 5_001)),
            ]),
            EntityDescription("BlogPost", parent: "Publication", rows: 10_000, attributes: [
                Attribute("url", .string, values: ValueSpec(.url)),
                Attribute("blogName", .string, values: ValueSpec(.name)),
            ]),
            EntityDescription("Tag", rows: 200, attributes: [
                Attribute("name", .string, values: ValueSpec(.topic)),
            ], relationships: [
                RelationshipDescription("publications", destination: "Publication", inverse: "tags", toMany: true),
            ], uniquenessConstraints: [["name"]]),
        ],
        leaf: "Book",
        order: ["publishDate desc", "uid desc"]
    )
}
