import CoreDataLayout
import FetchRequests
import Foundation
import Generation
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

    /// The log lines of one request's statements, each ending in a line break; at level 2 each
    /// statement's values, from `values` by its SQL (the values the request holds, to their last digit).
    public func lines(_ request: FetchRequest, _ statements: [StatementTrace.Entry], values: [String: [Value]] = [:]) -> String {
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
            text += "CoreData: sql: \(entry.sql)\n" + binds(values[entry.sql] ?? [])
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
            let total = Self.total(entry)
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

    /// The log lines of one save's statements as Core Data prints a save's: each statement alone
    /// (Core Data annotates no statement of a save: its transaction, key reservation, inserts,
    /// updates and deletes), at level 2 with the values it was bound; a read inside it (the
    /// suite's delete finds related objects so) with its fetch time and rows as any read's.
    public func lines(save statements: [StatementTrace.Entry]) -> String {
        var text = ""
        for entry in statements {
            text += "CoreData: sql: \(entry.sql)\n" + binds((entry.values ?? []).map(Self.value))
            guard entry.sql.hasPrefix("SELECT"), entry.sql != CoreDataBookkeeping.readMaxSQL else { continue }
            text += "CoreData: annotation: sql connection fetch time: \(Self.seconds(entry.nanoseconds))s\n" + Self.total(entry)
        }
        return text
    }

    /// At level 2, each bound value's line, as Core Data prints it (0-based).
    private func binds(_ values: [Value]) -> String {
        guard level >= 2 else { return "" }
        return values.enumerated().map { "CoreData: details: SQLite bind[\($0)] = \(Self.printed($1))\n" }.joined()
    }

    /// A fetch's total time and rows.
    private static func total(_ entry: StatementTrace.Entry) -> String {
        "CoreData: annotation: total fetch execution time: \(seconds(entry.nanoseconds))s for \(entry.rows) rows.\n"
    }

    static func value(_ bound: StatementTrace.Bound) -> Value {
        switch bound {
        case let .integer(number): .integer(number)
        case let .real(number): .real(number)
        case let .text(text): .text(text)
        case let .blob(bytes): .blob(bytes)
        case .null: .null
        }
    }

    /// Whether Core Data logs the statement: the suite's own statements filling a key list (its
    /// `_Z_intarray0` table) stand for Core Data's binding of one, which it logs as `Bound intarray`.
    public static func isLogged(_ entry: StatementTrace.Entry) -> Bool {
        entry.sql.hasPrefix("SELECT") || !entry.sql.contains("_Z_intarray0")
    }

    /// Seconds as Core Data prints them, to the tenth of a millisecond.
    static func seconds(_ nanoseconds: Int64) -> String { String(format: "%.4f", Double(nanoseconds) / 1e9) }

    /// A bound value as Core Data prints it: text quoted, numbers bare (a real to the digits that
    /// read back as itself), NULL as `nil`, bytes as `<hex>`. A line break in a text is written
    /// `\n` (Core Data prints it as it is, which would cut the value's line in two).
    static func printed(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case let .integer(number): "\(number)"
        case let .real(number): "\(number)"
        case let .text(text): "\"" + text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n") + "\""
        case let .blob(bytes): "<" + bytes.map { String(format: "%02x", $0) }.joined() + ">"
        }
    }
}
