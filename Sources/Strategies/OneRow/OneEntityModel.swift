import CoreDataLayout
import Models

/// Where a layout that keeps each hierarchy as one entity (`OneEntityModel`) keeps an entity's
/// rows: its root, the root's stored entity and table, the `kind` column (nil for a root without
/// sub-entities, whose table holds only its own objects) and the columns of the attributes the
/// layout adds after it (`OneEntityModel.Names.added`), in order.
struct StoredRoot: Sendable {
    let root: Int
    let stored: Int
    let table: String
    let kind: String?
    let added: [String]
}

/// The stored model of enum-entity and json-entity, derived one way from the names each gives:
/// per root of the model one entity of the same name (so the same name order). For a root with
/// sub-entities: the root's attributes, its `kind` attribute (each row's entity number in the
/// model), the attributes the layout adds for the sub-entities' values (slots, `details`), then
/// an integer attribute per kept to-one whose destination has sub-entities (its entity number: the
/// destination is one flat entity now); the relationships the layout keeps, of its whole subtree,
/// under their stored names and re-pointed at the destinations' roots; the root's uniqueness
/// constraints and fetch indexes, an `entity` element as `kind`, and the layout's own indexes.
/// A root without sub-entities is stored as it is. Core Data's layout of it (`schema`) names
/// every column, and from it comes where each entity's attributes and to-ones are.
struct OneEntityModel {
    /// What a layout adds to its stored model or renames there.
    struct Names {
        /// Per root with sub-entities: its `kind` attribute, the attributes after it, and the fetch
        /// indexes after the root's own.
        var kind: [Int: String] = [:]
        var added: [Int: [Attribute]] = [:]
        var indexes: [Int: [FetchIndex]] = [:]
        /// Per relationship kept as one (by declaring entity): its name in the stored model.
        var relationships: [PropertyKey: String] = [:]
        /// Per kept to-one whose destination has sub-entities: the attribute holding the destination's entity number.
        var toOneKinds: [PropertyKey: String] = [:]
    }

    /// Where a layout keeps what its stored model does not say: a sub-entity's own attributes (in
    /// order), and each of its own to-ones that is not kept as a relationship.
    struct SubEntityPlaces {
        let attributes: (Model.Entity, StoredRoot) -> [RowPlace]
        let toOne: (Model.Relationship, StoredRoot) throws -> RowToOne
    }

    /// The stored model.
    let model: Model
    /// Core Data's layout of `model`.
    let schema: CoreDataSchema
    /// Per entity of the original model: where its rows live, where each of its attributes is (in
    /// `attributes` order), and the columns of each to-one (in `toOneRelationships` order).
    let roots: [StoredRoot]
    let places: [[RowPlace]]
    let toOnes: [[RowToOne]]
    /// Per kept many-to-many relationship: its join table as its owner sees it.
    let links: [PropertyKey: (name: String, this: String, other: String)]

    /// Throws `ModelError` when the stored model is one SQLite cannot hold, `LayoutError` when a
    /// lookup in it fails (a validated model makes none fail).
    init(_ model: Model, layout: String, names: Names, subEntities: SubEntityPlaces) throws {
        var kindPositions: [PropertyKey: Int] = [:]
        let descriptions = model.roots.map { Self.storedEntity($0, model, names, &kindPositions) }
        let storedModel: Model
        do {
            storedModel = try Model(ModelDescription(name: model.name, summary: model.description.summary, entities: descriptions))
        } catch let error as ModelError {
            throw ModelError("\(layout) cannot store the model '\(model.name)': \(error.description)")
        }
        let schema = CoreDataSchema(storedModel)
        var roots: [StoredRoot] = [], places: [[RowPlace]] = [], toOnes: [[RowToOne]] = []
        var links: [PropertyKey: (name: String, this: String, other: String)] = [:]
        // A root comes before its subtree, a parent before its children.
        for entity in model.entities {
            let root = entity.isRoot ? try Self.storedRoot(entity, storedModel, schema, names, layout: layout) : roots[entity.root]
            roots.append(root)
            if entity.isRoot {
                places.append(entity.attributes.indices.map { RowPlace(column: schema.column(root.stored, attributeAt: $0)) })
            } else {
                places.append((entity.parent.map { places[$0] } ?? []) + subEntities.attributes(entity, root))
            }
            var ownToOnes: [RowToOne] = []
            for relationship in entity.ownRelationships {
                guard let name = names.relationships[PropertyKey(relationship)] else {
                    if !relationship.toMany { ownToOnes.append(try subEntities.toOne(relationship, root)) }
                    continue
                }
                if !relationship.toMany {
                    let entityColumn = kindPositions[PropertyKey(relationship)].map { schema.column(root.stored, attributeAt: $0) }
                    ownToOnes.append(RowToOne(key: try schema.toOneColumns(root.stored, name).key, entity: entityColumn))
                } else if relationship.isManyToMany, let kept = storedModel.entities[root.stored].relationship(name) {
                    links[PropertyKey(relationship)] = try? schema.link(kept)
                }
            }
            toOnes.append((entity.parent.map { toOnes[$0] } ?? []) + ownToOnes)
        }
        self.model = storedModel
        self.schema = schema
        self.roots = roots
        self.places = places
        self.toOnes = toOnes
        self.links = links
    }

    /// A root's stored entity (see `OneEntityModel`); the position of each entity-number attribute
    /// goes to `kindPositions`.
    private static func storedEntity(_ root: Int, _ model: Model, _ names: Names, _ kindPositions: inout [PropertyKey: Int]) -> EntityDescription {
        let entity = model.entities[root]
        var attributes = entity.attributes
        var fetchIndexes = entity.fetchIndexes
        if let kind = names.kind[root] {
            attributes += [Attribute(kind, .integer64)] + (names.added[root] ?? [])
            fetchIndexes = fetchIndexes.map { index in
                FetchIndex(index.name, index.elements.map { FetchIndex.Element(property: $0.property ?? kind, ascending: $0.ascending) }, rtree: index.rtree)
            } + (names.indexes[root] ?? [])
        }
        var relationships: [RelationshipDescription] = []
        for relationship in entity.subtree.flatMap({ model.entities[$0].ownRelationships }) {
            guard let name = names.relationships[PropertyKey(relationship)] else { continue }
            var copy = model.declaration(of: relationship)
            copy.name = name
            copy.destination = model.entities[model.entities[relationship.destination].root].name
            copy.inverse = model.inverse(of: relationship).flatMap { names.relationships[PropertyKey($0)] }
            relationships.append(copy)
            if let kind = names.toOneKinds[PropertyKey(relationship)] {
                kindPositions[PropertyKey(relationship)] = attributes.count
                attributes.append(Attribute(kind, .integer64, optional: true))
            }
        }
        return EntityDescription(entity.name, abstract: entity.hasSubentities ? false : entity.isAbstract, rows: model.objectCount(root),
                                 attributes: attributes, relationships: relationships, uniquenessConstraints: entity.uniquenessConstraints,
                                 fetchIndexes: fetchIndexes)
    }

    /// Where the rows of `root`'s hierarchy live, in `storedModel`.
    private static func storedRoot(_ root: Model.Entity, _ storedModel: Model, _ schema: CoreDataSchema, _ names: Names, layout: String) throws -> StoredRoot {
        let stored = try LayoutError.required(storedModel.index(of: root.name), layout, "stored entity \(root.name)")
        let count = root.attributes.count
        return StoredRoot(root: root.index, stored: stored, table: schema.table(of: stored).name,
                          kind: names.kind[root.index].map { _ in schema.column(stored, attributeAt: count) },
                          added: (names.added[root.index] ?? []).indices.map { schema.column(stored, attributeAt: count + 1 + $0) })
    }
}
