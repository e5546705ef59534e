import SwiftSyntax

/// What SwiftData's property attributes say about a property: `@Transient`, `@Attribute(…)` and
/// `@Relationship(…)`. `@Attribute(originalName:)` is a renaming identifier for migration: Core
/// Data names a column after the property's current name, so it changes nothing here.
enum SwiftDataAttributes {
    static func apply(_ attributes: AttributeListSyntax, to property: inout SwiftProperty) {
        if attributes.named("Transient") != nil { property.transient = true }
        if let attribute = attributes.named("Attribute") {
            for argument in attribute.argumentList where argument.label == nil {
                switch argument.expression.memberName {
                case "unique": property.unique = true
                case "externalStorage": property.externalStorage = true
                // `.codable` (iOS 27): "uses the property's codable representation to store the
                // property", one encoded value, kept as Transformable is.
                case "transformable", "codable": property.transformable = true
                case "ephemeral": property.transient = true
                default: break
                }
            }
        }
        if let relationship = attributes.named("Relationship") {
            var options = SwiftProperty.RelationshipOptions()
            options.deleteRule = relationship.argument("deleteRule")?.memberName
            if let path = relationship.argument("inverse")?.as(KeyPathExprSyntax.self) {
                options.inverse = (path.root.map { SwiftType.path($0) ?? SwiftDeclarationCollector.baseName($0) }, SwiftDeclarationCollector.propertyPath(path))
            }
            options.minimumModelCount = relationship.argument("minimumModelCount")?.integer
            options.maximumModelCount = relationship.argument("maximumModelCount")?.integer
            for argument in relationship.argumentList where argument.label == nil && argument.expression.memberName == "unique" {
                property.unique = true
            }
            property.relationship = options
        }
    }
}
