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

extension LogWriterTests {
    /// `bench run --log-sql` for writes: every write case on every preset and on random models
    /// (three; 20 with INHERITANCE_BENCH_LOG_ROUND_TRIP=full), logged at level 2 as the run logs
    /// it, reads back statement for statement with the values bound, and each transaction as a
    /// save of the very changes the case made (its objects inserted by entity, its links, its
    /// updates, its deletes, every reference its delete cleared); each save read back then runs in
    /// every layout with the same answer.
    func testEveryWriteWorkloadsLogReadsBackAsItsSaves() throws {
        var (transactions, clears, valuedInserts) = (0, 0, 0)
        let random = LogRoundTripTests.randomModels > 20 ? 20 : 3
        let descriptions = ModelPresets.all.map { $0.scaled(to: 300) } + (0 ..< random).map { RandomModel.make(seed: UInt64(60 + $0), maximumObjects: 300) }
        for description in descriptions {
            let model = try Model(description)
            let writes = Workloads.all.filter { [.insertBulk, .insertSingle, .update, .delete].contains($0.kind) }
            var logged: [LoggedCase] = []
            var plan = RunPlan(strategies: [SingleTable.self], workloads: writes, seed: 3, batchSize: 100, repetitions: 1)
            plan.blocks = 1
            let runner = Runner(plan: plan, model: model)
            runner.statementLog = { logged.append($0) }
            let results = try runner.run()
            let cases = logged.filter { !$0.saves.isEmpty }
            XCTAssertEqual(Set(cases.map(\.name)), Set(results.map(\.workload)), model.name)
            XCTAssertTrue(cases.allSatisfy { $0.notLogged == nil }, model.name)
            let sent = cases.flatMap { $0.saves.joined() }
            let writer = LogWriter(model: model, level: 2, storeID: "S")
            let read = try Self.statements(cases.flatMap(\.saves).map { writer.lines(save: $0) }.joined())
            XCTAssertEqual(read.map(\.sql), sent.map(\.sql), model.name)
            for (statement, entry) in zip(read, sent) {
                XCTAssertNoThrow(try statement.kind().get(), "\(model.name) line \(statement.line)")
                XCTAssertEqual(statement.values.map { $0?.value }, (entry.values ?? []).map { if case .blob = $0 { nil } else { LogWriter.value($0) } }, "\(model.name): \(entry.sql)")
            }
            var saves = LogSaves(schema: LogSchema(model: model))
            for statement in read {
                switch statement.kind() {
                case let .success(kind): if LogSaves.isSave(kind) { saves.add(statement, kind: kind) }
                case .failure: saves.notUnderstood(statement)
                }
            }
            saves.finish()
            XCTAssertTrue(saves.notReplayed.isEmpty, "\(model.name): \(saves.notReplayed.keys.sorted())")
            // Each transaction in order, as the save its case made.
            let specs = saves.occurrences.map { saves.saves[$0.index].spec }
            XCTAssertEqual(specs.count, cases.reduce(0) { $0 + $1.saves.count }, model.name)
            transactions += specs.count
            var position = 0
            for loggedCase in cases {
                let made = specs[position ..< position + loggedCase.saves.count]
                position += loggedCase.saves.count
                let steps = made.flatMap(\.steps)
                func count(_ matches: (SaveSpec.Change) -> Bool) -> Int { steps.filter { matches($0.change) }.reduce(0) { $0 + $1.count } }
                let rows = try XCTUnwrap(results.first { $0.workload == loggedCase.name }).rows
                switch loggedCase.name {
                case "insert-bulk", "insert-single":
                    XCTAssertEqual(count { if case .insert = $0 { true } else { false } }, rows, "\(model.name) \(loggedCase.name)")
                    XCTAssertTrue(made.allSatisfy { $0.steps.allSatisfy { if case .insert = $0.change { true } else if case .link = $0.change { true } else { false } } })
                case "update":
                    XCTAssertEqual(made.count, 1)
                    XCTAssertEqual(count { if case let .update(_, attributes, toOnes) = $0 { attributes == [model.updateAttribute].compactMap { $0 } && toOnes.isEmpty } else { false } }, rows, model.name)
                default:
                    XCTAssertEqual(made.count, 1)
                    XCTAssertEqual(count { if case .delete = $0 { true } else { false } }, rows, "\(model.name): every object deleted, cascades included")
                    clears += count { if case let .unlink(entity, name, true) = $0 { model.entities[entity].relationship(name)?.isManyToMany == false } else { false } }
                }
            }
            // Each single insert's values, logged at level 2, read back as the object's own (bytes aside).
            let bulk = cases.first { $0.name == "insert-bulk" }?.saves.count ?? 0
            if cases.contains(where: { $0.name == "insert-single" }) {
                for (offset, object) in runner.inputs.singleInsertObjects.enumerated() {
                    let logged = try XCTUnwrap(saves.occurrenceValues[bulk + offset]?.changes.first ?? nil, "\(model.name): insert \(offset)")
                    let entity = model.entities[object.id.entity]
                    for (index, attribute) in entity.attributes.enumerated() where attribute.type.storage != .blob {
                        XCTAssertEqual(logged[attribute.name], object.values[index], "\(model.name): \(entity.name).\(attribute.name)")
                    }
                    valuedInserts += 1
                }
            }
            // The saves read back run in every layout alike (the delete's and a few more).
            let replayed = saves.saves.suffix(3).enumerated().map { Workload.save($1.spec, name: "line-\($0)", model: model) }
            var every = RunPlan(strategies: Strategies.all, workloads: replayed, seed: 3, batchSize: 100, repetitions: 1)
            every.blocks = 1
            _ = try Runner(plan: every, model: model).run()
        }
        print("log-sql writes round trip: \(transactions) transactions read back as saves, \(clears) clears of a to-one's references")
        XCTAssertGreaterThan(clears, 0, "a random model's delete clears references through a to-one, read back and replayed")
        XCTAssertGreaterThan(valuedInserts, 0)
    }
}

extension LogWriterTests {
    /// A save's statements as Core Data prints a save's: no annotation after its transaction, key
    /// reservation, inserts, updates or deletes; a read inside it annotated as any read; level 2
    /// each statement's values as bound.
    func testASavesStatementsAreWrittenAsCoreDataPrintsASave() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 200))
        let insert = "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, ?, ?)"
        let save: [StatementTrace.Entry] = [
            .init(sql: "BEGIN IMMEDIATE", values: []), .init(sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", rows: 1, number: 200, values: [.integer(6)]),
            .init(sql: "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?", values: [.integer(201), .integer(6), .integer(200)]),
            .init(sql: "SELECT t1.Z_ENT, t1.Z_PK FROM ZTAG t1 WHERE t1.Z_PK = ?1", rows: 1, nanoseconds: 120_000, values: [.integer(3)]),
            .init(sql: insert, values: [.integer(201), .integer(6), .integer(1), .text("new")]), .init(sql: "COMMIT", values: []),
        ]
        let one = LogWriter(model: model, level: 1, storeID: "S").lines(save: save)
        XCTAssertEqual(
            one,
            """
            CoreData: sql: BEGIN IMMEDIATE
            CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
            CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
            CoreData: sql: SELECT t1.Z_ENT, t1.Z_PK FROM ZTAG t1 WHERE t1.Z_PK = ?1
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0001s for 1 rows.
            CoreData: sql: \(insert)
            CoreData: sql: COMMIT

            """)
        let two = LogWriter(model: model, level: 2, storeID: "S").lines(save: save)
        XCTAssertTrue(two.contains("CoreData: sql: \(insert)\nCoreData: details: SQLite bind[0] = 201\nCoreData: details: SQLite bind[1] = 6\nCoreData: details: SQLite bind[2] = 1\nCoreData: details: SQLite bind[3] = \"new\"\nCoreData: sql: COMMIT\n"), two)
        let read = try Self.statements(two)
        XCTAssertEqual(read.map { $0.values.count }, [0, 1, 3, 1, 4, 0])
        XCTAssertEqual(read[4].values.map { $0?.value }, [.integer(201), .integer(6), .integer(1), .text("new")])
    }
}
