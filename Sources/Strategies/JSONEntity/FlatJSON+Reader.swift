import Generation
import Models

extension FlatJSON {
    /// A cursor over the bytes of one JSON text: whitespace, punctuation, values of a storage, strings.
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// JSON's whitespace: space, LF, CR, TAB.
        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func expect(_ byte: UInt8) throws {
            guard consume(byte) else { throw SyntaxError(offset: index, expected: "'\(Character(Unicode.Scalar(byte)))'") }
        }

        /// A value of an attribute stored as `storage`, or `null`.
        mutating func value(_ storage: AttributeType.Storage) throws -> Value {
            if peek == UInt8(ascii: "n") {
                let start = index
                for byte in "null".utf8 { guard consume(byte) else { throw SyntaxError(offset: start, expected: "a value") } }
                return .null
            }
            switch storage {
            case .integer: return .integer(try integer())
            case .real: return .real(try number())
            case .text:
                let end = index
                let content = try stringContent()
                guard let text = content.withBytes({ String(validating: $0, as: UTF8.self) }) else {
                    throw SyntaxError(offset: end, expected: "a string of valid UTF-8")
                }
                return .text(text)
            case .blob:
                let start = index
                return .blob(try stringContent().withBytes { try Self.unhex($0, at: start) })
            }
        }

        /// Lowercase hex digits, two per byte.
        static func unhex(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> [UInt8] {
            guard text.count % 2 == 0 else { throw SyntaxError(offset: offset, expected: "an even number of hex digits") }
            func digit(_ byte: UInt8) throws -> UInt8 {
                switch byte {
                case 0x30 ... 0x39: return byte - 0x30
                case 0x61 ... 0x66: return byte - 0x61 + 10
                default: throw SyntaxError(offset: offset, expected: "lowercase hex digits")
                }
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count / 2)
            var position = 0
            while position < text.count {
                bytes.append(try digit(text[position]) << 4 | digit(text[position + 1]))
                position += 2
            }
            return bytes
        }

        /// `-? (0 | [1-9][0-9]*)` within Int64; a fraction or an exponent is not an integer here.
        mutating func integer() throws -> Int64 {
            let start = index
            let negative = consume(UInt8(ascii: "-"))
            var value: Int64 = 0
            var digits = 0
            while let byte = peek, byte >= 0x30, byte <= 0x39 {
                if digits == 1, value == 0 { throw SyntaxError(offset: index, expected: "no digit after a leading 0") }
                let digit = Int64(byte - 0x30)
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
                guard !overflow, !overflow2 else { throw SyntaxError(offset: start, expected: "an integer within 64 bits") }
                value = next
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw SyntaxError(offset: start, expected: "an integer") }
            if let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                throw SyntaxError(offset: index, expected: "an integer (no fraction or exponent)")
            }
            return value
        }

        /// A JSON number, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a finite `Double`.
        mutating func number() throws -> Double {
            let start = index
            func digits() -> Int {
                let first = index
                while let byte = peek, byte >= 0x30, byte <= 0x39 { index += 1 }
                return index - first
            }
            _ = consume(UInt8(ascii: "-"))
            let leadingZero = peek == UInt8(ascii: "0")
            let whole = digits()
            guard whole > 0, !(leadingZero && whole > 1) else { throw SyntaxError(offset: start, expected: "a number") }
            if consume(UInt8(ascii: ".")) { guard digits() > 0 else { throw SyntaxError(offset: index, expected: "a digit after '.'") } }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard digits() > 0 else { throw SyntaxError(offset: index, expected: "a digit in the exponent") }
            }
            guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self)), value.isFinite else {
                throw SyntaxError(offset: start, expected: "a finite number")
            }
            return value
        }

        /// A string literal, escapes decoded; a raw control character (below U+0020) is an error.
        mutating func stringContent() throws -> StringContent {
            try expect(UInt8(ascii: "\""))
            let start = index
            // Most strings have no escape: hand back the bytes in place.
            while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { throw SyntaxError(offset: index, expected: "an escaped control character") }
                index += 1
            }
            guard let stop = peek else { throw SyntaxError(offset: index, expected: "'\"'") }
            if stop == UInt8(ascii: "\"") {
                index += 1
                return .raw(UnsafeBufferPointer(rebasing: bytes[start ..< index - 1]))
            }
            var decoded = Array(bytes[start ..< index])
            while true {
                guard let byte = peek else { throw SyntaxError(offset: index, expected: "'\"'") }
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return .decoded(decoded)
                case UInt8(ascii: "\\"):
                    guard let escape = peek else { throw SyntaxError(offset: index, expected: "an escape") }
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800 ..< 0xDC00).contains(scalar) {
                            // A high surrogate must be followed by an escaped low one: together, one scalar.
                            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                                throw SyntaxError(offset: index, expected: "a low surrogate")
                            }
                            let low = try hex4()
                            guard (0xDC00 ..< 0xE000).contains(low) else { throw SyntaxError(offset: index - 4, expected: "a low surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw SyntaxError(offset: index - 4, expected: "a Unicode scalar") }
                        decoded.append(contentsOf: String(unicode).utf8)
                    default: throw SyntaxError(offset: index - 1, expected: "an escape")
                    }
                default:
                    guard byte >= 0x20 else { throw SyntaxError(offset: index - 1, expected: "an escaped control character") }
                    decoded.append(byte)
                }
            }
        }

        /// Four hex digits of a `\u` escape.
        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0 ..< 4 {
                guard let byte = peek else { throw SyntaxError(offset: index, expected: "a hex digit") }
                let digit: UInt32
                switch byte {
                case 0x30 ... 0x39: digit = UInt32(byte - 0x30)
                case 0x41 ... 0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61 ... 0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw SyntaxError(offset: index, expected: "a hex digit")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}

extension FlatJSON {
    /// A string literal's content: the bytes between the quotes when it has no escape, else the decoded bytes.
    enum StringContent {
        case raw(UnsafeBufferPointer<UInt8>)
        case decoded([UInt8])

        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            switch self {
            case let .raw(bytes): try body(bytes)
            case let .decoded(bytes): try bytes.withUnsafeBufferPointer(body)
            }
        }
    }
}
