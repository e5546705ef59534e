import Generation

extension Value {
    /// The value as a JSON document holds it: a blob as lower-case hex text, anything else as is.
    var jsonBindable: Value {
        guard case let .blob(bytes) = self else { return self }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return .text(String(decoding: text, as: UTF8.self))
    }
}
