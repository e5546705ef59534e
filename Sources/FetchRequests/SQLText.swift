/// SQL text compared as a statement rather than as spelled: Core Data's log writes its statements
/// with spaces of its own (`WHERE  t0.ZA = ?  ORDER BY`, `COUNT( t0.Z_PK)`), which say nothing.
public enum SQLText {
    /// The text without its whitespace outside quotes: two statements of the same words and
    /// symbols in the same order give the same text.
    public static func squeezed(_ sql: String) -> String {
        var result = String.UnicodeScalarView()
        var quote: Unicode.Scalar?
        for scalar in sql.unicodeScalars {
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "'" || scalar == "\"" || scalar == "`" {
                quote = scalar
            } else if scalar.properties.isWhitespace {
                continue
            }
            result.append(scalar)
        }
        return String(result)
    }
}
