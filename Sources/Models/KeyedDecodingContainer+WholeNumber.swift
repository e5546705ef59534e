extension KeyedDecodingContainer {
    /// A whole number, read as a JSON number first so that `1.5` or `1e30` is reported as this
    /// field's mistake (Foundation's own integer decoding calls the whole document invalid).
    func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        guard let number = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard number == number.rounded() else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must be a whole number; got \(number)")
        }
        guard abs(number) <= 1e15 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must be at most 1000000000000000; got \(number)")
        }
        return Int(number)
    }

    func decodeWholeNumber(forKey key: Key) throws -> Int {
        guard let number = try decodeWholeNumberIfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return number
    }
}
