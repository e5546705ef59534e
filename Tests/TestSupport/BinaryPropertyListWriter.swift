/// Writes binary property lists (`bplist00`) for the suite's test stores: the format
/// `BinaryPropertyList` reads, written the way Apple's `CFBinaryPList.c` lays it out (objects,
/// then the offset table, then the 32-byte trailer).
public enum PropertyListNode: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case data([UInt8])
    case uid(Int)
    case array([PropertyListNode])
    case dictionary([(String, PropertyListNode)])

    public static func == (a: PropertyListNode, b: PropertyListNode) -> Bool { a.debugKey == b.debugKey }
    private var debugKey: String { "\(self)" }
}

public enum BinaryPropertyListWriter {
    public static func write(_ top: PropertyListNode) -> [UInt8] {
        // Objects in depth-first order, each container's members numbered after it.
        var objects: [[UInt8]] = []
        var pendingReferences: [(object: Int, members: [Int])] = []
        func add(_ node: PropertyListNode) -> Int {
            let number = objects.count
            objects.append([])
            switch node {
            case .null: objects[number] = [0x00]
            case let .bool(value): objects[number] = [value ? 0x09 : 0x08]
            case let .integer(value): objects[number] = [0x13] + bigEndian(UInt64(bitPattern: value), size: 8)
            case let .real(value): objects[number] = [0x23] + bigEndian(value.bitPattern, size: 8)
            case let .string(text):
                if text.allSatisfy(\.isASCII) {
                    objects[number] = marker(0x5, text.utf8.count) + Array(text.utf8)
                } else {
                    let units = Array(text.utf16)
                    objects[number] = marker(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                }
            case let .data(bytes): objects[number] = marker(0x4, bytes.count) + bytes
            case let .uid(value): objects[number] = [0x83] + bigEndian(UInt64(value), size: 4)
            case let .array(members):
                objects[number] = marker(0xA, members.count)
                pendingReferences.append((number, members.map(add)))
            case let .dictionary(entries):
                objects[number] = marker(0xD, entries.count)
                let keys = entries.map { add(.string($0.0)) }
                let values = entries.map { add($0.1) }
                pendingReferences.append((number, keys + values))
            }
            return number
        }
        _ = add(top)
        let referenceSize = objects.count < 256 ? 1 : objects.count < 65_536 ? 2 : 4
        for (object, members) in pendingReferences {
            objects[object] += members.flatMap { bigEndian(UInt64($0), size: referenceSize) }
        }
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects { offsets.append(output.count); output += object }
        let tableOffset = output.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : tableOffset < 1 << 32 ? 4 : 8
        for offset in offsets { output += bigEndian(UInt64(offset), size: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        output += bigEndian(UInt64(objects.count), size: 8) + bigEndian(0, size: 8) + bigEndian(UInt64(tableOffset), size: 8)
        return output
    }

    private static func marker(_ kind: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0xF, 0x13] + bigEndian(UInt64(count), size: 8)
    }

    public static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0 ..< size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }
}

/// Builds an `NSKeyedArchiver` archive: `$objects` (entry 0 is `$null`), class descriptions shared
/// by name, `$top.root`.
public final class KeyedArchiveWriter {
    private var objects: [PropertyListNode] = [.string("$null")]
    private var classes: [String: Int] = [:]

    public init() {}

    /// Reserves an entry (for an object that refers to objects added after it); fill it with `set`.
    public func reserve() -> Int { objects.append(.null); return objects.count - 1 }

    /// An object of `className` with `fields` (values inline, or `.uid` references).
    @discardableResult
    public func add(_ className: String, _ fields: [(String, PropertyListNode)], at uid: Int? = nil) -> Int {
        let target = uid ?? reserve()
        objects[target] = .dictionary([("$class", .uid(classUID(className)))] + fields)
        return target
    }

    /// A string object.
    public func string(_ text: String) -> Int { objects.append(.string(text)); return objects.count - 1 }

    /// An `NSArray`-kind object of `members` (references).
    public func array(_ members: [Int], className: String = "NSMutableArray") -> Int {
        add(className, [("NS.objects", .array(members.map { .uid($0) }))])
    }

    /// An `NSDictionary`-kind object of string keys and references.
    public func dictionary(_ entries: [(String, Int)], className: String = "NSMutableDictionary") -> Int {
        add(className, [("NS.keys", .array(entries.map { .uid(string($0.0)) })), ("NS.objects", .array(entries.map { .uid($0.1) }))])
    }

    /// Core Data's `NSKnownKeysDictionary1`: values, and the keys in a mapping strategy.
    public func knownKeysDictionary(_ entries: [(String, Int)]) -> Int {
        let keys = array(entries.map { string($0.0) }, className: "NSArray")
        let mapping = add("NSKnownKeysMappingStrategy1", [("keys", .uid(keys)), ("length", .integer(Int64(entries.count))), ("version", .integer(1))])
        let values = array(entries.map(\.1), className: "NSArray")
        return add("NSKnownKeysDictionary1", [("values", .uid(values)), ("searchMapping", .uid(mapping)), ("version", .integer(1))])
    }

    /// Replaces entry `uid` with `node` (for hostile archives).
    public func replace(_ uid: Int, with node: PropertyListNode) { objects[uid] = node }

    public func archive(root: Int) -> [UInt8] {
        BinaryPropertyListWriter.write(.dictionary([
            ("$version", .integer(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary([("root", .uid(root))])), ("$objects", .array(objects)),
        ]))
    }

    private func classUID(_ name: String) -> Int {
        if let uid = classes[name] { return uid }
        let chain: [String] = switch name {
        case "NSAttributeDescription", "NSRelationshipDescription": [name, "NSPropertyDescription", "NSObject"]
        case "NSMutableArray": [name, "NSArray", "NSObject"]
        case "NSMutableDictionary": [name, "NSDictionary", "NSObject"]
        default: [name, "NSObject"]
        }
        objects.append(.dictionary([("$classname", .string(name)), ("$classes", .array(chain.map { .string($0) }))]))
        classes[name] = objects.count - 1
        return objects.count - 1
    }
}
