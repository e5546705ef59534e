import Foundation
import Models

/// The model description SwiftData's schema gives the `@Model` classes: one entity per class
/// (named by `schemaName` or the class), a subclass of a `@Model` class its sub-entity, every
/// stored `var` an attribute (Codable values flattened, see `SwiftDataAttributeMapping`) or a
/// relationship (a `@Model` type to-one, an array or set of one to-many), inverses as written or
/// inferred (`SwiftDataInverses`), `.unique`, `#Unique` and `#Index`. Every problem is one
/// `ModelError` sentence starting `file:line:column:`.
struct SwiftDataModelBuilder {
    let models: [SwiftModelClass]
    let otherClasses: [String: String]
    let valueTypes: [String: SwiftValueType]
    private(set) var warnings: [String] = []
    /// Fan-outs from `minimumModelCount`/`maximumModelCount`, by "Entity.relationship", applied to many-to-many ones.
    private var modelCounts: [String: FanOut] = [:]
    private let byClass: [String: SwiftModelClass]

    init(models: [SwiftModelClass], otherClasses: [String: String], valueTypes: [String: SwiftValueType]) throws {
        self.models = models; self.otherClasses = otherClasses; self.valueTypes = valueTypes
        var byClass: [String: SwiftModelClass] = [:]
        var byEntity: [String: SwiftModelClass] = [:]
        for model in models {
            if let earlier = byClass[model.name] {
                throw ModelError("\(model.location): @Model class '\(model.name)' is declared twice (first at \(earlier.location)); give each class one declaration")
            }
            if let earlier = byEntity[model.entityName] {
                throw ModelError("\(model.location): classes '\(earlier.name)' and '\(model.name)' both name the entity '\(model.entityName)'; give each its own schemaName")
            }
            byClass[model.name] = model
            byEntity[model.entityName] = model
        }
        self.byClass = byClass
    }

    mutating func build(name: String) throws -> ModelDescription {
        var entities = try models.map { try entity($0) }
        var inverses = SwiftDataInverses(models: models, byClass: byClass)
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
        return description
    }

    /// The entity of one class, its own properties, constraints and indexes.
    private mutating func entity(_ model: SwiftModelClass) throws -> EntityDescription {
        var entity = EntityDescription(model.entityName, parent: try parent(of: model))
        for property in model.properties where persisted(property, of: model) {
            let what = "\(property.location): '\(model.name).\(property.name)'"
            guard let type = property.type else {
                throw ModelError("\(what) has no written type; write it, such as `var \(property.name): String = \"\"`, as SwiftData's @Model needs")
            }
            if let (destination, toMany) = destinationModel(type) {
                entity.relationships.append(try relationship(property, to: destination, toMany: toMany, optional: type.unwrapped.optional, of: model))
                if property.unique { entity.uniquenessConstraints.append([property.name]) }
                continue
            }
            if property.relationship != nil {
                throw ModelError("\(what) is marked @Relationship, but its type \(Self.shortened(type.description)) is not a @Model class, an array or a set of one")
            }
            var attributes: [Attribute]
            do {
                attributes = property.transformable ? [Attribute(property.name, .transformable, optional: type.unwrapped.optional)]
                    : try SwiftDataAttributeMapping.attributes(property.name, type, values: valueTypes)
            } catch let unsupported as SwiftDataAttributeMapping.Unsupported {
                throw ModelError("\(what) has type \(Self.shortened(type.description)), which SwiftData cannot store: \(unsupported.reason ?? "'\(Self.shortened(unsupported.type))' is not a type it stores (String, Int, Double, Bool, Date, Data, UUID, URL, Decimal, …), nor a @Model class, nor a struct or enum declared in the sources read"); declare the type in the sources read, or mark the property @Transient")
            }
            for index in attributes.indices { try applyAttributeNotes(property, to: &attributes[index], what) }
            if property.externalStorage {
                warnings.append("\(model.name).\(property.name) allows external storage; the suite keeps its values in the row (Core Data's external files are not modelled)")
            }
            if property.unique { entity.uniquenessConstraints.append(attributes.map(\.name)) }
            entity.attributes += attributes
        }
        entity.uniquenessConstraints += model.uniques.map { $0.properties.map(Self.flatName) }
        entity.fetchIndexes = try fetchIndexes(of: model)
        return entity
    }

    /// Whether SwiftData stores the property; a `let` or `lazy var` is left out with a warning.
    private mutating func persisted(_ property: SwiftProperty, of model: SwiftModelClass) -> Bool {
        if property.isStatic || property.isComputed || property.transient { return false }
        if property.isLet || property.isLazy {
            warnings.append("\(model.name).\(property.name) is a \(property.isLet ? "let" : "lazy var"); @Model persists stored var properties, so it is left out")
            return false
        }
        return true
    }

    /// The parent entity: the class's superclass when that is a `@Model` class.
    private func parent(of model: SwiftModelClass) throws -> String? {
        guard let inherits = model.inherits else { return nil }
        if let parent = byClass[inherits] { return parent.entityName }
        if otherClasses[inherits] != nil {
            throw ModelError("\(model.location): @Model class '\(model.name)' inherits from '\(inherits)', which is a class but not a @Model; mark '\(inherits)' @Model, or make '\(model.name)' a root class")
        }
        return nil
    }

    /// The `@Model` class a property's type points at (`Tag?`, `[Tag]`, `Set<Tag>?`), and whether to-many.
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

    /// A type as written, cut to 80 characters, so that a message stays one readable line.
    static func shortened(_ text: String) -> String { text.count <= 80 ? text : text.prefix(79) + "…" }

    /// `address.city` (a key path into a Codable struct) → `address_city`, the flattened attribute.
    static func flatName(_ path: String) -> String { path.replacingOccurrences(of: ".", with: "_") }
}
