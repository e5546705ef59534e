extension ModelPresets {
    /// A hierarchy forced for convenience: unrelated entities (Series, Episode, History and an
    /// Author) put under one abstract base only to share `uid`, `createdate` and `updatedate`.
    public static let timestamps = ModelDescription(
        name: "timestamps",
        summary: "Unrelated Series, Episode, History and Author under one abstract base that only shares uid, createdate and updatedate (100,000)",
        entities: [
            EntityDescription("TimestampedEntity", abstract: true, attributes: [
                Attribute("uid", .uuid), Attribute("createdate", .date), Attribute("updatedate", .date),
            ], uniquenessConstraints: [["uid"]]),
            EntityDescription("Series", parent: "TimestampedEntity", rows: 2_000, attributes: [
                Attribute("title", .string), Attribute("summary", .string), Attribute("seasonCount", .integer16),
            ]),
            EntityDescription("Episode", parent: "TimestampedEntity", rows: 40_000, attributes: [
                Attribute("title", .string), Attribute("number", .integer32), Attribute("duration", .double), Attribute("airDate", .date),
            ]),
            EntityDescription("History", parent: "TimestampedEntity", rows: 50_000, attributes: [
                Attribute("position", .double), Attribute("watchedAt", .date), Attribute("finished", .boolean),
            ]),
            EntityDescription("Author", parent: "TimestampedEntity", rows: 8_000, attributes: [
                Attribute("name", .string), Attribute("biography", .string),
            ]),
        ],
        leaf: "Episode"
    )
}
