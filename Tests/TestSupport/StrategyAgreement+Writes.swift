import FetchRequests
import Generation
import Models
import SQLite
import Strategies
import XCTest

/// The write battery, for a checker against a store: each write goes to the reference store and to
/// every subject, which must answer as the reference does (the objects changed or deleted, the
/// versions, the error), and then hold the same objects.
extension StrategyAgreement {
    /// Runs `body` on the reference store, then on every subject; each outcome (value or error) must be
    /// the reference's. Returns the reference's.
    @discardableResult
    public func same<T: Equatable>(_ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line,
                                   _ body: (LayoutStore) throws -> T) throws -> T {
        let expected = Result { try body(referenceStore) }
        for subject in subjects {
            let label = "\(subject.name) on \(model.name): \(what())"
            switch (expected, Result { try body(subject) }) {
            case let (.success(wanted), .success(found)): XCTAssertEqual(found, wanted, label, file: file, line: line)
            case let (.failure(wanted), .failure(found)): XCTAssertEqual("\(found)", "\(wanted)", label, file: file, line: line)
            case let (wanted, found): XCTFail("\(label): \(found), expected \(wanted)", file: file, line: line)
            }
        }
        return try expected.get()
    }

    /// A value of `type`'s storage unlike the generator's: quotes, a backslash, a NUL, a newline, non-ASCII.
    public static func updateValue(_ type: AttributeType) -> Value {
        switch type.storage {
        case .integer: .integer(1)
        case .real: .real(123_456.25)
        case .text: .text("updated \"value\" \\ \u{0}\n é")
        case .blob: .blob([0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 2, 3])
        }
    }

    /// Updates (a root attribute of objects of the main hierarchy, two of them stale; each own attribute
    /// of each sub-entity of it, and NULL into optional ones), then deletes (20 objects of the main
    /// root, 5 of every other root), comparing outcomes, versions, counts, links and every entity's objects.
    public func checkWrites(file: StaticString = #filePath, line: UInt = #line) throws {
        let main = model.mainRoot, total = generator.count(root: main)
        let chosen = stride(from: 0, to: total, by: max(1, total / 20)).prefix(20).map { generator.object(root: main, at: $0).id }
        let rootEntity = model.entities[main]
        if let attribute = rootEntity.attributes.first(where: { !model.isUnique($0.name, of: main) }) {
            let before = try same("versions before the update", file: file, line: line) { try $0.versions(chosen) }
            let versions = zip(chosen, before).enumerated().map { ObjectVersion(id: $1.0, version: ($1.1 ?? 0) + ($0 < 2 ? 6 : 0)) }
            let value = Self.updateValue(attribute.type)
            let changed = try same("update \(attribute.name)", file: file, line: line) { try $0.update(versions, attribute: attribute.name, value: value) }
            XCTAssertEqual(changed, Set(chosen).count - 2, "\(model.name): every object updated but the two stale", file: file, line: line)
            XCTAssertEqual(try same("a stale version changes nothing", file: file, line: line) { try $0.update(Array(versions.suffix(2)), attribute: attribute.name, value: value) },
                           0, "\(model.name): stale versions", file: file, line: line)
            try same("versions after the update", file: file, line: line) { try $0.versions(chosen) }
            for id in chosen { try check(FetchRequest(entity: id.entity, predicate: .key(id.key)), "updated \(id)", file: file, line: line) }
        }
        for entity in rootEntity.subtree.dropFirst().map({ model.entities[$0] }) {
            let ids = samples(of: entity.index).prefix(4).map(\.id)
            guard !ids.isEmpty else { continue }
            for attribute in entity.ownAttributes where !model.isUnique(attribute.name, of: entity.index) && !entity.uniquenessConstraints.joined().contains(attribute.name) {
                for value in [Self.updateValue(attribute.type)] + (attribute.optional ? [.null] : []) {
                    let before = try same("versions", file: file, line: line) { try $0.versions(ids) }
                    let versions = zip(ids, before).map { ObjectVersion(id: $0, version: $1 ?? 0) }
                    let changed = try same("update \(entity.name).\(attribute.name)", file: file, line: line) { try $0.update(versions, attribute: attribute.name, value: value) }
                    XCTAssertEqual(changed, ids.count, "\(model.name): every \(entity.name) updated", file: file, line: line)
                    XCTAssertEqual(try same("a stale version changes nothing", file: file, line: line) { try $0.update(Array(versions.prefix(2)), attribute: attribute.name, value: value) },
                                   0, "\(model.name): stale versions", file: file, line: line)
                }
            }
        }
        for entity in model.entities { try check(FetchRequest(entity: entity.index), "\(entity.name) after the updates", file: file, line: line) }

        let victims = stride(from: 1, to: total, by: max(1, total / 20)).prefix(20).map { generator.object(root: main, at: $0).id }
        let deleted = try same("delete", file: file, line: line) { try $0.delete(victims) }
        XCTAssertGreaterThanOrEqual(deleted, victims.count, "\(model.name): objects deleted", file: file, line: line)
        XCTAssertEqual(try same("versions of deleted objects", file: file, line: line) { try $0.versions(victims) }, victims.map { _ in nil },
                       "\(model.name): deleted objects have no version", file: file, line: line)
        for root in model.roots where root != main {
            let ids = (0 ..< min(5, generator.count(root: root))).map { generator.object(root: root, at: $0).id }
            _ = try? same("delete \(model.entities[root].name)", file: file, line: line) { try $0.delete(ids) }
        }
        for entity in model.entities {
            for includes in [true, false] {
                try same("count of \(entity.name) after the deletes", file: file, line: line) { try $0.count(FetchRequest(entity: entity.index, includesSubentities: includes)) }
            }
            for relationship in entity.relationships where relationship.owner == entity.index && relationship.isManyToMany && relationship.generatesLinks {
                let links = try same("links of \(relationship.name) after the deletes", file: file, line: line) { try $0.countLinks(relationship) }
                XCTAssertGreaterThan(links, 0, "\(model.name): links of \(relationship.name) left", file: file, line: line)
            }
            try check(FetchRequest(entity: entity.index), "\(entity.name) after the deletes", file: file, line: line)
        }
        for subject in subjects {
            XCTAssertEqual(try subject.database.strings("PRAGMA integrity_check"), ["ok"], "\(subject.name) on \(model.name)", file: file, line: line)
            XCTAssertEqual(try subject.database.strings("PRAGMA foreign_key_check"), [], "\(subject.name) on \(model.name)", file: file, line: line)
        }
    }
}
