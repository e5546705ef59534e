extension FlatJSON {
    /// Where the text stops being a flat JSON object of the entity's keys, and what was expected there.
    struct SyntaxError: Error, CustomStringConvertible {
        var offset: Int
        var expected: String
        var description: String { "expected \(expected) at byte \(offset)" }
    }
}
