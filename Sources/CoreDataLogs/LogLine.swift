/// One line of a log, as far as Core Data is concerned: a line Core Data printed (its category and
/// text, whatever came before `CoreData: ` on the line, such as NSLog's date and process, and
/// without the colour codes of `-com.apple.CoreData.SyntaxColoredLogging`), or another line (the
/// app's own output, or a statement's continuation when its SQL was broken over lines).
enum LogLine: Equatable {
    /// `CoreData: sql: <statement>`.
    case sql(String)
    /// `CoreData: annotation: <text>`.
    case annotation(String)
    /// `CoreData: details: <text>` (bound values, rows, query plans).
    case details(String)
    /// Another category of Core Data's (`error`, `warning`, `debug`, `XPC`, `fault`, `CloudKit`…):
    /// its message (Core Data prints any message as an error in its "catastrophic" logging mode).
    case otherCoreData(String)
    /// Not Core Data's: the text, colour codes removed.
    case other(String)

    init(_ raw: Substring) {
        let text = raw.utf8.contains(0x1B) ? Self.withoutColour(raw) : String(raw)
        let rest: Substring
        if let marker = text[...].find("CoreData: ") {
            rest = text[marker.upperBound...]
        } else {
            // Logs quoted in articles often keep the category alone (`sql: SELECT …`).
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            guard Self.categories.contains(where: { trimmed.hasPrefix($0.name + ": ") }) else {
                self = .other(text)
                return
            }
            rest = trimmed
        }
        for (name, make) in Self.categories where rest.hasPrefix(name + ":") {
            var message = rest.dropFirst(name.count + 1).drop { $0 == " " || $0 == "\t" }
            // Coloured logging repeats the category inside the message (`sql: ESC[34m…`).
            if message.hasPrefix(name + ": ") { message = message.dropFirst(name.count + 2) }
            self = make(String(message))
            return
        }
        self = .otherCoreData(String(rest.drop { $0 != ":" }.dropFirst().drop { $0 == " " }))
    }

    private static let categories: [(name: String, make: @Sendable (String) -> LogLine)] = [("sql", LogLine.sql), ("annotation", LogLine.annotation), ("details", LogLine.details)]

    var isCoreData: Bool {
        if case .other = self { return false }
        return true
    }

    /// The text without ANSI escape sequences (`ESC [ … letter`).
    static func withoutColour(_ text: Substring) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var escaping = false
        var inSequence = false
        for scalar in text.unicodeScalars {
            if escaping {
                escaping = false
                if scalar == "[" { inSequence = true; continue }
                continue
            }
            if inSequence {
                if (0x40 ... 0x7E).contains(scalar.value) { inSequence = false }
                continue
            }
            if scalar == "\u{1B}" { escaping = true; continue }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
