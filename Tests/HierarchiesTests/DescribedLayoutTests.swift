import Dataset
import Foundation
@testable import Hierarchies
import SQLite
import Strategies
import XCTest

/// The layouts derived from a description, pinned statement by statement, for a hierarchy with a
/// concrete base, a name two sub-entities share (`url`), several types and an owner.
final class DescribedLayoutTests: XCTestCase {
    static let description = HierarchyDescription(
        name: "pin",
        base: .init(name: "Root", abstract: false, attributes: [.init("label", .string)], rows: 1),
        subEntities: [
            .init(name: "Alpha", attributes: [.init("url", .string), .init("size", .integer)], rows: 1),
            .init(name: "Beta", attributes: [.init("url", .string), .init("when", .date)], rows: 1),
        ],
        owner: .init(entity: "Shelf", relationship: "shelf", rows: 2))

    static let expected: [String: [String]] = [
        "single-table": [
            "CREATE TABLE ZROOT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZSIZE INTEGER, ZWHEN TIMESTAMP, ZLABEL VARCHAR, ZURL VARCHAR, ZURL1 VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ZROOT_Z_ENT_INDEX ON ZROOT (Z_ENT)",
            "CREATE INDEX ZROOT_ZSHELF_INDEX ON ZROOT (ZSHELF)",
            "CREATE UNIQUE INDEX Z_ROOT_UNIQUE_UID ON ZROOT (ZUID)",
            "CREATE UNIQUE INDEX Z_SHELF_UNIQUE_NAME ON ZSHELF (ZNAME)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ],
        "table-per-entity": [
            "CREATE TABLE ZALPHA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZSIZE INTEGER, ZLABEL VARCHAR, ZURL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZBETA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZWHEN TIMESTAMP, ZLABEL VARCHAR, ZURL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZROOT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZLABEL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ZALPHA_ZSHELF_INDEX ON ZALPHA (ZSHELF)",
            "CREATE INDEX ZBETA_ZSHELF_INDEX ON ZBETA (ZSHELF)",
            "CREATE INDEX ZROOT_ZSHELF_INDEX ON ZROOT (ZSHELF)",
            "CREATE UNIQUE INDEX Z_ALPHA_UNIQUE_UID ON ZALPHA (ZUID)",
            "CREATE UNIQUE INDEX Z_BETA_UNIQUE_UID ON ZBETA (ZUID)",
            "CREATE UNIQUE INDEX Z_ROOT_UNIQUE_UID ON ZROOT (ZUID)",
            "CREATE UNIQUE INDEX Z_SHELF_UNIQUE_NAME ON ZSHELF (ZNAME)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ],
        "enum-entity": [
            "CREATE TABLE ZROOT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZSHELF INTEGER, ZSLOTINTEGER1 INTEGER, ZSLOTDATE1 TIMESTAMP, ZLABEL VARCHAR, ZSLOTSTRING1 VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ZROOT_ZSHELF_INDEX ON ZROOT (ZSHELF)",
            "CREATE UNIQUE INDEX Z_ROOT_UNIQUE_UID ON ZROOT (ZUID)",
            "CREATE INDEX Z_Root_byKind ON ZROOT (ZKIND COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_SHELF_UNIQUE_NAME ON ZSHELF (ZNAME)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ],
        "joined": [
            "CREATE TABLE ZROOT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, ZLABEL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ZROOT_Z_ENT_INDEX ON ZROOT (Z_ENT)",
            "CREATE INDEX ZROOT_ZSHELF_INDEX ON ZROOT (ZSHELF)",
            "CREATE UNIQUE INDEX Z_ROOT_UNIQUE_UID ON ZROOT (ZUID)",
            "CREATE UNIQUE INDEX Z_SHELF_UNIQUE_NAME ON ZSHELF (ZNAME)",
            "CREATE TABLE ZALPHA ( Z_PK INTEGER PRIMARY KEY, ZSIZE INTEGER, ZURL VARCHAR )",
            "CREATE TABLE ZBETA ( Z_PK INTEGER PRIMARY KEY, ZWHEN TIMESTAMP, ZURL VARCHAR )",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ],
        "json-entity": [
            "CREATE TABLE ZROOT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZKIND INTEGER, ZSHELF INTEGER, ZDETAILS VARCHAR, ZLABEL VARCHAR, ZUID BLOB )",
            "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE INDEX ZROOT_ZSHELF_INDEX ON ZROOT (ZSHELF)",
            "CREATE UNIQUE INDEX Z_ROOT_UNIQUE_UID ON ZROOT (ZUID)",
            "CREATE INDEX Z_Root_byKind ON ZROOT (ZKIND COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_SHELF_UNIQUE_NAME ON ZSHELF (ZNAME)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
        ],
    ]

    func testEveryLayoutIsPinned() throws {
        XCTAssertEqual(Set(Self.expected.keys), Set(DescribedStrategies.names))
        for type in DescribedStrategies.all {
            let strategy = type.init(database: try Database(path: ":memory:"), description: Self.description)
            XCTAssertEqual(strategy.schemaSQL, Self.expected[type.name], type.name)
            // The statements run, and the bookkeeping rows follow Core Data's (Z_MAX on the root row only).
            try strategy.createSchema(owners: 2)
            try strategy.insert(HierarchyGenerator(Self.description, seed: 1).objects(0 ..< 3))
            XCTAssertEqual(try strategy.database.scalarInt("SELECT COUNT(*) FROM ZSHELF"), 2, type.name)
            XCTAssertEqual(try strategy.database.scalarInt("SELECT SUM(Z_MAX) FROM Z_PRIMARYKEY"), 5, type.name)
        }
    }

    func testSingleTableNumbersEntitiesAsCoreDataDoes() throws {
        let strategy = DescribedSingleTable(database: try Database(path: ":memory:"), description: Self.description)
        try strategy.createSchema(owners: 0)
        // Roots in name order (Root, Shelf), each followed by its sub-entities in name order.
        XCTAssertEqual(try strategy.database.strings("SELECT Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"),
                       ["1 Root 0", "2 Alpha 1", "3 Beta 1", "4 Shelf 0"])
    }
}
