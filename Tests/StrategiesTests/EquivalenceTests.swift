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
        // search-title: the workload's own prefix (not empty at this scale), a whole first word,
        // a prefix nothing starts with, and one whose upper bound is the next letter ("Z" ..< "[").
        let workloadPrefix = WorkloadParameters(generator: reference.generator).titlePrefix
        XCTAssertFalse(reference.titled(workloadPrefix).isEmpty, "the search-title prefix '\(workloadPrefix.prefix)' finds no title")
        for prefix in [workloadPrefix, TitlePrefix("The ")!, TitlePrefix("Qz")!, TitlePrefix("Z")!, TitlePrefix("R")!] {
            let found = try strategy.publications(titlePrefix: prefix).map(itemOf).sorted { uidBytes($0.uid).lexicographicallyPrecedes(uidBytes($1.uid)) }
            let want = reference.titled(prefix).sorted { uidBytes($0.uid).lexicographicallyPrecedes(uidBytes($1.uid)) }
            XCTAssertEqual(found, want, "\(name): titles starting with '\(prefix.prefix)'")
        }
    }

    /// `touch` changes exactly the rows it names (updatedate, Z_OPT + 1) and nothing else; `delete`
    /// removes exactly the rows it names with their tag links, and leaves every tag.
    func testEveryStrategyUpdatesAndDeletesExactlyTheNamedPublications() throws {
        for type in Strategies.all { try writes(type) }
    }

    private func writes<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, Self.configuration, in: folder)
        let reference = Self.reference
        let name = S.name
        let parameters = WorkloadParameters(generator: reference.generator)
        XCTAssertEqual(parameters.updateUIDs.count, Self.configuration.scale / 10, "a tenth of a small dataset")
        XCTAssertEqual(Set(parameters.updateUIDs).count, parameters.updateUIDs.count, "drawn without replacement")
        let touched = Set(parameters.updateUIDs)
        let first = Workload.updateDate(round: 0)
        XCTAssertEqual(try strategy.touch(uids: parameters.updateUIDs, updatedate: first), touched.count, name)
        var versions = try strategy.versions(updatedAt: first)
        XCTAssertEqual(Set(versions.map(\.uid)), touched, name)
        XCTAssertEqual(Set(versions.map(\.opt)), [2], "\(name): Z_OPT went from 1 to 2")
        var expected = reference.newestFirst.map { item in
            var item = item
            if touched.contains(item.uid) { item.updatedate = first }
            return item
        }
        XCTAssertEqual(try strategy.fetchAll().map(itemOf), expected, "\(name): only the named rows changed, only in updatedate")
        // A second save: three of them again, and a uid that is not stored changes nothing.
        let again = Array(parameters.updateUIDs.prefix(3))
        XCTAssertEqual(try strategy.touch(uids: again + [UUID()], updatedate: Workload.updateDate(round: 1)), 3, name)
        versions = try strategy.versions(updatedAt: Workload.updateDate(round: 1))
        XCTAssertEqual(Set(versions.map(\.uid)), Set(again), name)
        XCTAssertEqual(Set(versions.map(\.opt)), [3], name)
        XCTAssertEqual(try strategy.versions(updatedAt: first).count, touched.count - 3, name)

        let deleted = Set(parameters.deleteUIDs)
        XCTAssertEqual(deleted.count, Self.configuration.scale / 10)
        XCTAssertEqual(try strategy.delete(uids: parameters.deleteUIDs + [UUID()]), deleted.count, name)
        let after = reference.afterDeleting(deleted)
        XCTAssertEqual(try strategy.countByType(), after.countsByKind, name)
        XCTAssertEqual(try strategy.countTagLinks(), after.tagLinks, name)
        XCTAssertEqual(try strategy.countTags(), after.tags, "\(name): every tag stays")
        XCTAssertEqual(parameters.censusAfterDelete.countsByKind, after.countsByKind)
        XCTAssertEqual(parameters.censusAfterDelete.tagLinks, after.tagLinks)
        XCTAssertNoThrow(try StoreBuilder.checkIntegrity(strategy, expected: parameters.censusAfterDelete), name)
        for index in expected.indices where touched.contains(expected[index].uid) && again.contains(expected[index].uid) {
            expected[index].updatedate = Workload.updateDate(round: 1)
        }
        XCTAssertEqual(try strategy.fetchAll().map(itemOf), expected.filter { !deleted.contains($0.uid) }, name)
        for tag in [reference.generator.popularTagName, reference.generator.rareTagName] {
            XCTAssertEqual(Set(try strategy.fetchPublications(taggedWith: tag).map { itemOf($0).uid }),
                           Set(reference.tagged(tag).map(\.uid)).subtracting(deleted), "\(name): \(tag)")
        }
        XCTAssertEqual(try strategy.delete(uids: parameters.deleteUIDs), 0, "\(name): nothing left to delete")
    }

    func testEveryWorkloadQueryKeepsItsPlanRule() throws {
        for type in Strategies.all { try plans(type) }
    }

    private func plans<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, DatasetConfiguration(seed: 5, scale: 2_000), in: folder)
        let generator = DatasetGenerator(DatasetConfiguration(seed: 5, scale: 2_000))
        let sample = WorkloadParameters(generator: generator).querySample
        let plans = try QueryPlan.explain(strategy, sample: sample)
        // Every workload that runs SQL on a populated store: all but the two inserts.
        XCTAssertEqual(Set(plans.map(\.workload)), Set(Workload.allCases.filter { !$0.isInsert }.map(\.rawValue)), S.name)
        for plan in plans {
            let description = "\(S.name) \(plan.workload): \(plan.plan)"
            XCTAssertEqual(plan.unexpectedFullScans, [], "a full table scan: \(description)")
            XCTAssertFalse(plan.sortsUnexpectedly, "\(plan.workload) sorts instead of reading an index: \(description)")
            // Whatever may not scan, and has a WHERE, finds its rows through an index or a key.
            if plan.rule.scans == .never || plan.sql.contains("WHERE") {
                XCTAssertTrue(plan.plan.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") || $0.contains("PRIMARY KEY") }, description)
            }
        }
        XCTAssertEqual(QueryPlan.flagged(plans).map(\.workload), [], S.name)
    }

    func testAFullScanIsFlagged() {
        let scan = QueryPlan(strategy: "s", workload: "lookup-attribute", sql: "SELECT * FROM T t0 WHERE t0.A = ?", plan: ["SCAN t0"])
        XCTAssertEqual(scan.unexpectedFullScans, ["SCAN t0"])
        let whole = QueryPlan(strategy: "s", workload: "fetch-leaf", sql: "SELECT * FROM ZBOOK t0", plan: ["SCAN t0"])
        XCTAssertEqual(whole.unexpectedFullScans, [], "reading a whole table that is the answer is no defect")
        let filtered = QueryPlan(strategy: "s", workload: "count-by-type", sql: "SELECT COUNT(*) FROM T t0 WHERE t0.Z_ENT = ?", plan: ["SCAN t0"])
        XCTAssertEqual(filtered.unexpectedFullScans, ["SCAN t0"], "a count of one type in a shared table must not read all of it")
        let everything = QueryPlan(strategy: "s", workload: "fetch-polymorphic", sql: "SELECT * FROM T t0 ORDER BY a", plan: ["SCAN t0", "USE TEMP B-TREE FOR ORDER BY"])
        XCTAssertEqual(everything.unexpectedFullScans, [], "every row is the answer")
        XCTAssertTrue(everything.sortsUnexpectedly, "but its order must come from an index")
        let count = QueryPlan(strategy: "s", workload: "count-all", sql: "SELECT (SELECT COUNT(*) FROM A) + (SELECT COUNT(*) FROM B)",
                              plan: ["SCAN CONSTANT ROW", "SCALAR SUBQUERY 1", "SCAN A"])
        XCTAssertEqual(count.unexpectedFullScans, [])
        let update = QueryPlan(strategy: "s", workload: "update", sql: "UPDATE T SET a = ?1 WHERE ZUID = ?2", plan: ["SCAN T"])
        let delete = QueryPlan(strategy: "s", workload: "delete-cascade", sql: "DELETE FROM T WHERE ZUID = ?", plan: ["SEARCH T USING INDEX U (ZUID=?)"])
        let search = QueryPlan(strategy: "s", workload: "search-title", sql: "SELECT * FROM T t0 WHERE t0.ZTITLE >= ?1 AND t0.ZTITLE < ?2",
                               plan: ["SCAN t0", "SCAN CONSTANT ROW"])
        XCTAssertEqual(search.unexpectedFullScans, ["SCAN t0"], "the constant row is no table")
        let sorted = QueryPlan(strategy: "s", workload: "fetch-page", sql: "SELECT * FROM T ORDER BY a LIMIT ?", plan: ["SCAN T", "USE TEMP B-TREE FOR ORDER BY"])
        XCTAssertEqual(QueryPlan.flagged([scan, whole, filtered, everything, count, update, delete, search, sorted]).map(\.workload),
                       ["lookup-attribute", "count-by-type", "fetch-polymorphic", "update", "search-title", "fetch-page"])
        let report = QueryPlan.report([scan, sorted])
        XCTAssertTrue(report.contains("!! full table scan lookup-attribute should not need: SCAN t0"), report)
        XCTAssertTrue(report.contains("!! fetch-page sorts instead of reading its order from an index"), report)
        XCTAssertTrue(report.hasPrefix("rules:\n  lookup-attribute  must not scan a whole table\n"), report)
    }
}
