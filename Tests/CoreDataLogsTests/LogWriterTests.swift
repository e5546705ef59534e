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
    /// Level 2: each value as Core Data prints it, read back as the value bound, a real to its
    /// last digit; bytes as Core Data prints them (a form of their own, not replayed).
    func testLevelTwoWritesEachValueAsItIsBound() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 200))
        let sql = "SELECT 0, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.ZTITLE = ? AND t0.ZPAGECOUNT > ? AND t0.ZPUBLISHDATE < ? AND t0.ZUID IS ? AND t0.ZDOI = ?"
        let values: [Value] = [.text("it's \"x\""), .integer(-4), .real(0.30000000000000004), .null, .blob([0x0A, 0xFF])]
        let text = LogWriter(model: model, level: 2, storeID: "S").lines(FetchRequest(entity: 0), [.init(sql: sql, rows: 0)], values: [sql: values])
        XCTAssertTrue(text.contains("CoreData: details: SQLite bind[4] = <0aff>\n"), text)
        let read = try XCTUnwrap(try Self.statements(text).first)
        XCTAssertEqual(read.values.map { $0?.value }, [.text("it's \"x\""), .integer(-4), .real(0.30000000000000004), .null, nil])
        XCTAssertFalse(LogWriter(model: model, level: 1, storeID: "S").lines(FetchRequest(entity: 0), [.init(sql: sql)], values: [sql: values]).contains("details"), "level 1 holds no value")
        XCTAssertEqual(LogWriter.printed(.text("a\nb")), "\"a\\nb\"", "a line break stays on the value's line")
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
        var (fetches, answered, placeholders, placedFetches, prefetches) = (0, 0, 0, 0, 0)
        let descriptions = ModelPresets.all.map { $0.scaled(to: 300) } + (0 ..< (LogRoundTripTests.randomModels > 20 ? 20 : 1)).map { RandomModel.make(seed: UInt64(40 + $0), maximumObjects: 300) }
        for description in descriptions {
            let model = try Model(description)
            let reads = Workloads.all.filter { $0.kind == .read }
            var logged: [LoggedCase] = []
            var plan = RunPlan(strategies: [SingleTable.self], workloads: reads, seed: 3, batchSize: 100, repetitions: 1)
            plan.blocks = 1
            let runner = Runner(plan: plan, model: model)
            runner.statementLog = { logged.append($0) }
            _ = try runner.run()
            XCTAssertFalse(logged.isEmpty, model.name)
            let writer = LogWriter(model: model, level: 2, storeID: "S")
            let sent = logged.flatMap { $0.requests.flatMap { request in request.statements.filter(LogWriter.isLogged).map { (entry: $0, values: request.values[$0.sql]) } } }
            let text = logged.flatMap(\.requests).map { writer.lines($0.request, $0.statements, values: $0.values) }.joined()
            let read = try Self.statements(text)
            XCTAssertEqual(read.map(\.sql), sent.map(\.entry.sql), model.name)
            for (statement, (entry, values)) in zip(read, sent) {
                XCTAssertNoThrow(try statement.kind().get(), "\(model.name) line \(statement.line)")
                XCTAssertEqual(statement.rows, entry.sql.hasPrefix("SELECT COUNT(") ? entry.number.map(Int.init) : entry.rows, "\(model.name): \(entry.sql)")
                // Each value as bound (bytes, printed in a form of their own, aside).
                XCTAssertEqual(statement.values.map { $0?.value }, values?.map { if case .blob = $0 { nil } else { $0 } }, "\(model.name): \(entry.sql)")
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
                let query = try store.layout.query(request, counts: fetch.spec.counts)
                let first = try XCTUnwrap(byLine[fetch.line])
                let sql = try XCTUnwrap(query.statements.first?.sql)
                fetches += 1
                if fetch.spec.prefetch != nil, let start = read.firstIndex(where: { $0.line == fetch.line }) {
                    // A fetch with its prefetches: every statement of it is the one logged.
                    XCTAssertEqual(query.statements.map(\.sql), read[start ..< start + fetch.statements / fetch.count].map(\.sql), "\(model.name) line \(fetch.line): \(fetch.text)")
                    prefetches += 1
                }
                XCTAssertEqual(sql, first.sql, "\(model.name) line \(fetch.line): \(fetch.text)")
                // Replayed with the values logged: each occurrence kept is the request the log shows.
                if fetch.spec.hasPlaceholders {
                    let logged = fetch.logged
                    let placed = LoggedValues.requests(fetch.spec, logged, generator)
                    placedFetches += placed.isEmpty ? 0 : 1
                    placeholders += 1
                    for (request, (sql, values)) in zip(placed, logged) {
                        let again = try store.layout.query(request, counts: fetch.spec.counts)
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
        print("log-sql round trip: \(fetches) fetches read back, \(answered) answered as logged, \(placedFetches) of \(placeholders) with a %@ replayed with their logged values")
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
