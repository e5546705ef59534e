import CoreDataLayout
import CoreDataStores
import Foundation
import Models
import SQLite
import Strategies

/// Writes a store the way Core Data lays one out, for the suite's tests: the tables of
/// `CoreDataSchema` (the `single-table` layout), `Z_PRIMARYKEY` with each entity's number and its
/// root's highest key, `Z_METADATA` and a `Z_MODELCACHE` holding the model as Core Data archives
/// it (an `NSKeyedArchiver` archive of `NSManagedObjectModel`, raw deflate; the keys
/// `ModelCache` reads), and `rows` objects of each entity (only `Z_PK`, `Z_ENT`, `Z_OPT` set).
public enum CoreDataStoreFixture {
    /// The store of `model` at `path`; `cache` replaces the model cache's bytes (hostile inputs),
    /// `schemaSQL` the tables and indexes (a real store's statements).
    public static func write(_ model: Model, to path: String, cache: [UInt8]? = nil, schemaSQL: [String]? = nil, frameworkVersion: Int = 1447) throws {
        let database = try Database(path: path)
        let schema = CoreDataSchema(model)
        try database.transaction {
            for statement in schemaSQL.map({ $0 + CoreDataSchema.bookkeepingSQL }) ?? schema.schemaSQL { try database.execute(statement) }
            var nextKey: [Int: Int] = [:]
            for entity in model.entities where entity.rows > 0 {
                let insert = try database.prepare("INSERT INTO \(schema.table(of: entity.index).name) (Z_PK, Z_ENT, Z_OPT) VALUES (?, ?, 1)")
                for _ in 0 ..< entity.rows {
                    nextKey[entity.root, default: 0] += 1
                    insert.reset()
                    try insert.bind([nextKey[entity.root]!, entity.number])
                    try insert.run()
                }
            }
            let keys = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
            for entity in model.entities {
                keys.reset()
                try keys.bind([entity.number, entity.name, entity.parent.map { $0 + 1 } ?? 0, entity.isRoot ? nextKey[entity.index] ?? 0 : 0])
                try keys.run()
            }
            let metadata = BinaryPropertyListWriter.write(.dictionary([("NSPersistenceFrameworkVersion", .integer(Int64(frameworkVersion))),
                                                                       ("NSStoreType", .string("SQLite"))]))
            let plist = try database.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            try plist.bind(UUID().uuidString, at: 1)
            try metadata.withUnsafeBytes { try plist.bind(bytes: $0, at: 2) }
            try plist.run()
            let content = cache ?? RawDeflate.deflate(archive(of: model.description))
            let blob = try database.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
            try content.withUnsafeBytes { try blob.bind(bytes: $0, at: 1) }
            try blob.run()
        }
    }

    /// The model as Core Data archives it (`NSEntities` an `NSKnownKeysDictionary1`, unless
    /// `plainDictionaries`); with `legacyIndexes`, as a framework before fetch indexes did: each
    /// single-attribute index as the attribute's `NSIsIndexed`, the others in `NSCompoundIndexes`.
    /// - parameter renamings: an entity's name before a migration renamed it (its renaming identifier), by its name.
    public static func archive(of description: ModelDescription, plainDictionaries: Bool = false, legacyIndexes: Bool = false,
                               renamings: [String: String] = [:]) -> [UInt8] {
        let writer = KeyedArchiveWriter()
        let root = writer.reserve()
        var entityUIDs: [String: Int] = [:]
        for entity in description.entities { entityUIDs[entity.name] = writer.reserve() }
        // Relationships are reserved first, so that inverses can refer to each other.
        var relationshipUIDs: [String: Int] = [:]
        for entity in description.entities {
            for relationship in entity.relationships { relationshipUIDs["\(entity.name).\(relationship.name)"] = writer.reserve() }
        }
        func declaring(_ entity: String, _ relationship: String) -> Int? {
            var current: String? = entity
            var seen = Set<String>()
            while let name = current, seen.insert(name).inserted {
                if let uid = relationshipUIDs["\(name).\(relationship)"] { return uid }
                current = description.entities.first { $0.name == name }?.parent
            }
            return nil
        }
        for entity in description.entities {
            let entityUID = entityUIDs[entity.name]!
            var properties: [(String, Int)] = []
            let indexed = Set(entity.fetchIndexes.filter { $0.elements.count == 1 && $0.elements[0].property == $0.name }.map(\.name))
            for attribute in entity.attributes {
                let flags: Int64 = 0xF1 | (attribute.optional ? 0x2 : 0)
                properties.append((attribute.name, writer.add("NSAttributeDescription", [
                    ("NSPropertyName", .uid(writer.string(attribute.name))), ("NSEntity", .uid(entityUID)),
                    ("NSAttributeType", .integer(typeCode(attribute.type))), ("_P", .integer(flags)),
                ] + (attribute.optional ? [("NSIsOptional", .bool(true))] : []) + (legacyIndexes && indexed.contains(attribute.name) ? [("NSIsIndexed", .bool(true))] : []))))
            }
            for relationship in entity.relationships {
                let uid = relationshipUIDs["\(entity.name).\(relationship.name)"]!
                let flags: Int64 = 0xF1 | (relationship.optional ? 0x2 : 0) | (relationship.ordered ? 0x400 : 0)
                let rule: Int64 = switch relationship.deleteRule { case .noAction: 0; case .nullify: 1; case .cascade: 2; case .deny: 3 }
                var fields: [(String, PropertyListNode)] = [
                    ("NSPropertyName", .uid(writer.string(relationship.name))), ("NSEntity", .uid(entityUID)), ("_P", .integer(flags)),
                    ("NSDestinationEntity", .uid(entityUIDs[relationship.destination] ?? 0)),
                    ("_NSDestinationEntityName", .uid(writer.string(relationship.destination))),
                    ("NSMaxCount", .integer(relationship.toMany ? 0 : 1)), ("NSMinCount", .integer(0)), ("NSDeleteRule", .integer(rule)),
                ]
                if let inverse = relationship.inverse {
                    fields.append(("NSInverseRelationship", .uid(declaring(relationship.destination, inverse) ?? 0)))
                    fields.append(("_NSInverseRelationshipName", .uid(writer.string(inverse))))
                }
                if relationship.ordered { fields.append(("NSIsOrdered", .bool(true))) }
                writer.add("NSRelationshipDescription", fields, at: uid)
                properties.append((relationship.name, uid))
            }
            let tuples = writer.array(entity.uniquenessConstraints.map { tuple in writer.array(tuple.map(writer.string)) })
            let indexes = writer.array(entity.fetchIndexes.map { index in
                let indexUID = writer.reserve()
                let elements = index.elements.map { element in
                    // The entity element is an expression: `entity` as a key path (operand self).
                    let named: [(String, PropertyListNode)] = if let property = element.property {
                        [("NSPropertyName", .uid(writer.string(property)))]
                    } else {
                        [("NSIndexedProperty", .uid(writer.add("NSExpressionDescription", [
                            ("NSPropertyName", .uid(writer.string("entity"))), ("_P", .integer(0xF5)), ("NSExpressionType", .integer(0)),
                            ("NSExpression", .uid(writer.add("NSKeyPathExpression", [
                                ("NSExpressionType", .integer(3)), ("NSOperand", .uid(writer.add("NSSelfExpression", [("NSExpressionType", .integer(1))]))),
                                ("NSSelectorName", .uid(writer.string("valueForKeyPath:"))),
                                ("NSArguments", .uid(writer.array([writer.add("NSConstantValueExpression", [
                                    ("NSExpressionType", .integer(0)), ("NSConstantValue", .uid(writer.string("entity"))),
                                ])]))),
                            ]))),
                        ])))]
                    }
                    return writer.add("NSFetchIndexElementDescription", named + [
                        ("NSFetchIndexElementType", .integer(index.rtree ? 1 : 0)), ("NSFetchIndexDescription", .uid(indexUID)), ("NSAscending", .bool(element.ascending)),
                    ])
                }
                return writer.add("NSFetchIndexDescription", [
                    ("NSIndexName", .uid(writer.string(index.name))), ("NSIndexElements", .uid(writer.array(elements))),
                    ("NSEntity", .uid(entityUID)), ("NSPartialIndexPredicate", .uid(0)),
                ], at: indexUID)
            })
            let children = description.entities.filter { $0.parent == entity.name }.map { ($0.name, entityUIDs[$0.name]!) }
            writer.add("NSEntityDescription", [
                ("NSEntityName", .uid(writer.string(entity.name))), ("NSClassNameForEntity", .uid(0)),
                ("NSSuperentity", .uid(entity.parent.flatMap { entityUIDs[$0] } ?? 0)), ("NSManagedObjectModel", .uid(root)),
                ("NSProperties", .uid(writer.dictionary(properties))),
                ("NSSubentities", .uid(writer.dictionary(children))), ("NSUserInfo", .uid(writer.dictionary([], className: "NSDictionary"))),
                ("NSUniqueTuples", .uid(tuples)),
                legacyIndexes ? ("NSCompoundIndexes", .uid(writer.array(entity.fetchIndexes.filter { !indexed.contains($0.name) }.map { index in
                    writer.array(index.elements.map { writer.string($0.property ?? "") })
                }))) : ("NSFetchIndexDescriptions", .uid(indexes)),
            ] + (entity.abstract ? [("NSIsAbstract", .bool(true))] : [])
                + (renamings[entity.name].map { [("NSRenamingIdentifier", .uid(writer.string($0)))] } ?? []), at: entityUID)
        }
        let entries = description.entities.map { ($0.name, entityUIDs[$0.name]!) }
        writer.add("NSManagedObjectModel", [
            ("NSEntities", .uid(plainDictionaries ? writer.dictionary(entries, className: "NSDictionary") : writer.knownKeysDictionary(entries))),
            ("NSFetchRequestTemplates", .uid(0)),
        ], at: root)
        return writer.archive(root: root)
    }

    static func typeCode(_ type: AttributeType) -> Int64 {
        switch type {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        }
    }
}
