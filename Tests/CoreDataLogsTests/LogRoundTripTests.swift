import FetchRequests
import Foundation
import Generation
import Models
import Strategies
import TestSupport
import XCTest

@testable import CoreDataLogs

extension LogFetch {
    /// `sql` read back as a level-2 log shows it (each of `values` bound), or a level-1 log (none).
    static func readBack(_ sql: String, _ schema: LogSchema, values: [Value] = []) -> Result<Reading, NotUnderstood> {
        var statement = LoggedStatement(line: 1, sql: sql)
        for (index, value) in values.enumerated() {
            let bound: BoundValue = switch value {
            case .null: .null
            case let .integer(number): .integer(number)
            case let .real(number): .real(number)
            case let .text(text): .text(text)
            case let .blob(bytes): .printed("<\(bytes.count) bytes>")
            }
            statement.note(.bind(index: index, value: bound))
        }
        guard case let .success(kind) = statement.kind() else { return .failure(NotUnderstood("not understood")) }
        return read(statement, kind: kind, schema: schema)
    }
}

/// Every request of the suite's random agreement tests, on every preset and on random models:
/// its statement as single-table sends it (Core Data's) and as a level-2 log shows it reads back
/// either as a fetch whose statement is the same, byte for byte, or as not read with a reason;
/// never as another statement. `INHERITANCE_BENCH_LOG_ROUND_TRIP=full` reads 250 random models,
/// the default 20.
final class LogRoundTripTests: XCTestCase {
    static var randomModels: Int { ProcessInfo.processInfo.environment["INHERITANCE_BENCH_LOG_ROUND_TRIP"] == "full" ? 250 : 20 }

    func testEveryStatementReadsBackAsItselfOrSaysWhyNot() throws {
        var (read, total) = (0, 0)
        var reasons: [String: Int] = [:]
        let descriptions = ModelPresets.all.map { $0.scaled(to: 300) } + (0 ..< Self.randomModels).map { RandomModel.make(seed: UInt64($0), maximumObjects: 200) }
        for description in descriptions {
            let model = try Model(description)
            let generator = ObjectGenerator(model, seed: 7)
            let agreement = try StrategyAgreement([], against: SingleTable.self, generator)
            let layout = try SingleTable(model: model), schema = LogSchema(model: model)
            for (request, number) in agreement.randomRequests(seed: 11, perEntity: 4) {
                for counts in [false, true] {
                    // A count request has no sort (its key paths' joins would be the sort's).
                    var counted = StrategyAgreement.unpaged(request)
                    counted.sort = []
                    let query = counts ? try layout.countQuery(counted) : try layout.fetchQuery(request)
                    total += 1
                    switch LogFetch.readBack(query.sql, schema, values: query.values) {
                    case let .success(.fetch(text)):
                        // A fetch the fetch format refuses (two keys of different kinds compared) is not replayed (`LogFetches`).
                        guard let spec = try? FetchSpec.parse(text, model: model) else {
                            reasons["the fetch format refuses it", default: 0] += 1
                            continue
                        }
                        let again = try XCTUnwrap(spec.requests(generator, seed: 1, draws: 1).first)
                        let sql = spec.counts ? try layout.countQuery(again).sql : try layout.fetchQuery(again).sql
                        XCTAssertEqual(sql, query.sql, "\(model.name) request \(number) read back as \(text)")
                        read += 1
                    case let .success(other):
                        XCTFail("\(model.name) request \(number): \(query.sql) read as \(other)")
                    case let .failure(reason):
                        reasons[reason.description, default: 0] += 1
                    }
                }
            }
        }
        // Most of the forms are read: a test that read none would prove nothing.
        XCTAssertGreaterThan(read, total / 3, "read back \(read) of \(total); not read: \(reasons.sorted { $0.value > $1.value }.prefix(5))")
        print("log round trip: \(read) of \(total) statements read back as themselves; not read: \(reasons.sorted { $0.value > $1.value }.prefix(8))")
    }
}
