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
        var parser = Parser(text)
        while let scalar = parser.next() {
            if parser.inQuotes { parser.readQuoted(scalar) } else { try parser.readUnquoted(scalar) }
        }
        return try parser.finish()
    }

    /// `parse` as it reads, one Unicode scalar at a time: the records read, the record and the
    /// field being read, and where it is.
    private struct Parser {
        private var records: [[String]] = []
        private var record: [String] = []
        private var field = ""
        private var line = 1
        /// The line the record being read starts on.
        private var recordLine = 1
        private(set) var inQuotes = false
        private var fieldWasQuoted = false
        private var iterator: IndexingIterator<[Unicode.Scalar]>
        /// A scalar read ahead and given back.
        private var pending: Unicode.Scalar? = nil

        init(_ text: String) { iterator = Array(text.unicodeScalars).makeIterator() }

        mutating func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return iterator.next()
        }

        /// A scalar inside a quoted field: two quotes are one, a single quote closes the quotes.
        mutating func readQuoted(_ scalar: Unicode.Scalar) {
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
        }

        /// A scalar outside quotes: a quote opening a field, a comma ending one, a line end
        /// ending the record, or the field's text.
        mutating func readUnquoted(_ scalar: Unicode.Scalar) throws {
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

        /// The records, the last one without a line end included; throws if a quote is open.
        mutating func finish() throws -> [[String]] {
            if inQuotes { throw ParseError(line: recordLine, reason: "a quoted field is never closed (is the file truncated?)") }
            if !field.isEmpty || fieldWasQuoted || !record.isEmpty {
                record.append(field)
                records.append(record)
            }
            return records
        }
    }
}
