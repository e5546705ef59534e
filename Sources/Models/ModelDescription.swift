import Foundation

/// A Core Data model to benchmark, described as data: entities (any depth of inheritance, abstract
/// or concrete, with their own row counts), attributes of Core Data's types, relationships with
/// inverses and delete rules, uniqueness constraints and fetch indexes. `Model` validates it and
/// derives what every strategy and workload reads (entity numbers, inherited properties, …).
///
/// `bench run --preset NAME` picks one of `ModelPresets`; `bench run --model FILE` reads one from
/// JSON (see docs/model.md, "The model language"):
///
/// ```json
/// { "name": "shop",
///   "entities": [
///     { "name": "Product", "abstract": true,
///       "attributes": [ { "name": "uid", "type": "uuid" }, { "name": "title", "type": "string" } ],
///       "uniquenessConstraints": [ ["uid"] ] },
///     { "name": "Physical", "parent": "Product", "rows": 6000, "attributes": [ { "name": "weight", "type": "double" } ] },
///     { "name": "Digital", "parent": "Product", "rows": 4000, "attributes": [ { "name": "url", "type": "uri" } ] } ] }
/// ```
public struct ModelDescription: Codable, Equatable, Sendable {
    public var name: String
    /// One line for `bench list`.
    public var summary: String?
    public var entities: [EntityDescription]
    /// The entity `fetch-leaf` and `count-leaf` read (default: the concrete leaf of the main
    /// hierarchy with the most objects).
    public var leaf: String?
    /// The middle entity `fetch-branch` and `count-branch` read (default: the first entity of the
    /// main hierarchy that has both a parent and sub-entities).
    public var branch: String?
    /// The sort descriptors of the ordered reads of the main hierarchy (`fetch-polymorphic`,
    /// `fetch-page`, `page-offset`, `page-keyset`): attributes of its root, each `asc` or `desc`,
    /// the last one unique. Default: the root's first single-attribute uniqueness constraint, ascending.
    public var order: [String]?
    /// The root entity whose hierarchy the workloads read (default: of the roots with
    /// sub-entities, the one with the most objects; see `Model.mainRoot`).
    public var root: String?
    /// Indexes and uniqueness constraints as a framework before fetch indexes (iOS 9 and 10)
    /// writes them: set for a store laid out so (its layout proof finds its indexes under the
    /// earlier names), so that a store generated from it is laid out as its framework did.
    public var legacyIndexes: Bool?

    public init(name: String, summary: String? = nil, entities: [EntityDescription], leaf: String? = nil, branch: String? = nil,
                order: [String]? = nil, root: String? = nil) {
        self.name = name; self.summary = summary; self.entities = entities; self.leaf = leaf; self.branch = branch; self.order = order
        self.root = root
    }

    /// Reads a description from a JSON file; every problem is one line naming the file.
    public static func load(path: String) throws -> ModelDescription {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ModelError("the model file \(path) does not exist; give the path of a JSON model description")
        }
        if isFolder.boolValue { throw ModelError("\(path) is a folder; give the path of a JSON model description") }
        let data = try ModelFile.contents(of: path, what: "the model file", kinds: "give the path of a JSON model description")
        do { return try JSONDecoder().decode(ModelDescription.self, from: data) }
        catch let error as DecodingError {
            if case let .dataCorrupted(context) = error, context.codingPath.isEmpty, let place = Self.syntaxErrorPlace(data) {
                throw ModelError("\(path) is not a model description: not valid JSON, \(place); correct it there")
            }
            throw ModelError("\(path) is not a model description: \(Self.explain(error))")
        }
        catch { throw ModelError("\(path) is not a model description: \(error.localizedDescription)") }
    }

    /// The description as pretty JSON, keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case let .keyNotFound(key, context): return "\(path(context)) lacks \"\(key.stringValue)\""
        case let .typeMismatch(type, context):
            return "\(path(context)) must be \(Self.typeName(type)): \(context.debugDescription)"
        case let .valueNotFound(type, context): return "\(path(context)) must be \(Self.typeName(type)), not null"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return "not valid JSON" + (underlying.map { " (\($0))" } ?? "")
            }
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// Where JSON that is not valid goes wrong, as JSONSerialization finds it ("around character
    /// N"): `at line L, column C` (UTF-8 bytes counted), or nil where it names no place.
    static func syntaxErrorPlace(_ data: Data) -> String? {
        do { _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            guard let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String,
                  let range = text.range(of: "around character "),
                  let offset = Int(text[range.upperBound...].prefix { $0.isNumber }), offset <= data.count else { return nil }
            let before = data.prefix(offset)
            let line = before.filter { $0 == 0x0A }.count + 1
            let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return "at line \(line), column \(column)"
        }
        return nil
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default: "\(type)".lowercased().contains("array") ? "a list" : "an object"
        }
    }
}
