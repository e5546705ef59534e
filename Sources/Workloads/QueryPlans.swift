import Dataset
import Foundation
import SQLite
import Strategies

/// The query plans of each strategy's lookups, and the full table scans a lookup should not need.
public struct QueryPlan: Sendable {
    public var strategy: String
    public var workload: String
    public var sql: String
    /// The detail lines of `EXPLAIN QUERY PLAN`, in order.
    public var plan: [String]

    public init(strategy: String, workload: String, sql: String, plan: [String]) {
        self.strategy = strategy
        self.workload = workload
        self.sql = sql
        self.plan = plan
    }

    /// Plan lines that read a whole table with no index ("SCAN t0"). Such a scan is right only
    /// when the whole table is the answer: a query with no WHERE and no ORDER BY (for example
    /// table-per-entity's Book table, read for every Book).
    public var unexpectedFullScans: [String] {
        let wholeTableIsTheAnswer = !sql.contains("WHERE") && !sql.contains("ORDER BY")
        return wholeTableIsTheAnswer ? [] : plan.filter { $0.hasPrefix("SCAN ") && !$0.contains("USING") }
    }

    /// A page query (`fetch-page`, `page-keyset`): its order must come from an index, not a sort.
    public var isPage: Bool { workload == "fetch-page" || workload == "page-keyset" }

    /// Whether an ORDER BY is answered by sorting rather than by reading an index in order.
    public var sortsForOrderBy: Bool { plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") } }

    /// Explains every lookup query of `strategy`'s store.
    public static func explain<S: StorageStrategy>(_ strategy: S, sample: LookupSample) throws -> [QueryPlan] {
        try strategy.lookupQueries(sample).map { query in
            QueryPlan(strategy: S.name, workload: query.workload, sql: query.sql, plan: try strategy.database.queryPlan(query.sql, query.values))
        }
    }

    /// Builds each strategy's store from `dataset` in a temporary folder and explains its lookups
    /// with the run's own parameters (the same isbn, tag and window the workloads use).
    public static func explainAll(strategies: [String], dataset: DatasetConfiguration, batchSize: Int,
                                  temporaryParent: URL = FileManager.default.temporaryDirectory) throws -> [QueryPlan] {
        let folder = temporaryParent.appendingPathComponent("inheritance-bench-explain-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = DatasetGenerator(dataset)
        let census = generator.census()
        let sample = WorkloadParameters(generator: generator).lookupSample
        return try strategies.flatMap { name -> [QueryPlan] in
            guard let type = Strategies.named(name) else { throw NameList.unknown(name, valid: Strategies.names, what: "strategy") }
            return try explain(type, generator: generator, census: census, batchSize: batchSize, sample: sample,
                               path: folder.appendingPathComponent("\(name).sqlite").path)
        }
    }

    private static func explain<S: StorageStrategy>(
        _: S.Type, generator: DatasetGenerator, census: DatasetGenerator.Census, batchSize: Int, sample: LookupSample, path: String
    ) throws -> [QueryPlan] {
        let strategy = S(database: try StoreFile.open(path))
        try StoreBuilder.populate(strategy, generator: generator, batchSize: batchSize, expected: census)
        return try explain(strategy, sample: sample)
    }

    /// A plain-text report: per strategy and workload, the SQL, its plan, and any flag.
    public static func report(_ plans: [QueryPlan]) -> String {
        plans.map { plan in
            var text = "\(plan.strategy) · \(plan.workload)\n  \(plan.sql)\n" + plan.plan.map { "    \($0)\n" }.joined()
            for scan in plan.unexpectedFullScans { text += "  !! full table scan a lookup should not need: \(scan)\n" }
            if plan.isPage, plan.sortsForOrderBy { text += "  !! the page is sorted instead of read from an index\n" }
            return text
        }.joined(separator: "\n")
    }

    /// Plans with a flag (a full scan a lookup should not need, or a sorted page).
    public static func flagged(_ plans: [QueryPlan]) -> [QueryPlan] {
        plans.filter { !$0.unexpectedFullScans.isEmpty || ($0.isPage && $0.sortsForOrderBy) }
    }
}
