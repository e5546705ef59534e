import Dataset
import Foundation
import SQLite
import Strategies

/// Builds populated stores: for the read workloads, and for `bench generate`.
public enum StoreBuilder {
    /// Creates the schema in `strategy`'s empty store, inserts the whole dataset in transactions of
    /// `batchSize`, and checks the result with `checkIntegrity` (SQLite's own checks, then the
    /// publications per type and the tag links `expected`).
    public static func populate<S: StorageStrategy>(
        _ strategy: S, generator: DatasetGenerator, batchSize: Int, expected: DatasetGenerator.Census
    ) throws {
        try strategy.createSchema(tags: generator.tags)
        for batch in generator.batches(of: batchSize) { try strategy.insert(batch) }
        try checkIntegrity(strategy, expected: expected)
        try StoreFile.checkpoint(strategy.database)
    }

    /// Checks that `strategy`'s store is sound and holds exactly what the generator produced:
    /// 1. `PRAGMA integrity_check` answers exactly `ok` (b-trees, indexes, UNIQUE and NOT NULL constraints);
    /// 2. `PRAGMA foreign_key_check` reports no row (Core Data declares no `FOREIGN KEY`, so this
    ///    guards any strategy that does);
    /// 3. `countByType()` equals `expected.countsByKind`;
    /// 4. `countTagLinks()` equals `expected.tagLinks`.
    ///
    /// Run it after every store generation and every timed insert, outside the timed region:
    /// `integrity_check` reads the whole file and checks every index against its table (0.7 s for
    /// 100,000 publications here). With `thorough: false`, `PRAGMA quick_check` replaces it: the same
    /// page and record checks without the index-against-table comparison, about ten times as fast,
    /// for the repeated stores of one workload once the first has passed the full check.
    /// - throws: `IntegrityFailure` for the first check that fails; `SQLiteError` if a check cannot run.
    public static func checkIntegrity<S: StorageStrategy>(_ strategy: S, expected: DatasetGenerator.Census, thorough: Bool = true) throws {
        let database = strategy.database
        let check: IntegrityFailure.Check = thorough ? .integrity : .quick
        let integrity = try database.strings(check.rawValue)
        guard integrity == ["ok"] else {
            throw IntegrityFailure(strategy: S.name, check: check, description:
                "the \(S.name) store fails \(check.rawValue): \(IntegrityFailure.summary(integrity))")
        }
        let violations = try foreignKeyViolations(database)
        guard violations.isEmpty else {
            throw IntegrityFailure(strategy: S.name, check: .foreignKeys, description:
                "the \(S.name) store has \(violations.count) rows whose foreign key points nowhere (PRAGMA foreign_key_check): \(IntegrityFailure.summary(violations))")
        }
        let found = try strategy.countByType()
        guard found == expected.countsByKind else {
            throw IntegrityFailure(strategy: S.name, check: .countsByType, description:
                "the \(S.name) store holds \(found) publications per type, but the generator produced \(expected.countsByKind)")
        }
        let links = try strategy.countTagLinks()
        guard links == expected.tagLinks else {
            throw IntegrityFailure(strategy: S.name, check: .tagLinks, description:
                "the \(S.name) store holds \(links) tag links, but the generator produced \(expected.tagLinks)")
        }
    }

    /// One line per row `PRAGMA foreign_key_check` reports: `table rowid N -> parent (constraint k)`.
    private static func foreignKeyViolations(_ database: Database) throws -> [String] {
        let statement = try database.prepare("PRAGMA foreign_key_check")
        var lines: [String] = []
        while try statement.step() {
            let rowid = statement.isNull(at: 1) ? "(no rowid)" : "rowid \(statement.int64(at: 1))"
            lines.append("\(statement.string(at: 0)) \(rowid) -> \(statement.string(at: 2)) (constraint \(statement.int64(at: 3)))")
        }
        return lines
    }

    /// Writes a populated store for `strategyName` to `path`, which must not exist. The store is
    /// built under a temporary name in the same folder and renamed into place only when complete;
    /// on failure nothing is left behind.
    public static func generate(strategyName: String, dataset: DatasetConfiguration, batchSize: Int, path: String) throws -> DatasetGenerator.Census {
        guard let type = Strategies.named(strategyName) else {
            throw NameList.unknown(strategyName, valid: Strategies.names, what: "strategy")
        }
        let url = URL(fileURLWithPath: path)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
        let generator = DatasetGenerator(dataset)
        let census = generator.census()
        do {
            try build(type, generator: generator, batchSize: batchSize, census: census, path: partial)
            guard rename(partial, path) == 0 else {
                throw NameList.Error(description: "could not move the finished store to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
            throw error
        }
        return census
    }

    private static func build<S: StorageStrategy>(
        _: S.Type, generator: DatasetGenerator, batchSize: Int, census: DatasetGenerator.Census, path: String
    ) throws {
        // Closing the connection (end of scope) checkpoints and removes the WAL, leaving one file.
        let strategy = S(database: try StoreFile.open(path))
        try populate(strategy, generator: generator, batchSize: batchSize, expected: census)
    }
}

/// A store that is damaged, or does not hold what the generator produced. The description is one
/// sentence naming the strategy, the check, and what differed.
public struct IntegrityFailure: Error, CustomStringConvertible, Equatable {
    /// Which of `StoreBuilder.checkIntegrity`'s checks failed.
    public enum Check: String, Sendable {
        case integrity = "PRAGMA integrity_check"
        case quick = "PRAGMA quick_check"
        case foreignKeys = "PRAGMA foreign_key_check"
        case countsByType = "publications per type"
        case tagLinks = "tag links"
        case tags = "tags"
    }

    /// The strategy whose store failed.
    public let strategy: String
    public let check: Check
    public let description: String

    public init(strategy: String, check: Check, description: String) {
        self.strategy = strategy
        self.check = check
        self.description = description
    }

    /// The first few lines a pragma reported, on one line, with how many more there were.
    static func summary(_ lines: [String], limit: Int = 3) -> String {
        let shown = lines.prefix(limit).map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "; ")
        return lines.count > limit ? "\(shown); … and \(lines.count - limit) more" : shown
    }
}
