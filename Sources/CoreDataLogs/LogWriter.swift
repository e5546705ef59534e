import FetchRequests
import Foundation
import Models
import SQLite

/// Writes the statements a fetch request ran as Core Data's SQL debug log prints them
/// (`-com.apple.CoreData.SQLDebug 1`, or 2 with each bound value), so that `bench replay` and
/// any reader of Core Data's logs read them as they read an app's: `CoreData: sql: …` for each
/// statement, its connection and total times and rows, a count's number, `Bound intarray` where a
/// key list is bound (the suite's own statements filling it are Core Data's internals, not
/// logged), a fault's and a prefetch's own annotations in Core Data's order.
public struct LogWriter {
    public let model: Model
    /// 1 or 2 (2 adds `CoreData: details: SQLite bind[n] = …` for each value).
    public let level: Int
    /// The store's identifier in the objects' URIs (`x-coredata://<id>/Entity/p4`).
    public let storeID: String

    public init(model: Model, level: Int, storeID: String) {
        self.model = model; self.level = level; self.storeID = storeID
    }

    /// The log lines of one request's statements, each ending in a line break.
    public func lines(_ request: FetchRequest, _ statements: [StatementTrace.Entry]) -> String {
        var text = ""
        var held: String?
        var prefetched = 0
        let prefetching: [String] = if case let .prefetching(names) = request.mode { names } else { [] }
        var fetches = 0
        for entry in statements {
            guard Self.isLogged(entry) else {
                if entry.sql.hasPrefix("DELETE") { text += "CoreData: annotation: Bound intarray _Z_intarray0\n" }
                continue
            }
            text += "CoreData: sql: \(entry.sql)\n"
            if level >= 2, let expanded = entry.expanded, let values = Self.boundValues(entry.sql, expanded) {
                for (index, value) in values.enumerated() { text += "CoreData: details: SQLite bind[\(index)] = \(value)\n" }
            }
            let seconds = Self.seconds(entry.nanoseconds)
            guard entry.sql.hasPrefix("SELECT") else {
                text += "CoreData: annotation: sql execution time: \(seconds)s\n"
                continue
            }
            if entry.sql.hasPrefix("SELECT COUNT("), entry.rows == 1, let number = entry.number {
                text += "CoreData: annotation: total count request execution time: \(seconds)s for count of \(number).\n"
                continue
            }
            text += "CoreData: annotation: sql connection fetch time: \(seconds)s\n"
            let total = "CoreData: annotation: total fetch execution time: \(seconds)s for \(entry.rows) rows.\n"
            fetches += 1
            // A prefetch runs inside its fetch: the fetch's own total comes after its prefetches'.
            if !prefetching.isEmpty, fetches == 1 {
                held = total
            } else if !prefetching.isEmpty, prefetched < prefetching.count {
                text += total + "CoreData: annotation: Prefetching with key '\(prefetching[prefetched])'.  Got \(entry.rows) rows.\n"
                prefetched += 1
            } else {
                text += total
            }
        }
        if let held { text += held }
        if let id = request.faultedObject, id.entity < model.entities.count {
            text += "CoreData: annotation: fault fulfilled from database for : 0x\(String(id.key, radix: 16)) <x-coredata://\(storeID)/\(model.entities[id.entity].name)/p\(id.key)>\n"
        }
        return text
    }

    /// Whether Core Data logs the statement: the suite's own statements filling a key list (its
    /// `_Z_intarray0` table) stand for Core Data's binding of one, which it logs as `Bound intarray`.
    public static func isLogged(_ entry: StatementTrace.Entry) -> Bool {
        entry.sql.hasPrefix("SELECT") || !entry.sql.contains("_Z_intarray0")
    }

    /// Seconds as Core Data prints them, to the tenth of a millisecond.
    static func seconds(_ nanoseconds: Int64) -> String { String(format: "%.4f", Double(nanoseconds) / 1e9) }

    /// Each value `expanded` writes where `sql` has a `?`, as Core Data prints a bound value:
    /// text quoted, numbers bare, NULL as `nil`, bytes as `<hex>`; `nil` when the two texts do not
    /// line up (SQLite leaves a text too long to expand out).
    static func boundValues(_ sql: String, _ expanded: String) -> [String]? {
        let template = Array(sql.utf8), written = Array(expanded.utf8)
        var (i, j) = (0, 0)
        var values: [String] = []
        var quote: UInt8?
        while i < template.count {
            let byte = template[i]
            if quote == nil, byte == UInt8(ascii: "?") {
                guard let (value, end) = literal(written, from: j) else { return nil }
                values.append(value)
                (i, j) = (i + 1, end)
                continue
            }
            guard j < written.count, written[j] == byte else { return nil }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") { quote = quote == nil ? byte : quote == byte ? nil : quote }
            (i, j) = (i + 1, j + 1)
        }
        return j == written.count ? values : nil
    }

    /// Text on one line of the log: a line break in a value is written `\n` (Core Data prints it
    /// as it is, which would cut the value's line in two).
    private static func oneLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The SQL literal at `start` of `bytes` as Core Data prints it, and where it ends.
    private static func literal(_ bytes: [UInt8], from start: Int) -> (String, Int)? {
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        guard start < bytes.count else { return nil }
        if bytes[start...].starts(with: "NULL".utf8) { return ("nil", start + 4) }
        if bytes[start] == UInt8(ascii: "'") {
            var (end, value) = (start + 1, [UInt8]())
            while end < bytes.count {
                if bytes[end] == UInt8(ascii: "'") {
                    guard end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "'") else { return ("\"\(oneLine(value))\"", end + 1) }
                    end += 1
                }
                value.append(bytes[end])
                end += 1
            }
            return nil
        }
        if bytes[start] == UInt8(ascii: "x"), start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "'"),
           let close = bytes[(start + 2)...].firstIndex(of: UInt8(ascii: "'")) {
            return ("<\(text((start + 2) ..< close).lowercased())>", close + 1)
        }
        let end = bytes[start...].firstIndex { !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) && !"-+.eE".utf8.contains($0) } ?? bytes.count
        return end > start ? (text(start ..< end), end) : nil
    }
}

extension FetchRequest {
    /// The object a fault of it fires (`FetchRequest.fault`), else `nil`.
    var faultedObject: (entity: Int, key: Int64)? {
        guard case let .key(key) = predicate, !includesSubentities, asRootFetch, mode == .plain, sort.isEmpty, limit == nil, offset == nil else { return nil }
        return (entity, key)
    }
}
