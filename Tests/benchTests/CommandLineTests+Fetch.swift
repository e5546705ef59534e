import Foundation
import Reporting
import XCTest

/// `bench run --fetch`: an app's own fetches measured in every layout, named as given; a fetch's
/// mistake one line with a caret, exit 64, nothing written.
extension CommandLineTests {
    func testOwnFetchesRunInEveryLayout() throws {
        let run = try bench(["run", "--scale", "300", "--repetitions", "2", "--quiet", "--output", "f.csv",
                             "--fetch", "long-books = Book WHERE pageCount > 300 AND title BEGINSWITH[cd] %@ SORT BY title, uid LIMIT 20",
                             "--fetch", "Publication WHERE title CONTAINS[c] %@ OR publishDate > %@", "--fetch", "Book WHERE pageCount > 100 SORT BY pageCount LIMIT 7",
                             "--fetch", "tagged = COUNT Publication WHERE ANY tags.name BEGINSWITH %@", "--workloads", "count-all"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("f.csv")).rows
        // A sort with ties (pages by page count) is answered alike, its order among equals not
        // compared; its page (LIMIT 7) is checked as a page of the whole answer.
        XCTAssertEqual(rows.map { $0.fields["workload"]! }, ["count-all", "long-books", "fetch-2", "fetch-3", "tagged"].flatMap { Array(repeating: $0, count: 5) })
        XCTAssertTrue(rows.allSatisfy { Int($0.fields["rows"]!)! > 0 }, "every fetch finds objects")
        XCTAssertEqual(Set(rows.filter { $0.fields["workload"] == "fetch-3" }.map { $0.fields["rows"]! }), ["7"], "a page of an order with ties, in every layout")
        // An Xcode model's entity and attributes.
        let xcode = try bench(["run", "--model", Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path, "--scale", "300", "--repetitions", "2", "--quiet",
                               "--output", "x.csv", "--fetch", "Album WHERE trackCount >= %@ AND format != 'CD'",
                               "--fetch", "Item WHERE shelf.name BEGINSWITH %@ OR shelf.label.text == nil",
                               "--fetch", "Item PROPERTIES title WHERE shelf != nil SORT BY shelf.name localizedStandard DESC LIMIT 5 OFFSET 2"], in: folder)
        XCTAssertEqual(xcode.status, 0, xcode.stderr)
        let xcodeRows = try ResultsFile(url: folder.appendingPathComponent("x.csv")).rows
        XCTAssertEqual(xcodeRows.count, 15)
        XCTAssertTrue(xcodeRows.allSatisfy { Int($0.fields["rows"]!)! > 0 }, "a key path through two to-ones finds objects")
        // A page of attributes sorted through a to-one with ties, checked as a page of the whole answer in every layout.
        XCTAssertEqual(Set(xcodeRows.filter { $0.fields["workload"] == "fetch-3" }.map { $0.fields["rows"]! }), ["5"])
        // Their plans, in every layout, instead of the workloads'.
        let plans = try bench(["explain", "--scale", "300", "--output", "p.txt", "--fetch", "long = Book WHERE pageCount > 300 AND title CONTAINS[cd] %@"], in: folder)
        XCTAssertEqual(plans.status, 0, plans.stderr)
        for strategy in ["single-table", "table-per-entity", "enum-entity", "joined", "json-entity"] {
            XCTAssertTrue(plans.stdout.contains("\(strategy) · long\n"), "\(strategy): \(plans.stdout)")
        }
        XCTAssertTrue(plans.stdout.contains("NSCoreDataStringSearch(t0.ZTITLE, ?, 385, 0)"), plans.stdout)
        XCTAssertFalse(plans.stdout.contains("· fetch-page"), "only the fetch's plans")

        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let mistakes: [([String], String)] = [
            (["--fetch", "Book SORT BY pageCount LIMIT -5"], "error: --fetch: LIMIT takes a whole number from 0 to 1000000000"),
            (["--fetch", "Book WHERE pagecount > 300"], "error: --fetch: unknown key 'pagecount' of Book; its keys: uid, title, publishDate, createdate, updatedate, isbn, pageCount, tags, at column 12: Book WHERE ^pagecount > 300"),
            (["--fetch", "Book WHERE (title == 'a'"], "error: --fetch: a '(' that is not closed, at column 25: Book WHERE (title == 'a'^"),
            (["--fetch", "count-all = Book"], "error: --fetch: the name 'count-all' is taken (by a workload, or another fetch)"),
            (["--fetch", "a = Book", "--fetch", "a = Tag"], "error: --fetch: the name 'a' is taken"),
        ]
        for ((arguments, message), outcome) in zip(mistakes, try benchEach(mistakes.map { ["run", "--scale", "100", "--output", "bad.csv"] + $0.0 }, in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix(message), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), listed, "nothing written")
    }

    /// `--fetches`: a file of weighted fetches is the app's mix, measured like any fetch, its
    /// weights in the results, and the run ends with the answer and the mix's total; a mistake
    /// names the file and line, exit 64, nothing written.
    func testAFetchMixEndsTheRunWithItsTotal() throws {
        let mix = "# an app's fetches, how often it issues each\n120 recent = Publication WHERE publishDate > %@ SORT BY publishDate DESC, uid LIMIT 20\n\n"
            + "  0.25 Book WHERE pageCount > 300\nCOUNT Publication WHERE ANY tags.name == %@\n"
        try mix.write(to: folder.appendingPathComponent("mix.txt"), atomically: true, encoding: .utf8)
        let run = try bench(["run", "--scale", "300", "--repetitions", "2", "--output", "m.csv", "--fetches", "mix.txt", "--fetch", "other = Tag WHERE name != nil"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("m.csv")).rows
        XCTAssertEqual(Set(rows.map { $0.fields["workload"]! }), ["recent", "fetch-3", "fetch-4", "other"])
        let weights = Dictionary(rows.map { ($0.fields["workload"]!, $0.fields["mix_weight"]!) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(weights, ["recent": "120", "fetch-3": "0.25", "fetch-4": "1", "other": ""], "a --fetch beside the mix is not in it; a weight as given")
        XCTAssertEqual(Set(rows.filter { $0.fields["workload"] == "recent" }.map { $0.fields["mix_fetches"]! }), ["10"], "ten draws of its %@")
        XCTAssertEqual(Set(rows.filter { $0.fields["workload"] == "fetch-3" }.map { $0.fields["mix_fetches"]! }), ["1"])
        let answer = try XCTUnwrap(run.stdout.components(separatedBy: "\nthe answer:\n").last)
        XCTAssertTrue(answer.contains("- Your mix (3 fetches, each weighted by how often the app makes it) takes single-table "), run.stdout)
        XCTAssertTrue(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("."), "the answer is the last thing printed")
        XCTAssertTrue(try String(contentsOf: folder.appendingPathComponent("m.md"), encoding: .utf8).contains("- Your mix (3 fetches"))

        try "Book WHERE pageCount > 3\n0 Book\n".write(to: folder.appendingPathComponent("zero.txt"), atomically: true, encoding: .utf8)
        try "Book WHERE pageCount > 3\n\n3 Book WHERE pagecount > 3\n".write(to: folder.appendingPathComponent("typo.txt"), atomically: true, encoding: .utf8)
        try "# nothing\n\n".write(to: folder.appendingPathComponent("empty.txt"), atomically: true, encoding: .utf8)
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let mistakes: [([String], String)] = [
            (["--fetches", "missing.txt"], "error: --fetches: missing.txt is not a file"),
            (["--fetches", "zero.txt"], "error: --fetches zero.txt line 2: the weight '0' is not a number above 0 and at most 1e9"),
            (["--fetches", "typo.txt"], "error: --fetches typo.txt line 3: unknown key 'pagecount' of Book"),
            (["--fetches", "empty.txt"], "error: --fetches: empty.txt holds no fetch"),
            (["--fetches", "mix.txt", "--output", "mix.txt"], "error: --output"),
        ]
        for ((arguments, message), outcome) in zip(mistakes, try benchEach(mistakes.map { ["run", "--scale", "100"] + ($0.0.contains("--output") ? [] : ["--output", "bad.csv"]) + $0.0 }, in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix(message), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), listed, "nothing written")
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("mix.txt"), encoding: .utf8), mix, "the mix file is never written")
    }

    /// `--fetches-from`: the fetches of an app's Swift sources measured in every layout, each named
    /// from its file and line; those that cannot be read or run are listed with why, and a folder
    /// with none that runs is a usage error.
    func testFetchesReadFromSourcesRunInEveryLayout() throws {
        let sources = folder.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
            import CoreData
            import SwiftData

            final class ItemStore {
                func favorites(since date: Date) -> NSFetchRequest<Item> {
                    let request: NSFetchRequest<Item> = Item.fetchRequest()
                    request.predicate = NSPredicate(format: "addedAt > %@ AND isFavorite == YES", date as NSDate)
                    return request
                }
                func built(_ text: String) -> NSPredicate { NSPredicate(format: text) }
                func shelved(_ name: String) -> FetchDescriptor<Item> {
                    FetchDescriptor<Item>(predicate: #Predicate { $0.shelf?.name == name || $0.tags.contains { $0.name == name } })
                }
                func typo() -> Predicate<Item> { #Predicate { $0.shelf?.nam == "x" } }
            }
            """.write(to: sources.appendingPathComponent("ItemStore.swift"), atomically: true, encoding: .utf8)
        let model = Self.fixtures.appendingPathComponent("Library.xcdatamodeld").path
        let run = try bench(["run", "--model", model, "--scale", "300", "--repetitions", "2", "--output", "s.csv", "--fetches-from", "Sources"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let rows = try ResultsFile(url: folder.appendingPathComponent("s.csv")).rows
        XCTAssertEqual(Set(rows.map { $0.fields["workload"]! }), ["item-store-7", "item-store-12"])
        XCTAssertEqual(rows.count, 10)
        XCTAssertTrue(run.stderr.contains("--fetches-from Sources: 4 fetches found, 2 measured, 2 not:\n"), run.stderr)
        XCTAssertTrue(run.stderr.contains("  ItemStore.swift:10 (NSPredicate(format:)): not read: the format is built at run time (not one string literal)\n"), run.stderr)
        XCTAssertTrue(run.stderr.contains("  ItemStore.swift:14 (#Predicate): not run: unknown key 'nam' of Shelf"), run.stderr)

        try "let x = NSPredicate(format: text)\n".write(to: sources.appendingPathComponent("ItemStore.swift"), atomically: true, encoding: .utf8)
        let none = try bench(["run", "--model", model, "--scale", "100", "--output", "n.csv", "--fetches-from", "Sources"], in: folder)
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertTrue(none.stderr.contains("error: --fetches-from: none of the 1 fetches found in Sources runs on this model (ItemStore.swift:1 not read: the format is built at run time"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("n.csv").path))
    }
}
