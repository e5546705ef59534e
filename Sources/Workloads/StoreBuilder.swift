import Dataset
import Foundation
import SQLite
import Strategies

/// Builds populated stores: for the read workloads, and for `bench generate`.
public enum StoreBuilder {
    /// Creates the schema in `strategy`'s empty store, inserts the whole dataset in transactions of
    /// `batchSize`, and checks that the store holds `expected` publications per type.
    public static func populate<S: StorageStrategy>(
        _ strategy: S, generator: DatasetGenerator, batchSize: Int, expected: DatasetGenerator.Census
    ) throws {
        try strategy.createSchema(tags: generator.tags)
        for batch in generator.batches(of: batchSize) { try strategy.insert(batch) }
        let found = try strategy.countByType()
        guard found == expected.countsByKind else {
            throw BenchmarkFailure.wrongContents(strategy: S.name, expected: expected.countsByKind, found: found)
        }
        try StoreFile.checkpoint(strategy.database)
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
