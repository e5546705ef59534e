import Dataset
import Foundation
import SQLite
import Strategies
import TestSupport
import Workloads
import XCTest

/// Every strategy, on the same small dataset, must give exactly the answers the generator implies.
final class EquivalenceTests: XCTestCase {
    static let configuration = DatasetConfiguration(seed: 20_241_210, scale: 1_500)
    static let reference = ReferenceAnswers(configuration)

    func testEveryStrategyRoundTripsTheDatasetWithConcreteTypes() throws {
        for type in Strategies.all { try roundTrip(type) }
    }

    private func roundTrip<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, Self.configuration, in: folder)
        let fetched = try strategy.fetchAll()
        XCTAssertEqual(fetched.map(itemOf), Self.reference.newestFirst, "\(S.name): fetchAll differs from the generated dataset")
        for object in fetched {
            guard let publication = object as? Publication else { continue }
            // A class-hierarchy strategy must hand back the concrete subclass of every row.
            let expected: Publication.Type = switch publication.item.kind {
            case .publication: Publication.self
            case .book: Book.self
            case .academicPaper: AcademicPaper.self
            case .webArticle: WebArticle.self
            case .blogPost: BlogPost.self
            }
            XCTAssertTrue(Swift.type(of: publication) == expected, "\(S.name): a \(publication.kind) came back as \(Swift.type(of: publication))")
        }
        // Tag links: every tag's publications, as sets of uids.
        for tag in Self.reference.generator.tags {
            let got = Set(try strategy.fetchPublications(taggedWith: tag.name).map { itemOf($0).uid })
            let want = Set(Self.reference.tagged(tag.name).map(\.uid))
            XCTAssertEqual(got, want, "\(S.name): publications tagged \(tag.name)")
        }
    }

    func testEveryStrategyAnswersEveryReadLikeTheReference() throws {
        for type in Strategies.all { try answers(type) }
    }

    private func answers<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, Self.configuration, in: folder)
        let reference = Self.reference
        let name = S.name
        let newestFirst = reference.newestFirst
        XCTAssertEqual(try strategy.fetchNewest(limit: 50).map(itemOf), Array(newestFirst.prefix(50)), name)
        // A deep page, by OFFSET and by keyset from the row before it: the same 50 rows.
        for offset in [1, 700, 1_480] {
            let page = Array(newestFirst[offset ..< min(offset + 50, newestFirst.count)])
            XCTAssertEqual(try strategy.fetchPage(offset: offset, limit: 50).map(itemOf), page, "\(name) offset \(offset)")
            let before = newestFirst[offset - 1]
            XCTAssertEqual(try strategy.fetchPage(after: PageCursor(publishDate: before.publishDate, uid: before.uid), limit: 50).map(itemOf), page,
                           "\(name) keyset after row \(offset - 1)")
        }
        XCTAssertEqual(Set(try strategy.fetchBooks().map { itemOf($0).uid }), Set(reference.books.map(\.uid)), name)
        XCTAssertEqual(try strategy.countAll(), Self.configuration.scale, name)
        XCTAssertEqual(try strategy.countBooks(), reference.books.count, name)
        XCTAssertEqual(try strategy.countByType(), reference.countsByKind, name)
        let window = Date(timeIntervalSinceReferenceDate: 410_227_200) ..< Date(timeIntervalSinceReferenceDate: 441_763_200)
        let inWindow = try strategy.books(publishedIn: window).map(itemOf)
        XCTAssertEqual(Set(inWindow.map(\.uid)), Set(reference.books(in: window).map(\.uid)), name)
        XCTAssertFalse(inWindow.isEmpty, "the window should hold some Books at this scale")
        for book in reference.books.prefix(40) {
            guard case let .book(isbn, _) = book.content else { continue }
            XCTAssertEqual(try strategy.book(isbn: isbn).map(itemOf), book, "\(name): isbn \(isbn)")
        }
        XCTAssertNil(try strategy.book(isbn: "not-an-isbn"), name)
        // Another kind's text in a shared column must not be found as an isbn.
        if let paper = reference.items.first(where: { $0.kind == .academicPaper }), case let .academicPaper(_, doi) = paper.content {
            XCTAssertNil(try strategy.book(isbn: doi), name)
        }
    }

    func testEveryLookupQueryUsesAnIndex() throws {
        for type in Strategies.all { try plans(type) }
    }

    private func plans<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, DatasetConfiguration(seed: 5, scale: 2_000), in: folder)
        let sample = LookupSample(isbn: DatasetGenerator.isbn(3), tagName: "swift", window: Date(timeIntervalSinceReferenceDate: 4e8) ..< Date(timeIntervalSinceReferenceDate: 4.3e8))
        let plans = try QueryPlan.explain(strategy, sample: sample)
        XCTAssertEqual(Set(plans.map(\.workload)), ["fetch-page", "page-keyset", "fetch-leaf", "fetch-by-tag", "count-leaf", "lookup-composite", "lookup-attribute"], S.name)
        for plan in plans {
            let description = "\(S.name) \(plan.workload): \(plan.plan)"
            XCTAssertEqual(plan.unexpectedFullScans, [], "a full table scan: \(description)")
            if !plan.sql.contains("WHERE") && !plan.sql.contains("ORDER BY") { continue }
            XCTAssertTrue(plan.plan.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") || $0.contains("PRIMARY KEY") }, description)
            if plan.workload == "fetch-page" || plan.workload == "page-keyset" {
                XCTAssertFalse(plan.sortsForOrderBy, "\(plan.workload) sorts instead of reading an index: \(description)")
            }
        }
        XCTAssertEqual(QueryPlan.flagged(plans).map(\.workload), [], S.name)
    }

    func testAFullScanIsFlagged() {
        let scan = QueryPlan(strategy: "s", workload: "lookup-attribute", sql: "SELECT * FROM T t0 WHERE t0.A = ?", plan: ["SCAN t0"])
        XCTAssertEqual(scan.unexpectedFullScans, ["SCAN t0"])
        let whole = QueryPlan(strategy: "s", workload: "fetch-leaf", sql: "SELECT * FROM ZBOOK t0", plan: ["SCAN t0"])
        XCTAssertEqual(whole.unexpectedFullScans, [], "reading a whole table that is the answer is no defect")
        let sorted = QueryPlan(strategy: "s", workload: "fetch-page", sql: "SELECT * FROM T ORDER BY a LIMIT ?", plan: ["SCAN T", "USE TEMP B-TREE FOR ORDER BY"])
        XCTAssertEqual(QueryPlan.flagged([scan, whole, sorted]).map(\.workload), ["lookup-attribute", "fetch-page"])
        XCTAssertTrue(QueryPlan.report([scan]).contains("!! full table scan a lookup should not need: SCAN t0"))
    }
}
