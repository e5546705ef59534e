import Dataset
import Foundation
import SQLite
import Strategies
import Workloads

/// The answers every workload must give, computed from the generator alone (no SQL).
public struct ReferenceAnswers: Sendable {
    public let generator: DatasetGenerator
    public let items: [PublicationItem]
    public let tagsByIndex: [[Int]]

    public init(_ configuration: DatasetConfiguration) {
        generator = DatasetGenerator(configuration)
        let all = generator.publications(0 ..< configuration.scale)
        items = all.map(\.item)
        tagsByIndex = all.map(\.tagIndexes)
    }

    /// Newest first: publishDate descending, then uid bytes descending.
    public var newestFirst: [PublicationItem] {
        items.sorted { a, b in
            if a.publishDate != b.publishDate { return a.publishDate > b.publishDate }
            return uidBytes(b.uid).lexicographicallyPrecedes(uidBytes(a.uid))
        }
    }

    public var books: [PublicationItem] { items.filter { $0.kind == .book } }

    public func tagged(_ name: String) -> [PublicationItem] {
        guard let tag = generator.tags.firstIndex(where: { $0.name == name }) else { return [] }
        return zip(items, tagsByIndex).filter { $0.1.contains(tag) }.map(\.0)
    }

    public var countsByKind: [Int] {
        EntityKind.allCases.map { kind in items.filter { $0.kind == kind }.count }
    }

    public func books(in window: Range<Date>) -> [PublicationItem] {
        books.filter { window.contains($0.publishDate) }
    }

    public func book(isbn: String) -> PublicationItem? {
        books.first { if case let .book(value, _) = $0.content { value == isbn } else { false } }
    }

    /// `search-title`: every publication whose title starts with the prefix, byte for byte.
    public func titled(_ prefix: TitlePrefix) -> [PublicationItem] {
        items.filter { $0.title.utf8.starts(with: prefix.prefix.utf8) }
    }

    /// What a store holds after `delete-cascade` deletes `uids`: publications per kind, tag links, tags.
    public func afterDeleting(_ uids: Set<UUID>) -> (countsByKind: [Int], tagLinks: Int, tags: Int) {
        let kept = zip(items, tagsByIndex).filter { !uids.contains($0.0.uid) }
        return (EntityKind.allCases.map { kind in kept.filter { $0.0.kind == kind }.count },
                kept.reduce(0) { $0 + $1.1.count }, generator.tags.count)
    }
}

public func uidBytes(_ uid: UUID) -> [UInt8] { withUnsafeBytes(of: uid.uuid) { Array($0) } }

/// The value form of whatever a strategy fetched (a class instance or an enum-typed value).
public func itemOf(_ object: Any) -> PublicationItem {
    if let publication = object as? Publication { return publication.item }
    if let item = object as? PublicationItem { return item }
    fatalError("unexpected fetched type \(type(of: object))")
}

/// Creates a store for `type` in `folder` filled with `configuration`'s dataset.
public func populatedStore<S: StorageStrategy>(_ type: S.Type, _ configuration: DatasetConfiguration, in folder: URL, batchSize: Int = 97) throws -> S {
    let path = folder.appendingPathComponent("\(S.name)-\(UUID().uuidString).sqlite").path
    let strategy = S(database: try StoreFile.open(path))
    let generator = DatasetGenerator(configuration)
    try StoreBuilder.populate(strategy, generator: generator, batchSize: batchSize, expected: generator.census())
    return strategy
}

/// A fresh temporary folder, removed by the returned closure.
public func temporaryFolder() throws -> (URL, () -> Void) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("inheritance-bench-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return (url, { try? FileManager.default.removeItem(at: url) })
}

/// A strategy that answers one workload wrongly (drops the last Book), to prove the run notices.
public final class DroppingBooksStrategy: StorageStrategy {
    public static let name = "drops-a-book"
    public static let summary = "single-table, but fetch-leaf loses its last row (tests only)"
    let inner: SingleTableStrategy
    public var database: Database { inner.database }
    public init(database: Database) { inner = SingleTableStrategy(database: database) }
    public func createSchema(tags: [TagRecord]) throws { try inner.createSchema(tags: tags) }
    public func insert(_ publications: [GeneratedPublication]) throws { try inner.insert(publications) }
    public func fetchAll() throws -> [Publication] { try inner.fetchAll() }
    public func fetchNewest(limit: Int) throws -> [Publication] { try inner.fetchNewest(limit: limit) }
    public func fetchPage(offset: Int, limit: Int) throws -> [Publication] { try inner.fetchPage(offset: offset, limit: limit) }
    public func fetchPage(after cursor: PageCursor, limit: Int) throws -> [Publication] { try inner.fetchPage(after: cursor, limit: limit) }
    public func fetchBooks() throws -> [Publication] { Array(try inner.fetchBooks().dropLast()) }
    public func fetchPublications(taggedWith name: String) throws -> [Publication] { try inner.fetchPublications(taggedWith: name) }
    public func countAll() throws -> Int { try inner.countAll() }
    public func countBooks() throws -> Int { try inner.countBooks() }
    public func countByType() throws -> [Int] { try inner.countByType() }
    public func countTagLinks() throws -> Int { try inner.countTagLinks() }
    public func books(publishedIn range: Range<Date>) throws -> [Publication] { try inner.books(publishedIn: range) }
    public func book(isbn: String) throws -> Publication? { try inner.book(isbn: isbn) }
    public func publications(titlePrefix prefix: TitlePrefix) throws -> [Publication] { try inner.publications(titlePrefix: prefix) }
    public func touch(uids: [UUID], updatedate: Date) throws -> Int { try inner.touch(uids: uids, updatedate: updatedate) }
    public func delete(uids: [UUID]) throws -> Int { try inner.delete(uids: uids) }
    public func versions(updatedAt updatedate: Date) throws -> [RowVersion] { try inner.versions(updatedAt: updatedate) }
    public func workloadQueries(_ sample: QuerySample) -> [WorkloadQuery] { inner.workloadQueries(sample) }
}
