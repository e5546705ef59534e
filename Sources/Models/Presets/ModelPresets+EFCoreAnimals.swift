extension ModelPresets {
    /// The hierarchy of EF Core's inheritance documentation and its TPH/TPT/TPC comparison:
    /// abstract `Animal` → abstract `Pet` → `Cat`, `Dog`; `Animal` → `FarmAnimal`, `Human`. A human
    /// has pets (many-to-many) and a favourite animal (to-one). 5,000 objects per concrete type.
    /// Published (SQL Server): TPH fastest for the root, TPC fastest for a leaf, TPT slowest for both.
    public static let efcoreAnimals = ModelDescription(
        name: "efcore-animals",
        summary: "EF Core docs' animals: abstract Animal > abstract Pet > Cat, Dog; FarmAnimal, Human (pets, favourite animal); 5,000 per type",
        entities: [
            EntityDescription("Animal", abstract: true, attributes: [
                Attribute("name", .string, values: ValueSpec(.name)),
            ], fetchIndexes: [FetchIndex("byName", "name")]),
            EntityDescription("Pet", parent: "Animal", abstract: true, attributes: [
                Attribute("vet", .string, optional: true, nullShare: 0.3, values: ValueSpec(.name)),
            ], relationships: [
                RelationshipDescription("humans", destination: "Human", inverse: "pets", toMany: true),
            ]),
            EntityDescription("Cat", parent: "Pet", rows: 5_000, attributes: [
                Attribute("educationLevel", .string, values: ValueSpec(.choice, choices: ["None", "BA", "MA", "PhD"])),
            ]),
            EntityDescription("Dog", parent: "Pet", rows: 5_000, attributes: [
                Attribute("favoriteToy", .string, values: ValueSpec(.words, min: 1, max: 3)),
            ]),
            EntityDescription("FarmAnimal", parent: "Animal", rows: 5_000, attributes: [
                Attribute("value", .decimal, values: ValueSpec(.range, min: 100, max: 10_000)),
                Attribute("species", .string, values: ValueSpec(.choice, choices: ["Bos taurus", "Ovis aries", "Sus domesticus", "Capra hircus", "Equus caballus"])),
            ]),
            EntityDescription("Human", parent: "Animal", rows: 5_000, relationships: [
                RelationshipDescription("favoriteAnimal", destination: "Animal", optional: true, nullShare: 0.2),
                RelationshipDescription("pets", destination: "Pet", inverse: "humans", toMany: true, count: FanOut(min: 0, max: 3)),
            ]),
        ],
        leaf: "Cat",
        branch: "Pet"
    )
}
