import Models

/// The compiled model a Core Data store keeps in `Z_MODELCACHE.Z_CONTENT`: the store's
/// `NSManagedObjectModel`, archived by `NSKeyedArchiver` and compressed as raw deflate
/// (`-[NSSQLiteConnection fetchCachedModel:]` inflates it with `NSData`'s `.zlib`, which is raw
/// deflate). Decoded here into the suite's `ModelDescription`, key by key as Core Data's own
/// `initWithCoder:` methods read them (see docs/model.md, "Measure your store"):
///
/// - `NSManagedObjectModel`: `NSEntities` (an `NSKnownKeysDictionary1` or a dictionary, name → entity);
/// - `NSEntityDescription`: `NSEntityName`, `NSSuperentity`, `NSIsAbstract`, `NSProperties`
///   (name → property), `NSUniqueTuples` (arrays of property names), `NSFetchIndexDescriptions`;
/// - `NSPropertyDescription`: `NSPropertyName`, `_P` (flags: 0x2 optional, 0x8 transient, 0x400
///   ordered; when 0, the booleans `NSIsOptional`, `NSIsTransient`, `NSIsOrdered`);
/// - `NSAttributeDescription`: `NSAttributeType` (100 … 1800, Core Data's `NSAttributeType` values);
/// - `NSRelationshipDescription`: `NSDestinationEntity`/`_NSDestinationEntityName`,
///   `NSInverseRelationship`/`_NSInverseRelationshipName`, `NSMaxCount` (1: to-one), `NSDeleteRule`;
/// - `NSFetchIndexDescription`: `NSIndexName`, `NSIndexElements` (`NSPropertyName`, `NSAscending`,
///   `NSFetchIndexElementType`, or `NSIndexedProperty`: `SELF`, `entity`), `NSPartialIndexPredicate`
///   (an `NSPredicate`: ModelCache+Predicate.swift).
public enum ModelCache {
    /// The most the cache may inflate to (the largest real model cache seen is well under 2 MiB).
    public static let inflatedLimit = 64 << 20

    /// What went wrong, as the end of a sentence that starts with the store's name.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The model in `blob`, named `name`, with a warning for each part the suite leaves out.
    /// The model a cache holds, what reading it warned about, and whether it predates fetch
    /// indexes (no `NSFetchIndexDescriptions`: a framework before iOS 11 / macOS 10.13, whose
    /// indexes are the attributes marked indexed and `NSCompoundIndexes`, named by their columns).
    public struct Decoded: Sendable {
        public var description: ModelDescription
        public var warnings: [String]
        public var legacyIndexes: Bool
        /// Each entity a migration renamed: its name before (its `renamingIdentifier`), by its name now.
        public var renamings: [String: String] = [:]
    }

    public static func decode(_ blob: [UInt8], name: String) throws -> Decoded {
        let bytes: [UInt8]
        do { bytes = try RawDeflate.inflate(blob, limit: inflatedLimit) }
        catch let failure as RawDeflate.Failure { throw Failure("has a model cache (Z_MODELCACHE) that \(failure)") }
        let archive: KeyedArchive
        do { archive = try KeyedArchive(BinaryPropertyList(bytes)) }
        catch let failure as BinaryPropertyList.Failure { throw Failure("has a model cache (Z_MODELCACHE) that \(failure)") }
        catch let failure as KeyedArchive.Failure { throw Failure("has a model cache (Z_MODELCACHE) that \(failure)") }
        do { return try ModelCacheDecoder(archive: archive).model(named: name) }
        catch let failure as KeyedArchive.Failure { throw Failure("has a model cache (Z_MODELCACHE) that \(failure)") }
    }
}

/// The walk from the archive's root to a `ModelDescription`.
struct ModelCacheDecoder {
    let archive: KeyedArchive
    private typealias Object = KeyedArchive.Object
    private typealias Failure = KeyedArchive.Failure

    static let attributeClasses: Set<String> = ["NSAttributeDescription", "NSDerivedAttributeDescription", "NSCodableAttributeDescription"]
    /// Properties the suite leaves out, with a warning: what each is.
    static let columnlessClasses: [String: String] = [
        "NSFetchedPropertyDescription": "a fetched property", "NSExpressionDescription": "an expression property",
        "NSCompositeAttributeDescription": "a composite attribute",
    ]
    static let entityLimit = 10_000

    /// The entities of the archive: each by name, its parent's name, its properties (own and, in
    /// a flattened archive, inherited) by name.
    private struct Graph {
        var names: [Int: String] = [:]
        var objects: [(name: String, object: Object)] = []
        var parents: [String: String] = [:]
        var properties: [String: [(name: String, object: Object)]] = [:]

        /// `entity`'s ancestors, nearest first (a cycle ends the chain).
        func ancestors(of entity: String) -> [String] {
            var chain: [String] = []
            var current = parents[entity]
            while let name = current, !chain.contains(name), name != entity { chain.append(name); current = parents[name] }
            return chain
        }
    }

    func model(named name: String) throws -> ModelCache.Decoded {
        let graph = try self.graph()
        var warnings: [String] = []
        var entities = try graph.objects.sorted { $0.name < $1.name }.map { try entity($0.name, $0.object, in: graph, warnings: &warnings) }
        resolve(&entities, in: graph, warnings: &warnings)
        for entity in entities {
            for relationship in entity.relationships where relationship.toMany && relationship.inverse == nil {
                warnings.append(RelationshipDescription.withoutInverseWarning(entity: entity.name, name: relationship.name, destination: relationship.destination))
            }
        }
        let legacy = try graph.objects.allSatisfy { try archive.reference($0.object, "NSFetchIndexDescriptions") == nil }
        var renamings: [String: String] = [:]
        for (entityName, entity) in graph.objects {
            if let earlier = try archive.string(entity, "NSRenamingIdentifier"), earlier != entityName { renamings[entityName] = earlier }
        }
        return ModelCache.Decoded(description: ModelDescription(name: XcodeModelReader.modelName(name), entities: entities), warnings: warnings,
                                  legacyIndexes: legacy && !graph.objects.isEmpty, renamings: renamings)
    }

    private func graph() throws -> Graph {
        let root = try archive.object(archive.root, of: ["NSManagedObjectModel"], what: "a root object")
        guard let entries = try archive.dictionary(root, "NSEntities") else { throw Failure("has a model without entities") }
        guard entries.count <= Self.entityLimit else { throw Failure("has \(entries.count) entities, more than \(Self.entityLimit)") }
        var graph = Graph()
        for (key, uid) in entries {
            let entity = try archive.object(uid, of: ["NSEntityDescription"], what: "entity '\(key)'")
            let entityName = try archive.string(entity, "NSEntityName") ?? key
            guard graph.names.updateValue(entityName, forKey: uid) == nil else { throw Failure("lists entity '\(entityName)' twice") }
            graph.objects.append((entityName, entity))
        }
        for (entityName, entity) in graph.objects {
            if let parent = try archive.reference(entity, "NSSuperentity") {
                guard let parentName = graph.names[parent] else { throw Failure("has entity '\(entityName)' whose parent is not an entity of the model") }
                graph.parents[entityName] = parentName
            }
            graph.properties[entityName] = try (archive.dictionary(entity, "NSProperties") ?? []).map { key, uid in
                let property = try archive.object(uid)
                return (try archive.string(property, "NSPropertyName") ?? key, property)
            }
        }
        return graph
    }

    /// One entity with its own stored properties, constraints and indexes.
    private func entity(_ entityName: String, _ entity: Object, in graph: Graph, warnings: inout [String]) throws -> EntityDescription {
        let inherited = Set(graph.ancestors(of: entityName).flatMap { (graph.properties[$0] ?? []).map(\.name) })
        var description = EntityDescription(entityName, parent: graph.parents[entityName], abstract: try archive.bool(entity, "NSIsAbstract") ?? false)
        var legacyIndexed: [String] = []
        var locationIndexes: [FetchIndex] = []
        for (propertyName, property) in (graph.properties[entityName] ?? []).sorted(by: { $0.name < $1.name }) where !inherited.contains(propertyName) {
            let flags = try self.flags(property)
            let what = "\(entityName).\(propertyName)"
            if flags.transient {
                // A location attribute (transient, of no type) whose derived components are
                // attributes: Core Data keeps them in an R-tree named after it (Photos'
                // `boundedByRect` over latitude and longitude, `Z_RT_Asset_boundedByRect`).
                if let components = try locationComponents(property) {
                    locationIndexes.append(FetchIndex(propertyName, components.map { FetchIndex.Element(property: $0) }, rtree: true))
                }
                continue
            }
            if Self.attributeClasses.contains(property.className) {
                guard let type = try attributeType(property) else {
                    warnings.append("\(what) has attribute type \(try archive.integer(property, "NSAttributeType") ?? 0), which has no column; left out")
                    continue
                }
                description.attributes.append(Attribute(propertyName, type, optional: flags.optional))
                if try archive.bool(property, "NSIsIndexed") == true { legacyIndexed.append(propertyName) }
            } else if property.className == "NSRelationshipDescription" {
                description.relationships.append(try relationship(property, named: propertyName, of: entityName, names: graph.names, flags: flags))
            } else if let kind = Self.columnlessClasses[property.className] {
                warnings.append("\(what) is \(kind); the suite leaves it out")
            } else {
                throw Failure("has property '\(what)' of class \(property.className), not a property description")
            }
        }
        description.uniquenessConstraints = try uniquenessConstraints(entity, of: entityName)
        description.fetchIndexes = try fetchIndexes(entity, of: entityName, legacyIndexed: legacyIndexed, warnings: &warnings) + locationIndexes
        return description
    }

    /// A location attribute's components (`NSUserInfo`'s `_NSLocationAttributeDerivedComponents`:
    /// `"latitude, longitude"` in Photos' stores of macOS 13 and 15, an array of the two names in
    /// macOS 10.15's), or `nil` for any other property.
    private func locationComponents(_ property: Object) throws -> [String]? {
        for (key, value) in try archive.dictionary(property, "NSUserInfo") ?? [] where key == "_NSLocationAttributeDerivedComponents" {
            let names: [String]
            if let text = try? archive.string(value, what: "location components") {
                names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            } else if let members = try? archive.array(value, what: "location components") {
                names = members.compactMap { try? archive.string($0, what: "a location component") }
            } else {
                return nil
            }
            let components = names.filter { !$0.isEmpty }
            return components.isEmpty ? nil : components
        }
        return nil
    }

    /// An inverse that names a transient (left out) relationship: the relationship stores as one
    /// without inverse. A fetch index element naming a to-many relationship: Core Data leaves
    /// the element out (and the index, when nothing is left).
    private func resolve(_ entities: inout [EntityDescription], in graph: Graph, warnings: inout [String]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func declares(_ entity: String, _ property: String, toMany: Bool? = nil) -> Bool {
            ([entity] + graph.ancestors(of: entity)).contains { name in
                byName[name].map { found in
                    found.attributes.contains { $0.name == property && toMany != true }
                        || found.relationships.contains { $0.name == property && (toMany == nil || $0.toMany == toMany) }
                } ?? false
            }
        }
        func isNumeric(_ entity: String, _ property: String?) -> Bool {
            ([entity] + graph.ancestors(of: entity)).contains { name in
                byName[name]?.attributes.contains { $0.name == property && FetchIndex.rtreeTypes.contains($0.type) } ?? false
            }
        }
        for entity in entities.indices {
            for index in entities[entity].relationships.indices {
                let relationship = entities[entity].relationships[index]
                if let inverse = relationship.inverse, !declares(relationship.destination, inverse) { entities[entity].relationships[index].inverse = nil }
            }
            let name = entities[entity].name
            entities[entity].fetchIndexes = entities[entity].fetchIndexes.compactMap { index in
                let kept = index.elements.filter { element in
                    guard let property = element.property, declares(name, property, toMany: true) else { return true }
                    warnings.append("fetch index '\(name).\(index.name)' names the to-many relationship '\(property)'; left out of the index, as Core Data does")
                    return false
                }
                guard !kept.isEmpty else { return nil }
                if index.rtree, let other = kept.first(where: { element in !isNumeric(name, element.property) }) {
                    warnings.append("fetch index '\(name).\(index.name)' is an R-tree index over '\(other.description)', which is not a numeric or date attribute; the suite leaves it out")
                    return nil
                }
                let unknown = (index.condition?.properties ?? []).sorted().first { $0 != FetchIndex.primaryKeyName && !declares(name, $0, toMany: false) }
                if let unknown { warnings.append("fetch index '\(name).\(index.name)' is a partial index whose predicate names '\(unknown)', not an attribute or to-one; the suite indexes every row") }
                return FetchIndex(index.name, kept, condition: unknown == nil ? index.condition : nil, rtree: index.rtree)
            }
        }
    }

    /// `_P` as `-[NSPropertyDescription initWithCoder:]` reads it, else the separate booleans.
    private func flags(_ property: Object) throws -> (optional: Bool, transient: Bool, ordered: Bool) {
        if let packed = try archive.integer(property, "_P"), packed != 0 {
            return (packed & 0x2 != 0, packed & 0x8 != 0, packed & 0x400 != 0)
        }
        return (try archive.bool(property, "NSIsOptional") ?? false, try archive.bool(property, "NSIsTransient") ?? false,
                try archive.bool(property, "NSIsOrdered") ?? false)
    }

    /// Core Data's `NSAttributeType` values; `nil` for the ones without a column (undefined, object ID).
    private func attributeType(_ attribute: Object) throws -> AttributeType? {
        switch try archive.integer(attribute, "NSAttributeType") ?? 0 {
        case 100: .integer16
        case 200: .integer32
        case 300: .integer64
        case 400: .decimal
        case 500: .double
        case 600: .float
        case 700: .string
        case 800: .boolean
        case 900: .date
        case 1000: .binary
        case 1100: .uuid
        case 1200: .uri
        case 1800: .transformable
        default: nil
        }
    }

    private func relationship(_ property: Object, named name: String, of entity: String, names: [Int: String],
                              flags: (optional: Bool, transient: Bool, ordered: Bool)) throws -> RelationshipDescription {
        let what = "\(entity).\(name)"
        var destination = try archive.string(property, "_NSDestinationEntityName")
        if let uid = try archive.reference(property, "NSDestinationEntity") {
            guard let found = names[uid] else { throw Failure("has relationship '\(what)' whose destination is not an entity of the model") }
            destination = found
        }
        guard let destination else { throw Failure("has relationship '\(what)' without a destination") }
        var inverse = try archive.string(property, "_NSInverseRelationshipName")
        if inverse == nil, let uid = try archive.reference(property, "NSInverseRelationship") {
            inverse = try archive.string(archive.object(uid, of: ["NSRelationshipDescription"], what: "the inverse of '\(what)'"), "NSPropertyName")
        }
        let toMany = (try archive.integer(property, "NSMaxCount") ?? 1) != 1
        let rule: DeleteRule = switch try archive.integer(property, "NSDeleteRule") ?? 1 {
        case 0: .noAction
        case 2: .cascade
        case 3: .deny
        default: .nullify
        }
        return RelationshipDescription(name, destination: destination, inverse: inverse, toMany: toMany, ordered: toMany && flags.ordered,
                                       deleteRule: rule, optional: flags.optional)
    }

    /// `NSUniqueTuples`: each an array of property names (or of property descriptions).
    private func uniquenessConstraints(_ entity: Object, of name: String) throws -> [[String]] {
        try (archive.array(entity, "NSUniqueTuples") ?? []).compactMap { tuple in
            let members = try propertyNames(of: tuple, what: "a uniqueness constraint of '\(name)'")
            return members.isEmpty ? nil : members
        }
    }

    /// The members of an array of property names or of property descriptions.
    private func propertyNames(of uid: Int, what: String) throws -> [String] {
        try archive.array(uid, what: what).map { member in
            if let name = try? archive.string(member, what: what) { return name }
            return try archive.string(archive.object(member), "NSPropertyName") ?? ""
        }
    }

    /// `NSFetchIndexDescriptions`; a model archived before fetch indexes (no such key) has its
    /// indexed attributes (`NSIsIndexed`) and `NSCompoundIndexes` (arrays of property names, or of
    /// properties) instead, each named after its properties joined by `_`.
    private func fetchIndexes(_ entity: Object, of name: String, legacyIndexed: [String], warnings: inout [String]) throws -> [FetchIndex] {
        guard let descriptions = try archive.array(entity, "NSFetchIndexDescriptions") else {
            let compound = try (archive.array(entity, "NSCompoundIndexes") ?? []).map { try propertyNames(of: $0, what: "a compound index of '\(name)'") }
            return legacyIndexed.map { FetchIndex($0, [FetchIndex.Element(property: $0)]) }
                + compound.filter { !$0.isEmpty }.map { FetchIndex($0.joined(separator: "_"), $0.map { FetchIndex.Element(property: $0) }) }
        }
        return try descriptions.compactMap { uid in
            let index = try archive.object(uid, of: ["NSFetchIndexDescription"], what: "a fetch index of '\(name)'")
            let indexName = try archive.string(index, "NSIndexName") ?? ""
            let what = "fetch index '\(name).\(indexName)'"
            var condition: FetchIndex.Condition?
            if let predicate = try archive.reference(index, "NSPartialIndexPredicate") {
                do { condition = try self.condition(predicate) } catch let untranslatable as Untranslatable {
                    warnings.append("\(what) is a partial index whose predicate \(untranslatable.why); the suite indexes every row")
                } catch {
                    warnings.append("\(what) is a partial index whose predicate \(error); the suite indexes every row")
                }
            }
            var elements: [FetchIndex.Element] = []
            var rtree = false
            for elementUID in try archive.array(index, "NSIndexElements") ?? [] {
                let element = try archive.object(elementUID, of: ["NSFetchIndexElementDescription"], what: "an element of \(what)")
                let ascending = try archive.bool(element, "NSAscending") ?? true
                // NSFetchIndexElementType: 0 binary, 1 R-tree.
                switch try archive.integer(element, "NSFetchIndexElementType") ?? 0 {
                case 0: break
                case 1: rtree = true
                case let type: warnings.append("\(what) has an element of type \(type), neither binary nor R-tree; left out"); return nil
                }
                if let expression = try archive.reference(element, "NSIndexedProperty") {
                    switch try indexedExpression(expression) {
                    case "entity"?: elements.append(.entity(ascending: ascending))
                    case "SELF"?: elements.append(.primaryKey(ascending: ascending))
                    case let name?: elements.append(FetchIndex.Element(property: name, ascending: ascending))
                    case nil: warnings.append("\(what) has an expression element; left out of the index")
                    }
                    continue
                }
                guard let property = try archive.string(element, "NSPropertyName") else { continue }
                elements.append(FetchIndex.Element(property: property, ascending: ascending))
            }
            guard !elements.isEmpty else { warnings.append("\(what) has no element the suite can index; left out"); return nil }
            return FetchIndex(indexName, elements, condition: rtree ? nil : condition, rtree: rtree)
        }
    }

    /// An index element's expression (`NSIndexedProperty`, an `NSExpressionDescription` whose
    /// `NSExpression` is `self`, or a key path such as `entity`): `SELF`, the key path, or `nil`
    /// for any other expression. The element's own `NSPropertyName` is then a made-up name
    /// (`expression15`), never a property.
    private func indexedExpression(_ uid: Int) throws -> String? {
        let description = try archive.object(uid, of: ["NSExpressionDescription"], what: "an index element's expression")
        guard let expressionUID = try archive.reference(description, "NSExpression") else { return nil }
        let expression = try archive.object(expressionUID)
        switch expression.className {
        case "NSSelfExpression": return "SELF"
        case "NSKeyPathExpression", "NSFunctionExpression": return try keyPath(of: expression)
        default: return nil
        }
    }

    /// The key path a key path expression reads: its `NSKeyPath`; or, archived as a function
    /// (`valueForKey:` or `valueForKeyPath:` of `self`), its one argument's: a constant holding
    /// the path, or a key path specifier (`NSKeyPathSpecifierExpression`, its `NSKeyPath`: how
    /// Photos' stores archive the `entity` element of `Z_Share_byCreationDate (Z_ENT,
    /// ZCREATIONDATE)`). `nil` for any other function.
    func keyPath(of expression: KeyedArchive.Object) throws -> String? {
        if let path = try? archive.string(expression, "NSKeyPath") { return path }
        if let selector = try archive.string(expression, "NSSelectorName"), !["valueForKey:", "valueForKeyPath:"].contains(selector) { return nil }
        guard let arguments = try archive.array(expression, "NSArguments"), arguments.count == 1 else { return nil }
        let argument = try archive.object(arguments[0])
        return try? archive.string(argument, argument.className == "NSConstantValueExpression" ? "NSConstantValue" : "NSKeyPath")
    }
}
