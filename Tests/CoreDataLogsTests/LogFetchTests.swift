import FetchRequests
import Foundation
import Generation
import Models
import Strategies
import XCTest

@testable import CoreDataLogs

/// Core Data's read statements read back as the fetches an app made: every fetch the suite's
/// single-table layout sends (Core Data's own SQL) reads back as a fetch whose statement is the
/// same, byte for byte.
final class LogFetchTests: XCTestCase {
    private let model = try! Model(ModelPresets.publications.scaled(to: 400))

    /// The statement single-table sends for a fetch of the fetch format, and its values (drawn:
    /// the statement holds a `?` for each).
    private func query(_ text: String, _ layout: SingleTable) throws -> PreparedQuery {
        let spec = try FetchSpec.parse(text, model: model)
        let request = try XCTUnwrap(spec.requests(ObjectGenerator(model, seed: 3), seed: 3, draws: 1).first)
        if spec.counts { return try layout.countQuery(request) }
        if case let .partial(names) = request.mode { return try layout.partialQuery(request, properties: names) }
        if case let .dictionary(fetch) = request.mode { return try layout.dictionaryQuery(request, fetch) }
        return try layout.fetchQuery(request)
    }

    private func statement(_ text: String, _ layout: SingleTable) throws -> String { try query(text, layout).sql }

    private func readBack(_ sql: String, _ schema: LogSchema, values: [Value] = []) -> Result<LogFetch.Reading, NotUnderstood> {
        LogFetch.readBack(sql, schema, values: values)
    }

    func testEveryFetchSingleTableSendsReadsBackAsAFetchOfTheSameStatement() throws {
        let layout = try SingleTable(model: model), schema = LogSchema(model: model)
        let fetches = [
            "Publication", "Book WHERE isbn == %@", "COUNT Book WHERE pageCount > %@ OR title == nil", "COUNT Publication",
            "Publication WHERE title CONTAINS[cd] %@ SORT BY publishDate DESC, uid", "ONLY Publication WHERE publishDate >= %@ AND publishDate < %@",
            "AcademicPaper WHERE paperType IN {%@, %@}", "Publication PROPERTIES title, publishDate WHERE publishDate BETWEEN {%@, %@} SORT BY uid LIMIT 10 OFFSET 5",
            "Tag WHERE name BEGINSWITH %@ SORT BY name", "Publication WHERE title ==[c] %@", "Publication WHERE NOT (title ENDSWITH[cd] %@) AND updatedate != nil",
            "IDS Publication SORT BY publishDate DESC, uid", "Book WHERE title LIKE[c] %@ OR pageCount <= 100 SORT BY title localizedStandard DESC",
            "IDS Book WHERE pageCount > %@", "Publication WHERE createdate < updatedate", "COUNT Publication WHERE self == %@", "Book WHERE title MATCHES %@",
            "COUNT ONLY Publication", "Book WHERE pageCount BETWEEN {100, 200} AND NOT (isbn IN {%@, %@, %@})", "Publication WHERE TRUEPREDICATE", "Tag WHERE FALSEPREDICATE",
            "Publication WHERE tags CONTAINS %@", "COUNT Publication WHERE NOT (tags CONTAINS %@) AND title != nil", "Publication WHERE tags.@count > %@",
            "Tag WHERE publications.@count == 0 SORT BY name", "Book WHERE (pageCount & %@) == %@ OR (pageCount & 4) != 0", "Publication WHERE self IN {%@, %@}",
            "Publication WHERE entity == %@", "Publication WHERE title != nil AND entity != %@", "COUNT Publication WHERE entity IN {%@, %@} OR title == nil",
            "Book WHERE entity == %@ AND pageCount > %@", "Publication WHERE NOT (title == %@ AND updatedate != nil) OR entity != %@",
        ]
        for text in fetches {
            let query = try query(text, layout), sql = query.sql
            switch readBack(sql, schema, values: query.values) {
            case let .success(.fetch(read)):
                XCTAssertEqual(try statement(read, layout), sql, "\(text) read back as \(read)")
            case let .success(.ids(body, _)):
                XCTAssertEqual(try statement("IDS " + body, layout), sql, "\(text) read back as IDS \(body)")
            case let other:
                XCTFail("\(text): \(sql) read as \(other)")
            }
        }
    }

    /// A fetch of dictionaries reads back as the fetch format's: distinct attributes, aggregates
    /// alone or over groups, with a predicate, a sort and a page; a HAVING with a number written
    /// in the statement; one compared with a bound value named as not replayed.
    func testAFetchOfDictionariesReadsBackAsTheSameFetch() throws {
        let layout = try SingleTable(model: model), schema = LogSchema(model: model)
        let fetches = [
            "Publication PROPERTIES DISTINCT title", "Book PROPERTIES DISTINCT title, pageCount WHERE pageCount > %@ SORT BY title, pageCount LIMIT 5",
            "Book PROPERTIES min:(title), average:(pageCount), count:(isbn)", "Publication PROPERTIES title, count:(uid) AS n, max:(publishDate) WHERE updatedate != nil GROUP BY title",
            "ONLY Book PROPERTIES sum:(pageCount) AS pages", "AcademicPaper PROPERTIES paperType, count:(title) GROUP BY paperType SORT BY paperType DESC",
            "Book PROPERTIES count:(isbn)",
        ]
        for text in fetches {
            let query = try query(text, layout), sql = query.sql
            switch readBack(sql, schema, values: query.values) {
            case let .success(.fetch(read)): XCTAssertEqual(try statement(read, layout), sql, "\(text) read back as \(read)")
            case let other: XCTFail("\(text): \(sql) read as \(other)")
            }
        }
        // A BETWEEN under NOT without parentheses of its own is not a range of BEGINSWITH[n].
        XCTAssertEqual(try readBack("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE NOT (t0.ZPUBLISHDATE BETWEEN ? AND ?)", schema).get(),
                       .fetch("COUNT Publication WHERE NOT ((publishDate BETWEEN {%@, %@}))"))
        let having = try statement("Publication PROPERTIES title, count:(uid) AS n GROUP BY title HAVING $n > 2", layout)
        XCTAssertEqual(readBack(having, schema, values: [.integer(2)]), .failure(NotUnderstood("a HAVING compared with a bound value is not replayed yet")))
        let written = having.replacingOccurrences(of: "> ?", with: "> 2 AND (__var0 < 9 OR NOT __var0 = 5)")
        XCTAssertEqual(try readBack(written, schema).get(), .fetch("Publication PROPERTIES title, count:(uid) AS var0 GROUP BY title HAVING $var0 > 2 AND ($var0 < 9 OR NOT $var0 = 5)"))
    }

    func testAFaultABatchAndAToManyFaultReadBackAsCoreDataMeansThem() throws {
        let layout = try SingleTable(model: model), schema = LogSchema(model: model)
        let key = ObjectID(entity: 3, key: 7)
        let fault = try layout.fetchQuery(FetchRequest.fault(key)).sql
        XCTAssertEqual(try readBack(fault, schema).get(), .fetch("Publication WHERE self == %@"))
        let batch = try layout.fetchQuery(FetchRequest(entity: 0, predicate: .keyInList, limit: 20))
        XCTAssertEqual(try readBack(batch.sql, schema, values: batch.values).get(), .batch(entity: 0, limit: 20))
        // Through a to-many: a comparison of any of the objects it reaches, each object once.
        for text in ["Publication WHERE ANY tags.name == %@", "COUNT Publication WHERE ANY tags.name BEGINSWITH %@ AND title != nil", "Tag WHERE ANY publications.title == %@ SORT BY name"] {
            let query = try query(text, layout)
            XCTAssertEqual(try readBack(query.sql, schema, values: query.values).get(), .fetch(text), query.sql)
        }
        let joined = LoggedStatement(line: 1, sql: "SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS = ?")
        XCTAssertEqual(try LogFetch.read(joined, kind: .toManyFault, schema: schema).get(), .fetch("IDS Tag WHERE publications CONTAINS %@"))
    }

    func testWhatIsNotReadYetSaysWhy() {
        let schema = LogSchema(model: model)
        let cases: [(sql: String, kind: StatementKind, says: String)] = [
            ("SELECT DISTINCT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1PUBLICATIONS", .fetch, "a join of a form not read yet"),
            ("SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1PUBLICATIONS WHERE t1.Z_6TAGS = ?", .idPass, "a join of a form not read yet"),
            ("SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 JOIN Z_1TAGS t1 ON t0.Z_PK = t1.Z_1PUBLICATIONS JOIN ZTAG t2 ON t1.Z_6TAGS = t2.Z_PK WHERE t2.ZNAME = ?", .idPass,
             "a join through a to-many relationship without DISTINCT is not read"),
            ("SELECT DISTINCT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.ZTITLE = ?", .idPass, "a SELECT DISTINCT of objects read without a to-many join is not read"),
            ("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?", .count, "SQLDebug 2"),
            ("SELECT t0.ZTITLE, COUNT(t0.Z_PK) FROM ZPUBLICATION t0 GROUP BY t0.ZTITLE", .dictionaryFetch, "an aggregate of the objects' keys"),
            ("SELECT t0.ZTITLE FROM ZPUBLICATION t0", .dictionaryFetch, "a fetch of values other than distinct attributes, aggregates and groups"),
            ("INSERT INTO ZTAG(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)", .insert, "a save's statements"),
            ("SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.ZTITLE = ? LIMIT ?", .idPass, "a bound LIMIT whose value the log leaves out"),
            ("SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.ZNOSUCH = ?", .idPass, "column ZNOSUCH"),
            ("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE NOT (t0.ZTITLE >= ? AND t0.ZTITLE < ?)", .count, "an AND under NOT without parentheses of its own"),
            ("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.ZTITLE = ? OR t0.Z_ENT > ?", .count, "entity number by its order"),
        ]
        for item in cases {
            guard case let .failure(reason) = LogFetch.read(LoggedStatement(line: 1, sql: item.sql), kind: item.kind, schema: schema) else {
                XCTFail("\(item.sql) was read")
                continue
            }
            XCTAssertTrue(reason.description.contains(item.says), "\(item.sql): \(reason)")
        }
    }

    func testAnIDPassAndItsBatchesAreOneBatchedFetch() throws {
        let schema = LogSchema(model: model), layout = try SingleTable(model: model)
        var fetches = LogFetches(schema: schema)
        let idPass = try statement("IDS Publication SORT BY publishDate DESC, uid", layout)
        let batch = try layout.fetchQuery(FetchRequest(entity: 0, predicate: .keyInList, limit: 20)).sql
        // A level-1 log: the batches' LIMIT is the rows they returned.
        fetches.add(LoggedStatement(line: 3, sql: idPass), kind: .idPass)
        for line in [5, 9] {
            var statement = LoggedStatement(line: line, sql: batch)
            statement.note(.fetchTotal(seconds: 0.001, rows: 20))
            fetches.add(statement, kind: .batch)
        }
        var last = LoggedStatement(line: 12, sql: batch)
        last.note(.fetchTotal(seconds: 0.001, rows: 20))
        fetches.add(last, kind: .batch)
        fetches.add(LoggedStatement(line: 14, sql: idPass), kind: .idPass)
        fetches.finish()
        XCTAssertEqual(fetches.fetches.map(\.text), ["Publication SORT BY publishDate DESC, uid BATCH 20 READ 60", "IDS Publication SORT BY publishDate DESC, uid"])
        XCTAssertEqual(fetches.fetches.map(\.statements), [4, 1])
        XCTAssertEqual(fetches.fetches.map(\.timed), [3, 0])
        var orphan = LogFetches(schema: schema)
        orphan.add(last, kind: .batch)
        XCTAssertEqual(orphan.notReplayed, ["a batch with no ID pass before it": LineList([12])])
    }

    /// A fetch and the prefetches Core Data runs right after it are one fetch with PREFETCH, timed
    /// by the fetch's own total (which holds theirs); a prefetch with no fetch before it, or one
    /// the fetch format does not take, is named, the fetch kept.
    func testAFetchAndItsPrefetchesAreOneFetch() throws {
        let schema = LogSchema(model: model), layout = try SingleTable(model: model)
        let spec = try FetchSpec.parse("Publication SORT BY publishDate DESC, uid LIMIT 50 PREFETCH tags", model: model)
        let program = try layout.readQuery(try XCTUnwrap(spec.requests(ObjectGenerator(model, seed: 3), seed: 3, draws: 1).first)).statements.map(\.sql)
        XCTAssertEqual(program.count, 2)
        func logged(_ line: Int, _ sql: String, key: String? = nil, total: Double? = nil) -> LoggedStatement {
            var statement = LoggedStatement(line: line, sql: sql)
            // Level 2: the page's LIMIT bound.
            if sql.hasSuffix("LIMIT ?") { statement.note(.bind(index: 0, value: .integer(50))) }
            if let key { statement.note(.prefetch(key: key, rows: 9)) }
            if let total { statement.note(.fetchTotal(seconds: total, rows: 50)) }
            return statement
        }
        var fetches = LogFetches(schema: schema)
        for line in [1, 10] {
            fetches.add(logged(line, program[0], total: 0.005), kind: .fetch)
            fetches.add(logged(line + 4, program[1], key: "tags", total: 0.002), kind: .prefetch)
        }
        fetches.add(logged(20, program[1], key: "tags"), kind: .prefetch)
        fetches.add(logged(24, program[0]), kind: .fetch)
        fetches.add(logged(28, program[0]), kind: .fetch)
        fetches.add(logged(30, program[1], key: "title"), kind: .prefetch)
        fetches.finish()
        XCTAssertEqual(fetches.fetches.map(\.text), ["Publication SORT BY publishDate DESC, uid LIMIT 50 PREFETCH tags", "Publication SORT BY publishDate DESC, uid LIMIT 50"], "\(fetches.notReplayed)")
        XCTAssertEqual(fetches.fetches.map(\.count), [2, 2])
        guard fetches.fetches.count == 2 else { return }
        XCTAssertEqual(fetches.fetches[0].loggedSeconds, 0.01, accuracy: 1e-9, "the fetch's totals alone: each holds its prefetch's")
        XCTAssertEqual(fetches.fetches[0].timed, 4)
        XCTAssertEqual(fetches.notReplayed["a second prefetch of one relationship by one fetch"], LineList([20]))
        XCTAssertEqual(fetches.notReplayed.count, 2)
        XCTAssertTrue(fetches.notReplayed.keys.contains { $0.contains("'title' is not a relationship of Publication") }, "\(fetches.notReplayed.keys)")
        var orphan = LogFetches(schema: schema)
        orphan.add(logged(3, program[1], key: "tags"), kind: .prefetch)
        XCTAssertEqual(orphan.notReplayed, ["a prefetch with no fetch right before it": LineList([3])])
    }

    func testWhatCoreDataDoesNotWriteIsNotReadAndNoLiteralIsNamed() {
        let schema = LogSchema(model: model)
        let list = schema.schema.selectList(0).sql
        let cases: [(sql: String, says: String)] = [
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, 1, 0)", "flags Core Data does not write"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, 3, 0)", "flags Core Data does not write"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, -1, 0)", "flags Core Data does not write"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE NSCoreDataLike(t0.ZTITLE, ?, 5)", "flags Core Data does not write"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE NSCoreDataStringSearch(t0.ZTITLE, ?, 385)", "arguments of a form not read"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.ZTITLE = NULL", "a comparison with NULL"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.ZTITLE IN (?, NULL)", "a comparison with NULL"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = -9223372036854775808", "an entity number that is not"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.Z_ENT >= 2 AND t0.Z_ENT <= 3", "the object's entity"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE " + String(repeating: "NOT (", count: 5000) + "t0.ZTITLE = ?" + String(repeating: ")", count: 5000), "nested deeper than 100"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.ZTITLE = \"Quokka\"", "a quoted name"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.ZTITLE = ? ORDER Quokka", "a word that is not SQL's"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.ZQUOKKA = ?", "column ZQUOKKA"),
            ("SELECT \(list) FROM ZPUBLICATION t0 WHERE t0.quokka = ?", "column named is not one"),
        ]
        for item in cases {
            let statement = LoggedStatement(line: 1, sql: item.sql)
            guard case let .failure(reason) = LogFetch.read(statement, kind: .fetch, schema: schema) else {
                XCTFail("\(item.sql.prefix(120)) was read")
                continue
            }
            XCTAssertTrue(reason.description.contains(item.says), "\(item.sql.prefix(120)): \(reason)")
            XCTAssertFalse(reason.description.uppercased().contains("QUOKKA") && !item.says.contains("ZQUOKKA"), "a literal or an app's word named: \(reason)")
        }
        let fault = "SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS = ?"
        for sql in [fault + " AND t0.ZNAME = ?", fault + " LIMIT 3", fault.replacingOccurrences(of: "JOIN ZTAG", with: "JOIN ZPUBLICATION"),
                    fault.replacingOccurrences(of: "SELECT 0, t0.Z_PK", with: "SELECT 0, t0.Z_PK, t0.ZNAME")] {
            guard case .failure = LogFetch.read(LoggedStatement(line: 1, sql: sql), kind: .toManyFault, schema: schema) else { XCTFail("\(sql) was read"); continue }
        }
    }

    func testAMiddleEntitysRangeIsReadOnlyWithItsOwnBounds() throws {
        // shop: Product > Physical (> Book, Furniture), Digital; Physical's fetch writes Z_ENT >= ? AND Z_ENT <= ?.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/shop.json")
        let shop = try Model(ModelDescription.load(path: fixture.path)), schema = LogSchema(model: shop), layout = try SingleTable(model: shop)
        let physical = try XCTUnwrap(shop.entities.firstIndex { $0.name == "Physical" })
        let query = try layout.fetchQuery(FetchRequest(entity: physical))
        let bounds = try XCTUnwrap(schema.schema.entityFilter(physical, includesSubentities: true)?.values)
        XCTAssertEqual(try LogFetch.readBack(query.sql, schema, values: bounds.map { .integer($0) }).get(), .fetch("Physical"))
        XCTAssertEqual(try LogFetch.readBack(query.sql, schema).get(), .fetch("Physical"), "level 1: the entity whose select list it sends")
        guard case let .failure(reason) = LogFetch.readBack(query.sql, schema, values: [.integer(bounds[0]), .integer(bounds[1] + 1)]) else { return XCTFail("another version's range was read") }
        XCTAssertTrue(reason.description.contains("not an entity's range"), "\(reason)")
    }
}
