import Foundation

/// The checks of a model description: names, attributes, constraints, fetch indexes and sizes, each
/// mistake one `ModelError` sentence that says what to change.
extension Model {
    static func checkModelName(_ name: String) throws {
        let ok = !name.isEmpty && name.count <= 60 && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) }
        guard ok else { throw ModelError("model name '\(name)' must be 1 to 60 ASCII letters, digits, '-', '_' or '.'") }
    }

    /// The longest entity or property name: the suite's own bound (Core Data documents none, and
    /// SQLite's names have no limit); real stores' reach 62 characters
    /// (`_DKApplicationActivityMetadataKey__itemRelatedUniqueIdentifier`, knowledgeC).
    public static let longestName = 255

    static func identifier(_ name: String, longest: Int = longestName) -> Bool {
        guard let first = name.unicodeScalars.first, name.count <= longest else { return false }
        return first.isASCII && CharacterSet.letters.contains(first)
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
    }

    static func checkEntityName(_ name: String) throws {
        guard identifier(name), name.first?.isUppercase == true else {
            throw ModelError("entity name '\(name)' must be 1 to \(longestName) ASCII letters, digits and '_', starting with a capital letter (Core Data's rule)")
        }
    }

    /// The longest fetch index name (SQLite has no limit; real stores' reach 122 characters).
    static let longestIndexName = 255

    /// Property names no model may use, each with the reason: `entity` means the entity column in
    /// the suite's fetch indexes, `SELF` the object's key there (every layout indexes it as `Z_PK`,
    /// as Core Data's `SELF` element); the others are `NSManagedObject`'s identity, which Core Data
    /// forbids as property names ("you cannot give a property the name `description`", Core Data
    /// Programming Guide) because the generated accessor would replace the method.
    static let reservedPropertyNames: [String: String] = [
        "entity": "'entity' means the entity column in a fetch index",
        FetchIndex.primaryKeyName: "'SELF' means the object's own key (Z_PK) in a fetch index or uniqueness constraint",
        "description": "Core Data reserves the names of NSManagedObject's methods (description is NSObject's)",
        "objectID": "Core Data reserves the names of NSManagedObject's methods (objectID is the object's identity)",
        "managedObjectContext": "Core Data reserves the names of NSManagedObject's methods",
    ]

    /// Names an object's own state goes by (`NSManagedObject`'s `isDeleted`, `isInserted`,
    /// `isUpdated`, `isFault`, `hasChanges`, and the keys `deleted`, `inserted`, `updated`, `fault`
    /// that key-value coding answers with them; SwiftData's `PersistentModel` has `isDeleted` and
    /// `hasChanges` too). Core Data and SwiftData accept them: Xcode only warns, SwiftData compiles
    /// them, and the store has the column (`ZISDELETED`). So a model may use them, with a warning,
    /// since key-value access to such a property reads the state instead of the stored value (a
    /// SwiftData app's `deleted` property never changed until it was renamed).
    static let stateNames: Set<String> = ["isDeleted", "isInserted", "isUpdated", "isFault", "hasChanges", "deleted", "inserted", "updated", "fault"]

    /// The warning for a property named as an object's state, or nil.
    public static func stateNameWarning(entity: String, property name: String) -> String? {
        guard stateNames.contains(name) else { return nil }
        return "\(entity).\(name) has the name of an object's own state in Core Data and SwiftData; it is stored as any other property, "
            + "but an app reading it by key-value coding gets the object's state instead of the stored value: consider renaming it"
    }

    /// The state-name warnings of a description's properties (`stateNameWarning`), in entity order,
    /// each after the place `place` gives its entity and property (`file:line:column: `), if any.
    public static func stateNameWarnings(_ description: ModelDescription, place: (_ entity: String, _ property: String) -> String? = { _, _ in nil }) -> [String] {
        description.entities.flatMap { entity in
            (entity.attributes.map(\.name) + entity.relationships.filter { !$0.hidden }.map(\.name)).compactMap { name in
                stateNameWarning(entity: entity.name, property: name).map { warning in place(entity.name, name).map { "\($0): \(warning)" } ?? warning }
            }
        }
    }

    /// Xcode's editor asks for a lower-case first letter, but Core Data reads a model whose
    /// property names start with a capital or with '_' (real stores have them:
    /// `_CDEntityMetadataKey__bestLanguage`), so the suite does too.
    static func checkPropertyName(_ name: String, of entity: String) throws {
        guard identifier(name) || (name.hasPrefix("_") && identifier("x" + name.dropFirst())) else {
            throw ModelError("property name '\(name)' of '\(entity)' must be 1 to \(longestName) ASCII letters, digits and '_', starting with a letter or '_'")
        }
        if let reason = reservedPropertyNames[name] {
            throw ModelError("property name '\(name)' of '\(entity)' is reserved: \(reason); rename it")
        }
        // A name starting with '_' whose column would be one of Core Data's own (`_pk` → Z_PK).
        if ["_pk", "_ent", "_opt"].contains(name.lowercased()) {
            throw ModelError("property name '\(name)' of '\(entity)' is reserved: its column Z\(name.uppercased()) is Core Data's own; rename it")
        }
    }

    static func check(_ attribute: Attribute, of entity: String) throws {
        let what = "attribute '\(entity).\(attribute.name)'"
        if let share = attribute.nullShare, !(share >= 0 && share <= 1) {
            throw ModelError("\(what): nullShare must be between 0 and 1; got \(share)")
        }
        if let lengths = attribute.lengths {
            guard [.string, .uri, .binary, .transformable].contains(attribute.type) else {
                throw ModelError("\(what) gives \"lengths\", which applies to string, URI and binary attributes only")
            }
            guard lengths.isValid, lengths.maximum <= Double(maximumLength) else {
                throw ModelError("\(what): lengths must give \(Quantiles.steps + 1) ascending quantiles from 0 to \(maximumLength) and a mean between the first and the last")
            }
        }
        if let share = attribute.distinctShare, !(share >= 0 && share <= 1) {
            throw ModelError("\(what): distinctShare must be between 0 and 1; got \(share)")
        }
        guard let spec = attribute.values else { return }
        let textual: Set<AttributeType> = [.string, .uri]
        let numeric: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .decimal, .date, .boolean]
        switch spec.kind {
        case .words, .name, .topic, .isbn, .url, .doi, .email, .choice:
            guard textual.contains(attribute.type) else {
                throw ModelError("\(what) is \(attribute.type.rawValue); values of kind '\(spec.kind.rawValue)' are strings")
            }
        case .range:
            guard numeric.contains(attribute.type) else {
                throw ModelError("\(what) is \(attribute.type.rawValue); values of kind 'range' are numbers or dates")
            }
        case .sequence:
            guard [.integer16, .integer32, .integer64].contains(attribute.type) else {
                throw ModelError("\(what) is \(attribute.type.rawValue); values of kind 'sequence' are integers")
            }
        case .uuid:
            guard attribute.type == .uuid else { throw ModelError("\(what) is \(attribute.type.rawValue); values of kind 'uuid' are UUIDs") }
        }
        if let min = spec.min, let max = spec.max {
            guard min.isFinite, max.isFinite, min < max else { throw ModelError("\(what): values need min < max, both finite; got \(min) and \(max)") }
        } else if spec.kind == .range {
            throw ModelError("\(what): values of kind 'range' need \"min\" and \"max\"")
        }
        if spec.kind == .words, let min = spec.min, min < 1 || (spec.max ?? 0) > 64 {
            throw ModelError("\(what): words need 1 <= min < max <= 64")
        }
        if spec.kind == .choice, (spec.choices ?? []).isEmpty {
            throw ModelError("\(what): values of kind 'choice' need a non-empty \"choices\" list")
        }
    }

    func validateProperties() throws {
        for entity in entities {
            let attributeOrToOne = Set(entity.attributes.map(\.name) + entity.toOneRelationships.map(\.name))
            var constraints = Set<[String]>()
            for constraint in entity.uniquenessConstraints {
                guard !constraint.isEmpty else { throw ModelError("entity '\(entity.name)' has an empty uniqueness constraint") }
                guard constraints.insert(constraint).inserted else {
                    throw ModelError("entity '\(entity.name)' declares the uniqueness constraint (\(constraint.joined(separator: ", "))) twice; declare it once")
                }
                for name in constraint where !attributeOrToOne.contains(name) {
                    throw ModelError("a uniqueness constraint of '\(entity.name)' names '\(name)', which is not one of its attributes or to-one relationships")
                }
                guard Set(constraint).count == constraint.count else {
                    throw ModelError("a uniqueness constraint of '\(entity.name)' names a property twice")
                }
                if distinctAttribute(of: constraint, in: entity.index) == nil, distinctToOne(of: constraint, in: entity.index) == nil,
                   entity.subtree.contains(where: { entities[$0].rows > 1 }) {
                    throw ModelError("the uniqueness constraint (\(constraint.joined(separator: ", "))) of '\(entity.name)' has no attribute that can take a different value in each object and no to-one (only booleans); "
                        + "the suite cannot generate objects that satisfy it: add an attribute to it")
                }
            }
            var indexNames = Set<String>()
            for index in entity.fetchIndexes {
                // Real stores keep fetch index names of up to 122 characters whole.
                guard Self.identifier(index.name, longest: Self.longestIndexName) else {
                    throw ModelError("fetch index name '\(index.name)' of '\(entity.name)' must be 1 to \(Self.longestIndexName) ASCII letters, digits and '_', starting with a letter")
                }
                guard indexNames.insert(index.name.uppercased()).inserted else {
                    throw ModelError("entity '\(entity.name)' declares fetch index '\(index.name)' twice")
                }
                guard !index.elements.isEmpty else { throw ModelError("fetch index '\(index.name)' of '\(entity.name)' has no elements") }
                for element in index.elements where !element.isPrimaryKey {
                    if let name = element.property, !attributeOrToOne.contains(name) {
                        throw ModelError("fetch index '\(index.name)' of '\(entity.name)' names '\(name)', which is not one of its attributes or to-one relationships")
                    }
                }
                if index.rtree { try checkRTree(index, of: entity) }
                for name in (index.condition?.properties ?? []).sorted() where name != FetchIndex.primaryKeyName && !attributeOrToOne.contains(name) {
                    throw ModelError("the condition of fetch index '\(index.name)' of '\(entity.name)' names '\(name)', which is not one of its attributes or to-one relationships")
                }
            }
            try checkNullShares(of: entity)
            for relationship in entity.ownRelationships where !relationship.toMany && relationship.nullShare == 0 && !relationship.isHidden && !relationship.isOneToOne {
                if objectCount(relationship.destination) == 0 && entity.subtree.contains(where: { entities[$0].rows > 0 }) {
                    throw ModelError("relationship '\(entity.name).\(relationship.name)' is required, but '\(entities[relationship.destination].name)' has no objects to point at; give it rows or make the relationship optional")
                }
                let (owners, destinations) = (objectCount(entity.index), objectCount(relationship.destination))
                if generatesDistinctDestinations(relationship), owners > destinations {
                    throw ModelError("relationship '\(entity.name).\(relationship.name)' is unique (each '\(entities[relationship.destination].name)' pointed at by one object at most) and never NULL "
                        + "(required, or a null share of 0), but its \(owners) objects have \(destinations) to point at; "
                        + "give '\(entities[relationship.destination].name)' at least \(owners) objects, or make the relationship optional")
                }
            }
        }
    }

    /// An R-tree index: one to five dimensions (SQLite's R-tree), each a numeric or date attribute
    /// of its own (a pair of columns, its minimum and maximum).
    private func checkRTree(_ index: FetchIndex, of entity: Entity) throws {
        let names = index.elements.map { $0.property ?? "entity" }
        guard names.count <= 5, Set(names).count == names.count else {
            throw ModelError("R-tree index '\(index.name)' of '\(entity.name)' names \(names.count > 5 ? "\(names.count) elements; SQLite's R-tree holds 1 to 5" : "an element twice"); give each of at most 5 attributes once")
        }
        for element in index.elements where element.isPrimaryKey || element.property.flatMap(entity.attribute).map({ !FetchIndex.rtreeTypes.contains($0.type) }) ?? true {
            throw ModelError("R-tree index '\(index.name)' of '\(entity.name)' names '\(element.description)', which is not a numeric or date attribute; an R-tree holds each element's minimum and maximum")
        }
    }

    /// An entity's own NULL shares (`EntityDescription.nullShares`): a concrete entity's, each of an
    /// optional attribute or an optional to-one it has (not one of a one-to-one pair, whose pairs are
    /// left out over the whole subtree, nor the order's key), from 0 to 1.
    private func checkNullShares(of entity: Entity) throws {
        guard !entity.nullShares.isEmpty else { return }
        guard entity.isConcrete else {
            throw ModelError("entity '\(entity.name)' is abstract, so it has no objects of its own, but it gives nullShares; give them on its concrete sub-entities")
        }
        for (name, share) in entity.nullShares.sorted(by: { $0.key < $1.key }) {
            let what = "nullShares of '\(entity.name)' names '\(name)'"
            guard share >= 0, share <= 1 else { throw ModelError("\(what) with \(share); a share must be between 0 and 1") }
            if let position = entity.attributeIndex(name) {
                guard entity.attributes[position].optional else { throw ModelError("\(what), which is not optional; make it optional or drop its share") }
                if entity.attributeOwners[position] == mainRoot, name == orderKey, share > 0 {
                    throw ModelError("\(what), which orders the ordered reads (the last sort key), so it is never NULL; drop its share")
                }
            } else if let relationship = entity.relationship(name), !relationship.toMany {
                guard relationship.nullShare > 0 || share == 0, !relationship.isOneToOne else {
                    throw ModelError("\(what), which is \(relationship.isOneToOne ? "one side of a one-to-one pair (its pairs are left out over the whole subtree)" : "required"); drop its share")
                }
            } else {
                throw ModelError("\(what), which is not one of its attributes or to-one relationships")
            }
        }
    }

    func validateSizes(_ objects: [Int]) throws {
        let total = roots.reduce(0) { $0 + objects[$1] }
        guard total > 0 else { throw ModelError("the model has no objects; give at least one concrete entity some rows") }
        guard total <= Self.maximumRows else {
            throw ModelError("the model has \(total) objects in all, more than the \(Self.maximumRows) the suite supports; describe fewer")
        }
        for root in roots {
            let subtree = entities[root].subtree
            let concrete = concreteEntities(in: subtree).count
            guard concrete <= Self.maximumConcreteEntitiesPerHierarchy else {
                throw ModelError("the hierarchy of '\(entities[root].name)' has \(concrete) concrete entities, more than the \(Self.maximumConcreteEntitiesPerHierarchy) the suite supports (SQLite allows 500 arms in one UNION ALL)")
            }
            var columns = 3
            for index in subtree {
                let entity = entities[index]
                columns += entity.ownAttributes.count
                columns += entity.ownRelationships.filter { !$0.toMany }.reduce(0) { $0 + (entities[$1.destination].hasSubentities ? 2 : 1) }
            }
            guard columns <= Self.maximumColumns else {
                throw ModelError("the hierarchy of '\(entities[root].name)' would need \(columns) columns in one table, more than the \(Self.maximumColumns) the suite allows (SQLite's limit is 2,000); describe fewer attributes")
            }
        }
        if let texts = description.order {
            let root = entities[mainRoot]
            for text in texts {
                guard let element = FetchIndex.Element(text: text), let name = element.property, root.attribute(name) != nil else {
                    throw ModelError("order element '\(text)' must be an attribute of '\(root.name)' (the main hierarchy's root), optionally followed by 'asc' or 'desc'")
                }
            }
            guard let last = texts.last.flatMap(FetchIndex.Element.init(text:))?.property, isUnique(last, of: mainRoot) else {
                throw ModelError("the order's last element must be an attribute of '\(root.name)' under a uniqueness constraint of its own, so that pages are well defined")
            }
        }
        if let key = orderKey, let attribute = entities[mainRoot].attribute(key), let share = attribute.nullShare, share > 0, attribute.optional {
            throw ModelError("attribute '\(entities[mainRoot].name).\(key)' orders the ordered reads (the last sort key), so it is never NULL there, but it gives nullShare \(share); drop nullShare, or order by another unique attribute")
        }
        if let name = description.leaf {
            guard let leaf = index(of: name) else { throw ModelError("leaf '\(name)' is not an entity of the model") }
            guard !entities[leaf].hasSubentities, entities[leaf].isConcrete else {
                throw ModelError("leaf '\(name)' must be a concrete entity without sub-entities")
            }
        }
        if let name = description.branch {
            guard let branch = index(of: name) else { throw ModelError("branch '\(name)' is not an entity of the model") }
            guard entities[branch].parent != nil, entities[branch].hasSubentities else {
                throw ModelError("branch '\(name)' must have both a parent and sub-entities")
            }
        }
    }
}
