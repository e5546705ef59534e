import Foundation

/// What the generated dataset looks like. Everything is a function of these values.
public struct DatasetConfiguration: Equatable, Sendable {
    /// The run's seed (`--seed`).
    public var seed: UInt64
    /// How many publications (`--scale`).
    public var scale: Int
    /// Relative weights of the concrete entities, in `EntityKind.allCases` order.
    public var mix: [Double]
    /// How many tags exist.
    public var tagCount: Int
    /// Each publication carries 0 … `maxTagsPerPublication` distinct tags.
    public var maxTagsPerPublication: Int
    /// The exponent of the Zipf law that makes a few tags popular and most rare.
    public var zipfExponent: Double

    public static let defaultScale = 100_000
    public static let defaultSeed: UInt64 = 42
    /// 10 % Publication, 30 % Book, 20 % AcademicPaper, 20 % WebArticle, 20 % BlogPost.
    public static let defaultMix: [Double] = [0.10, 0.30, 0.20, 0.20, 0.20]

    public init(
        seed: UInt64 = defaultSeed, scale: Int = defaultScale, mix: [Double] = defaultMix,
        tagCount: Int = 200, maxTagsPerPublication: Int = 5, zipfExponent: Double = 1.0
    ) {
        precondition(mix.count == EntityKind.allCases.count && mix.allSatisfy { $0 >= 0 } && mix.contains { $0 > 0 })
        precondition(scale >= 0 && tagCount > maxTagsPerPublication && maxTagsPerPublication >= 0)
        self.seed = seed
        self.scale = scale
        self.mix = mix
        self.tagCount = tagCount
        self.maxTagsPerPublication = maxTagsPerPublication
        self.zipfExponent = zipfExponent
    }
}

/// Generates the publication dataset as a stream: publication `i` depends only on the seed and
/// `i`, so memory does not grow with the scale and any record can be regenerated on its own.
///
///     let generator = DatasetGenerator(DatasetConfiguration(seed: 7, scale: 1_000))
///     for batch in generator.batches(of: 100) { try strategy.insert(batch) }
public struct DatasetGenerator: Sendable {
    public let configuration: DatasetConfiguration
    private let kindThresholds: [Double]
    private let tagThresholds: [Double]

    /// Publish dates spread over the 20 years 2005-01-01 ..< 2025-01-01 UTC.
    public static let publishDateRange: Range<Date> =
        Date(timeIntervalSinceReferenceDate: 126_230_400) ..< Date(timeIntervalSinceReferenceDate: 757_382_400)

    public init(_ configuration: DatasetConfiguration) {
        self.configuration = configuration
        kindThresholds = Self.cumulative(configuration.mix)
        tagThresholds = Self.cumulative((0 ..< configuration.tagCount).map { 1 / pow(Double($0 + 1), configuration.zipfExponent) })
    }

    private static func cumulative(_ weights: [Double]) -> [Double] {
        let total = weights.reduce(0, +)
        var running = 0.0
        return weights.map { running += $0 / total; return running }
    }

    // MARK: Tags

    /// Tag `i` has popularity rank `i`: tag 0 is the most popular, the last tag the rarest.
    public var tags: [TagRecord] { (0 ..< configuration.tagCount).map { TagRecord(name: Self.tagName($0)) } }

    public static func tagName(_ index: Int) -> String {
        let word = Words.topics[index % Words.topics.count]
        let round = index / Words.topics.count
        return round == 0 ? word : "\(word)-\(round + 1)"
    }

    /// The most popular tag's name (`fetch-by-tag`, popular case).
    public var popularTagName: String { Self.tagName(0) }
    /// The least popular tag's name (`fetch-by-tag`, rare case).
    public var rareTagName: String { Self.tagName(configuration.tagCount - 1) }

    // MARK: Publications

    /// Publication number `index` (0-based) of the dataset.
    public func publication(at index: Int) -> GeneratedPublication {
        var rng = SplitMix64(seed: configuration.seed, stream: UInt64(index))
        let kind = EntityKind.allCases[Self.pick(rng.nextUnit(), in: kindThresholds)]
        let uid = Self.uuid(&rng)
        let title = Self.title(&rng)
        let range = Self.publishDateRange
        let span = range.upperBound.timeIntervalSince(range.lowerBound)
        // Millisecond resolution, like dates set from a UI or a server's JSON.
        let publish = (range.lowerBound.timeIntervalSinceReferenceDate + rng.nextUnit() * span).rounded(toPlaces: 3)
        let create = (publish + rng.nextUnit() * 30 * 86_400).rounded(toPlaces: 3)
        let update = (create + rng.nextUnit() * 365 * 86_400).rounded(toPlaces: 3)

        let content: PublicationContent
        switch kind {
        case .publication:
            content = .publication
        case .book:
            content = .book(isbn: Self.isbn(index), pageCount: Int32(48 + rng.next() % 1_153))
        case .academicPaper:
            content = .academicPaper(
                paperType: Int16(rng.next() % 12),
                doi: "10.\(4_000 + rng.next() % 6_000)/\(Self.token(&rng, length: 10)).\(index)"
            )
        case .webArticle:
            content = .webArticle(
                url: "https://news.example.com/\(Self.slug(title))-\(index)",
                wordCount: Int32(200 + rng.next() % 4_801)
            )
        case .blogPost:
            let blog = Words.blogs[Int(rng.next() % UInt64(Words.blogs.count))]
            content = .blogPost(url: "https://\(Self.slug(blog)).example.net/posts/\(Self.slug(title))-\(index)", blogName: blog)
        }

        let tagCount = Int(rng.next() % UInt64(configuration.maxTagsPerPublication + 1))
        var tagIndexes: [Int] = []
        tagIndexes.reserveCapacity(tagCount)
        while tagIndexes.count < tagCount {
            let tag = Self.pick(rng.nextUnit(), in: tagThresholds)
            if !tagIndexes.contains(tag) { tagIndexes.append(tag) }
        }

        let item = PublicationItem(
            uid: uid, title: title,
            publishDate: Date(timeIntervalSinceReferenceDate: publish),
            createdate: Date(timeIntervalSinceReferenceDate: create),
            updatedate: Date(timeIntervalSinceReferenceDate: update),
            content: content
        )
        return GeneratedPublication(item: item, tagIndexes: tagIndexes)
    }

    /// Publications `range.lowerBound ..< range.upperBound`.
    public func publications(_ range: Range<Int>) -> [GeneratedPublication] {
        range.map(publication(at:))
    }

    /// The whole dataset in consecutive batches of `size` (the last one may be shorter).
    public func batches(of size: Int) -> some Sequence<[GeneratedPublication]> {
        precondition(size > 0)
        let scale = configuration.scale
        return stride(from: 0, to: scale, by: size).lazy.map { start in
            self.publications(start ..< min(start + size, scale))
        }
    }

    /// What a store holding publications `range` (by default the whole dataset) must contain,
    /// computed by streaming once.
    public func census(_ range: Range<Int>? = nil) -> Census {
        var census = Census(countsByKind: Array(repeating: 0, count: EntityKind.allCases.count), tagLinks: 0)
        for index in range ?? 0 ..< configuration.scale {
            let publication = publication(at: index)
            census.countsByKind[publication.item.kind.rawValue] += 1
            census.tagLinks += publication.tagIndexes.count
        }
        return census
    }

    public struct Census: Equatable, Sendable {
        /// Publications per concrete entity, in `EntityKind.allCases` order.
        public var countsByKind: [Int]
        /// Rows in the publication–tag join table(s).
        public var tagLinks: Int
        public var total: Int { countsByKind.reduce(0, +) }
    }

    // MARK: Field makers

    private static func pick(_ unit: Double, in thresholds: [Double]) -> Int {
        var low = 0, high = thresholds.count - 1
        while low < high {
            let mid = (low + high) / 2
            if unit < thresholds[mid] { high = mid } else { low = mid + 1 }
        }
        return low
    }

    private static func uuid(_ rng: inout SplitMix64) -> UUID {
        var bytes = (rng.next(), rng.next())
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40 // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80 // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }

    private static func title(_ rng: inout SplitMix64) -> String {
        let count = 3 + Int(rng.next() % 6)
        var words: [String] = []
        words.reserveCapacity(count)
        for position in 0 ..< count {
            let word = Words.title[Int(rng.next() % UInt64(Words.title.count))]
            words.append(position == 0 ? word.prefix(1).uppercased() + word.dropFirst() : word)
        }
        return words.joined(separator: " ")
    }

    private static func token(_ rng: inout SplitMix64, length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0 ..< length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
    }

    private static func slug(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// A valid, unique ISBN-13 for publication `index`: 978 + a 9-digit permutation of the index + check digit.
    public static func isbn(_ index: Int) -> String {
        // 387_420_489 = 3^18 is odd and coprime to 10^9, so this is a bijection on 0 ..< 10^9.
        let body = (UInt64(index) &* 387_420_489) % 1_000_000_000
        var digits = Array("978".utf8.map { Int($0) - 48 })
        let bodyText = String(body)
        digits += Array(repeating: 0, count: 9 - bodyText.count) + bodyText.utf8.map { Int($0) - 48 }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 1 : 3) }
        digits.append((10 - sum % 10) % 10)
        return String(digits.map { Character(String($0)) })
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
