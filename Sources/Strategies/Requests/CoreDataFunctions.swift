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
    public static let caseInsensitive = 1, literal = 2, backwards = 4, anchored = 8, localized = 32, diacriticInsensitive = 128, widthInsensitive = 256

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
        // The pattern compiled once per statement (kept beside its constant argument), as Core Data compiles it.
        try database.createFunction("NSCoreDataMatches", arity: 3, preparing: 1, { (arguments: [FunctionValue]) -> MatchPattern? in
            guard case let .text(pattern) = arguments[1], case let .integer(variant) = arguments[2] else { return nil }
            return MatchPattern(pattern, variant: Int(variant))
        }) { (arguments: [FunctionValue], prepared: MatchPattern?) in
            guard case let .text(string) = arguments[0], case let .text(pattern) = arguments[1], case let .integer(variant) = arguments[2] else { return .integer(0) }
            let compiled = prepared.flatMap { $0.pattern == pattern && $0.variant == variant ? $0 : nil } ?? MatchPattern(pattern, variant: Int(variant))
            return .integer(compiled.matches(string) ? 1 : 0)
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
    /// width-folded forms with runs of digits by their value, ties broken by the strings' bytes (as
    /// its forced ordering breaks them); `.binary` by bytes (SQLite's own order). Foundation's own
    /// option-based comparisons on Linux are not transitive over full-width digits, ß or ligatures.
    public static func order(_ string: String, _ other: String, _ comparator: SortKey.Comparator) -> ComparisonResult {
        switch comparator {
        case .binary:
            return bytes(string, other)
        case .caseInsensitive, .localizedCaseInsensitive:
            let (key, otherKey) = (folded(string, .caseInsensitive), folded(other, .caseInsensitive))
            return key == otherKey ? .orderedSame : key.lexicographicallyPrecedes(otherKey) ? .orderedAscending : .orderedDescending
        case .localized:
            return bytes(string.precomposedStringWithCanonicalMapping, other.precomposedStringWithCanonicalMapping)
        case .localizedStandard:
            let order = numeric(folded(string, [.caseInsensitive, .widthInsensitive]), folded(other, [.caseInsensitive, .widthInsensitive]))
            return order == .orderedSame ? bytes(string, other) : order
        }
    }

    /// The UTF-8 bytes of `string` folded as `options` say: ASCII by lower-casing (what folding
    /// does to it, without a new string), any other by Foundation's folding.
    private static func folded(_ string: String, _ options: String.CompareOptions) -> [UInt8] {
        if string.utf8.allSatisfy({ $0 < 0x80 }) { return string.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 } }
        return Array(string.folding(options: options, locale: nil).utf8)
    }

    /// Byte order, but a run of ASCII digits against another by its value (leading zeros aside):
    /// every other byte is below `0` or above `9`, so the order is a consistent one.
    private static func numeric(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            guard isDigit(a[i]), isDigit(b[j]) else {
                if a[i] != b[j] { return a[i] < b[j] ? .orderedAscending : .orderedDescending }
                (i, j) = (i + 1, j + 1)
                continue
            }
            let (startA, startB) = (i, j)
            while i < a.count, isDigit(a[i]) { i += 1 }
            while j < b.count, isDigit(b[j]) { j += 1 }
            var (firstA, firstB) = (startA, startB)
            while firstA < i - 1, a[firstA] == 0x30 { firstA += 1 }
            while firstB < j - 1, b[firstB] == 0x30 { firstB += 1 }
            if i - firstA != j - firstB { return i - firstA < j - firstB ? .orderedAscending : .orderedDescending }
            for (x, y) in zip(a[firstA ..< i], b[firstB ..< j]) where x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        return i < a.count ? .orderedDescending : j < b.count ? .orderedAscending : .orderedSame
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
        if flags & literal != 0 { options.insert(.literal) }
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
        MatchPattern(pattern, variant: variant).matches(string)
    }

    /// A MATCHES pattern compiled for its variant: the whole string, from its start to its end.
    final class MatchPattern {
        let pattern: String
        let variant: Int64
        private let folding: String.CompareOptions
        private let expression: NSRegularExpression?

        init(_ pattern: String, variant: Int) {
            self.pattern = pattern
            self.variant = Int64(variant)
            folding = variant & 2 != 0 ? [.diacriticInsensitive] : []
            expression = try? NSRegularExpression(pattern: "\\A(?:" + pattern.folding(options: folding, locale: nil) + ")\\z", options: variant & 1 != 0 ? [.caseInsensitive] : [])
        }

        func matches(_ string: String) -> Bool {
            guard let expression else { return false }
            let text = string.folding(options: folding, locale: nil)
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

extension [SortKey] {
    /// How the keys order two tuples of their values, as an `ORDER BY` does: by the first key that
    /// tells them apart, in its direction.
    public func order(_ values: [Value], _ others: [Value]) -> ComparisonResult {
        for (index, key) in enumerated() {
            let order = key.order(values[index], others[index])
            if order != .orderedSame { return key.ascending ? order : order == .orderedAscending ? .orderedDescending : .orderedAscending }
        }
        return .orderedSame
    }
}
