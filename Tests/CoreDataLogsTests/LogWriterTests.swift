import FetchRequests
import Foundation
import Generation
import Models
import SQLite
import Strategies
import TestSupport
import Workloads
import XCTest

@testable import CoreDataLogs

final class LogWriterTests: XCTestCase {
    func testBoundValuesAreReadFromTheExpandedStatementAsCoreDataPrintsThem() {
        let sql = "SELECT t0.Z_PK FROM ZA t0 WHERE t0.ZNAME = ? AND t0.ZNOTE <> '?' AND t0.ZN IN (?, ?, ?) AND t0.ZB = ? AND t0.ZC = ?"
        let expanded = "SELECT t0.Z_PK FROM ZA t0 WHERE t0.ZNAME = 'it''s' AND t0.ZNOTE <> '?' AND t0.ZN IN (-4, 2.5, NULL) AND t0.ZB = x'0A0b' AND t0.ZC = 'a\nb'"
        XCTAssertEqual(LogWriter.boundValues(sql, expanded), ["\"it's\"", "-4", "2.5", "nil", "<0a0b>", "\"a\\nb\""])
        XCTAssertNil(LogWriter.boundValues(sql, "SELECT 1"), "texts that do not line up give no values")
        XCTAssertEqual(LogWriter.boundValues("SELECT 1", "SELECT 1"), [])
    }

    /// A prefetch's statements and total inside its fetch's, a count's number, a key list's
    /// binding, a fault's annotation: each read back to its own statement.
    func testAnnotationsAreWrittenInCoreDataOrderAndReadBack() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 200))
        let writer = LogWriter(model: model, level: 1, storeID: "S")
        let root = model.mainRoot
        var text = writer.lines(FetchRequest(entity: root, limit: 5, mode: .prefetching(["tags"])), [
            .init(sql: "SELECT 0, t0.Z_PK FROM ZPUBLICATION t0 LIMIT ?", rows: 5, nanoseconds: 300_000),
            .init(sql: "CREATE TEMP TABLE IF NOT EXISTS _Z_intarray0 (value INTEGER)"), .init(sql: "DELETE FROM _Z_intarray0"),
            .init(sql: "INSERT INTO _Z_intarray0 (value) VALUES (?)"),
            .init(sql: "SELECT 0, t0.Z_PK FROM ZTAG t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)", rows: 9, nanoseconds: 2_000_000),
        ])
        text += writer.lines(FetchRequest(entity: root), [.init(sql: "SELECT COUNT(*) FROM ZPUBLICATION t0", rows: 1, number: 12, nanoseconds: 100_000)])
        text += writer.lines(.fault(ObjectID(entity: root, key: 4)), [.init(sql: "SELECT 0, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.Z_PK = ?", rows: 1)])
        XCTAssertEqual(text, """
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPUBLICATION t0 LIMIT ?
            CoreData: annotation: sql connection fetch time: 0.0003s
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)
            CoreData: annotation: sql connection fetch time: 0.0020s
            CoreData: annotation: total fetch execution time: 0.0020s for 9 rows.
            CoreData: annotation: Prefetching with key 'tags'.  Got 9 rows.
            CoreData: annotation: total fetch execution time: 0.0003s for 5 rows.
            CoreData: sql: SELECT COUNT(*) FROM ZPUBLICATION t0
            CoreData: annotation: total count request execution time: 0.0001s for count of 12.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.Z_PK = ?
            CoreData: annotation: sql connection fetch time: 0.0000s
            CoreData: annotation: total fetch execution time: 0.0000s for 1 rows.
            CoreData: annotation: fault fulfilled from database for : 0x4 <x-coredata://S/Publication/p4>

            """)
        let read = try Self.statements(text)
        XCTAssertEqual(read.map(\.rows), [5, 9, 12, 1])
        XCTAssertEqual(read.map(\.prefetchKey), [nil, "tags", nil, nil])
        XCTAssertEqual(read.map(\.faultEntity), [nil, nil, nil, "Publication"])
    }

    /// `bench run --log-sql`'s round trip: every read case of every workload, on every preset and
    /// on random models (one; 20 with INHERITANCE_BENCH_LOG_ROUND_TRIP=full), logged at level 2 as the run logs it, reads back statement for statement
    /// (each understood, its rows and bound values as sent), and as fetches whose single-table
    /// statements are the ones logged and which, bound with the values logged, answer as logged.
    func testEveryReadWorkloadsLogReadsBackAsItsRequests() throws {
        var (fetches, answered, ranges, placeholders, placedFetches, prefetches) = (0, 0, 0, 0, 0, 0)
        let descriptions = ModelPresets.all.map { $0.scaled(to: 300) } + (0 ..< (LogRoundTripTests.randomModels > 20 ? 20 : 1)).map { RandomModel.make(seed: UInt64(40 + $0), maximumObjects: 300) }
        for description in descriptions {
            let model = try Model(description)
            let reads = Workloads.all.filter { $0.kind == .read }
            var logged: [LoggedCase] = []
            var plan = RunPlan(strategies: [SingleTable.self], workloads: reads, seed: 3, batchSize: 100, repetitions: 1)
            plan.blocks = 1
            let runner = Runner(plan: plan, model: model)
            runner.statementLog = { logged.append($0) }
            runner.logsValues = true
            _ = try runner.run()
            XCTAssertFalse(logged.isEmpty, model.name)
            let writer = LogWriter(model: model, level: 2, storeID: "S")
            let sent = logged.flatMap { $0.requests.flatMap { $0.statements.filter(LogWriter.isLogged) } }
            let text = logged.flatMap(\.requests).map { writer.lines($0.request, $0.statements) }.joined()
            let read = try Self.statements(text)
            XCTAssertEqual(read.map(\.sql), sent.map(\.sql), model.name)
            for (statement, entry) in zip(read, sent) {
                XCTAssertNoThrow(try statement.kind().get(), "\(model.name) line \(statement.line)")
                XCTAssertEqual(statement.rows, entry.sql.hasPrefix("SELECT COUNT(") ? entry.number.map(Int.init) : entry.rows, "\(model.name): \(entry.sql)")
                XCTAssertEqual(statement.values.count, entry.sql.count { $0 == "?" }, "\(model.name): \(entry.sql)")
            }
            // The reads as fetches: each one's statement is the one logged, and one of no value answers as logged.
            let schema = LogSchema(model: model)
            var reading = LogFetches(schema: schema)
            for statement in read { if case let .success(kind) = statement.kind() { reading.add(statement, kind: kind) } }
            reading.finish()
            let byLine = Dictionary(uniqueKeysWithValues: read.map { ($0.line, $0) })
            let store = try Self.store(model, seed: 3), generator = ObjectGenerator(model, seed: 3)
            for fetch in reading.fetches {
                let request = try XCTUnwrap(fetch.spec.requests(generator, seed: 1, draws: 1).first)
                let query = fetch.spec.counts ? try store.layout.countQuery(request) : try store.layout.readQuery(request)
                let first = try XCTUnwrap(byLine[fetch.line])
                let sql = try XCTUnwrap(query.statements.first?.sql)
                fetches += 1
                if fetch.spec.prefetch != nil, let start = read.firstIndex(where: { $0.line == fetch.line }) {
                    // A fetch with its prefetches: every statement of it is the one logged.
                    XCTAssertEqual(query.statements.map(\.sql), read[start ..< start + fetch.statements / fetch.count].map(\.sql), "\(model.name) line \(fetch.line): \(fetch.text)")
                    prefetches += 1
                }
                if sql != first.sql {
                    // The workloads' half-open range (`.range`, no fetch format of its own) is written in parentheses; it reads back as two comparisons.
                    XCTAssertEqual(sql.filter { $0 != "(" && $0 != ")" }, first.sql.filter { $0 != "(" && $0 != ")" }, "\(model.name) line \(fetch.line): \(fetch.text)")
                    XCTAssertTrue(first.sql.contains(" < ?)"), "\(model.name) line \(fetch.line): \(fetch.text)")
                    ranges += 1
                }
                // Replayed with the values logged: each occurrence kept is the request the log shows.
                if fetch.spec.hasPlaceholders {
                    let logged = fetch.logged.map { ($0.sql, $0.values.compactMap(\.value)) }
                    let placed = LoggedValues.requests(fetch.spec, logged, generator)
                    placedFetches += placed.isEmpty ? 0 : 1
                    placeholders += 1
                    for (request, (sql, values)) in zip(placed, logged) {
                        let again = fetch.spec.counts ? try store.layout.countQuery(request) : try store.layout.readQuery(request)
                        XCTAssertEqual(SQLText.squeezed(again.statements.first?.sql ?? ""), sql)
                        XCTAssertEqual(again.statements.first?.values, values)
                    }
                }
                // The same answer: the fetch read back, its statement bound with the values logged, returns the rows logged.
                guard fetch.spec.batch == nil, query.program == nil, let rows = first.rows, case let values = first.values.compactMap({ $0?.value }), values.count == first.values.count else { continue }
                let again = PreparedQuery(sql: sql, values: values, decoder: query.decoder)
                XCTAssertEqual(fetch.spec.counts ? try store.database.number(again) : try store.database.objects(again).count, rows, "\(model.name) line \(fetch.line): \(fetch.text)")
                answered += 1
            }
        }
        print("log-sql round trip: \(fetches) fetches read back, \(answered) answered as logged, \(ranges) half-open ranges read as two comparisons; \(placedFetches) of \(placeholders) with a %@ replayed with their logged values")
        XCTAssertGreaterThan(answered, fetches / 2, "of \(fetches) fetches")
        XCTAssertGreaterThan(placedFetches, placeholders / 2, "fetches replayed with their logged values")
        XCTAssertGreaterThan(prefetches, 0, "the prefetch workload's fetch reads back with its prefetches")
    }

    /// The statements of a log's text, read as `bench replay` reads a file.
    static func statements(_ text: String) throws -> [LoggedStatement] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("log-writer-\(UUID().uuidString).log")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var reader = LogReader(file: try LogFile(path: url.path))
        var statements: [LoggedStatement] = []
        try reader.read { statements.append($0) }
        return statements
    }

    /// The model's objects of `seed` in a single-table store in memory.
    static func store(_ model: Model, seed: UInt64) throws -> LayoutStore {
        let store = LayoutStore(try SingleTable(model: model), database: try Database(path: ":memory:"))
        try store.createSchema()
        for batch in ObjectGenerator(model, seed: seed).batches(of: 100) { try store.insert(batch) }
        return store
    }
}
