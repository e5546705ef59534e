import Generation

/// A strict reader of the flat JSON objects in `details` (RFC 8259): one object whose values are
/// strings, numbers or `null`, such as `{"isbn":"978…","pageCount":321}`. It accepts every
/// spelling of such an object (whitespace, key order, `\/`, `\u` escapes, surrogate pairs) and
/// rejects anything else: a value of the wrong type for its attribute (a fraction for an
/// integer, an odd or upper-case hex string for a UUID), arrays, nested objects, `true`, a key
/// given twice or not of the entity, raw control characters in a string, a lone surrogate, an
/// integer outside 64 bits, text after the object. Keys are expected in the order SQLite wrote
/// them (attribute order); any other order costs a dictionary lookup per key.
enum FlatJSON {
    /// Reads `bytes` into `values` at the slots `details` gives; an absent optional key stays NULL.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ details: JSONEntity.Details, into values: inout [Value]) throws {
        var reader = Reader(bytes: bytes)
        var seen = [Bool](repeating: false, count: details.keys.count)
        var next = 0
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        if !reader.consume(UInt8(ascii: "}")) {
            repeat {
                reader.skipWhitespace()
                let start = reader.index
                let key = try reader.stringContent()
                let slot: Int? = key.withBytes { name in
                    if next < details.keys.count, details.keys[next].elementsEqual(name) { return next }
                    return details.lookup[Array(name)]
                }
                guard let slot else { throw SyntaxError(offset: start, expected: "a key of the entity's attributes") }
                guard !seen[slot] else { throw SyntaxError(offset: start, expected: "a key not given before") }
                seen[slot] = true
                next = slot + 1
                reader.skipWhitespace()
                try reader.expect(UInt8(ascii: ":"))
                reader.skipWhitespace()
                values[details.slots[slot]] = try reader.value(details.storages[slot])
                reader.skipWhitespace()
            } while reader.consume(UInt8(ascii: ","))
            try reader.expect(UInt8(ascii: "}"))
        }
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw SyntaxError(offset: reader.index, expected: "the end of the text") }
        for slot in seen.indices where !seen[slot] && !details.optional[slot] {
            throw SyntaxError(offset: reader.index, expected: "the required key \"\(String(decoding: details.keys[slot], as: UTF8.self))\" before the end")
        }
    }
}

extension FlatJSON {
    /// Where the text stops being a flat JSON object of the entity's keys, and what was expected there.
    struct SyntaxError: Error, CustomStringConvertible {
        var offset: Int
        var expected: String
        var description: String { "expected \(expected) at byte \(offset)" }
    }
}
