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
    case searchTitle = "search-title"
    case deleteCascade = "delete-cascade"
    /// Last on purpose: it is the one workload that changes the read store (`updatedate` and
    /// `Z_OPT` of the rows it touches), and every fetch digests `updatedate`. The runner also
    /// moves it after the other reads whatever order `--workloads` names them in
    /// (`modifiesReadStore`), so it cannot change another workload's answer.
    case update = "update"

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
        case .searchTitle: "every publication whose title starts with a prefix drawn from the dataset (a range on a title index)"
        case .deleteCascade: "\(Self.writeCount) publications deleted by uid with their tag links (the tags stay), one save, in a fresh copy of the store each time"
        case .update: "\(Self.writeCount) publications found by uid get a new updatedate and Z_OPT + 1, one save"
        }
    }

    /// Insert workloads build fresh stores; the others read one populated store per strategy.
    public var isInsert: Bool { self == .insertBulk || self == .insertSingle }

    /// Whether the workload changes the populated read store it runs on (`update`). The runner
    /// runs such workloads after every other read. `delete-cascade` deletes from a copy.
    public var modifiesReadStore: Bool { self == .update }

    /// The cases a workload measures separately (one CSV row each).
    public var variants: [String] {
        self == .fetchByTag ? ["popular", "rare"] : [""]
    }

    /// Untimed repetitions run first, to warm caches and prepare statements. `insert-bulk` and
    /// `delete-cascade` have none: every repetition starts from a brand-new store file (a copy, for
    /// `delete-cascade`, opened by a new connection), so each is equally cold, and a warm-up would
    /// cost as much as a repetition.
    public var warmups: Int {
        switch self {
        case .insertBulk, .deleteCascade: 0
        case .insertSingle, .fetchPolymorphic, .fetchLeaf, .lookupAttribute, .pageOffset: 1
        case .update: 2
        default: 5
        }
    }

    /// Timed repetitions when `--repetitions` is not given: more for fast workloads. `insert-bulk`
    /// writes the whole dataset each time (7–9 s per strategy at the default scale on the project's
    /// 2-core machine since every layout indexes uid and title), so it runs once, which keeps the
    /// default run within two minutes; `--repetitions` or `--time-budget` give more.
    /// `delete-cascade` copies the whole store file before each repetition and checks it after
    /// (untimed, but wall time), so it has five.
    public var defaultRepetitions: Int {
        switch self {
        case .insertBulk: 1
        case .insertSingle, .deleteCascade: 5
        case .update: 10
        case .fetchPolymorphic, .fetchLeaf: 7
        case .lookupAttribute, .fetchByTag, .pageOffset: 10
        case .fetchPage, .countAll, .countLeaf, .countByType, .lookupComposite: 100
        case .pageKeyset, .searchTitle: 50
        }
    }

    /// Whether the answer's order is part of the contract.
    var digestOrder: AnswerDigest.Order {
        switch self {
        case .fetchPolymorphic, .fetchPage, .pageOffset, .pageKeyset, .countByType, .lookupAttribute, .countAll, .countLeaf, .deleteCascade: .ordered
        default: .unordered
        }
    }

    public static let pageSize = 50
    public static let singleInsertCount = 1_000
    public static let lookupCount = 1_000
    /// Publications `update` and `delete-cascade` write, at most (a tenth of a smaller dataset).
    public static let writeCount = 1_000

    /// The publications `update` and `delete-cascade` write in a dataset of `scale`: `writeCount`,
    /// or a tenth of the dataset when that is fewer (at least one publication of a non-empty one).
    public static func writeCount(scale: Int) -> Int {
        min(writeCount, max(scale / 10, min(scale, 1)))
    }

    /// The `updatedate` repetition `round` (0-based, warm-ups included) of `update` writes: whole
    /// seconds after every date the generator makes, a different one each round, so each repetition really writes.
    public static func updateDate(round: Int) -> Date {
        Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(round))
    }

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

/// The fixed parameters of the read and write workloads, derived from the dataset's seed.
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
    /// The `search-title` prefix: see `titlePrefix(_:)`.
    public var titlePrefix: TitlePrefix
    /// The publications `update` touches and `delete-cascade` deletes, by uid: `Workload.writeCount(scale:)`
    /// distinct publications each, drawn at random (without replacement) from the seed.
    public var updateUIDs: [UUID]
    public var deleteUIDs: [UUID]
    /// The whole dataset's census, and what a store holds after `delete-cascade`.
    public var census: DatasetGenerator.Census
    public var censusAfterDelete: DatasetGenerator.Census
    /// Tags in the dataset; `delete-cascade` must leave every one.
    public var tagCount: Int

    public init(generator: DatasetGenerator) {
        popularTag = generator.popularTagName
        tagCount = generator.configuration.tagCount
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
        let seed = generator.configuration.seed
        let updated = Self.sample(Workload.writeCount(scale: scale), of: scale, seed: seed, stream: 0x0DA7_E5EED)
        let deleted = Self.sample(Workload.writeCount(scale: scale), of: scale, seed: seed, stream: 0xDE1E_7E5EED)
        updateUIDs = updated.map { generator.publication(at: $0).item.uid }
        deleteUIDs = deleted.map { generator.publication(at: $0).item.uid }
        let pass = Self.scan(generator)
        (deepPageOffset, deepPageCursor) = (pass.deepPageOffset, pass.deepPageCursor)
        titlePrefix = pass.titlePrefix
        census = pass.census
        var after = pass.census
        for index in deleted {
            let publication = generator.publication(at: index)
            after.countsByKind[publication.item.kind.rawValue] -= 1
            after.tagLinks -= publication.tagIndexes.count
        }
        censusAfterDelete = after
    }

    /// Sample values for `EXPLAIN QUERY PLAN` of every workload's statements.
    public var querySample: QuerySample {
        QuerySample(isbn: isbns.first ?? DatasetGenerator.isbn(0), tagName: rareTag, window: window, cursor: deepPageCursor,
                    offset: deepPageOffset, titlePrefix: titlePrefix,
                    uid: updateUIDs.first ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    }

    /// `count` distinct indexes of `0 ..< scale`, drawn from their own stream of the seed, in draw order.
    static func sample(_ count: Int, of scale: Int, seed: UInt64, stream: UInt64) -> [Int] {
        precondition(count <= scale)
        var rng = SplitMix64(seed: seed, stream: stream)
        var drawn: [Int] = []
        var seen = Set<Int>()
        while drawn.count < count {
            let index = Int(rng.next() % UInt64(scale))
            if seen.insert(index).inserted { drawn.append(index) }
        }
        return drawn
    }

    /// One pass over the dataset for what depends on all of it: the deep page, the census, and the title prefix.
    private static func scan(_ generator: DatasetGenerator) -> (deepPageOffset: Int, deepPageCursor: PageCursor, census: DatasetGenerator.Census, titlePrefix: TitlePrefix) {
        let scale = generator.configuration.scale
        var census = generator.census(0 ..< 0) // zero of every kind
        var keys: [(Date, [UInt8])] = []
        keys.reserveCapacity(scale)
        // The title the prefix is cut from: a publication drawn from the seed.
        var rng = SplitMix64(seed: generator.configuration.seed, stream: 0x717_1E5EED)
        let title = scale > 0 ? Array(generator.publication(at: Int(rng.next() % UInt64(scale))).item.title.unicodeScalars) : ["A"]
        // shared[n]: titles whose first n scalars, and no more, equal `title`'s.
        var shared = [Int](repeating: 0, count: title.count + 1)
        for index in 0 ..< scale {
            let publication = generator.publication(at: index)
            let item = publication.item
            census.countsByKind[item.kind.rawValue] += 1
            census.tagLinks += publication.tagIndexes.count
            keys.append((item.publishDate, withUnsafeBytes(of: item.uid.uuid) { Array($0) }))
            var length = 0
            for scalar in item.title.unicodeScalars {
                guard length < title.count, scalar == title[length] else { break }
                length += 1
            }
            shared[length] += 1
        }
        let (offset, cursor) = deepPage(&keys)
        return (offset, cursor, census, titlePrefix(title, shared: shared, scale: scale))
    }

    /// The `search-title` prefix: the longest prefix of a title drawn from the seed that at
    /// least `max(1, scale / 250)` titles start with (a few hundred at 100,000 publications:
    /// typically its first word and the space after it), so that the answer is a few hundred rows
    /// at the default scale and never empty. `shared[n]` counts the titles that share exactly
    /// their first `n` scalars with `title`.
    static func titlePrefix(_ title: [Unicode.Scalar], shared: [Int], scale: Int) -> TitlePrefix {
        let target = max(1, scale / 250)
        var length = 1
        var startingWith = shared.dropFirst(1).reduce(0, +) // titles starting with the first `length` scalars
        while length < title.count, startingWith - shared[length] >= target {
            startingWith -= shared[length]
            length += 1
        }
        var prefix = String.UnicodeScalarView()
        prefix.append(contentsOf: title.prefix(length))
        // Titles come from a word list: never empty, never made of U+10FFFF alone.
        return TitlePrefix(String(prefix)) ?? TitlePrefix("A")!
    }

    /// Sorts the dataset's (publishDate, uid) newest first, as every strategy does, and picks the
    /// middle: the offset, and the key of the row before it (the "after everything" cursor for offset 0).
    static func deepPage(_ keys: inout [(Date, [UInt8])]) -> (Int, PageCursor) {
        let offset = keys.count / 2
        guard offset > 0 else {
            return (0, PageCursor(publishDate: .distantFuture, uid: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))))
        }
        // SQLite orders the uid blobs by memcmp: byte by byte.
        keys.sort { a, b in a.0 != b.0 ? a.0 > b.0 : b.1.lexicographicallyPrecedes(a.1) }
        let (date, bytes) = keys[offset - 1]
        let uid = bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        return (offset, PageCursor(publishDate: date, uid: uid))
    }
}
