import FetchRequests
import Foundation
import Models
import XCTest

@testable import CoreDataLogs

/// A log's replayed fetches and saves in its order: each step names its fetch (by its place among
/// the distinct fetches, which are listed by first line) or its save.
final class LogSessionTests: XCTestCase {
    func testTheSessionIsEveryReplayedFetchAndSaveInTheLogsOrder() throws {
        let model = try Model(ModelPresets.publications.scaled(to: 400))
        let schema = LogSchema(model: model)
        let tag = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZTAG t0 WHERE  t0.ZNAME = ?"
        let count = "SELECT COUNT(*) FROM ZTAG t0"
        let save = ["BEGIN EXCLUSIVE", "UPDATE ZTAG SET ZNAME = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT"]
        let text = ([count, tag] + save + [tag, "SELECT Z_VERSION FROM Z_METADATA", count] + save + ["INSERT INTO Z_1TAGS(Z_1PUBLICATIONS, Z_6TAGS) VALUES (?, ?)"])
            .map { "CoreData: sql: \($0)\n" }.joined()
        var fetches = LogFetches(schema: schema), saves = LogSaves(schema: schema)
        for statement in try LogWriterTests.statements(text) {
            let kind = try statement.kind().get()
            if LogSaves.isSave(kind) { saves.add(statement, kind: kind) } else { fetches.add(statement, kind: kind) }
        }
        fetches.finish()
        saves.finish()
        XCTAssertEqual(fetches.fetches.map(\.text), ["COUNT Tag", "Tag WHERE name == %@"])
        let session = LogSession(fetches, saves)
        XCTAssertEqual(session.steps, [.fetch(0), .fetch(1), .save(0), .fetch(1), .fetch(0), .save(0)], "upkeep and a save outside a transaction have no step")
        XCTAssertEqual(session.total, 6)
        XCTAssertEqual([session.fetchCount, session.saveCount], [4, 2])
        // A session stops at its most steps, and before the save that passes its most changes.
        XCTAssertEqual(LogSession(fetches, saves, longest: 3).steps, [.fetch(0), .fetch(1), .save(0)])
        XCTAssertEqual(LogSession(fetches, saves, mostChanges: 1).steps, [.fetch(0), .fetch(1), .save(0), .fetch(1), .fetch(0)])
        XCTAssertEqual(LogSession(fetches, saves, mostChanges: 0).steps, [.fetch(0), .fetch(1)])
        XCTAssertEqual(LogSession(fetches, saves, longest: 3).total, 6, "the steps the log makes in all")
    }
}
