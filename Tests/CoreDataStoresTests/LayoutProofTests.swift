import CoreDataLayout
import CoreDataStores
import Foundation
import Models
import SQLite
import Strategies
import TestSupport
import XCTest

/// The layout proof on the suite's own stores: every column, index and `Z_PRIMARYKEY` row in
/// place; a migration's appended column counted apart; each difference named.
final class LayoutProofTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("proof-tests-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func proof(_ path: String) throws -> LayoutProof {
        let store = try CoreDataStoreFile.read(path: path)
        return LayoutProof(model: try Model(store.description), store: store)
    }

    /// Every preset's store, and one with an ordered many-to-many (its join table's order key
    /// `Z_FOK_` is a column of the layout: the proof once called it missing from single-table, in
    /// every Photos store's `Z_28ASSETS (Z_28ALBUMS, Z_3ASSETS, Z_FOK_3ASSETS)`).
    func testTheSuitesStoresAreInPlace() throws {
        let playlists = ModelDescription(name: "Playlists", entities: [
            EntityDescription("Playlist", rows: 20, relationships: [RelationshipDescription("songs", destination: "Song", inverse: "playlists", toMany: true, ordered: true)]),
            EntityDescription("Song", rows: 50, relationships: [RelationshipDescription("playlists", destination: "Playlist", inverse: "songs", toMany: true)]),
        ])
        XCTAssertNotNil(CoreDataSchema(try Model(playlists)).joinTables.first?.orderColumn)
        let places = ModelDescription(name: "Places", entities: [
            EntityDescription("Place", rows: 20, attributes: [Attribute("latitude", .double), Attribute("longitude", .double)],
                              fetchIndexes: [FetchIndex("boundedByRect", [FetchIndex.Element(property: "latitude"), FetchIndex.Element(property: "longitude")], rtree: true)]),
            EntityDescription("Cafe", parent: "Place", rows: 20),
        ])
        for description in ModelPresets.all + [playlists, places] {
            let model = try Model(description).scaled()
            let path = folder.appendingPathComponent("\(model.name).sqlite").path
            try CoreDataStoreFixture.write(model, to: path)
            let proof = try proof(path)
            let schema = CoreDataSchema(model)
            let columns = model.roots.reduce(0) { $0 + schema.table(of: $1).tableOrder.count } + schema.joinTables.reduce(0) { $0 + ($1.orderColumn == nil ? 2 : 3) }
            let indexes = schema.indexSQL.count + schema.rtreeSQL.count / 4
            XCTAssertEqual(proof.summary, "layout: \(columns) of \(columns) columns in place, \(indexes) of \(indexes) indexes, Z_PRIMARYKEY \(model.entities.count) of \(model.entities.count)")
            XCTAssertEqual(proof.differences, [], model.name)
        }
    }

    /// Indexes a store holds for reasons outside its model are named, not counted as differences:
    /// the app's own (a name Core Data never gives), an earlier version's copy of a join table's
    /// index (its entity numbers), an earlier version's fetch index; an unexplained one still is one.
    func testIndexesOutsideTheModelAreNamed() throws {
        let model = try Model(ModelPresets.named("publications")!).scaled()
        let schema = CoreDataSchema(model)
        let path = folder.appendingPathComponent("Indexed.sqlite").path
        try CoreDataStoreFixture.write(model, to: path)
        let join = try XCTUnwrap(schema.joinTables.first)
        let table = schema.table(of: model.mainRoot).name
        let database = try Database(path: path)
        try database.execute("CREATE INDEX RADAR_1_INDEX ON \(join.name) (\(join.first.column))")
        try database.execute("CREATE INDEX Z_99OLD_Z_98OLD_INDEX ON \"\(join.name)\" (\(join.second.column), \(join.first.column))")
        try database.execute("CREATE INDEX Z_\(model.entities[model.mainRoot].name)_byOldName ON \(table) (Z_OPT)")
        try database.execute("CREATE INDEX ZZ_UNEXPLAINED ON \(table) (Z_OPT)")
        let proof = try proof(path)
        XCTAssertEqual(proof.differences, ["index ZZ_UNEXPLAINED is in the store, not in single-table"])
        XCTAssertEqual(proof.explained, [
            "index RADAR_1_INDEX is the app's own (Core Data gives no index such a name), not its model's",
            "index Z_99OLD_Z_98OLD_INDEX is an earlier model version's copy of \(join.name)_\(join.second.column)_INDEX (the same columns of the same table, named by that version's entity numbers), left by a migration",
            "index Z_\(model.entities[model.mainRoot].name)_byOldName is named as a fetch index of \(model.entities[model.mainRoot].name), which the model no longer declares: an earlier model version's, left by a migration",
        ])
        XCTAssertEqual(proof.indexesInPlace, proof.indexes)
    }

    /// An R-tree is in place only with its virtual table and all three triggers as Core Data
    /// writes them: a trigger written otherwise, or the R-tree missing, is a difference.
    func testAnRTreeIsComparedWholeWithItsTriggers() throws {
        let model = try Model(ModelDescription(name: "Places", entities: [
            EntityDescription("Place", rows: 20, attributes: [Attribute("latitude", .double), Attribute("longitude", .double)],
                              fetchIndexes: [FetchIndex("boundedByRect", [FetchIndex.Element(property: "latitude"), FetchIndex.Element(property: "longitude")], rtree: true)]),
        ]))
        let path = folder.appendingPathComponent("Places.sqlite").path
        try CoreDataStoreFixture.write(model, to: path)
        XCTAssertEqual(try proof(path).differences, [])
        let database = try Database(path: path)
        try database.execute("DROP TRIGGER Z_RT_Place_boundedByRect_DELETE")
        try database.execute("CREATE TRIGGER Z_RT_Place_boundedByRect_DELETE AFTER DELETE ON ZPLACE FOR EACH ROW BEGIN SELECT 1 ; END")
        let changed = try proof(path).differences
        XCTAssertEqual(changed.count, 1, "\(changed)")
        XCTAssertTrue(changed.first?.hasPrefix("R-tree Z_RT_Place_boundedByRect is in the store, but not as single-table keeps it: CREATE TRIGGER Z_RT_Place_boundedByRect_DELETE") == true, "\(changed)")
        try database.execute("DROP TABLE Z_RT_Place_boundedByRect")
        XCTAssertEqual(try proof(path).differences, ["R-tree Z_RT_Place_boundedByRect is not in the store"])
    }

    /// The publications store as an older model version made it, migrated in place: `ZSUBTITLE`
    /// added by `ALTER TABLE` (after ` , `), the cache the new model's.
    func testAMigratedColumnIsCountedApart() throws {
        let model = try Model(ModelPresets.named("publications")!).scaled()
        let older = model.description
        let root = older.entities.firstIndex { $0.parent == nil && $0.name == model.entities[model.mainRoot].name }!
        var newer = model.description
        newer.entities[root].attributes.append(Attribute("zzSubtitle", .string, optional: true))
        let path = folder.appendingPathComponent("Migrated.sqlite").path
        try CoreDataStoreFixture.write(try Model(older), to: path, cache: RawDeflate.deflate(CoreDataStoreFixture.archive(of: newer)))
        let table = "Z" + older.entities[root].name.uppercased()
        try Database(path: path).execute("ALTER TABLE \(table) ADD COLUMN ZZZSUBTITLE VARCHAR")
        XCTAssertTrue(try Database(path: path).strings("SELECT sql FROM sqlite_master WHERE name = '\(table)'")[0].contains(" , ZZZSUBTITLE VARCHAR"))
        let proof = try proof(path)
        XCTAssertTrue(proof.summary.contains("(1 appended by a migration)"), proof.summary)
        XCTAssertEqual(proof.columnsInPlace, proof.columns)
        XCTAssertEqual(proof.differences, [])
    }

    /// An entity a migration renamed keeps its earlier name in `Z_PRIMARYKEY` (as a migrated store
    /// of CoreDataPlus's fixtures does): in place when the model names it as the entity's renaming
    /// identifier, counted apart; any other name there is still a difference.
    func testARenamedEntityKeepsItsEarlierNameInPlace() throws {
        let model = try Model(ModelPresets.named("publications")!).scaled()
        let path = folder.appendingPathComponent("Renamed.sqlite").path
        try CoreDataStoreFixture.write(model, to: path, cache: RawDeflate.deflate(CoreDataStoreFixture.archive(of: model.description, renamings: ["Book": "PrintedBook"])))
        try Database(path: path).execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'PrintedBook' WHERE Z_NAME = 'Book'")
        let renamed = try proof(path)
        XCTAssertEqual(renamed.entitiesInPlace, model.entities.count)
        XCTAssertTrue(renamed.summary.hasSuffix("Z_PRIMARYKEY \(model.entities.count) of \(model.entities.count) (1 under the name before a migration renamed it)"), renamed.summary)
        XCTAssertEqual(renamed.differences, [])
        try Database(path: path).execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Novel' WHERE Z_NAME = 'PrintedBook'")
        let other = try proof(path)
        XCTAssertEqual(other.entitiesInPlace, model.entities.count - 1)
        XCTAssertEqual(other.differences.count, 1)
        XCTAssertTrue(other.differences[0].hasPrefix("Z_PRIMARYKEY ") && other.differences[0].contains(" is Novel (parent "), other.differences[0])
    }

    /// A dropped index, a renamed entity row and a column out of place: each one line.
    func testDifferencesAreNamed() throws {
        let model = try Model(ModelPresets.named("publications")!).scaled()
        let path = folder.appendingPathComponent("Changed.sqlite").path
        try CoreDataStoreFixture.write(model, to: path)
        let schema = CoreDataSchema(model)
        let index = try XCTUnwrap(schema.indexSQL.first).split(separator: " ")[2]
        let database = try Database(path: path)
        try database.execute("DROP INDEX \(index)")
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Renamed' WHERE Z_ENT = 1")
        let proof = try proof(path)
        XCTAssertEqual(proof.indexesInPlace, proof.indexes - 1)
        XCTAssertEqual(proof.entitiesInPlace, proof.entities - 1)
        XCTAssertEqual(proof.differences, [
            "index \(index) is not in the store",
            "Z_PRIMARYKEY 1 is Renamed (parent 0) in the store, \(model.entities[0].name) (parent 0) in single-table",
        ])
    }

    /// A later framework's store of a model without fetch indexes (CoreDataPlus's fixtures, 1044
    /// and 1344) makes a uniqueness constraint the unique index it makes today, not a clause of its
    /// table: that form is in place too; a constraint in neither form is a difference.
    func testAUniquenessConstraintOfAModelWithoutFetchIndexesMayBeAUniqueIndex() throws {
        let car = EntityDescription("Car", rows: 5, attributes: [Attribute("maker", .string), Attribute("numberPlate", .string)], uniquenessConstraints: [["numberPlate"]])
        let description = ModelDescription(name: "Cars", entities: [car])
        let path = folder.appendingPathComponent("Cars.sqlite").path
        try CoreDataStoreFixture.write(try Model(description), to: path, cache: RawDeflate.deflate(CoreDataStoreFixture.archive(of: description, legacyIndexes: true)))
        XCTAssertEqual(try Database(path: path).strings("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"), ["Z_Car_UNIQUE_numberPlate"])
        let unique = try proof(path)
        // In place under today's name: the summary does not call it an earlier framework's.
        XCTAssertFalse(unique.earlierIndexNames)
        XCTAssertFalse(unique.summary.contains("named as"), unique.summary)
        XCTAssertEqual(unique.indexesInPlace, unique.indexes)
        XCTAssertEqual(unique.indexes, 1)
        XCTAssertEqual(unique.differences, [])
        try Database(path: path).execute("DROP INDEX Z_Car_UNIQUE_numberPlate")
        XCTAssertEqual(try proof(path).differences, ["ZCAR: the store has no CONSTRAINT ZNUMBERPLATE UNIQUE (ZNUMBERPLATE)"])
    }

    /// A store of a framework before fetch indexes (Core Data 637), its statements as a real one
    /// (objc.io's Moody test store) has them: a uniqueness constraint as a table constraint, an
    /// indexed attribute's `ZMOOD_ZREMOTEIDENTIFIER_INDEX`, a compound index named by its columns
    /// without collation. Read from a cache without fetch index descriptions, every index is in
    /// place under those names.
    func testAnOlderFrameworksIndexNames() throws {
        let region = EntityDescription("GeographicRegion", abstract: true, attributes: [
            Attribute("markedForDeletionDate", .date, optional: true), Attribute("numberOfMoods", .integer64), Attribute("numericISO3166Code", .integer16),
            Attribute("uniquenessDummy", .integer16), Attribute("updatedAt", .date),
        ], uniquenessConstraints: [["numericISO3166Code", "uniquenessDummy"]], fetchIndexes: [FetchIndex("markedForDeletionDate_updatedAt", "markedForDeletionDate", "updatedAt")])
        let continent = EntityDescription("Continent", parent: "GeographicRegion", rows: 2, attributes: [Attribute("numberOfCountries", .integer64)],
                                          relationships: [RelationshipDescription("countries", destination: "Country", inverse: "continent", toMany: true)])
        let country = EntityDescription("Country", parent: "GeographicRegion", rows: 3, relationships: [
            RelationshipDescription("continent", destination: "Continent", inverse: "countries", optional: true),
            RelationshipDescription("moods", destination: "Mood", inverse: "country", toMany: true),
        ])
        let mood = EntityDescription("Mood", rows: 4, attributes: [
            Attribute("colors", .transformable, optional: true), Attribute("creatorID", .string, optional: true), Attribute("date", .date),
            Attribute("latitude", .double, optional: true), Attribute("longitude", .double, optional: true), Attribute("markedForDeletionDate", .date, optional: true),
            Attribute("markedForRemoteDeletion", .boolean), Attribute("remoteIdentifier", .string, optional: true),
        ], relationships: [RelationshipDescription("country", destination: "Country", inverse: "moods", optional: true)], fetchIndexes: [
            FetchIndex("markedForDeletionDate", "markedForDeletionDate"), FetchIndex("remoteIdentifier", "remoteIdentifier"),
            FetchIndex("markedForRemoteDeletion_markedForDeletionDate_date", "markedForRemoteDeletion", "markedForDeletionDate", "date"),
        ])
        let description = ModelDescription(name: "Moody", entities: [region, continent, country, mood])
        let path = folder.appendingPathComponent("Moody.sqlite").path
        try CoreDataStoreFixture.write(try Model(description), to: path, cache: RawDeflate.deflate(CoreDataStoreFixture.archive(of: description, legacyIndexes: true)), schemaSQL: [
            "CREATE TABLE ZGEOGRAPHICREGION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBEROFMOODS INTEGER, ZNUMERICISO3166CODE INTEGER, ZUNIQUENESSDUMMY INTEGER, ZNUMBEROFCOUNTRIES INTEGER, ZCONTINENT INTEGER, ZMARKEDFORDELETIONDATE TIMESTAMP, ZUPDATEDAT TIMESTAMP, CONSTRAINT ZNUMERICISO3166CODE_ZUNIQUENESSDUMMY UNIQUE (ZNUMERICISO3166CODE, ZUNIQUENESSDUMMY))",
            "CREATE TABLE ZMOOD ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMARKEDFORREMOTEDELETION INTEGER, ZCOUNTRY INTEGER, ZDATE TIMESTAMP, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZMARKEDFORDELETIONDATE TIMESTAMP, ZCREATORID VARCHAR, ZREMOTEIDENTIFIER VARCHAR, ZCOLORS BLOB )",
            "CREATE INDEX ZGEOGRAPHICREGION_ZCONTINENT_INDEX ON ZGEOGRAPHICREGION (ZCONTINENT)",
            "CREATE INDEX ZGEOGRAPHICREGION_Z_ENT_INDEX ON ZGEOGRAPHICREGION (Z_ENT)",
            "CREATE INDEX ZGEOGRAPHICREGION_ZMARKEDFORDELETIONDATE_ZUPDATEDAT ON ZGEOGRAPHICREGION (ZMARKEDFORDELETIONDATE, ZUPDATEDAT)",
            "CREATE INDEX ZMOOD_ZMARKEDFORDELETIONDATE_INDEX ON ZMOOD (ZMARKEDFORDELETIONDATE)",
            "CREATE INDEX ZMOOD_ZREMOTEIDENTIFIER_INDEX ON ZMOOD (ZREMOTEIDENTIFIER)",
            "CREATE INDEX ZMOOD_ZCOUNTRY_INDEX ON ZMOOD (ZCOUNTRY)",
            "CREATE INDEX ZMOOD_ZMARKEDFORREMOTEDELETION_ZMARKEDFORDELETIONDATE_ZDATE ON ZMOOD (ZMARKEDFORREMOTEDELETION, ZMARKEDFORDELETIONDATE, ZDATE)",
        ], frameworkVersion: 637)
        let store = try CoreDataStoreFile.read(path: path)
        XCTAssertTrue(store.legacyIndexes)
        let proof = LayoutProof(model: try Model(store.description), store: store)
        XCTAssertEqual(proof.summary, "layout: 16 of 16 columns in place, 8 of 8 indexes (named as a framework before fetch indexes names them), Z_PRIMARYKEY 4 of 4")
        XCTAssertEqual(proof.differences, [])
        // single-table of the model read is that framework's layout: what `bench generate` writes.
        XCTAssertEqual(store.description.legacyIndexes, true)
        let generated = try Database(path: folder.appendingPathComponent("Generated.sqlite").path)
        for statement in try SingleTable(model: try Model(store.description)).schemaSQL { try generated.execute(statement) }
        func layout(_ database: Database) throws -> [String] {
            try database.strings("SELECT name || ' ' || sql FROM sqlite_master WHERE type = 'index' OR name IN ('ZGEOGRAPHICREGION', 'ZMOOD') ORDER BY name")
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")") }
        }
        XCTAssertEqual(try layout(generated), try layout(Database(path: path)))
        let today = folder.appendingPathComponent("Today.sqlite").path
        try CoreDataStoreFixture.write(try Model(ModelPresets.all[0]).scaled(), to: today)
        XCTAssertNil(try CoreDataStoreFile.read(path: today).description.legacyIndexes, "today's store is laid out as today's framework lays it out")
    }

    func testColumnsOfAStatement() {
        let columns = LayoutProof.columns(ofTable: "CREATE TABLE ZCALL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATE TIMESTAMP, ZUUID BLOB , ZURL VARCHAR, ZFLAG INTEGER)")
        XCTAssertEqual(columns.base, ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZDATE TIMESTAMP", "ZUUID BLOB"])
        XCTAssertEqual(columns.appended, ["ZURL VARCHAR", "ZFLAG INTEGER"])
        XCTAssertEqual(LayoutProof.columns(ofTable: "CREATE TABLE Z_1TAGS ( Z_1ITEMS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1ITEMS, Z_2TAGS) )").base,
                       ["Z_1ITEMS INTEGER", "Z_2TAGS INTEGER"])
    }
}
