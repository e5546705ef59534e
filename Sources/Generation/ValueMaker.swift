import Foundation
import Models

/// Makes one attribute's values: from its `ValueSpec`, else a default chosen by its type and
/// name (a string named like `url`, `email`, `title` or `name` gets one of those). A unique
/// attribute's values are made unique from the object's key. Every value is exact in each
/// strategy's storage: doubles have two decimals, floats are quarters, dates have millisecond
/// resolution, so that JSON's 15-digit text form gives them back unchanged.
struct ValueMaker: Sendable {
    let type: AttributeType
    let kind: ValueSpec.Kind?
    let min: Double
    let max: Double
    let choices: [String]
    let unique: Bool
    let nullShare: Double
    /// A store's measured lengths (`Attribute.lengths`), followed where `values` says nothing.
    let lengths: Quantiles?

    /// 2005-01-01 ..< 2025-01-01 in seconds since 2001.
    static let dateRange = (126_230_400.0, 757_382_400.0)

    /// `neverNull`: the order's key (see `Model.orderKey`), which has a value in every object.
    /// `nullShare`: the share of NULLs among the objects the maker makes values for, when it is
    /// not the attribute's own (`Model.Entity.nullShare(ofAttributeAt:)`).
    init(_ attribute: Attribute, unique: Bool, neverNull: Bool = false, nullShare: Double? = nil) {
        type = attribute.type
        self.unique = unique
        self.nullShare = neverNull ? 0 : nullShare ?? attribute.effectiveNullShare
        lengths = attribute.values == nil ? attribute.lengths : nil
        let spec = attribute.values ?? (lengths == nil ? Self.defaultSpec(attribute) : nil)
        kind = spec?.kind
        choices = spec?.choices ?? []
        let (low, high) = Self.defaultRange(attribute.type)
        min = spec?.min ?? low
        max = spec?.max ?? high
    }

    static func defaultSpec(_ attribute: Attribute) -> ValueSpec? {
        let name = attribute.name.lowercased()
        switch attribute.type {
        case .uri: return ValueSpec(.url)
        case .string:
            if name.contains("url") || name.contains("link") { return ValueSpec(.url) }
            if name.contains("email") { return ValueSpec(.email) }
            if name.contains("isbn") { return ValueSpec(.isbn) }
            if name.contains("doi") { return ValueSpec(.doi) }
            if name.contains("title") || name.contains("summary") || name.contains("biography") || name.contains("description")
                || name.contains("text") || name.contains("note") { return ValueSpec(.words, min: 3, max: 8) }
            if name.contains("name") { return ValueSpec(.name) }
            if name.contains("tag") || name.contains("topic") || name.contains("category") { return ValueSpec(.topic) }
            return nil
        default: return nil
        }
    }

    static func defaultRange(_ type: AttributeType) -> (Double, Double) {
        switch type {
        case .integer16: (0, 10_000)
        case .integer32, .integer64: (0, 1_000_000)
        case .boolean: (0, 2)
        case .double, .decimal: (0, 1_000_000)
        case .float: (0, 25_000)
        case .date: dateRange
        case .string, .uri: (3, 8)
        case .uuid, .binary, .transformable: (16, 65)
        }
    }

    func make(key: Int64, _ rng: inout SplitMix64) -> Value {
        // Every maker draws the same number of times whether or not the value is NULL.
        let isNull = nullShare > 0 && rng.nextUnit() < nullShare
        let value = makeValue(key: key, &rng)
        return isNull ? .null : value
    }

    /// A value drawn from `draws` (a group's own stream), never NULL.
    func value(key: Int64, from draws: inout SplitMix64) -> Value { makeValue(key: key, &draws) }

    private func uniform(_ rng: inout SplitMix64) -> Double { min + rng.nextUnit() * (max - min) }

    private func makeValue(key: Int64, _ rng: inout SplitMix64) -> Value {
        switch type {
        case .integer16, .integer32, .integer64:
            if kind == .sequence || unique { return .integer(Int64(min) + key) }
            return .integer(Int64(uniform(&rng).rounded(.down)))
        case .boolean:
            return .integer(Int64(rng.next() & 1))
        case .double, .decimal:
            let cents = (uniform(&rng) * 100).rounded()
            // Unique: the key, then the drawn cents (as one whole number of cents, so that it has two decimals exactly).
            return .real(unique ? (Double(key) * 100 + cents.truncatingRemainder(dividingBy: 100)) / 100 : cents / 100)
        case .float:
            let value = (uniform(&rng) * 4).rounded() / 4
            return .real(unique ? Double(key) + 0.25 * Double(rng.next() % 4) : value)
        case .date:
            let seconds = (uniform(&rng) * 1_000).rounded() / 1_000
            return .real(unique ? (min * 1_000 + Double(key)).rounded() / 1_000 : seconds)
        case .uuid:
            var bytes = (0 ..< 2).flatMap { _ in withUnsafeBytes(of: rng.next()) { Array($0) } }
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            // Unique by construction: the key in the last six bytes. Random bytes alone are not, since
            // neighbouring objects' streams are shifted copies: a uuid drawn after a varying number of
            // draws (say after a title of 3 to 8 words) can repeat another object's.
            if unique { withUnsafeBytes(of: key.bigEndian) { bytes.replaceSubrange(10 ..< 16, with: $0.suffix(6)) } }
            return .blob(bytes)
        case .binary, .transformable:
            let length = measuredLength(&rng) ?? Int(min) + Int(rng.next() % UInt64(Swift.max(1, Int(max) - Int(min))))
            var bytes = (0 ..< length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if unique { withUnsafeBytes(of: key.bigEndian) { bytes = Array($0) + bytes } }
            return .blob(bytes)
        case .string, .uri:
            return .text(text(key: key, &rng))
        }
    }

    private func text(key: Int64, _ rng: inout SplitMix64) -> String {
        let suffix = unique ? "-\(key)" : ""
        switch kind {
        case .words: return Self.words(&rng, min: Int(min), max: Int(max)) + suffix
        case .name: return Self.name(&rng) + suffix
        case .topic: return Self.topic(unique ? Int(key - 1) : Int(rng.next() % UInt64(Words.topics.count)))
        case .isbn: return Self.isbn(Int(key))
        case .url: return "https://\(Self.host(&rng))/\(Self.slug(Self.words(&rng, min: 2, max: 5)))-\(key)"
        case .doi: return "10.\(4_000 + rng.next() % 6_000)/\(Self.token(&rng, length: 10)).\(key)"
        case .email: return "\(Self.slug(Self.name(&rng)))\(key)@example.org"
        case .choice: return choices[Int(rng.next() % UInt64(choices.count))] + suffix
        case .range, .sequence, .uuid, nil:
            let length = measuredLength(&rng) ?? 6 + Int(rng.next() % 19)
            var bytes = (0 ..< length).map { _ in Self.letters[Int(rng.next() % UInt64(Self.letters.count))] }
            if !bytes.isEmpty { bytes[0] = Self.letters[Int(rng.next() % 26)] }
            return String(decoding: bytes, as: UTF8.self) + suffix
        }
    }

    /// A length drawn from the measured lengths, if there are any.
    private func measuredLength(_ rng: inout SplitMix64) -> Int? {
        lengths.map { Int($0.value(at: rng.nextUnit()).rounded()) }
    }

    static let letters = Array("abcdefghijklmnopqrstuvwxyz     ".utf8)

    static func words(_ rng: inout SplitMix64, min: Int, max: Int) -> String {
        let count = min + Int(rng.next() % UInt64(Swift.max(1, max - min + 1)))
        var words: [String] = []
        for position in 0 ..< count {
            let word = Words.title[Int(rng.next() % UInt64(Words.title.count))]
            words.append(position == 0 ? word.prefix(1).uppercased() + word.dropFirst() : word)
        }
        return words.joined(separator: " ")
    }

    static func name(_ rng: inout SplitMix64) -> String { Words.blogs[Int(rng.next() % UInt64(Words.blogs.count))] }

    /// Topic `index`: `swift`, …, then `swift-2`, … (unique for distinct indexes).
    static func topic(_ index: Int) -> String {
        let word = Words.topics[index % Words.topics.count]
        let round = index / Words.topics.count
        return round == 0 ? word : "\(word)-\(round + 1)"
    }

    static func host(_ rng: inout SplitMix64) -> String {
        ["news.example.com", "blog.example.net", "docs.example.org", "media.example.com"][Int(rng.next() % 4)]
    }

    static func token(_ rng: inout SplitMix64, length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0 ..< length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
    }

    static func slug(_ text: String) -> String { String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }) }

    /// A valid ISBN-13 unique for each key: 978 + a 9-digit permutation of the key + check digit.
    static func isbn(_ key: Int) -> String {
        let body = (UInt64(key) &* 387_420_489) % 1_000_000_000
        var digits = Array("978".utf8.map { Int($0) - 48 })
        let bodyText = String(body)
        digits += Array(repeating: 0, count: 9 - bodyText.count) + bodyText.utf8.map { Int($0) - 48 }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 1 : 3) }
        digits.append((10 - sum % 10) % 10)
        return String(digits.map { Character(String($0)) })
    }
}
