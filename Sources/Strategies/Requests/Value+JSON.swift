import Generation

extension Value {
    /// The value as a JSON document's write binds it: a finite REAL as its shortest text that
    /// reads back as the same double (which `json(?)` keeps as written: SQLite's JSON writer would
    /// keep only 15 significant digits of a bound REAL), a blob as lower-case hex text, anything
    /// else as is.
    var jsonBindable: Value {
        if case let .real(number) = self, number.isFinite { return .text(number.description) }
        return hexText
    }

    /// A blob as the lower-case hex text a JSON document holds it as; anything else as is.
    var hexText: Value {
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
