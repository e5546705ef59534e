import Dataset
import Foundation
import XCTest

final class DatasetTests: XCTestCase {
    func testSplitMix64MatchesTheReferenceSequence() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var rng = SplitMix64(seed: 0)
        XCTAssertEqual(rng.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(rng.next(), 0x6E78_9E6A_A1B9_65F4)
        XCTAssertEqual(rng.next(), 0x06C4_5D18_8009_454F)
    }

    func testTheSameSeedGivesTheSameDataset() {
        let a = DatasetGenerator(DatasetConfiguration(seed: 9, scale: 500))
        let b = DatasetGenerator(DatasetConfiguration(seed: 9, scale: 500))
        let c = DatasetGenerator(DatasetConfiguration(seed: 10, scale: 500))
        let first = a.publications(0 ..< 500)
        XCTAssertEqual(first.map(\.item), b.publications(0 ..< 500).map(\.item))
        XCTAssertEqual(first.map(\.tagIndexes), b.publications(0 ..< 500).map(\.tagIndexes))
        XCTAssertNotEqual(first.map(\.item), c.publications(0 ..< 500).map(\.item))
    }

    func testRecordsDoNotDependOnBatchBoundariesOrScale() {
        let small = DatasetGenerator(DatasetConfiguration(seed: 3, scale: 250))
        let large = DatasetGenerator(DatasetConfiguration(seed: 3, scale: 10_000))
        let batched = Array(small.batches(of: 7).joined())
        XCTAssertEqual(batched.count, 250)
        XCTAssertEqual(batched.map(\.item), large.publications(0 ..< 250).map(\.item))
        XCTAssertEqual(small.publication(at: 123).item, large.publication(at: 123).item)
    }

    func testMixTagsDatesAndIdentifiersHaveTheDocumentedShape() {
        let scale = 20_000
        let generator = DatasetGenerator(DatasetConfiguration(seed: 1, scale: scale))
        let census = generator.census()
        XCTAssertEqual(census.total, scale)
        for (kind, share) in zip(EntityKind.allCases, DatasetConfiguration.defaultMix) {
            XCTAssertEqual(Double(census.countsByKind[kind.rawValue]) / Double(scale), share, accuracy: 0.015, "\(kind)")
        }
        var tagUses = Array(repeating: 0, count: 200)
        var uids = Set<UUID>()
        var isbns = Set<String>()
        for publication in generator.publications(0 ..< scale) {
            let tags = publication.tagIndexes
            XCTAssertTrue((0 ... 5).contains(tags.count))
            XCTAssertEqual(Set(tags).count, tags.count, "tags of one publication are distinct")
            for tag in tags { tagUses[tag] += 1 }
            let item = publication.item
            XCTAssertTrue(DatasetGenerator.publishDateRange.contains(item.publishDate))
            XCTAssertGreaterThanOrEqual(item.createdate, item.publishDate)
            XCTAssertGreaterThanOrEqual(item.updatedate, item.createdate)
            XCTAssertFalse(item.title.isEmpty)
            uids.insert(item.uid)
            if case let .book(isbn, pageCount) = item.content {
                XCTAssertTrue(isbns.insert(isbn).inserted, "isbn \(isbn) repeats")
                XCTAssertTrue(Self.isValidISBN13(isbn), isbn)
                XCTAssertTrue((48 ... 1_200).contains(pageCount))
            }
        }
        XCTAssertEqual(uids.count, scale, "uids are unique")
        // Zipf-like popularity: the first tag is by far the most used, the last among the least.
        XCTAssertEqual(tagUses.firstIndex(of: tagUses.max()!), 0)
        XCTAssertGreaterThan(tagUses[0], 20 * tagUses[199])
        XCTAssertEqual(Set(generator.tags.map(\.name)).count, 200, "tag names are unique")
        XCTAssertEqual(census.tagLinks, tagUses.reduce(0, +))
    }

    static func isValidISBN13(_ isbn: String) -> Bool {
        let digits = isbn.compactMap(\.wholeNumberValue)
        guard digits.count == 13, isbn.count == 13 else { return false }
        return digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 1 : 3) } % 10 == 0
    }

    func testDigestsSeeOrderOnlyWhenOrdered() {
        let items = DatasetGenerator(DatasetConfiguration(seed: 2, scale: 10)).publications(0 ..< 10).map(\.item)
        XCTAssertNotEqual(AnswerDigest(.ordered, of: items), AnswerDigest(.ordered, of: items.reversed()))
        XCTAssertEqual(AnswerDigest(.unordered, of: items), AnswerDigest(.unordered, of: items.reversed()))
        XCTAssertNotEqual(AnswerDigest(.unordered, of: items), AnswerDigest(.unordered, of: items.dropLast()))
        var changed = items
        changed[4].title += "!"
        XCTAssertNotEqual(AnswerDigest(.unordered, of: items), AnswerDigest(.unordered, of: changed))
    }

    func testClassAndEnumFormsDigestAlike() {
        let items = DatasetGenerator(DatasetConfiguration(seed: 4, scale: 50)).publications(0 ..< 50).map(\.item)
        let objects = items.map(Publication.make)
        XCTAssertEqual(AnswerDigest(.ordered, of: items), AnswerDigest(.ordered, of: objects))
        XCTAssertEqual(objects.map(\.item), items)
        XCTAssertTrue(objects.contains { $0 is Book } && objects.contains { $0 is BlogPost })
    }
}
