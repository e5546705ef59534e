import Foundation
import Models

/// The model description SwiftData's schema gives the `@Model` classes: one entity per class
/// (named by `schemaName` or the class), a subclass of a `@Model` class its sub-entity, every
/// stored property an attribute (Codable values flattened, see `SwiftDataAttributeMapping`) or a
/// relationship (a `@Model` type to-one, an array or set of one to-many), inverses as written or
/// inferred (`SwiftDataInverses`), `.unique`, `#Unique` and `#Index`. Types are looked up as the
/// compiler would (`SwiftTypeResolver`). Every problem is one `ModelError` sentence starting
/// `file:line:column:`.
struct SwiftDataModelBuilder {
    let models: [SwiftModelClass]
    let resolver: SwiftTypeResolver
    private(set) var warnings: [String] = []
    /// Fan-outs from `minimumModelCount`/`maximumModelCount`, by "Entity.relationship", applied to many-to-many ones.
    private var modelCounts: [String: FanOut] = [:]
    /// The models by qualified name (`SchemaV2.Note`).
    private let byClass: [String: SwiftModelClass]
    private var mapping: SwiftDataAttributeMapping

    init(models: [SwiftModelClass], resolver: SwiftTypeResolver) throws {
        self.models = models; self.resolver = resolver
        mapping = SwiftDataAttributeMapping(resolver: resolver)
        var byClass: [String: SwiftModelClass] = [:]
        var byEntity: [String: SwiftModelClass] = [:]
        for model in models {
            if let earlier = byClass[model.qualifiedName] {
                throw ModelError("\(model.location): @Model class '\(model.name)' is declared twice (first at \(earlier.location)); give each class one declaration (a folder read whole may hold a file your app does not build: "
                    + "give --model a folder of the files it builds)")
            }
            if let earlier = byEntity[model.entityName] {
                throw ModelError("\(model.location): classes '\(earlier.name)' and '\(model.name)' both name the entity '\(model.entityName)'; give each its own schemaName")
            }
            byClass[model.qualifiedName] = model
            byEntity[model.entityName] = model
        }
        self.byClass = byClass
    }

    mutating func build(name: String, root: String? = nil) throws -> ModelDescription {
        var entities = try models.map { try entity($0) }
        try checkKeyPaths(entities)
        warnings += mapping.opaque.map { type, property in
            "\(property) has type \(Self.shortened(type)), which the sources read do not declare as a struct, an enum or a @Model class (a framework's Codable type?); it is stored as one BLOB column, its encoded value (declare the type in the sources read to have its properties flattened into columns, as SwiftData does with a Codable struct)"
        }
        var inverses = SwiftDataInverses(models: models, byClass: byClass, resolver: resolver)
        try inverses.resolve(&entities)
        warnings += inverses.warnings
        for (position, entity) in entities.enumerated() {
            for (index, relationship) in entity.relationships.enumerated() where relationship.toMany {
                if relationship.inverse == nil {
                    warnings.append(RelationshipDescription.withoutInverseWarning(entity: entity.name, name: relationship.name, destination: relationship.destination))
                } else if relationship.count == nil, let count = modelCounts["\(entity.name).\(relationship.name)"],
                          entities.first(where: { $0.name == relationship.destination })?.relationships.first(where: { $0.name == relationship.inverse })?.toMany == true {
                    entities[position].relationships[index].count = count
                }
            }
        }
        var description = ModelDescription(name: name, entities: entities)
        try applyModelNotes(&description)
        if let root {
            if let note = description.root, note != root, let giver = models.first(where: { $0.notes["bench.root"] != nil }) {
                warnings.append("\(giver.location): bench.root names '\(note)', and --root \(root) decides; the comment is not used")
            }
            description.root = root
        }
        warnings += Model.stateNameWarnings(description) { entity, property in
            models.first { $0.entityName == entity }?.properties.first { $0.name == property }?.location
        }
        try SwiftDataModelCheck(models: models, byEntity: Dictionary(models.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })).check(description)
        return description
    }

    /// The entity of one class, its own properties, constraints and indexes.
    private mutating func entity(_ model: SwiftModelClass) throws -> EntityDescription {
        var entity = EntityDescription(model.entityName, parent: try parent(of: model))
        for property in model.properties where persisted(property, of: model) {
            let what = "\(property.location): '\(model.name).\(property.name)'"
            guard let written = property.type else {
                throw ModelError("\(what) has no written type, and the reader cannot tell it from its initial value `\(Self.shortened(property.initialValue ?? ""))`; write the type, such as `var \(property.name): Type = …`")
            }
            let type = resolver.resolve(written, in: model.qualifiedName)
            if let (destination, toMany) = destinationModel(type) {
                entity.relationships.append(try relationship(property, to: destination, toMany: toMany, optional: type.unwrapped.optional, of: model))
                if property.unique, toMany {
                    throw ModelError("\(what) is a to-many relationship marked unique; SwiftData supports a uniqueness constraint on a relationship to a single model only (the #Unique documentation); drop .unique, or make it a to-one")
                }
                // A unique to-one: a constraint of the relationship alone, a unique index on its
                // foreign key; the generator gives each owner a destination of its own (or NULL).
                if property.unique { entity.uniquenessConstraints.append([property.name]) }
                continue
            }
            if property.relationship != nil {
                throw ModelError("\(what) is marked @Relationship, but its type \(Self.shortened(written.description)) is not a @Model class, an array or a set of one")
            }
            var attributes: [Attribute]
            do {
                mapping.columns = entity.attributes.count
                attributes = property.transformable ? [Attribute(property.name, .transformable, optional: type.unwrapped.optional)]
                    : try mapping.attributes(property.name, written, in: model.qualifiedName, owner: "\(model.name).\(property.name)")
            } catch let unsupported as SwiftDataAttributeMapping.Unsupported {
                throw ModelError("\(what) has type \(Self.shortened(written.description)), which SwiftData cannot store: "
                    + "\(unsupported.reason ?? "'\(Self.shortened(unsupported.type))' is not a type it stores (String, Int, Double, Bool, Date, Data, UUID, URL, Decimal, a Codable struct or enum, an array or dictionary of those), nor a @Model class"); change the type, or mark the property @Transient")
            }
            for index in attributes.indices { try applyAttributeNotes(property, to: &attributes[index], what) }
            if property.externalStorage {
                warnings.append("\(model.name).\(property.name) allows external storage; the suite keeps its values in the row (Core Data's external files are not modelled)")
            }
            if property.unique { entity.uniquenessConstraints.append(attributes.map(\.name)) }
            entity.attributes += attributes
        }
        // `@Attribute(.unique)` and `#Unique` may name one constraint twice (SwiftData compiles
        // both); it is one constraint, as a model declares it once.
        for constraint in model.uniques.map({ $0.properties.map(Self.flatName) }) {
            if entity.uniquenessConstraints.contains(constraint) {
                warnings.append("\(model.name) declares the uniqueness constraint (\(constraint.joined(separator: ", "))) twice (@Attribute(.unique) and #Unique, or twice in #Unique); the suite keeps one")
            } else {
                entity.uniquenessConstraints.append(constraint)
            }
        }
        entity.fetchIndexes = try fetchIndexes(of: model)
        return entity
    }

    /// Whether SwiftData stores the property: every stored `var` and `let` (the `@Model` macro
    /// lists a `let` in the schema as it does a `var`); a `lazy var` is left out with a warning.
    private mutating func persisted(_ property: SwiftProperty, of model: SwiftModelClass) -> Bool {
        if property.isStatic || property.isComputed || property.transient { return false }
        if property.isLazy {
            warnings.append("\(model.name).\(property.name) is a lazy var; @Model persists stored properties that are not lazy, so it is left out")
            return false
        }
        return true
    }

    /// The parent entity: the class's superclass when that is a `@Model` class, looked up where
    /// the class is declared. A chain of superclasses that loops, or nests deeper than the suite
    /// supports, is one sentence at the class.
    private func parent(of model: SwiftModelClass) throws -> String? {
        guard let parent = superclass(of: model) else {
            if let inherits = model.inherits, let name = resolver.qualified(inherits, in: model.container), case .otherClass? = resolver.declarations[name] {
                throw ModelError("\(model.location): @Model class '\(model.name)' inherits from '\(inherits)', which is a class but not a @Model; mark '\(inherits)' @Model, or make '\(model.name)' a root class")
            }
            return nil
        }
        var chain = [model.name]
        var current: SwiftModelClass? = parent
        while let ancestor = current {
            guard ancestor.qualifiedName != model.qualifiedName else {
                throw ModelError("\(model.location): @Model class '\(model.name)' inherits from itself (\((chain + [model.name]).joined(separator: " → "))); give the hierarchy a root class")
            }
            chain.append(ancestor.name)
            guard chain.count <= Model.maximumDepth + 1 else {
                throw ModelError("\(model.location): @Model class '\(model.name)' has more than \(Model.maximumDepth) levels of superclasses; the suite supports at most \(Model.maximumDepth)")
            }
            current = superclass(of: ancestor)
            if let next = current, chain.dropFirst().contains(next.name), next.qualifiedName != model.qualifiedName { break }
        }
        return parent.entityName
    }

    private func superclass(of model: SwiftModelClass) -> SwiftModelClass? {
        model.inherits.flatMap { resolver.qualified($0, in: model.container) }.flatMap { byClass[$0] }
    }

    /// The `@Model` class a property's resolved type points at (`Tag?`, `[Tag]`, `Set<Tag>?`), and whether to-many.
    private func destinationModel(_ type: SwiftType) -> (SwiftModelClass, toMany: Bool)? {
        switch type.unwrapped.type {
        case let .named(name): byClass[name].map { ($0, false) }
        case let .array(.named(name)), let .set(.named(name)): byClass[name].map { ($0, true) }
        default: nil
        }
    }

    private mutating func relationship(_ property: SwiftProperty, to destination: SwiftModelClass, toMany: Bool, optional: Bool,
                                       of model: SwiftModelClass) throws -> RelationshipDescription {
        let what = "\(property.location): '\(model.name).\(property.name)'"
        let options = property.relationship ?? SwiftProperty.RelationshipOptions()
        let rule: DeleteRule
        switch options.deleteRule ?? "nullify" {
        case "nullify": rule = .nullify
        case "cascade": rule = .cascade
        case "deny": rule = .deny
        case "noAction": rule = .noAction
        case let other: throw ModelError("\(what) has delete rule '.\(other)'; SwiftData's rules: .nullify, .cascade, .deny, .noAction")
        }
        var made = RelationshipDescription(property.name, destination: destination.entityName, toMany: toMany, deleteRule: rule, optional: optional)
        if toMany, let maximum = options.maximumModelCount, maximum > 0 {
            modelCounts["\(model.entityName).\(property.name)"] = FanOut(min: max(0, options.minimumModelCount ?? 0), max: maximum)
        }
        try made.apply(settings: property.notes, at: what)
        return made
    }

    /// Every `#Index` and `#Unique` group names at least one property, each an attribute or a
    /// to-one relationship of the class or a superclass.
    private func checkKeyPaths(_ entities: [EntityDescription]) throws {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for model in models {
            var names = Set<String>()
            var current = byName[model.entityName]
            var seen = Set<String>()
            while let entity = current, seen.insert(entity.name).inserted {
                names.formUnion(entity.attributes.map(\.name) + entity.relationships.filter { !$0.toMany }.map(\.name))
                current = entity.parent.flatMap { byName[$0] }
            }
            for (macro, groups) in [("#Index", model.indexes), ("#Unique", model.uniques)] {
                for group in groups {
                    guard !group.properties.isEmpty else {
                        throw ModelError("\(group.location): \(macro) of '\(model.name)' has an empty group; give each group at least one key path, such as [\\.name]")
                    }
                    for path in group.properties where !names.contains(Self.flatName(path)) {
                        throw ModelError("\(group.location): \(macro) of '\(model.name)' names \\.\(path), which is not a stored attribute or to-one relationship of '\(model.name)'; name one of its stored properties")
                    }
                }
            }
        }
    }

    /// A type as written, cut to 80 characters, so that a message stays one readable line.
    static func shortened(_ text: String) -> String { text.count <= 80 ? text : text.prefix(79) + "…" }

    /// `address.city` (a key path into a Codable struct) → `address_city`, the flattened attribute.
    static func flatName(_ path: String) -> String { path.replacingOccurrences(of: ".", with: "_") }
}
