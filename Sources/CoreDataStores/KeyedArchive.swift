/// An `NSKeyedArchiver` archive read without Foundation's unarchiver (which Linux's Foundation
/// cannot point at Core Data's classes): a binary property list whose `$objects` array holds
/// every archived object once, `$top` names the root, and objects refer to each other by UID
/// (an index into `$objects`; 0 is `$null`). An object is a dictionary with a `$class` UID naming
/// a class description (`$classname`); strings and numbers are stored inline.
///
/// Nothing here follows references on its own: a reader asks for one object at a time, so a
/// cyclic graph (an entity's properties point back at the entity) is walked without recursion.
public struct KeyedArchive {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// One archived object: its class name and its fields (each a property-list object number).
    public struct Object {
        public let uid: Int
        public let className: String
        let fields: [String: Int]
    }

    private let plist: BinaryPropertyList
    private let objects: [Int]
    /// The UID of the root object (`$top.root`).
    public let root: Int

    public init(_ plist: BinaryPropertyList) throws {
        self.plist = plist
        guard case let .dictionary(keys, values) = try plist.value(plist.top) else { throw Failure("is not a keyed archive (its top is not a dictionary)") }
        var top: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            if case let .string(name) = try plist.value(key) { top[name] = value }
        }
        guard let objectsRef = top["$objects"], case let .array(objects) = try plist.value(objectsRef),
              let topRef = top["$top"], case let .dictionary(rootKeys, rootValues) = try plist.value(topRef) else {
            throw Failure("is not a keyed archive (no $objects or $top)")
        }
        self.objects = objects
        var root: Int?
        for (key, value) in zip(rootKeys, rootValues) {
            if case .string("root") = try plist.value(key), case let .uid(uid) = try plist.value(value) { root = uid }
        }
        guard let root, objects.indices.contains(root), root != 0 else { throw Failure("is not a keyed archive (no root object)") }
        self.root = root
    }

    /// The object `uid` refers to: a dictionary with a class.
    public func object(_ uid: Int) throws -> Object {
        guard case let .dictionary(keys, values) = try entry(uid) else { throw Failure("has entry \(uid), not an object, where an object belongs") }
        var fields: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            guard case let .string(name) = try plist.value(key) else { throw Failure("has an object \(uid) with a key that is not a string") }
            fields[name] = value
        }
        guard let classRef = fields["$class"], case let .uid(classUID) = try plist.value(classRef),
              case let .dictionary(classKeys, classValues) = try entry(classUID) else {
            throw Failure("has an object \(uid) without a class")
        }
        var className: String?
        for (key, value) in zip(classKeys, classValues) {
            if case .string("$classname") = try plist.value(key), case let .string(name) = try plist.value(value) { className = name }
        }
        guard let className else { throw Failure("has an object \(uid) whose class has no name") }
        return Object(uid: uid, className: className, fields: fields)
    }

    /// `object(uid)`, checked to be of one of `classes`; `what` names it in the failure.
    public func object(_ uid: Int, of classes: Set<String>, what: String) throws -> Object {
        let found = try object(uid)
        guard classes.contains(found.className) else { throw Failure("has \(what) of class \(found.className), not \(classes.sorted().joined(separator: " or "))") }
        return found
    }

    /// The entry `uid` refers to, as stored: an inline value (number, string) or a dictionary.
    public func entry(_ uid: Int) throws -> BinaryPropertyList.Value {
        guard objects.indices.contains(uid) else { throw Failure("refers to object \(uid) of \(objects.count)") }
        return try plist.value(objects[uid])
    }

    // MARK: Fields

    /// The UID in field `key` of `object`; `nil` when absent or `$null`.
    public func reference(_ object: Object, _ key: String) throws -> Int? {
        guard let ref = object.fields[key] else { return nil }
        guard case let .uid(uid) = try plist.value(ref) else { throw Failure("has \(object.className).\(key) that is not a reference") }
        return uid == 0 ? nil : uid
    }

    /// The value stored in field `key` itself (`encodeInteger:`, `encodeDouble:` write it inline).
    public func field(_ object: Object, _ key: String) throws -> BinaryPropertyList.Value? {
        guard let ref = object.fields[key] else { return nil }
        return try plist.value(ref)
    }

    public func integer(_ object: Object, _ key: String) throws -> Int64? {
        guard let ref = object.fields[key] else { return nil }
        switch try plist.value(ref) {
        case let .integer(value): return value
        case let .bool(value): return value ? 1 : 0
        default: throw Failure("has \(object.className).\(key) that is not an integer")
        }
    }

    public func bool(_ object: Object, _ key: String) throws -> Bool? {
        guard let ref = object.fields[key] else { return nil }
        switch try plist.value(ref) {
        case let .bool(value): return value
        case let .integer(value): return value != 0
        default: throw Failure("has \(object.className).\(key) that is not a boolean")
        }
    }

    /// The string in field `key` (an inline string, or an `NSString` object).
    public func string(_ object: Object, _ key: String) throws -> String? {
        guard let uid = try reference(object, key) else { return nil }
        return try string(uid, what: "\(object.className).\(key)")
    }

    /// The string `uid` refers to.
    public func string(_ uid: Int, what: String) throws -> String {
        switch try entry(uid) {
        case let .string(text): return text
        case .dictionary:
            let found = try object(uid)
            if let ref = found.fields["NS.string"], case let .string(text) = try plist.value(ref) { return text }
            throw Failure("has \(what) of class \(found.className), not a string")
        default: throw Failure("has \(what) that is not a string")
        }
    }

    /// The members of the array or set in field `key` (`NSArray`, `NSSet`, `NSOrderedSet` and their mutable kinds).
    public func array(_ object: Object, _ key: String) throws -> [Int]? {
        guard let uid = try reference(object, key) else { return nil }
        return try array(uid, what: "\(object.className).\(key)")
    }

    public func array(_ uid: Int, what: String) throws -> [Int] {
        let found = try object(uid, of: Self.arrayClasses, what: what)
        return try uids(found, "NS.objects")
    }

    /// The entries of the dictionary in field `key`, by string key: an `NSDictionary` (`NS.keys`,
    /// `NS.objects`) or Core Data's `NSKnownKeysDictionary1` (`values`, with the keys in its
    /// `searchMapping`'s `keys`).
    public func dictionary(_ object: Object, _ key: String) throws -> [(key: String, value: Int)]? {
        guard let uid = try reference(object, key) else { return nil }
        let what = "\(object.className).\(key)"
        let found = try self.object(uid)
        let keys: [Int], values: [Int]
        switch found.className {
        case "NSDictionary", "NSMutableDictionary":
            keys = try uids(found, "NS.keys")
            values = try uids(found, "NS.objects")
        case "NSKnownKeysDictionary1", "NSKnownKeysDictionary":
            guard let mapping = try reference(found, "searchMapping"), let valuesUID = try reference(found, "values") else {
                throw Failure("has \(what) without its keys or values")
            }
            let strategy = try self.object(mapping, of: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy"], what: what + ".searchMapping")
            guard let keysUID = try reference(strategy, "keys") else { throw Failure("has \(what) without its keys") }
            keys = try array(keysUID, what: what + ".searchMapping.keys")
            values = try array(valuesUID, what: what + ".values")
        default:
            throw Failure("has \(what) of class \(found.className), not a dictionary")
        }
        guard keys.count == values.count else { throw Failure("has \(what) with \(keys.count) keys for \(values.count) values") }
        return try zip(keys, values).map { (try string($0, what: what + " key"), $1) }
    }

    private func uids(_ object: Object, _ key: String) throws -> [Int] {
        guard let ref = object.fields[key] else { throw Failure("has \(object.className) without \(key)") }
        guard case let .array(members) = try plist.value(ref) else { throw Failure("has \(object.className).\(key) that is not an array") }
        return try members.map { member in
            guard case let .uid(uid) = try plist.value(member) else { throw Failure("has \(object.className).\(key) holding a value that is not a reference") }
            return uid
        }
    }

    static let arrayClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
}
