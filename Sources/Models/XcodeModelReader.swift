import Foundation

/// Reads an Xcode Core Data model (an `.xcdatamodeld` bundle, an `.xcdatamodel` folder or its
/// `contents` file) into a `ModelDescription`, with one warning for each construct the suite does
/// not store as Core Data would: transient attributes and relationships (left out), composite attributes, fetched
/// properties, expression index elements, configurations and fetch request templates; and one
/// for each it stores as Core Data does but a user may not expect: a to-many relationship
/// without an inverse, an index element naming a to-many relationship (left out), an ordered
/// many-to-many (its order keys kept, but read by no workload in order).
/// `indexed="YES"` on an attribute becomes the fetch index Core Data makes of it.
///
/// An Xcode model has no object counts: every entity's `rows` is `nil` (see
/// `ModelDescription.sharing(_:weights:)`). The user-info keys `bench.values` and
/// `bench.nullShare` (attributes), `bench.count`, `bench.popularity` and `bench.nullShare`
/// (relationships), and `bench.order`, `bench.leaf` and `bench.branch` (any one entity) say what
/// the JSON model language says with the keys of the same names.
public enum XcodeModelReader {
    /// Reads the model at `path`; `version` picks a version of a bundle. Every problem is one
    /// `ModelError` sentence naming the file (and the line, for the XML).
    public static func read(path: String, version: String? = nil) throws -> XcodeModel {
        let bundle = try XcodeModelBundle(path: path, version: version)
        let data = try ModelFile.contents(of: bundle.contents, what: "the Xcode model file",
                                          kinds: "give an .xcdatamodeld bundle, an .xcdatamodel folder or its contents file")
        var model = try parse(data, source: bundle.contents, name: bundle.name)
        model.warnings = bundle.warnings.map(\.escapingControlCharacters) + model.warnings
        model.version = bundle.version
        model.versions = bundle.versions
        return model
    }

    /// Reads the XML of a `contents` file; `source` names it in messages, `name` becomes the model's name.
    public static func parse(_ data: Data, source: String, name: String) throws -> XcodeModel {
        let parser = XcodeModelParser(source: source)
        parser.parse(data)
        if let failure = parser.failure { throw failure }
        let raw = parser.entities
        var warnings = parser.warnings
        let byName = Dictionary(raw.enumerated().map { ($1.description.name, $0) }, uniquingKeysWith: { first, _ in first })
        var entities = raw.map(\.description)
        for (position, entity) in raw.enumerated() {
            for relationship in entity.relationships {
                // A transient relationship has no column and no index (real stores' models): left out.
                if relationship.transient {
                    warnings.append("\(entity.description.name).\(relationship.name) is a transient relationship; the suite leaves it out (Core Data stores no column for it)")
                    continue
                }
                entities[position].relationships.append(try resolve(relationship, of: entity, in: raw, byName: byName, source: source, warnings: &warnings))
            }
        }
        for (position, entity) in raw.enumerated() {
            entities[position].fetchIndexes = fetchIndexes(entities[position].fetchIndexes, of: entity, in: raw, byName: byName, warnings: &warnings)
        }
        var description = ModelDescription(name: modelName(name), entities: entities)
        try applyModelKeys(from: raw, to: &description, source: source)
        return XcodeModel(description: description, warnings: warnings.map(\.escapingControlCharacters), contents: source)
    }

    private typealias RawEntity = XcodeModelParser.RawEntity
    private typealias RawRelationship = XcodeModelParser.RawRelationship

    /// The relationship `name` of `entity` or of its nearest ancestor that declares it; `byName`
    /// gives each entity's position in `raw`.
    private static func declared(_ name: String, from entity: String, in raw: [RawEntity], byName: [String: Int]) -> (entity: String, relationship: RawRelationship)? {
        var current: String? = entity
        var seen = Set<String>()
        while let entityName = current, let position = byName[entityName], seen.insert(entityName).inserted {
            if let found = raw[position].relationships.first(where: { $0.name == name }) { return (entityName, found) }
            current = raw[position].description.parent
        }
        return nil
    }

    /// `relationship` of `entity` in the model language, checked against the model; a to-many
    /// without an inverse and an ordered many-to-many add their warnings.
    private static func resolve(_ relationship: RawRelationship, of entity: RawEntity, in raw: [RawEntity], byName: [String: Int],
                                source: String, warnings: inout [String]) throws -> RelationshipDescription {
        let what = "\(entity.description.name).\(relationship.name)"
        let at = "\(source): line \(relationship.line): relationship '\(what)'"
        guard let destination = relationship.destination, !destination.isEmpty else {
            throw ModelError("\(at) has no destination entity; give it one in Xcode")
        }
        guard byName[destination] != nil else { throw ModelError("\(at) points at entity '\(destination)', which the model does not declare") }
        let rule = try deleteRule(relationship.deletionRule, at: at)
        // An inverse that is transient is left out with it: this side has no inverse.
        let inverse = relationship.inverseName.flatMap { name in
            declared(name, from: relationship.inverseEntity ?? destination, in: raw, byName: byName)?.relationship.transient == true ? nil : name
        }
        if relationship.toMany, inverse == nil {
            warnings.append(RelationshipDescription.withoutInverseWarning(entity: entity.description.name, name: relationship.name, destination: destination))
        }
        if relationship.ordered, relationship.toMany, let inverseName = inverse,
           let found = declared(inverseName, from: relationship.inverseEntity ?? destination, in: raw, byName: byName), found.relationship.toMany {
            warnings.append("\(what) is an ordered many-to-many relationship; its join table's Z_FOK_ order column holds each member's order key, but no workload reads the relationship in order")
        }
        var description = RelationshipDescription(relationship.name, destination: destination, inverse: inverse, toMany: relationship.toMany,
                                                  ordered: relationship.ordered && relationship.toMany, deleteRule: rule, optional: relationship.optional)
        try description.apply(settings: relationship.userInfo, at: at, kind: "user info ")
        return description
    }

    /// Core Data's delete rule named `name` in the XML (Nullify when it names none).
    private static func deleteRule(_ name: String?, at: String) throws -> DeleteRule {
        switch name ?? "Nullify" {
        case "Nullify": return .nullify
        case "Cascade": return .cascade
        case "Deny": return .deny
        case "No Action": return .noAction
        case let other: throw ModelError("\(at) has deletion rule '\(other)'; Core Data's rules: Nullify, Cascade, Deny, No Action")
        }
    }

    /// The fetch indexes Core Data makes for `entity` from `declared`, its own, and its
    /// attributes marked `indexed="YES"`, with a warning for each element or index left out.
    private static func fetchIndexes(_ declared: [FetchIndex], of entity: RawEntity, in raw: [RawEntity], byName: [String: Int],
                                     warnings: inout [String]) -> [FetchIndex] {
        let name = entity.description.name
        // A fetch index element naming a to-many relationship: Core Data leaves the element out
        // (NSSQLBinaryIndex in the decompiled framework), and the index when nothing is left.
        var indexes = declared.compactMap { index in
            let kept = index.elements.filter { element in
                guard let property = element.property, let found = Self.declared(property, from: name, in: raw, byName: byName), found.relationship.toMany else { return true }
                warnings.append("fetch index '\(name).\(index.name)' names the to-many relationship '\(property)'; left out of the index, as Core Data does")
                return false
            }
            if kept.isEmpty { warnings.append("fetch index '\(name).\(index.name)' has no element left; Core Data creates no index for it") }
            return kept.isEmpty ? nil : FetchIndex(index.name, kept, rtree: index.rtree)
        }
        // Xcode's per-attribute index (indexed="YES") is a fetch index named after the attribute
        // with one ascending element (-[NSEntityDescription _addIndexForProperty:]); on a
        // relationship it adds nothing beyond the foreign key's own index.
        for attribute in entity.indexed {
            if indexes.contains(where: { $0.name.uppercased() == attribute.uppercased() }) {
                warnings.append("\(name).\(attribute) is indexed, but '\(name)' already has a fetch index named '\(attribute)'; that one is kept")
                continue
            }
            indexes.append(FetchIndex(attribute, [FetchIndex.Element(property: attribute)]))
        }
        return indexes
    }

    /// The model-wide user-info keys (`bench.order`, `bench.leaf`, `bench.branch`, `bench.root`),
    /// each given by at most one entity.
    private static func applyModelKeys(from raw: [RawEntity], to description: inout ModelDescription, source: String) throws {
        for (key, apply) in [("bench.order", { (d: inout ModelDescription, v: String) in d.order = v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }),
                             ("bench.leaf", { (d: inout ModelDescription, v: String) in d.leaf = v }),
                             ("bench.branch", { (d: inout ModelDescription, v: String) in d.branch = v }),
                             ("bench.root", { (d: inout ModelDescription, v: String) in d.root = v })] {
            let givers = raw.filter { $0.userInfo[key] != nil }
            guard let first = givers.first, let value = first.userInfo[key] else { continue }
            if givers.count > 1 {
                throw ModelError("\(source): user info \(key) is given by both '\(givers[0].description.name)' and '\(givers[1].description.name)'; give it once, on one entity")
            }
            apply(&description, value)
        }
    }

    /// The model's name from the bundle's: characters the suite does not allow in a name become '-'.
    public static func modelName(_ name: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map { $0.isASCII && allowed.contains($0) ? $0 : "-" }).prefix(60))
        return cleaned.isEmpty ? "model" : cleaned
    }
}
