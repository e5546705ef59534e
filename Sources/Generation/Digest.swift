import Foundation

/// A deterministic 64-bit hasher (FNV-1a with a final avalanche), stable across runs, processes
/// and machines, unlike `Hasher`. Used for answer digests.
public struct StableHasher: Sendable {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01B3
        }
    }

    public mutating func combine(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { combine(bytes: $0) }
    }

    public mutating func combine(_ value: Int) { combine(UInt64(bitPattern: Int64(value))) }

    public mutating func combine(_ value: Double) { combine(value.bitPattern) }

    /// Length-prefixed UTF-8, so that ("ab", "c") and ("a", "bc") differ.
    public mutating func combine(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            combine(bytes.count)
            combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    public mutating func combine(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { combine(bytes: $0) }
    }

    public func finalize() -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Something that contributes its fields to an answer digest in a canonical order.
public protocol Digestible {
    func digest(into hasher: inout StableHasher)
}

extension Int: Digestible {
    public func digest(into hasher: inout StableHasher) { hasher.combine(self) }
}

/// The digest of a workload's answer: a hash over the ordered result, or over the result as a
/// set when the workload promises no order. Two strategies agree when their digests are equal.
public struct AnswerDigest: Equatable, Sendable, CustomStringConvertible {
    public enum Order: Sendable { case ordered, unordered }

    public let order: Order
    private var sequence = StableHasher()
    private var setSum: UInt64 = 0
    public private(set) var count = 0

    public init(_ order: Order) { self.order = order }

    public init<S: Sequence>(_ order: Order, of rows: S) where S.Element: Digestible {
        self.init(order)
        for row in rows { add(row) }
    }

    public mutating func add(_ row: some Digestible) {
        var hasher = StableHasher()
        row.digest(into: &hasher)
        let rowHash = hasher.finalize()
        count += 1
        switch order {
        case .ordered: sequence.combine(rowHash)
        case .unordered: setSum &+= rowHash
        }
    }

    /// 16 hex digits; the row count is folded in.
    public var value: UInt64 {
        var hasher = StableHasher()
        hasher.combine(count)
        hasher.combine(order == .ordered ? sequence.finalize() : setSum)
        return hasher.finalize()
    }

    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public static func == (lhs: AnswerDigest, rhs: AnswerDigest) -> Bool { lhs.value == rhs.value }
}
