import Dataset
import Foundation
import SQLite
import Strategies
import TestSupport
import Workloads
import XCTest

/// `StoreBuilder.checkIntegrity` passes an intact store and stops on a damaged or incomplete one,
/// with a message that names the strategy; for every strategy.
final class IntegrityTests: XCTestCase {
    static let configuration = DatasetConfiguration(seed: 31, scale: 300)
    static let census = DatasetGenerator(configuration).census()

    /// The publication–tag join tables of a store: every `Z_…` table except Core Data's bookkeeping ones.
    func joinTables(_ database: Database) throws -> [String] {
        try database.strings("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' \
            AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE') ORDER BY name
            """)
    }

    func testAnIntactStorePasses() throws {
        for type in Strategies.all { try intactStorePasses(type) }
    }

    private func intactStorePasses<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, Self.configuration, in: folder)
        XCTAssertGreaterThan(Self.census.tagLinks, 0)
        XCTAssertEqual(try strategy.countTagLinks(), Self.census.tagLinks, S.name)
        XCTAssertNoThrow(try StoreBuilder.checkIntegrity(strategy, expected: Self.census), S.name)
    }

    /// Deletes one row from each join table in turn, with SQL behind the strategy's back: every
    /// deletion is caught, so every join table counts (table-per-entity has five).
    func testAJoinTableThatLostARowFailsTheCheck() throws {
        for type in Strategies.all { try lostLinkFails(type) }
    }

    private func lostLinkFails<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, Self.configuration, in: folder)
        let tables = try joinTables(strategy.database)
        XCTAssertEqual(tables.count, S.self == TablePerEntityStrategy.self ? 5 : 1, "\(S.name): \(tables)")
        for (offset, table) in tables.enumerated() {
            try strategy.database.execute("DELETE FROM \(table) WHERE rowid = (SELECT MIN(rowid) FROM \(table))")
            XCTAssertEqual(strategy.database.changes, 1, "\(S.name): \(table) should have had a row to lose")
            let remaining = Self.census.tagLinks - offset - 1
            XCTAssertThrowsError(try StoreBuilder.checkIntegrity(strategy, expected: Self.census), "\(S.name) \(table)") { error in
                guard let failure = error as? IntegrityFailure else { return XCTFail("\(S.name): unexpected \(error)") }
                XCTAssertEqual(failure.strategy, S.name)
                XCTAssertEqual(failure.check, .tagLinks)
                XCTAssertEqual(failure.description,
                               "the \(S.name) store holds \(remaining) tag links, but the generator produced \(Self.census.tagLinks)")
            }
        }
    }

    func testWrongCountsPerTypeFailTheCheck() throws {
        for type in Strategies.all { try wrongCountsFail(type) }
    }

    private func wrongCountsFail<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let strategy = try populatedStore(type, Self.configuration, in: folder)
        var expected = Self.census
        expected.countsByKind[EntityKind.book.rawValue] += 1
        XCTAssertThrowsError(try StoreBuilder.checkIntegrity(strategy, expected: expected)) { error in
            let failure = error as? IntegrityFailure
            XCTAssertEqual(failure?.check, .countsByType, "\(S.name): \(error)")
            XCTAssertEqual(failure?.description,
                           "the \(S.name) store holds \(Self.census.countsByKind) publications per type, but the generator produced \(expected.countsByKind)")
        }
    }

    /// An index whose entries no longer match its table (redefined through `writable_schema`)
    /// is what `PRAGMA integrity_check` exists to find.
    func testACorruptIndexFailsTheCheck() throws {
        for type in Strategies.all { try corruptIndexFails(type) }
    }

    private func corruptIndexFails<S: StorageStrategy>(_ type: S.Type) throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        let path = try populatedStore(type, Self.configuration, in: folder).database.path
        try Database(path: path).execute("""
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = 'CREATE INDEX Z_TAG_UNIQUE_NAME ON ZTAG (Z_OPT)' WHERE name = 'Z_TAG_UNIQUE_NAME';
            PRAGMA writable_schema = OFF;
            """)
        // A new connection reads the altered schema.
        let reopened = S(database: try StoreFile.open(path))
        XCTAssertThrowsError(try StoreBuilder.checkIntegrity(reopened, expected: Self.census)) { error in
            let failure = error as? IntegrityFailure
            XCTAssertEqual(failure?.check, .integrity, "\(S.name): \(error)")
            let description = failure?.description ?? ""
            XCTAssertTrue(description.hasPrefix("the \(S.name) store fails PRAGMA integrity_check: row 1 missing from index Z_TAG_UNIQUE_NAME"), description)
            XCTAssertTrue(description.contains("more"), "only the first lines are quoted: \(description)")
            XCTAssertFalse(description.contains("\n"), description)
        }
    }

    /// `populate` runs the check: a census the store cannot match stops it.
    func testPopulateChecksTheTagLinks() throws {
        let (folder, cleanup) = try temporaryFolder()
        defer { cleanup() }
        var expected = Self.census
        expected.tagLinks += 1
        let strategy = EnumEntityStrategy(database: try StoreFile.open(folder.appendingPathComponent("s.sqlite").path))
        XCTAssertThrowsError(try StoreBuilder.populate(strategy, generator: DatasetGenerator(Self.configuration), batchSize: 50, expected: expected)) {
            XCTAssertEqual(($0 as? IntegrityFailure)?.check, .tagLinks, "\($0)")
            XCTAssertTrue("\($0)".hasPrefix("the enum-entity store holds \(Self.census.tagLinks) tag links"), "\($0)")
        }
    }
}
