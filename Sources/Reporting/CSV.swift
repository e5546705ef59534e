/// RFC 4180 CSV: fields with commas, quotes or line breaks are quoted, quotes doubled.
public enum CSV {
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Quotes `field` when it holds a comma, a quote, a CR or an LF, doubling its quotes.
    /// Works on Unicode scalars, as `parse` does: as Characters, CR LF is one `Character` that
    /// equals neither CR nor LF, and a comma or quote followed by a combining mark is one
    /// `Character` that equals neither a comma nor a quote.
    public static func escape(_ field: String) -> String {
        let special: Set<Unicode.Scalar> = [",", "\"", "\n", "\r"]
        guard field.unicodeScalars.contains(where: special.contains) else { return field }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in field.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }

    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: ",") + "\n"
    }

    /// Parses CSV text into records (LF or CRLF line ends; a final line end is optional).
    /// - throws: `ParseError` with the 1-based line of an unterminated or malformed quoted field.
    public static func parse(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var fieldWasQuoted = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil

        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return iterator.next()
        }

        while let scalar = next() {
            if inQuotes {
                if scalar == "\"" {
                    let following = next()
                    if following == "\"" {
                        field.unicodeScalars.append("\"")
                    } else {
                        inQuotes = false
                        pending = following
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty, !fieldWasQuoted else {
                    throw ParseError(line: line, reason: "a quote inside an unquoted field")
                }
                inQuotes = true
                fieldWasQuoted = true
            case ",":
                record.append(field); field = ""; fieldWasQuoted = false
            case "\r":
                let following = next()
                guard following == "\n" else { throw ParseError(line: line, reason: "a carriage return without a line feed") }
                fallthrough
            case "\n":
                record.append(field); field = ""; fieldWasQuoted = false
                records.append(record); record = []
                line += 1
                recordLine = line
            default:
                guard !fieldWasQuoted else { throw ParseError(line: line, reason: "text after a closing quote") }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw ParseError(line: recordLine, reason: "a quoted field is never closed (is the file truncated?)") }
        if !field.isEmpty || fieldWasQuoted || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}
