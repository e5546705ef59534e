import Dataset
import Foundation
import Strategies

/// The workloads, each defined once; every strategy runs the same ones.
public enum Workload: String, CaseIterable, Sendable, Comparable {
    case insertBulk = "insert-bulk"
    case insertSingle = "insert-single"
    case fetchPolymorphic = "fetch-polymorphic"
    case fetchPage = "fetch-page"
    case pageOffset = "page-offset"
    case pageKeyset = "page-keyset"
    case fetchLeaf = "fetch-leaf"
    case fetchByTag = "fetch-by-tag"
    case countAll = "count-all"
    case countLeaf = "count-leaf"
    case countByType = "count-by-type"
    case lookupComposite = "lookup-composite"
    case lookupAttribute = "lookup-attribute"

    public static func < (lhs: Workload, rhs: Workload) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// One line for `bench list` and the README.
    public var summary: String {
        switch self {
        case .insertBulk: "all publications with their tag links, in transactions of --batch objects, into a fresh store"
        case .insertSingle: "\(Self.singleInsertCount) publications, one transaction (one save) each, into a fresh store"
        case .fetchPolymorphic: "every publication, newest first, each materialised as its concrete type"
        case .fetchPage: "the newest \(Self.pageSize) publications of all types"
        case .pageOffset: "a deep page: \(Self.pageSize) publications from the middle of the newest-first order, skipped to with OFFSET"
        case .pageKeyset: "the same deep page, reached by keyset pagination (after the previous page's last publishDate and uid)"
        case .fetchLeaf: "every Book"
        case .fetchByTag: "every publication carrying a given tag: the most popular tag, and the rarest"
        case .countAll: "count of all publications"
        case .countLeaf: "count of Books"
        case .countByType: "one count per entity (five counts)"
        case .lookupComposite: "Books published in a one-year window, served by a (type, publishDate) index"
        case .lookupAttribute: "\(Self.lookupCount) Books looked up one by one by isbn"
        }
    }

    /// Insert workloads build fresh stores; the others read one populated store per strategy.
    public var isInsert: Bool { self == .insertBulk || self == .insertSingle }

    /// The cases a workload measures separately (one CSV row each).
    public var variants: [String] {
        self == .fetchByTag ? ["popular", "rare"] : [""]
    }

    /// Untimed repetitions run first, to warm caches and prepare statements. `insert-bulk` has
    /// none: every repetition starts from a brand-new store file, so each is equally cold, and a
    /// full-size warm-up would cost as much as a repetition.
    public var warmups: Int {
        switch self {
        case .insertBulk: 0
        case .insertSingle, .fetchPolymorphic, .fetchLeaf, .lookupAttribute, .pageOffset: 1
        default: 5
        }
    }

    /// Timed repetitions when `--repetitions` is not given: more for fast workloads. `insert-bulk`
    /// writes the whole dataset each time (about 5 s per strategy at the default scale), so two
    /// keep the default run within two minutes; `--repetitions` or `--time-budget` give more.
    public var defaultRepetitions: Int {
        switch self {
        case .insertBulk: 2
        case .insertSingle: 5
        case .fetchPolymorphic, .fetchLeaf: 7
        case .lookupAttribute, .fetchByTag, .pageOffset: 10
        case .fetchPage, .countAll, .countLeaf, .countByType, .lookupComposite: 100
        case .pageKeyset: 50
        }
    }

    /// Whether the answer's order is part of the contract.
    var digestOrder: AnswerDigest.Order {
        switch self {
        case .fetchPolymorphic, .fetchPage, .pageOffset, .pageKeyset, .countByType, .lookupAttribute, .countAll, .countLeaf: .ordered
        default: .unordered
        }
    }

    public static let pageSize = 50
    public static let singleInsertCount = 1_000
    public static let lookupCount = 1_000

    /// Parses a comma-separated list of names; throws a message listing the valid names otherwise.
    public static func parseList(_ text: String) throws -> [Workload] {
        try NameList.parse(text, valid: allCases.map(\.rawValue), what: "workload").map { Workload(rawValue: $0)! }
    }
}

/// Parses `--strategies` and `--workloads` lists with one clear message per mistake.
public enum NameList {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// "unknown strategy 'x'; choose from: single-table, …"
    public static func unknown(_ name: String, valid: [String], what: String) -> Error {
        Error(description: "unknown \(what) '\(name)'; choose from: \(valid.joined(separator: ", "))")
    }

    public static func parse(_ text: String, valid: [String], what: String) throws -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if names.allSatisfy(\.isEmpty) {
            throw Error(description: "the \(what) list is empty; give one or more of: \(valid.joined(separator: ", "))")
        }
        if names.contains(where: \.isEmpty) {
            throw Error(description: "the \(what) list '\(text)' has an empty name; separate names with single commas")
        }
        for name in names where !valid.contains(name) { throw unknown(name, valid: valid, what: what) }
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw Error(description: "\(what) '\(name)' is listed twice")
        }
        return names
    }
}

/// The fixed parameters of the read workloads, derived from the dataset's seed.
public struct WorkloadParameters: Sendable {
    public var popularTag: String
    public var rareTag: String
    /// The `lookup-composite` window: publications of 2014.
    public var window: Range<Date>
    /// The isbns `lookup-attribute` looks up, in lookup order (drawn with replacement from the dataset's Books).
    public var isbns: [String]
    /// The deep page of `page-offset` and `page-keyset`: its position in the newest-first order
    /// (half the dataset), and the cursor of the row just before it, so both fetch the same page.
    public var deepPageOffset: Int
    public var deepPageCursor: PageCursor

    public init(generator: DatasetGenerator) {
        popularTag = generator.popularTagName
        rareTag = generator.rareTagName
        window = Date(timeIntervalSinceReferenceDate: 410_227_200) ..< Date(timeIntervalSinceReferenceDate: 441_763_200)
        let scale = generator.configuration.scale
        var rng = SplitMix64(seed: generator.configuration.seed, stream: 0xB00C_5EED)
        var isbns: [String] = []
        // Draw random publications until one is a Book; give up on a dataset without Books.
        var attempts = 0
        while isbns.count < Workload.lookupCount, scale > 0, attempts < Workload.lookupCount * 200 {
            attempts += 1
            let index = Int(rng.next() % UInt64(scale))
            if case let .book(isbn, _) = generator.publication(at: index).item.content { isbns.append(isbn) }
        }
        self.isbns = isbns
        (deepPageOffset, deepPageCursor) = Self.deepPage(generator)
    }

    public var lookupSample: LookupSample {
        LookupSample(isbn: isbns.first ?? DatasetGenerator.isbn(0), tagName: rareTag, window: window, cursor: deepPageCursor)
    }

    /// Sorts the dataset's (publishDate, uid) newest first, as every strategy does, and picks the
    /// middle: the offset, and the key of the row before it (the "after everything" cursor for offset 0).
    static func deepPage(_ generator: DatasetGenerator) -> (Int, PageCursor) {
        let scale = generator.configuration.scale
        let offset = scale / 2
        guard offset > 0 else {
            return (0, PageCursor(publishDate: .distantFuture, uid: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))))
        }
        var keys = (0 ..< scale).map { index -> (Date, [UInt8]) in
            let item = generator.publication(at: index).item
            return (item.publishDate, withUnsafeBytes(of: item.uid.uuid) { Array($0) })
        }
        // SQLite orders the uid blobs by memcmp: byte by byte.
        keys.sort { a, b in a.0 != b.0 ? a.0 > b.0 : b.1.lexicographicallyPrecedes(a.1) }
        let (date, bytes) = keys[offset - 1]
        let uid = bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        return (offset, PageCursor(publishDate: date, uid: uid))
    }
}
