import Models

/// Where a layout that stores each root of its model as one entity of the same name (enum-entity,
/// json-entity) keeps an entity's rows: its root, the root's stored entity, and the column of each
/// of that entity's attributes by name.
struct StoredRoot: Sendable {
    let root: Int
    let stored: Int
    let columns: [String: String]

    /// Per entity of `model`: its root's stored entity in `schema`'s model.
    static func all(_ model: Model, _ schema: CoreDataSchema, layout: String) throws -> [StoredRoot] {
        var roots: [Int: StoredRoot] = [:]
        return try model.entities.map { entity in
            if let known = roots[entity.root] { return known }
            let name = model.entities[entity.root].name
            let stored = try LayoutError.required(schema.model.index(of: name), layout, "stored entity \(name)")
            let attributes = schema.model.entities[stored].attributes
            let made = StoredRoot(root: entity.root, stored: stored, columns: Dictionary(
                attributes.indices.map { (attributes[$0].name, schema.column(stored, attributeAt: $0)) }, uniquingKeysWith: { first, _ in first }))
            roots[entity.root] = made
            return made
        }
    }

    /// The column of stored attribute `name`.
    func column(_ name: String, layout: String) throws -> String {
        try LayoutError.required(columns[name], layout, "column of '\(name)' in the stored entity \(stored)")
    }
}
