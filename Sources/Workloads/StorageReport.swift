import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// Where a store's bytes go: per table and per index, and how much of each table is NULL.
///
/// Sizes come from SQLite's `dbstat` virtual table (compiled into most builds, including
/// Debian's); without it, only the whole file is reported.
public struct StorageReport: Sendable {
    public struct Object: Sendable, Equatable {
        public var name: String
        /// "table" or "index".
        public var type: String
        /// The table an index belongs to (the table itself for a table).
        public var table: String
        public var pages: Int
        public var bytes: Int
        /// For tables: cells (rows × columns) and how many of them are NULL.
        public var cells: Int?
        public var nullCells: Int?
        public var nullShare: Double? { cells.flatMap { $0 > 0 ? Double(nullCells ?? 0) / Double($0) : nil } }
    }

    public var strategy: String
    public var publications: Int
    public var fileBytes: Int64
    public var pageSize: Int
    public var pageCount: Int
    /// Every table and index with its pages, largest first; empty without `dbstat`.
    public var objects: [Object]

    public var bytesPerPublication: Double { publications > 0 ? Double(fileBytes) / Double(publications) : 0 }

    /// The share of NULL cells over the entity tables (`Z…`, not join tables or bookkeeping `Z_…`).
    public var publicationNullShare: Double? {
        let tables = objects.filter { $0.type == "table" && $0.cells != nil && Self.isEntityTable($0.name) }
        let cells = tables.reduce(0) { $0 + ($1.cells ?? 0) }
        return cells > 0 ? Double(tables.reduce(0) { $0 + ($1.nullCells ?? 0) }) / Double(cells) : nil
    }

    static func isEntityTable(_ name: String) -> Bool { name.hasPrefix("Z") && !name.hasPrefix("Z_") }

    /// Measures the store behind `database` (checkpointed first, so the file holds everything).
    public static func measure(_ database: Database, strategy: String, publications: Int) throws -> StorageReport {
        try StoreFile.checkpoint(database)
        let pageSize = Int(try database.scalarInt("PRAGMA page_size") ?? 0)
        let pageCount = Int(try database.scalarInt("PRAGMA page_count") ?? 0)
        let fileBytes = ((try? FileManager.default.attributesOfItem(atPath: database.path))?[.size] as? NSNumber)?.int64Value ?? 0
        var objects: [Object] = []
        let schema = try database.prepare("SELECT name, type, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')")
        var owners: [String: (type: String, table: String)] = [:]
        while try schema.step() { owners[schema.string(at: 0)] = (schema.string(at: 1), schema.string(at: 2)) }
        if let stats = try? database.prepare("SELECT name, COUNT(*), SUM(pgsize) FROM dbstat GROUP BY name ORDER BY SUM(pgsize) DESC") {
            while try stats.step() {
                let name = stats.string(at: 0)
                let owner = owners[name] ?? ("table", name)
                objects.append(Object(name: name, type: owner.type, table: owner.table, pages: stats.int(at: 1), bytes: stats.int(at: 2)))
            }
        }
        for index in objects.indices where objects[index].type == "table" && owners[objects[index].name] != nil {
            let (cells, nulls) = try nullCells(database, table: objects[index].name)
            objects[index].cells = cells
            objects[index].nullCells = nulls
        }
        return StorageReport(strategy: strategy, publications: publications, fileBytes: fileBytes, pageSize: pageSize,
                             pageCount: pageCount, objects: objects)
    }

    /// Rows × columns of `table`, and how many of those cells are NULL. The names come from the
    /// store's own schema, not from input, and are quoted as identifiers.
    static func nullCells(_ database: Database, table: String) throws -> (cells: Int, nulls: Int) {
        let columns = try database.strings("SELECT name FROM pragma_table_info(?)", [table])
        guard !columns.isEmpty else { return (0, 0) }
        let quoted = { (name: String) in "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        let counts = columns.map { "COUNT(\(quoted($0)))" }.joined(separator: " + ")
        let statement = try database.prepare("SELECT COUNT(*), \(counts) FROM \(quoted(table))")
        guard try statement.step() else { return (0, 0) }
        let rows = statement.int(at: 0)
        let filled = statement.int(at: 1)
        return (rows * columns.count, rows * columns.count - filled)
    }

    /// Builds a store of the dataset for each strategy in a temporary folder (untimed, checked) and measures it.
    public static func run(strategies: [any StorageLayout.Type], dataset: any Dataset, batchSize: Int,
                           temporaryParent: URL = FileManager.default.temporaryDirectory,
                           progress: (String) -> Void = { _ in }) throws -> [StorageReport] {
        let folder = temporaryParent.appendingPathComponent("inheritance-bench-storage-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = dataset.model, census = Census(dataset)
        return try strategies.map { type in
            let name = type.name
            progress(name)
            let store = try MeasuredStore(try type.init(model: model), path: folder.appendingPathComponent("\(name).sqlite").path)
            defer { store.remove() }
            try store.populate(dataset, batchSize: batchSize, census: census)
            return try measure((try store.opened).database, strategy: name, publications: dataset.count(root: model.mainRoot))
        }
    }
}
