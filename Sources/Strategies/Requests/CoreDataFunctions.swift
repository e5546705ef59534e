import FetchRequests
import Foundation
import Generation
import SQLite

/// The SQL functions Core Data registers on each of its connections and calls from its
/// predicates' SQL, with Core Data's semantics: `NSCoreDataStringSearch` (CONTAINS, BEGINSWITH,
/// ENDSWITH), `NSCoreDataStringCompare` (`==[c]` and the other comparisons with options),
/// `NSCoreDataLike` (LIKE) and `NSCoreDataMatches` (MATCHES). Every layout's store registers them (`LayoutStore`), so
/// that single-table's statements run as Core Data writes them and a string predicate means the
/// same in every layout.
public enum CoreDataFunctions {
    /// The `CFStringCompareFlags` bits Core Data passes to `NSCoreDataStringSearch`.
    public static let caseInsensitive = 1, backwards = 4, anchored = 8, localized = 32, diacriticInsensitive = 128, widthInsensitive = 256

    /// Registers the functions on `database`.
    public static func register(on database: Database) throws {
        try database.createFunction("NSCoreDataStringSearch", arity: 4) { arguments in
            guard case let .text(string) = arguments[0], case let .text(needle) = arguments[1], case let .integer(flags) = arguments[2] else { return .integer(0) }
            return .integer(search(string, needle, flags: Int(flags)) ? 1 : 0)
        }
        try database.createFunction("NSCoreDataStringCompare", arity: 5) { arguments in
            guard case let .text(string) = arguments[0], case let .text(other) = arguments[1], case let .integer(op) = arguments[2],
                  case let .integer(flags) = arguments[3] else { return .integer(0) }
            return .integer(compare(string, other, operator: Int(op), flags: Int(flags)) ? 1 : 0)
        }
        let expressions = RegularExpressions()
        try database.createFunction("NSCoreDataMatches", arity: 3) { arguments in
            guard case let .text(string) = arguments[0], case let .text(pattern) = arguments[1], case let .integer(variant) = arguments[2] else { return .integer(0) }
            return .integer(expressions.matches(string, pattern, variant: Int(variant)) ? 1 : 0)
        }
        try database.createFunction("NSCoreDataLike", arity: 3) { arguments in
            guard case let .text(string) = arguments[0], case let .text(pattern) = arguments[1], case let .integer(variant) = arguments[2] else { return .integer(0) }
            return .integer(like(string, pattern, variant: Int(variant)) ? 1 : 0)
        }
        for comparator in SortKey.Comparator.allCases {
            guard let name = comparator.collation else { continue }
            try database.createCollation(name) { Int32(order($0, $1, comparator).rawValue) }
        }
    }

    /// How `comparator` orders two strings, as the `NSString` method it names does, without a
    /// locale (the same on every machine), always a consistent order (SQLite's sort needs one):
    /// case-insensitive by the strings' case-folded forms (equal when only case differs); by
    /// characters (canonically equivalent strings equal); Finder's order by the case- and
    /// width-folded forms with numbers by value, ties broken by the strings' bytes (as its forced
    /// ordering breaks them); `.binary` by bytes (SQLite's own order).
    public static func order(_ string: String, _ other: String, _ comparator: SortKey.Comparator) -> ComparisonResult {
        switch comparator {
        case .binary:
            return bytes(string, other)
        case .caseInsensitive, .localizedCaseInsensitive:
            return bytes(string.folding(options: .caseInsensitive, locale: nil), other.folding(options: .caseInsensitive, locale: nil))
        case .localized:
            return bytes(string.precomposedStringWithCanonicalMapping, other.precomposedStringWithCanonicalMapping)
        case .localizedStandard:
            let (key, otherKey) = (string.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil), other.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil))
            let order = key.compare(otherKey, options: .numeric)
            return order == .orderedSame ? bytes(string, other) : order
        }
    }

    /// The order of two strings' UTF-8 bytes.
    private static func bytes(_ string: String, _ other: String) -> ComparisonResult {
        if string.utf8.elementsEqual(other.utf8) { return .orderedSame }
        return string.utf8.lexicographicallyPrecedes(other.utf8) ? .orderedAscending : .orderedDescending
    }

    /// `NSCoreDataStringSearch(string, needle, flags, localized)`: whether `needle` occurs in
    /// `string` as `CFStringFindWithOptionsAndLocale` finds it with `flags` (anchored: at the start;
    /// anchored and backwards: at the end). An empty needle is found nowhere. The locale argument
    /// is not used: the suite compares without a locale, the same on every machine.
    public static func search(_ string: String, _ needle: String, flags: Int) -> Bool {
        guard !needle.isEmpty else { return false }
        var options: String.CompareOptions = []
        if flags & caseInsensitive != 0 { options.insert(.caseInsensitive) }
        if flags & diacriticInsensitive != 0 { options.insert(.diacriticInsensitive) }
        if flags & widthInsensitive != 0 { options.insert(.widthInsensitive) }
        if flags & anchored != 0 { options.insert(.anchored) }
        if flags & backwards != 0 { options.insert(.backwards) }
        return string.range(of: needle, options: options) != nil
    }

    /// `NSCoreDataStringCompare(string, other, operator, flags, localized)`: `string <op> other` as
    /// `CFStringCompareWithOptionsAndLocale` orders them with `flags`; `operator` 1 `<`, 2 `<=`,
    /// 3 `==`, 4 `>=`, 5 `>`, 6 `!=`. Without a locale, as `search`.
    public static func compare(_ string: String, _ other: String, operator op: Int, flags: Int) -> Bool {
        var options: String.CompareOptions = []
        if flags & caseInsensitive != 0 { options.insert(.caseInsensitive) }
        if flags & diacriticInsensitive != 0 { options.insert(.diacriticInsensitive) }
        if flags & widthInsensitive != 0 { options.insert(.widthInsensitive) }
        let order = string.compare(other, options: options)
        switch op {
        case 1: return order == .orderedAscending
        case 2: return order != .orderedDescending
        case 3: return order == .orderedSame
        case 4: return order != .orderedAscending
        case 5: return order == .orderedDescending
        case 6: return order != .orderedSame
        default: return false
        }
    }

    /// `NSCoreDataMatches(string, pattern, variant)`: NSPredicate's MATCHES, the whole string
    /// matching the ICU regular expression `pattern` (Foundation's `NSRegularExpression`), `variant`
    /// 1 ignoring case, 2 diacritics (both folded away first), 3 both. A pattern that is not a
    /// regular expression matches nothing.
    public static func matches(_ string: String, _ pattern: String, variant: Int) -> Bool {
        RegularExpressions().matches(string, pattern, variant: variant)
    }

    /// Compiled patterns, each once per connection (a MATCHES compiles its pattern once per
    /// statement in Core Data, not once per row).
    final class RegularExpressions: @unchecked Sendable {
        private var compiled: [String: NSRegularExpression?] = [:]
        private let lock = NSLock()

        func matches(_ string: String, _ pattern: String, variant: Int) -> Bool {
            let folding: String.CompareOptions = variant & 2 != 0 ? [.diacriticInsensitive] : []
            let text = string.folding(options: folding, locale: nil)
            let key = "\(variant)\u{0}" + pattern
            lock.lock()
            let expression: NSRegularExpression?
            if let found = compiled[key] {
                expression = found
            } else {
                // The whole string: any match from its start to its end, not the first one found.
                expression = try? NSRegularExpression(pattern: "\\A(?:" + pattern.folding(options: folding, locale: nil) + ")\\z", options: variant & 1 != 0 ? [.caseInsensitive] : [])
                if compiled.count < 1_000 { compiled[key] = expression }
            }
            lock.unlock()
            guard let expression else { return false }
            return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    /// `NSCoreDataLike(string, pattern, variant)`: NSPredicate's LIKE, the whole string matching
    /// `pattern`, in which `*` stands for any characters, `?` for one and `\` makes the next one
    /// literal; `variant` 1 ignores case, 2 diacritics, 3 both.
    public static func like(_ string: String, _ pattern: String, variant: Int) -> Bool {
        var options: String.CompareOptions = []
        if variant & 1 != 0 { options.insert(.caseInsensitive) }
        if variant & 2 != 0 { options.insert(.diacriticInsensitive) }
        let text = Array(string.folding(options: options, locale: nil))
        var tokens: [(character: Character, wild: Bool)] = []
        var escaped = false
        for character in pattern.folding(options: options, locale: nil) {
            if escaped { tokens.append((character, false)); escaped = false } else if character == "\\" { escaped = true } else { tokens.append((character, character == "*" || character == "?")) }
        }
        if escaped { tokens.append(("\\", false)) } // a pattern ending in `\` ends in a backslash
        // Matched prefixes: reachable[j] says the first j characters of the text match the tokens so far.
        var reachable = [true] + Array(repeating: false, count: text.count)
        for token in tokens {
            var next = Array(repeating: false, count: text.count + 1)
            for j in 0 ... text.count where reachable[j] {
                if token.wild, token.character == "*" {
                    for k in j ... text.count { next[k] = true }
                    break
                }
                if j < text.count, (token.wild && token.character == "?") || text[j] == token.character { next[j + 1] = true }
            }
            reachable = next
        }
        return reachable[text.count]
    }
}

extension SortKey.Comparator {
    /// The collating sequence Core Data orders by for the comparator (`ORDER BY t0.ZTITLE COLLATE
    /// NSCollateFinderlike`), nil for `.binary` (none: SQLite's own order, the one an index serves).
    public var collation: String? {
        switch self {
        case .binary: nil
        case .caseInsensitive: "NSCollateNoCase"
        case .localized: "NSCollateLocaleSensitive"
        case .localizedCaseInsensitive: "NSCollateLocaleSensitiveNoCase"
        case .localizedStandard: "NSCollateFinderlike"
        }
    }
}

extension SortKey {
    /// How the key orders two of its values as SQLite's `ORDER BY` does, ascending: NULL first,
    /// then numbers, strings (by the comparator's collation), blobs.
    public func order(_ value: Value, _ other: Value) -> ComparisonResult {
        if comparator != .binary, case let .text(string) = value, case let .text(text) = other { return CoreDataFunctions.order(string, text, comparator) }
        return Value.sqliteLess(value, other) ? .orderedAscending : Value.sqliteLess(other, value) ? .orderedDescending : .orderedSame
    }
}
