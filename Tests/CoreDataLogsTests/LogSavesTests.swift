import CoreDataLayout
import FetchRequests
import Foundation
import Generation
import Models
import Strategies
import TestSupport
import XCTest

@testable import CoreDataLogs

/// A log's transactions read back as the saves an app made: every save single-table sends for
/// the agreement tests' saves reads back as the same save, and what is not read is named.
final class LogSavesTests: XCTestCase {
    private let model = try! Model(ModelPresets.publications.scaled(to: 400))

    private func saves(_ text: String, model: Model? = nil) throws -> LogSaves {
        var saves = LogSaves(schema: LogSchema(model: model ?? self.model))
        for statement in try LogWriterTests.statements(text) {
            switch statement.kind() {
            case let .success(kind): if LogSaves.isSave(kind) { saves.add(statement, kind: kind) }
            case .failure: saves.notUnderstood(statement)
            }
        }
        saves.finish()
        return saves
    }

    private func log(_ statements: [String]) -> String { statements.map { "CoreData: sql: \($0)\n" }.joined() }

    func testATransactionIsOneSaveOfItsChangesInOrder() throws {
        let read = try saves(
            log([
                "BEGIN EXCLUSIVE", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "INSERT INTO ZPUBLICATION(Z_PK, Z_ENT, Z_OPT, ZPAGECOUNT, ZCREATEDATE, ZPUBLISHDATE, ZUPDATEDATE, ZTITLE, ZISBN, ZUID) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                "INSERT INTO ZPUBLICATION(Z_PK, Z_ENT, Z_OPT, ZPAGECOUNT, ZCREATEDATE, ZPUBLISHDATE, ZUPDATEDATE, ZTITLE, ZISBN, ZUID) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                "UPDATE ZPUBLICATION SET ZTITLE = ?, ZUPDATEDATE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE ZPUBLICATION SET ZTITLE = ?, ZISBN = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE ZTAG SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "DELETE FROM ZPUBLICATION WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT",
                "BEGIN EXCLUSIVE", "UPDATE ZPUBLICATION SET ZTITLE = ?, ZUPDATEDATE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT",
                "BEGIN EXCLUSIVE", "UPDATE ZPUBLICATION SET ZUPDATEDATE = ?, ZTITLE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT",
                "BEGIN EXCLUSIVE", "UPDATE ZPUBLICATION SET ZTITLE = ?, ZUPDATEDATE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT",
            ]))
        XCTAssertEqual(
            read.saves.map { $0.spec.text(model) },
            [
                "SAVE INSERT Book ×2; UPDATE Publication SET title, updatedate; UPDATE Book SET title, isbn; UPDATE Tag VERSION; DELETE Publication",
                "SAVE UPDATE Publication SET title, updatedate", "SAVE UPDATE Publication SET updatedate, title",
            ])
        XCTAssertEqual(read.saves.map(\.count), [1, 2, 1])
        // A join table's rows: a link added, one removed, an object's cleared.
        let links = try saves(
            log([
                "BEGIN EXCLUSIVE", "INSERT INTO Z_1TAGS(Z_1PUBLICATIONS, Z_6TAGS) VALUES (?, ?)", "DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ? AND Z_6TAGS = ?",
                "DELETE FROM Z_1TAGS WHERE Z_1PUBLICATIONS = ?", "DELETE FROM Z_1TAGS WHERE Z_6TAGS = ?", "COMMIT",
            ]))
        XCTAssertEqual(links.saves.map { $0.spec.text(model) }, ["SAVE LINK Publication.tags; UNLINK Publication.tags; UNLINK ALL Publication.tags; UNLINK ALL Tag.publications"])
        XCTAssertEqual(read.saves.map(\.line), [1, 11, 14])
        XCTAssertEqual(read.saves.map(\.statements), [10, 6, 3])
        XCTAssertTrue(read.notReplayed.isEmpty, "\(read.notReplayed)")
    }

    func testWhatIsNotReadIsNamedWithEveryLineOfItsSave() throws {
        let book = "INSERT INTO ZPUBLICATION(Z_PK, Z_ENT, Z_OPT, ZPAGECOUNT, ZCREATEDATE, ZPUBLISHDATE, ZUPDATEDATE, ZTITLE, ZISBN, ZUID) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        let cases: [([String], String)] = [
            (["BEGIN EXCLUSIVE", book, "UPDATE Z_1TAGS SET Z_6TAGS = ? WHERE Z_1PUBLICATIONS = ?", "COMMIT"], "an UPDATE of a join table's row: not replayed yet"),
            (["BEGIN EXCLUSIVE", book, "ROLLBACK"], "a transaction rolled back: it changed nothing"),
            ([book, "COMMIT"], "a save's statement outside BEGIN … COMMIT (the log starts inside a transaction)"),
            (["BEGIN EXCLUSIVE", book], "a transaction with no COMMIT after it (the log ends inside it)"),
            (["BEGIN EXCLUSIVE", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", "COMMIT"], "a transaction that changes no object"),
            (["BEGIN EXCLUSIVE", "DELETE FROM ZPUBLICATION WHERE ZTITLE = ?", "COMMIT"], "a DELETE of objects other than one by its Z_PK (a batch delete): not replayed yet"),
            (["BEGIN EXCLUSIVE", "UPDATE ZPUBLICATION SET ZTITLE = ?, Z_OPT = ? WHERE ZTITLE = ?", "COMMIT"], "an UPDATE of objects other than one by its Z_PK (a batch update): not replayed yet"),
            (["BEGIN EXCLUSIVE", "UPDATE ZPUBLICATION SET ZISBN = ?, ZDOI = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT"], "an UPDATE of properties of two sub-entities"),
            (["BEGIN EXCLUSIVE", "INSERT INTO ZPUBLICATION(Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES(?, ?, ?, ?)", "COMMIT"], "an INSERT whose columns are no entity's of its table"),
            (["BEGIN EXCLUSIVE", book, "EXPLAIN SELECT 1", "COMMIT"], "a save holding a statement not understood (listed with it)"),
        ]
        for (statements, why) in cases {
            let read = try saves(log(statements))
            XCTAssertTrue(read.saves.isEmpty, "\(statements)")
            XCTAssertEqual(read.notReplayed.keys.sorted(), [why], "\(statements)")
            XCTAssertEqual(read.notReplayed[why]?.first, Array(1...statements.count), "every line of the save, \(statements)")
        }
        // A to-one's key set: a change of the relationship.
        let notes = try Model(
            ModelDescription(
                name: "notes",
                entities: [
                    EntityDescription(
                        "Folder", rows: 2, attributes: [Attribute("name", .string)],
                        relationships: [RelationshipDescription("notes", destination: "Note", inverse: "folder", toMany: true)]),
                    EntityDescription(
                        "Note", rows: 4, attributes: [Attribute("title", .string)],
                        relationships: [RelationshipDescription("folder", destination: "Folder", inverse: "notes", optional: true)]),
                ]))
        let read = try saves(log(["BEGIN EXCLUSIVE", "UPDATE ZNOTE SET ZTITLE = ?, ZFOLDER = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT"]), model: notes)
        XCTAssertEqual(read.saves.map { $0.spec.text(notes) }, ["SAVE UPDATE Note SET title, folder"])
    }

    /// A level-2 save's new values, by attribute, as the log bound them: replayed where they fit
    /// the attribute (not bytes, printed in a form of their own; not a text for a number; not
    /// NULL for a required attribute), a unique attribute keeping a value made from its new key.
    func testALevelTwoSavesValuesAreReplayedWhereTheyFit() throws {
        let insert = "INSERT INTO ZPUBLICATION(Z_PK, Z_ENT, Z_OPT, ZPAGECOUNT, ZCREATEDATE, ZPUBLISHDATE, ZUPDATEDATE, ZTITLE, ZISBN, ZUID) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        let update = "UPDATE ZPUBLICATION SET ZTITLE = ?, ZPAGECOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"
        func binds(_ values: [String]) -> String { values.enumerated().map { "CoreData: details: SQLite bind[\($0)] = \($1)\n" }.joined() }
        let text = "CoreData: sql: BEGIN EXCLUSIVE\nCoreData: sql: \(insert)\n"
            + binds(["(int64)1000", "(int64)4", "(int64)1", "321", "(timestamp)1.5", "2.5", "nil", "\"Logged\"", "\"isbn-x\"", "<0aff>"])
            + "CoreData: sql: \(update)\n" + binds(["\"New\"", "\"many\"", "(int64)2", "(int64)5", "(int64)1"]) + "CoreData: sql: COMMIT\n"
        let read = try saves(text)
        let save = try XCTUnwrap(read.saves.first)
        XCTAssertEqual(save.spec.text(model), "SAVE INSERT Book; UPDATE Book SET title, pageCount")
        XCTAssertEqual(
            save.values?.changes,
            [["pageCount": .integer(321), "createdate": .real(1.5), "publishDate": .real(2.5), "updatedate": .null, "title": .text("Logged"), "isbn": .text("isbn-x")],
             ["title": .text("New"), "pageCount": .text("many")]])
        XCTAssertEqual(read.occurrenceValues, [save.values])
        let dataset = ObjectGenerator(model, seed: 5), book = model.entities[3]
        let request = save.spec.request(dataset, seed: 5, values: save.values), drawn = save.spec.request(dataset, seed: 5)
        guard case let .insert(object)? = request.changes.first, case let .insert(plain)? = drawn.changes.first,
              case let .update(_, changes, _)? = request.changes.last, case let .update(_, drawnChanges, _)? = drawn.changes.last else { return XCTFail("\(request.changes)") }
        func value(_ name: String, _ values: [Value]) -> Value? { book.attributeIndex(name).map { values[$0] } }
        XCTAssertEqual(value("pageCount", object.values), .integer(321))
        XCTAssertEqual(value("title", object.values), .text("Logged"))
        XCTAssertEqual(value("createdate", object.values), .real(1.5))
        XCTAssertEqual(value("isbn", object.values), value("isbn", plain.values), "a unique attribute keeps the value made from its key")
        XCTAssertEqual(value("uid", object.values), value("uid", plain.values), "bytes are printed in a form of their own")
        XCTAssertEqual(changes.map(\.name), ["title", "pageCount"])
        XCTAssertEqual(changes.first?.value, .text("New"))
        XCTAssertEqual(changes.last?.value, drawnChanges.last?.value, "a text logged for a number is not replayed")
        XCTAssertEqual(object.id, plain.id, "the objects are drawn as they are without values")
    }

    /// A save of more than eight steps is shown as its first eight and what the rest add up to;
    /// a shorter one whole.
    func testALongSaveIsShownByItsFirstStepsAndTheRest() {
        var spec = SaveSpec()
        for step in 0 ..< 10 { for _ in 0 ... step { spec.append(step.isMultiple(of: 2) ? .insert(entity: 3) : .delete(entity: 0)) } }
        XCTAssertEqual(spec.steps.count, 10)
        XCTAssertEqual(
            spec.summary(model),
            "SAVE INSERT Book; DELETE Publication ×2; INSERT Book ×3; DELETE Publication ×4; INSERT Book ×5; DELETE Publication ×6; INSERT Book ×7; DELETE Publication ×8; … and 19 more changes in 2 steps")
        let short = SaveSpec(steps: Array(spec.steps.prefix(8)))
        XCTAssertEqual(short.summary(model), short.text(model))
    }

    /// The values kept for replaying saves are bounded whatever the log's saves: a save of more
    /// changes than the budget is given drawn values, and a later small one still keeps its own.
    func testTheValuesKeptForSavesAreBounded() throws {
        let insert = "INSERT INTO ZTAG(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)"
        func save(_ objects: Int) -> String {
            "CoreData: sql: BEGIN EXCLUSIVE\n" + (0 ..< objects).map { index in
                "CoreData: sql: \(insert)\n" + ["(int64)\(1000 + index)", "(int64)6", "(int64)1", "\"tag \(index)\""].enumerated().map { "CoreData: details: SQLite bind[\($0)] = \($1)\n" }.joined()
            }.joined() + "CoreData: sql: COMMIT\n"
        }
        let read = try saves(save(LogSaves.keptValueChanges + 1) + save(1))
        XCTAssertEqual(read.saves.map(\.count), [1, 1])
        XCTAssertNil(read.saves[0].values, "more changes than are kept")
        XCTAssertEqual(read.saves[1].values?.changes, [["name": .text("tag 0")]])
        XCTAssertEqual(read.occurrenceValues.map { $0 != nil }, [false, true])
    }

    /// An INSERT's entity: its bound Z_ENT at level 2, else the one entity with its columns; two
    /// entities with the same columns need level 2.
    func testAnInsertsEntityIsItsBoundNumberOrItsColumns() throws {
        let description = ModelDescription(
            name: "twins",
            entities: [
                EntityDescription("Item", abstract: true, attributes: [Attribute("title", .string)]),
                EntityDescription("Left", parent: "Item", rows: 5), EntityDescription("Right", parent: "Item", rows: 5),
            ])
        let twins = try Model(description)
        let insert = "INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES(?, ?, ?, ?)"
        let level1 = try saves(log(["BEGIN EXCLUSIVE", insert, "COMMIT"]), model: twins)
        XCTAssertEqual(level1.notReplayed.keys.sorted(), ["an INSERT whose entity its columns do not tell (several entities have them): log at level 2 for its Z_ENT"])
        let right = try XCTUnwrap(twins.entities.firstIndex { $0.name == "Right" })
        let binds = ["(int64)7", "(int64)\(right + 1)", "(int64)1", "\"x\""].enumerated().map { "CoreData: details: SQLite bind[\($0)] = \($1)\n" }.joined()
        let level2 = try saves("CoreData: sql: BEGIN EXCLUSIVE\nCoreData: sql: \(insert)\n" + binds + "CoreData: sql: COMMIT\n", model: twins)
        XCTAssertEqual(level2.saves.map { $0.spec.text(twins) }, ["SAVE INSERT Right"])
    }

    /// Every save of the agreement tests, as single-table sends it (Core Data's statements),
    /// reads back as the same save: on every preset and on random models.
    func testEverySaveSingleTableSendsReadsBackAsTheSameSave() throws {
        var checked = 0, toOnes = 0, links = 0
        for description in ModelPresets.all.map({ $0.scaled(to: 300) }) + (0..<8).map({ RandomModel.make(seed: UInt64(700 + $0)) }) {
            let model = try Model(description)
            let agreement = try StrategyAgreement([], description, against: SingleTable.self)
            let store = agreement.referenceStore, schema = LogSchema(model: model)
            for spec in agreement.saves() {
                let request = spec.request(agreement.generator, seed: 5)
                guard !request.changes.isEmpty else { continue }
                let prepared = try store.prepare(request, versions: try store.versions(of: request))
                var text = "CoreData: sql: BEGIN EXCLUSIVE\n"
                for statements in prepared.changes {
                    for (sql, values) in statements {
                        text += "CoreData: sql: \(sql)\n" + values.enumerated().map { "CoreData: details: SQLite bind[\($0)] = \(LogWriter.printed($1))\n" }.joined()
                    }
                }
                var read = LogSaves(schema: schema)
                for statement in try LogWriterTests.statements(text + "CoreData: sql: COMMIT\n") {
                    let kind = try statement.kind().get()
                    if LogSaves.isSave(kind) { read.add(statement, kind: kind) }
                }
                read.finish()
                XCTAssertEqual(read.saves.map { $0.spec.text(model) }, [Self.asLogged(spec, request, model).text(model)], "\(model.name): \(read.notReplayed)")
                checked += 1
                toOnes += request.changes.filter { if case let .update(_, _, changes) = $0 { !changes.isEmpty } else { false } }.count
                links += request.changes.filter { if case .link = $0 { true } else if case .unlink = $0 { true } else { false } }.count
            }
        }
        XCTAssertGreaterThan(checked, 15)
        XCTAssertGreaterThan(toOnes, 5, "updates of to-ones read back")
        XCTAssertGreaterThan(links, 5, "links added and removed read back")
    }

    /// A save as its statements tell it: an insert of the object's entity, an update of the entity
    /// declaring the deepest attribute it sets (its table's root for the version alone), a delete
    /// of its table's root.
    static func asLogged(_ spec: SaveSpec, _ request: SaveRequest, _ model: Model) -> SaveSpec {
        let schema = CoreDataSchema(model)
        var logged = SaveSpec()
        for change in request.changes {
            switch change {
            case let .insert(object): logged.append(.insert(entity: object.id.entity))
            case let .update(id, changes, toOnes):
                let entity = model.entities[id.entity]
                let owners =
                    changes.compactMap { change in entity.attributeIndex(change.name).map { entity.attributeOwners[$0] } }
                    + toOnes.compactMap { change in entity.relationship(change.name)?.owner }
                let deepest = owners.max { $0 != $1 && model.entities[$0].subtree.contains($1) } ?? entity.root
                logged.append(.update(entity: deepest, attributes: changes.map(\.name), toOnes: toOnes.map(\.name)))
            case let .delete(id): logged.append(.delete(entity: model.entities[id.entity].root))
            case let .link(owner, name, _), let .unlink(owner, name, _):
                // A join table's row names its first side, whichever side made it.
                guard let relationship = model.entities[owner.entity].relationship(name), let join = schema.joinTable(relationship) else { continue }
                let unlink: Bool = if case .unlink = change { true } else { false }
                logged.append(unlink ? .unlink(entity: join.first.entity, relationship: join.first.relationship) : .link(entity: join.first.entity, relationship: join.first.relationship))
            case let .unlinkAll(id, name):
                // Named by the side whose column holds the object.
                guard let relationship = model.entities[id.entity].relationship(name), let join = schema.joinTable(relationship) else { continue }
                let side = [join.first, join.second].first { model.entities[$0.entity].subtree.contains(id.entity) && $0.relationship == name } ?? join.first
                logged.append(.unlink(entity: side.entity, relationship: side.relationship, all: true))
            }
        }
        return logged
    }
}
