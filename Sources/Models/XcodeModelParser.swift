import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the XML of an Xcode model's `contents` file with Foundation's `XMLParser`: entities,
/// attributes, relationships (as written, inverses unresolved), uniqueness constraints, fetch
/// indexes and the `bench.*` user-info keys. `XcodeModelReader` resolves the relationships.
final class XcodeModelParser: NSObject, XMLParserDelegate {
    /// A relationship as the XML gives it.
    struct RawRelationship {
        var name: String
        var destination: String?
        var inverseName: String?
        var inverseEntity: String?
        var toMany: Bool
        var ordered: Bool
        var deletionRule: String?
        var optional: Bool
        /// A transient relationship: Core Data gives it no column and no index.
        var transient: Bool = false
        var userInfo: [String: String] = [:]
        var line: Int
    }

    /// An entity as the XML gives it; `description.relationships` stays empty until resolved.
    struct RawEntity {
        var description: EntityDescription
        var relationships: [RawRelationship] = []
        var userInfo: [String: String] = [:]
        var line: Int
        /// Attributes marked `indexed="YES"` (Xcode's per-property index), in declaration order.
        var indexed: [String] = []
    }

    private enum Owner { case entity, attribute(Int), relationship(Int), ignored }

    let source: String
    private(set) var entities: [RawEntity] = []
    private(set) var warnings: [String] = []
    private(set) var failure: ModelError?
    private var stack: [String] = []
    private var owner: Owner = .ignored
    private var constraint: [String]?
    private var index: (name: String, elements: [FetchIndex.Element], line: Int, keep: Bool, rtree: Bool)?
    private weak var parser: XMLParser?

    /// Xcode's attribute types (`attributeType`) and what the suite stores for each.
    static let types: [String: AttributeType] = [
        "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64, "Decimal": .decimal, "Double": .double,
        "Float": .float, "String": .string, "Boolean": .boolean, "Date": .date, "Binary": .binary, "UUID": .uuid, "URI": .uri,
        "Transformable": .transformable,
    ]

    init(source: String) { self.source = source }

    /// Parses `data`; afterwards `failure` says what was wrong, or `entities` and `warnings` hold the model.
    func parse(_ data: Data) {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        self.parser = parser
        let finished = parser.parse()
        if failure == nil, !finished || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            failure = ModelError("\(source) is not well-formed XML: line \(parser.lineNumber), column \(parser.columnNumber): \(Self.explain(code))")
        }
        if failure == nil, entities.isEmpty, stack.isEmpty, !sawModel {
            failure = ModelError("\(source) is not a Core Data model: it holds no <model> element")
        }
    }

    private var sawModel = false

    private func fail(_ sentence: String) {
        guard failure == nil else { return }
        failure = ModelError(sentence)
        parser?.abortParsing()
    }

    private var line: Int { parser?.lineNumber ?? 0 }
    private func at(_ what: String) -> String { "\(source): line \(line): \(what)" }
    private func yes(_ value: String?) -> Bool { value?.uppercased() == "YES" }
    private var entityName: String { entities.last?.description.name ?? "?" }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        let parent = stack.last
        let grandparent = stack.count >= 2 ? stack[stack.count - 2] : nil
        stack.append(name)
        switch (name, parent) {
        case ("model", nil):
            sawModel = true
        case (_, nil):
            fail("\(source) is not a Core Data model: its root element is <\(name)>, not <model>")
        case ("entity", "model"):
            guard let entity = attributes["name"], !entity.isEmpty else { return fail(at("an <entity> has no name")) }
            entities.append(RawEntity(description: EntityDescription(entity, parent: attributes["parentEntity"], abstract: yes(attributes["isAbstract"])),
                                      line: line))
            owner = .entity
        case ("attribute", "entity"):
            attribute(attributes)
        case ("relationship", "entity"):
            guard let relationship = attributes["name"], !relationship.isEmpty else { return fail(at("a <relationship> of '\(entityName)' has no name")) }
            entities[entities.count - 1].relationships.append(RawRelationship(
                name: relationship, destination: attributes["destinationEntity"], inverseName: attributes["inverseName"],
                inverseEntity: attributes["inverseEntity"], toMany: yes(attributes["toMany"]), ordered: yes(attributes["ordered"]),
                deletionRule: attributes["deletionRule"], optional: yes(attributes["optional"]), transient: yes(attributes["transient"]), line: line))
            owner = .relationship(entities[entities.count - 1].relationships.count - 1)
        case ("fetchedProperty", "entity"):
            warnings.append("\(entityName).\(attributes["name"] ?? "?") is a fetched property; the suite leaves it out (a fetched property is a stored fetch request, not a column)")
            owner = .ignored
        case ("uniquenessConstraint", "uniquenessConstraints"):
            constraint = []
        case ("constraint", "uniquenessConstraint"):
            guard let value = attributes["value"], !value.isEmpty else { return fail(at("a uniqueness constraint of '\(entityName)' has a <constraint> without a value")) }
            constraint?.append(value)
        case ("fetchIndex", "entity"):
            guard let indexName = attributes["name"], !indexName.isEmpty else { return fail(at("a <fetchIndex> of '\(entityName)' has no name")) }
            index = (indexName, [], line, true, false)
        case ("fetchIndexElement", "fetchIndex"):
            fetchIndexElement(attributes)
        case ("entry", "userInfo"):
            guard let key = attributes["key"] else { return }
            let value = attributes["value"] ?? ""
            switch (grandparent, owner) {
            case ("entity", _): entities[entities.count - 1].userInfo[key] = value
            case ("attribute", .attribute(let position)): attributeInfo(key, value, position)
            case ("relationship", .relationship(let position)): entities[entities.count - 1].relationships[position].userInfo[key] = value
            default: break
            }
        case ("configuration", "model"):
            warnings.append("configuration '\(attributes["name"] ?? "?")' is not modelled: the suite stores every entity in one store")
        case ("fetchRequest", "model"):
            warnings.append("fetch request template '\(attributes["name"] ?? "?")' is not run: the suite times its own workloads")
        default:
            break // layout (<elements>), composite definitions (<composite>), and whatever Xcode adds later
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        stack.removeLast()
        switch name {
        case "attribute", "relationship", "fetchedProperty":
            if stack.last == "entity" { owner = .entity }
        case "entity":
            owner = .ignored
        case "uniquenessConstraint":
            if let constraint, !constraint.isEmpty, !entities.isEmpty { entities[entities.count - 1].description.uniquenessConstraints.append(constraint) }
            constraint = nil
        case "fetchIndex":
            if let index, index.keep, !entities.isEmpty {
                if index.elements.isEmpty { return fail("\(source): line \(index.line): fetch index '\(entityName).\(index.name)' has no elements") }
                entities[entities.count - 1].description.fetchIndexes.append(FetchIndex(index.name, index.elements, rtree: index.rtree))
            }
            index = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        // Linux's parser may go on after an error and report more: the first is the one to fix.
        fail("\(source) is not well-formed XML: line \(parser.lineNumber), column \(parser.columnNumber): \(Self.explain((parseError as NSError).code))")
    }

    private func attribute(_ attributes: [String: String]) {
        guard let name = attributes["name"], !name.isEmpty else { return fail(at("an <attribute> of '\(entityName)' has no name")) }
        let what = "\(entityName).\(name)"
        owner = .ignored
        if yes(attributes["transient"]) {
            warnings.append("\(what) is transient; the suite leaves it out (Core Data does not store transient attributes)")
            return
        }
        guard let typeName = attributes["attributeType"] else { return fail(at("attribute '\(what)' has no attributeType")) }
        if typeName == "Composite" {
            warnings.append("\(what) is a composite attribute; the suite leaves it out (composite attributes are not modelled)")
            return
        }
        guard let type = Self.types[typeName] else {
            let known = Self.types.keys.sorted().joined(separator: ", ")
            return fail(at("attribute '\(what)' has type '\(typeName)', which the suite cannot store; Core Data's stored types: \(known)"))
        }
        if type == .binary || type == .transformable, yes(attributes["allowsExternalBinaryDataStorage"]) {
            warnings.append("\(what) allows external storage; the suite keeps its values in the row (Core Data's external files are not modelled)")
        }
        entities[entities.count - 1].description.attributes.append(Attribute(name, type, optional: yes(attributes["optional"])))
        owner = .attribute(entities[entities.count - 1].description.attributes.count - 1)
        if yes(attributes["indexed"]) { entities[entities.count - 1].indexed.append(name) }
    }

    private func attributeInfo(_ key: String, _ value: String, _ position: Int) {
        let what = "\(entityName).\(entities[entities.count - 1].description.attributes[position].name)"
        switch key {
        case "bench.values":
            guard let spec = ValueSpec(text: value) else {
                return fail(at("user info bench.values of '\(what)' is '\(value)'; give \(ValueSpec.textForms)"))
            }
            entities[entities.count - 1].description.attributes[position].values = spec
        case "bench.nullShare":
            guard let share = Double(value) else { return fail(at("user info bench.nullShare of '\(what)' is '\(value)', not a number from 0 to 1")) }
            entities[entities.count - 1].description.attributes[position].nullShare = share
        default:
            break
        }
    }

    private func fetchIndexElement(_ attributes: [String: String]) {
        guard let current = index else { return }
        let ascending = attributes["order"]?.lowercased() != "descending"
        let what = "fetch index '\(entityName).\(current.name)'"
        if attributes["type"]?.lowercased() == "rtree" {
            index?.rtree = true
        } else if let type = attributes["type"], type.lowercased() != "binary" {
            warnings.append("\(what) is of type \(type); the suite makes it a plain (binary) index")
        }
        if let property = attributes["property"], !property.isEmpty {
            index?.elements.append(FetchIndex.Element(property: property == "entity" ? nil : property, ascending: ascending))
        } else if let expression = attributes["expression"] {
            let bare = expression.trimmingCharacters(in: CharacterSet(charactersIn: " $()")).lowercased()
            if bare == "entity" {
                index?.elements.append(.entity(ascending: ascending))
            } else if bare == "self" {
                index?.elements.append(.primaryKey(ascending: ascending))
            } else if current.keep {
                warnings.append("\(what) has the expression element '\(expression)'; the suite leaves the index out (only properties and the entity are modelled)")
                index?.keep = false
            }
        } else {
            fail(at("an element of \(what) names neither a property nor an expression"))
        }
    }

    /// libxml2's error numbers, which `XMLParser` passes on, for the mistakes a hand edit makes.
    static func explain(_ code: Int) -> String {
        let known: [Int: String] = [
            4: "the document is empty", 5: "the document ends before its elements are closed", 9: "a character is not allowed here",
            23: "an entity reference lacks its ';'", 26: "an entity is not declared", 38: "'<' is not allowed in an attribute value",
            39: "an attribute value must start with a quote", 40: "an attribute value is not closed", 41: "an attribute lacks its value",
            42: "an attribute is given twice", 65: "a space is required here", 68: "a name was expected here",
            73: "'>' was expected here", 76: "a closing tag does not match its opening tag", 77: "a tag is not finished",
            85: "the document ends before its elements are closed", 86: "there is content after the root element",
        ]
        return (known[code] ?? "the XML parser stopped") + " (XMLParser error \(code))"
    }
}
