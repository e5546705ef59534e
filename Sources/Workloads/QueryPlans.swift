import Dataset
import Foundation
import SQLite
import Strategies

/// What a workload's query plans may do; `bench explain` and the tests flag anything else.
/// Each workload's rule is written out in `Workload.planRule`.
public struct PlanRule: Sendable, Equatable, CustomStringConvertible {
    /// Where a plan line may read a whole table with no index (`SCAN t0`, no `USING`).
    public enum Scans: Sendable, Equatable {
        /// Every row is the answer: reading the whole table is the work (fetch-polymorphic, count-all).
        case allowed
        /// Only a statement that reads a table which is itself the whole answer: no WHERE and no
        /// ORDER BY (table-per-entity's Book table for every Book, one table's count).
        case onlyWholeTableAnswers
        /// Never: a lookup, a search, a page, an update or a delete finds its rows through an index.
        case never
    }

    public var scans: Scans
    /// Whether the answer's order must be read from an index rather than sorted (`USE TEMP B-TREE FOR ORDER BY`).
    public var orderFromIndex: Bool

    public init(scans: Scans, orderFromIndex: Bool) { self.scans = scans; self.orderFromIndex = orderFromIndex }

    public var description: String {
        let scan = switch scans {
        case .allowed: "may scan whole tables (every row is the answer)"
        case .onlyWholeTableAnswers: "may scan only a table that is the whole answer (no WHERE, no ORDER BY)"
        case .never: "must not scan a whole table"
        }
        return orderFromIndex ? scan + "; must read its order from an index, not sort" : scan
    }
}

extension Workload {
    /// The rule this workload's plans are held to (insert workloads run no query to explain).
    public var planRule: PlanRule {
        switch self {
        case .fetchPolymorphic: PlanRule(scans: .allowed, orderFromIndex: true)
        case .countAll: PlanRule(scans: .allowed, orderFromIndex: false)
        case .fetchPage, .pageOffset, .pageKeyset: PlanRule(scans: .never, orderFromIndex: true)
        case .fetchLeaf, .countLeaf, .countByType: PlanRule(scans: .onlyWholeTableAnswers, orderFromIndex: false)
        case .fetchByTag, .lookupComposite, .lookupAttribute, .searchTitle, .update, .deleteCascade, .insertBulk, .insertSingle:
            PlanRule(scans: .never, orderFromIndex: false)
        }
    }
}

/// The query plan of one statement a workload runs, and what its workload's rule flags in it.
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

    /// The workload's rule; the strictest rule for a name that is no workload.
    public var rule: PlanRule {
        Workload(rawValue: workload)?.planRule ?? PlanRule(scans: .never, orderFromIndex: true)
    }

    /// Whether a plan line reads a whole table with no index ("SCAN t0"; not "SCAN t0 USING …",
    /// nor the constant row or a subquery's result, which are no tables).
    public static func isFullTableScan(_ line: String) -> Bool {
        line.hasPrefix("SCAN ") && !line.contains("USING") && line != "SCAN CONSTANT ROW" && !line.hasPrefix("SCAN (")
    }

    /// Plan lines that read a whole table with no index where the workload's rule forbids it.
    public var unexpectedFullScans: [String] {
        let scans = plan.filter(Self.isFullTableScan)
        switch rule.scans {
        case .allowed: return []
        case .onlyWholeTableAnswers: return !sql.contains("WHERE") && !sql.contains("ORDER BY") ? [] : scans
        case .never: return scans
        }
    }

    /// Whether an ORDER BY is answered by sorting rather than by reading an index in order.
    public var sortsForOrderBy: Bool { plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") } }

    /// A sort where the workload's rule wants the order read from an index.
    public var sortsUnexpectedly: Bool { rule.orderFromIndex && sortsForOrderBy }

    /// Explains every statement every workload runs on `strategy`'s store.
    public static func explain<S: StorageStrategy>(_ strategy: S, sample: QuerySample) throws -> [QueryPlan] {
        try strategy.workloadQueries(sample).map { query in
            QueryPlan(strategy: S.name, workload: query.workload, sql: query.sql, plan: try strategy.database.queryPlan(query.sql, query.values))
        }
    }

    /// Builds each strategy's store from `dataset` in a temporary folder and explains every
    /// workload's statements with the run's own parameters (the same isbn, tag, window, page,
    /// title prefix and uids the workloads use).
    public static func explainAll(strategies: [String], dataset: DatasetConfiguration, batchSize: Int,
                                  temporaryParent: URL = FileManager.default.temporaryDirectory) throws -> [QueryPlan] {
        let folder = temporaryParent.appendingPathComponent("inheritance-bench-explain-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = DatasetGenerator(dataset)
        let census = generator.census()
        let sample = WorkloadParameters(generator: generator).querySample
        return try strategies.flatMap { name -> [QueryPlan] in
            guard let type = Strategies.named(name) else { throw NameList.unknown(name, valid: Strategies.names, what: "strategy") }
            return try explain(type, generator: generator, census: census, batchSize: batchSize, sample: sample,
                               path: folder.appendingPathComponent("\(name).sqlite").path)
        }
    }

    private static func explain<S: StorageStrategy>(
        _: S.Type, generator: DatasetGenerator, census: DatasetGenerator.Census, batchSize: Int, sample: QuerySample, path: String
    ) throws -> [QueryPlan] {
        let strategy = S(database: try StoreFile.open(path))
        try StoreBuilder.populate(strategy, generator: generator, batchSize: batchSize, expected: census)
        return try explain(strategy, sample: sample)
    }

    /// A plain-text report: the rule of each workload explained, then per strategy and statement
    /// the SQL, its plan, and any flag.
    public static func report(_ plans: [QueryPlan]) -> String {
        var workloads: [String] = []
        for plan in plans where !workloads.contains(plan.workload) { workloads.append(plan.workload) }
        let width = workloads.map(\.count).max() ?? 0
        let rules = "rules:\n" + workloads.map { name in
            let rule = plans.first { $0.workload == name }!.rule
            return "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(rule)\n"
        }.joined()
        return ([rules] + plans.map { plan in
            var text = "\(plan.strategy) · \(plan.workload)\n  \(plan.sql)\n" + plan.plan.map { "    \($0)\n" }.joined()
            for scan in plan.unexpectedFullScans { text += "  !! full table scan \(plan.workload) should not need: \(scan)\n" }
            if plan.sortsUnexpectedly { text += "  !! \(plan.workload) sorts instead of reading its order from an index\n" }
            return text
        }).joined(separator: "\n")
    }

    /// Plans with a flag (a full scan the workload should not need, or a sort where the order should come from an index).
    public static func flagged(_ plans: [QueryPlan]) -> [QueryPlan] {
        plans.filter { !$0.unexpectedFullScans.isEmpty || $0.sortsUnexpectedly }
    }
}
