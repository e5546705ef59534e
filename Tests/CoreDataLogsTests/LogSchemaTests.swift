import CoreDataLayout
import Foundation
import Models
import XCTest

@testable import CoreDataLogs

/// A log's statements read through a model's Core Data layout: the entities each asks about, and
/// the first table, column or entity number a log of another model version names.
final class LogSchemaTests: XCTestCase {
    private let schema = LogSchema(model: try! Model(ModelPresets.publications))

    private func statement(_ sql: String, _ values: [BoundValue?] = []) -> LoggedStatement {
        var statement = LoggedStatement(line: 7, sql: sql)
        for (index, value) in values.enumerated() { if let value { statement.note(.bind(index: index, value: value)) } }
        return statement
    }

    private func entities(_ sql: String) -> [String] { schema.entities(of: statement(sql)).map { schema.model.entities[$0].name } }

    func testAStatementAsksAboutTheEntityWhoseSelectListItSends() {
        let book = schema.schema.selectList(try! XCTUnwrap(schema.model.entities.firstIndex { $0.name == "Book" })).sql
        XCTAssertEqual(entities("SELECT \(book) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?"), ["Book"])
        let all = schema.schema.selectList(0).sql
        XCTAssertEqual(entities("SELECT \(all) FROM ZPUBLICATION t0"), ["Publication"])
        XCTAssertEqual(entities("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?"), ["Publication"], "a count's entity is its hierarchy's without its number")
        XCTAssertEqual(schema.entities(of: statement("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?", [.integer(4)])).map { schema.model.entities[$0].name }, ["Book"])
        XCTAssertEqual(entities("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = 2"), ["AcademicPaper"])
        XCTAssertEqual(entities("SELECT COUNT(*) FROM ZTAG t0 WHERE t0.Z_ENT = 2"), ["Tag"], "a number of another hierarchy's")
        XCTAssertEqual(entities("SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS = ?"), ["Publication", "Tag"])
        XCTAssertEqual(entities("BEGIN EXCLUSIVE"), [])
    }

    func testEveryNameOfTheModelsLayoutPasses() {
        for sql in ["SELECT \(schema.schema.selectList(0).sql) FROM ZPUBLICATION t0 WHERE t0.ZTITLE = ? AND t0.Z_ENT >= ? AND t0.Z_ENT <= ? ORDER BY t0.ZPUBLISHDATE DESC",
                    "INSERT INTO ZPUBLICATION(Z_PK, Z_ENT, Z_OPT, ZTITLE, ZISBN) VALUES(?, ?, ?, ?, ?)", "UPDATE OR FAIL ZTAG SET ZNAME = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                    "DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ? AND Z_6TAGS = ?", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"] {
            XCTAssertNil(schema.mismatch(in: statement(sql, [.integer(4), .integer(2), .integer(5)])), sql)
        }
    }

    func testALogOfAnotherModelVersionIsNamedByItsFirstMissingName() {
        let cases: [(sql: String, values: [BoundValue?], says: String)] = [
            ("SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZARTICLE t0", [], "table ZARTICLE is not in the model's layout"),
            ("SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 WHERE t0.ZSUBTITLE = ?", [], "column ZSUBTITLE is not a column of ZPUBLICATION"),
            ("INSERT INTO ZTAG(Z_PK, Z_ENT, Z_OPT, ZNAME, ZCOLOR) VALUES(?, ?, ?, ?, ?)", [], "column ZCOLOR is not a column of ZTAG"),
            ("DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ? AND Z_7TAGS = ?", [], "column Z_7TAGS is not a column of Z_1TAGS"),
            ("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = ?", [.integer(12)], "entity number 12 is not one of the model's (1 to 6)"),
            ("SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE t0.Z_ENT = 7", [], "entity number 7 is not one of the model's"),
            ("INSERT INTO ZTAG(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)", [.integer(1), .integer(10), .integer(1), .text("x")], "entity number 10"),
        ]
        for item in cases {
            let found = schema.mismatch(in: statement(item.sql, item.values))?.description
            XCTAssertTrue(found?.hasPrefix(item.says) == true, "\(item.sql): \(found ?? "nothing")")
        }
    }
}
