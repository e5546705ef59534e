import Models

/// Where a layout that stores each root of its model as one entity of the same name (enum-entity,
/// json-entity) keeps an entity's rows: its root, the root's stored entity and table, and the
/// column of each of that entity's attributes by name.
struct StoredRoot: Sendable {
    let root: Int
    let stored: Int
    let table: String
    let columns: [String: String]
    /// The layout's name, for its errors.
    let layout: String

    /// Per entity of `model`: its root's stored entity in `schema`'s model.
    static func all(_ model: Model, _ schema: CoreDataSchema, layout: String) throws -> [StoredRoot] {
        var roots: [Int: StoredRoot] = [:]
        return try model.entities.map { entity in
            if let known = roots[entity.root] { return known }
            let name = model.entities[entity.root].name
            let stored = try LayoutError.required(schema.model.index(of: name), layout, "stored entity \(name)")
            let attributes = schema.model.entities[stored].attributes
            let made = StoredRoot(root: entity.root, stored: stored, table: schema.table(of: stored).name, columns: Dictionary(
                attributes.indices.map { (attributes[$0].name, schema.column(stored, attributeAt: $0)) }, uniquingKeysWith: { first, _ in first }), layout: layout)
            roots[entity.root] = made
            return made
        }
    }

    /// The column of stored attribute `name`.
    func column(_ name: String) throws -> String {
        try LayoutError.required(columns[name], layout, "column of '\(name)' in the stored entity \(stored)")
    }

    /// The column of stored attribute `name`, when there is a name.
    func column(_ name: String?) throws -> String? {
        try name.map { try column($0) }
    }
}

/// What enum-entity and json-entity derive from their model first, alike: the names their stored
/// model adds or renames, the stored model made with them, Core Data's layout of it, and each
/// entity's stored root.
struct StoredRootModel<Names> {
    let names: Names
    let model: Model
    let schema: CoreDataSchema
    /// Per entity of the original model.
    let roots: [StoredRoot]

    init(_ model: Model, layout: String, names: Names, storing: (Model, Names) throws -> Model) throws {
        self.names = names
        self.model = try storing(model, names)
        schema = CoreDataSchema(self.model)
        roots = try StoredRoot.all(model, schema, layout: layout)
    }
}
