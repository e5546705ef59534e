/// What a Core Data annotation or details line says about the statement before it.
enum LogAnnotation: Equatable {
    /// `sql connection fetch time: 0.0004s`.
    case connectionTime(Double)
    /// `total fetch execution time: 0.0007s for 5 rows.`
    case fetchTotal(seconds: Double, rows: Int)
    /// `sql execution time: 0.0001s` (a statement that returns no rows).
    case executionTime(Double)
    /// `Fetch cancelled.  Total fetch execution time: 0.0100s.`
    case cancelled(seconds: Double)
    /// `total count request execution time: 0.0003s for count of 12.`
    case countTotal(seconds: Double, count: Int)
    /// `fault fulfilled from database for : 0x… <x-coredata://…/Country/p4>`: a fault of an object of the entity.
    case faultFulfilled(entity: String?)
    /// `to-many relationship fault "tags" for objectID 0x… <x-coredata://…/Note/p3> fulfilled from database.  Got 0 rows`.
    case toManyFault(relationship: String, entity: String?, rows: Int?)
    /// `Prefetching with key 'attachments'.  Got 1581 rows.`
    case prefetch(key: String, rows: Int?)
    /// `Bound intarray _Z_intarray0` and `Bound intarray values.`: keys bound as an array.
    case intarray
    /// `fetch using NSSQLiteStatement <0x…> on entity 'E' with sql text '…' returned N rows`
    /// (level 2): the fetch's entity and rows.
    case fetchUsing(entity: String, rows: Int?)
    /// `SQLite bind[0] = …` (level 2).
    case bind(index: Int, value: BoundValue)
    /// Anything else Core Data says (a connection, a query plan, a row's values).
    case other

    /// Whether it closes a request (its total time): a prefetch's or a fault's own fetch closes
    /// before the request that set it off.
    var isTotal: Bool {
        switch self {
        case .fetchTotal, .countTotal, .cancelled: true
        default: false
        }
    }

    init(annotation text: String) {
        let text = Substring(text)
        if text.hasPrefix("sql connection fetch time:"), let seconds = text.number(after: "time: ") {
            self = .connectionTime(seconds)
        } else if text.hasPrefix("sql execution time:"), let seconds = text.number(after: "time: ") {
            self = .executionTime(seconds)
        } else if text.hasPrefix("Fetch cancelled."), let seconds = text.number(after: "time: ") {
            self = .cancelled(seconds: seconds)
        } else if text.hasPrefix("total fetch execution time:"), let seconds = text.number(after: "time: "), let rows = text.count(after: " for ") {
            self = .fetchTotal(seconds: seconds, rows: rows)
        } else if text.hasPrefix("total count request execution time:"), let seconds = text.number(after: "time: "), let count = text.count(after: "for count of ") {
            self = .countTotal(seconds: seconds, count: count)
        } else if text.hasPrefix("fault fulfilled from database for") {
            self = .faultFulfilled(entity: text.objectURIEntity)
        } else if text.hasPrefix("to-many relationship fault \""), let name = text.quoted(by: "\"") {
            self = .toManyFault(relationship: name, entity: text.objectURIEntity, rows: text.count(after: "Got "))
        } else if text.hasPrefix("Prefetching with key '"), let key = text.quoted(by: "'") {
            self = .prefetch(key: key, rows: text.count(after: "Got "))
        } else if text.hasPrefix("Bound intarray") {
            self = .intarray
        } else if text.hasPrefix("fetch using NSSQLiteStatement"), let entity = text.quoted(after: "on entity '", by: "'") {
            self = .fetchUsing(entity: entity, rows: text.lastNumber(after: "returned "))
        } else {
            self = .other
        }
    }

    init(details text: String) {
        let text = Substring(text)
        // SQLite binds at most 32,766 values to a statement.
        guard text.hasPrefix("SQLite bind["), let close = text.firstIndex(of: "]"),
              let index = Int(text[text.index(text.startIndex, offsetBy: 12) ..< close]), (0 ..< 32_767).contains(index),
              let equals = text[close...].firstIndex(of: "=") else {
            self = .other
            return
        }
        self = .bind(index: index, value: BoundValue(logged: text[text.index(after: equals)...]))
    }
}

extension Substring {
    /// The first occurrence of `marker`, found byte by byte (Foundation's search bridges the text
    /// to an NSString, the standard library's generic one is slow: a log's every line is searched).
    func find(_ marker: String) -> Range<Index>? {
        let needle = Array(marker.utf8), bytes = utf8
        guard let first = needle.first else { return nil }
        var start = bytes.startIndex
        while let found = bytes[start...].firstIndex(of: first) {
            var at = found, matched = true
            for byte in needle {
                guard at != bytes.endIndex, bytes[at] == byte else { matched = false; break }
                at = bytes.index(after: at)
            }
            if matched { return found ..< at }
            start = bytes.index(after: found)
        }
        return nil
    }

    /// The number (digits, a point) that starts right after the first `marker`.
    func number(after marker: String) -> Double? {
        guard let range = find(marker) else { return nil }
        let digits = self[range.upperBound...].prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        return Double(digits)
    }

    /// The whole number (rows, a count) right after the first `marker`; nil past a trillion, which
    /// no log counts (a sum of such numbers stays far from overflowing).
    func count(after marker: String) -> Int? {
        guard let range = find(marker) else { return nil }
        return Int(self[range.upperBound...].prefix { $0.isASCII && $0.isNumber }).flatMap { $0 <= 1_000_000_000_000 ? $0 : nil }
    }

    /// The number right after the last `marker` (a statement's text may hold the marker too).
    func lastNumber(after marker: String) -> Int? {
        guard var range = find(marker) else { return nil }
        while let next = self[range.upperBound...].find(marker) { range = next }
        return Int(self[range.upperBound...].prefix { $0.isASCII && $0.isNumber }).flatMap { $0 <= 1_000_000_000_000 ? $0 : nil }
    }

    /// The text between the first two `quote`s.
    func quoted(by quote: Character) -> String? {
        guard let open = firstIndex(of: quote), let close = self[index(after: open)...].firstIndex(of: quote) else { return nil }
        return String(self[index(after: open) ..< close])
    }

    /// The text after `marker` up to the next `quote`.
    func quoted(after marker: String, by quote: Character) -> String? {
        guard let range = find(marker), let close = self[range.upperBound...].firstIndex(of: quote) else { return nil }
        return String(self[range.upperBound ..< close])
    }

    /// The entity of the first object URI on the line, `x-coredata://<store>/<Entity>/p<key>`.
    var objectURIEntity: String? {
        guard let range = find("x-coredata://") else { return nil }
        let parts = self[range.upperBound...].prefix { $0 != ">" && $0 != " " }.split(separator: "/")
        return parts.count >= 3 ? String(parts[parts.count - 2]) : nil
    }
}
