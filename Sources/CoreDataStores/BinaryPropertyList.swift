import Foundation

/// A binary property list (`bplist00`), read object by object: containers hold the numbers of
/// their members, so that reading never recurses and a list whose containers refer to themselves
/// (a cycle) or to each other a million levels deep costs no stack. Every offset, count and size is
/// checked against the bytes before it is used.
///
/// The format (Apple's CFBinaryPList.c, public): the header `bplist00`; objects, each a marker
/// byte (high nibble the kind, low nibble a size or `0xF` followed by an integer object holding
/// it); a table of each object's offset; a 32-byte trailer (offset size, reference size, object
/// count, top object, table offset).
public struct BinaryPropertyList {
    /// One object; containers list their members by object number.
    public enum Value: Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01 00:00:00 UTC.
        case date(Double)
        case data([UInt8])
        case string(String)
        /// A keyed archive's reference: the number of an entry of its `$objects`.
        case uid(Int)
        case array([Int])
        case set([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    /// The number of the top object.
    public let top: Int
    public var count: Int { offsets.count }

    public init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw Failure("is not a binary property list (no bplist00 header)")
        }
        self.bytes = bytes
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1 ... 8).contains(offsetSize), (1 ... 8).contains(referenceSize) else {
            throw Failure("has a damaged trailer (offset size \(offsetSize), reference size \(referenceSize))")
        }
        let objectCount = Self.unsigned(bytes, at: trailer + 8, size: 8)
        let topObject = Self.unsigned(bytes, at: trailer + 16, size: 8)
        let tableOffset = Self.unsigned(bytes, at: trailer + 24, size: 8)
        // Each object takes at least one byte and one offset-table entry.
        guard objectCount >= 1, objectCount <= UInt64(trailer), topObject < objectCount, tableOffset >= 8,
              tableOffset <= UInt64(trailer), objectCount * UInt64(offsetSize) <= UInt64(trailer) - tableOffset else {
            throw Failure("has a damaged trailer (\(objectCount) objects, top \(topObject), table at \(tableOffset))")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(objectCount))
        for index in 0 ..< Int(objectCount) {
            let offset = Self.unsigned(bytes, at: Int(tableOffset) + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableOffset else { throw Failure("has object \(index) outside its bytes (offset \(offset))") }
            offsets.append(Int(offset))
        }
        self.offsets = offsets
        top = Int(topObject)
    }

    /// Object number `number`.
    public func value(_ number: Int) throws -> Value {
        guard offsets.indices.contains(number) else { throw Failure("refers to object \(number) of \(offsets.count)") }
        var position = offsets[number]
        let marker = bytes[position]
        position += 1
        let kind = marker >> 4, low = Int(marker & 0x0F)
        switch kind {
        case 0x0 ... 0x3:
            return try scalar(marker, at: position, number)
        case 0x4:
            let (length, start) = try length(low, at: position, number)
            try need(start, length, number)
            return .data(Array(bytes[start ..< start + length]))
        case 0x5:
            let (length, start) = try length(low, at: position, number)
            try need(start, length, number)
            return .string(String(decoding: bytes[start ..< start + length], as: UTF8.self))
        case 0x6:
            let (length, start) = try length(low, at: position, number)
            let (byteCount, overflow) = length.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw Failure("has a string too long at object \(number)") }
            try need(start, byteCount, number)
            let units = stride(from: start, to: start + byteCount, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let size = low + 1
            try need(position, size, number)
            let uid = Self.unsigned(bytes, at: position, size: size)
            guard uid < UInt64(Int.max) else { throw Failure("has a reference too large at object \(number)") }
            return .uid(Int(uid))
        case 0xA, 0xC:
            let (count, start) = try length(low, at: position, number)
            let members = try references(count, at: start, number)
            return kind == 0xA ? .array(members) : .set(members)
        case 0xD:
            let (count, start) = try length(low, at: position, number)
            let (doubled, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw Failure("has a dictionary too large at object \(number)") }
            let members = try references(doubled, at: start, number)
            return .dictionary(keys: Array(members[..<count]), values: Array(members[count...]))
        default:
            throw Failure("has an unknown marker 0x\(String(marker, radix: 16)) at object \(number)")
        }
    }

    /// A null, boolean, integer, real or date object whose marker is `marker`.
    private func scalar(_ marker: UInt8, at position: Int, _ number: Int) throws -> Value {
        let kind = marker >> 4, low = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw Failure("has an unknown marker 0x\(String(marker, radix: 16)) at object \(number)")
            }
        case 0x1:
            let size = 1 << low
            guard size <= 16 else { throw Failure("has an integer of \(size) bytes at object \(number)") }
            try need(position, size, number)
            // 16-byte integers keep their low 8 bytes (a keyed archive's counts never need more).
            let raw = Self.unsigned(bytes, at: position + max(0, size - 8), size: min(size, 8))
            return .integer(size >= 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            let size = 1 << low
            try need(position, size, number)
            switch size {
            case 4: return .real(Double(Float(bitPattern: UInt32(Self.unsigned(bytes, at: position, size: 4)))))
            case 8: return .real(Double(bitPattern: Self.unsigned(bytes, at: position, size: 8)))
            default: throw Failure("has a real of \(size) bytes at object \(number)")
            }
        default:
            guard marker == 0x33 else { throw Failure("has an unknown marker 0x\(String(marker, radix: 16)) at object \(number)") }
            try need(position, 8, number)
            return .date(Double(bitPattern: Self.unsigned(bytes, at: position, size: 8)))
        }
    }

    /// A length from a marker's low nibble, or from the integer object after it (`0xF`); and where the content starts.
    private func length(_ low: Int, at position: Int, _ number: Int) throws -> (Int, Int) {
        guard low == 0xF else { return (low, position) }
        try need(position, 1, number)
        let marker = bytes[position]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw Failure("has a damaged length at object \(number)") }
        let size = 1 << Int(marker & 0x0F)
        try need(position + 1, size, number)
        let value = Self.unsigned(bytes, at: position + 1, size: size)
        guard value <= UInt64(bytes.count) else { throw Failure("has a length of \(value) at object \(number), more than its bytes") }
        return (Int(value), position + 1 + size)
    }

    private func references(_ count: Int, at start: Int, _ number: Int) throws -> [Int] {
        let (size, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else { throw Failure("has a container too large at object \(number)") }
        try need(start, size, number)
        return (0 ..< count).map { Int(Self.unsigned(bytes, at: start + $0 * referenceSize, size: referenceSize)) }
    }

    private func need(_ start: Int, _ count: Int, _ number: Int) throws {
        guard count >= 0, start <= bytes.count, count <= bytes.count - start else {
            throw Failure("is cut short at object \(number)")
        }
    }

    private static func unsigned(_ bytes: [UInt8], at position: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in position ..< position + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
