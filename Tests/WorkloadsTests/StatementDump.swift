import CSQLite
import Foundation
import Generation
import Models
import SQLite
import Strategies
import TestSupport
@testable import Workloads
import XCTest

/// A restructuring's proof that behaviour did not change: with `INHERITANCE_BENCH_STATEMENT_DUMP`
/// naming a file, writes every strategy's DDL, delete statements and every statement SQLite ran
/// (values bound, as `sqlite3_expanded_sql` spells them) while the agreement checks stored the
/// objects, read every workload's requests, updated and deleted, over the presets, the fixtures
/// and the generated models. Compare the file before and after a change byte for byte. Skipped
/// without the variable.
final class StatementDump: XCTestCase {
    static let variable = "INHERITANCE_BENCH_STATEMENT_DUMP"

    /// The statements SQLite runs on one connection, in order.
    final class Trace {
        var lines: [String] = []

        func install(on database: Database) {
            sqlite3_trace_v2(database.handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
                guard let context, let statement else { return 0 }
                let trace = Unmanaged<Trace>.fromOpaque(context).takeUnretainedValue()
                let handle = OpaquePointer(statement)
                let plain = sqlite3_sql(handle).map { String(cString: $0) } ?? ""
                // The metadata row holds a fresh UUID: its statement without values.
                if plain.hasPrefix("INSERT INTO Z_METADATA") { trace.lines.append(plain); return 0 }
                if let expanded = sqlite3_expanded_sql(handle) {
                    trace.lines.append(String(cString: expanded))
                    sqlite3_free(expanded)
                }
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    func testDumpEveryStatement() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.variable] else { throw XCTSkip("set \(Self.variable) to write the dump") }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? file.close() }
        let findings = Findings()
        // Each model with the seed its agreement test uses.
        let descriptions = ReferenceAnswerTests.models.map { ($0, UInt64(5)) } + GeneratedModelTests.seeds.map { (RandomModel.make(seed: $0), $0) }
        for (number, (description, seed)) in descriptions.enumerated() {
            var text = "## model \(number): \(description.name), seed \(seed)\n"
            let model = try Model(description)
            let dataset = Agreement.Dataset(model, seed: seed)
            let answers = Agreement.expectedAnswers(dataset, requestsPerCase: 5, findings: findings)
            for type in Strategies.all {
                text += "### \(type.name)\n"
                let database = try Database(path: ":memory:")
                let trace = Trace()
                trace.install(on: database)
                let strategy = LayoutStore(try type.init(model: model), database: database)
                for statement in strategy.schemaSQL { text += "schema: \(statement)\n" }
                for entity in model.entities {
                    do {
                        let delete = try strategy.layout.deleteStatements(entity.index)
                        text += "delete \(entity.name): \(delete.related) \(delete.clear) \(delete.delete)\n"
                    } catch {
                        text += "delete \(entity.name): \(error)\n"
                    }
                }
                try strategy.createSchema()
                for batch in dataset.batches { try strategy.insert(batch) }
                for answer in answers {
                    try answer.check(strategy, label: type.name, findings: findings)
                    trace.lines.append("-- \(answer.objects.count) expected")
                }
                try Agreement.checkWrites(strategy, dataset: dataset, label: type.name, findings: findings)
                text += trace.lines.joined(separator: "\n") + "\n"
            }
            file.write(Data(text.utf8))
        }
        findings.report()
    }
}
