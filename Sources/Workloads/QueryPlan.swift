import Foundation
import Generation
import Models
import SQLite
import Strategies

/// A statement of a workload, with SQLite's `EXPLAIN QUERY PLAN` for it, and whether it keeps
/// its workload's plan rule (`Workload.PlanRule`).
public struct QueryPlan: Sendable {
    public var strategy: String
    public var workload: String
    public var rule: Workload.PlanRule
    public var sql: String
    public var plan: [String]

    /// A `SCAN t` line without an index: every row of a table read.
    public static func isFullTableScan(_ line: String) -> Bool {
        line.hasPrefix("SCAN ") && !line.contains("USING") && line != "SCAN CONSTANT ROW" && !line.hasPrefix("SCAN (")
    }

    /// Scans the rule forbids: none, scans of a table read whole (no WHERE, no ORDER BY), or any.
    public var unexpectedFullScans: [String] {
        let scans = plan.filter(Self.isFullTableScan)
        switch rule {
        case .any: return []
        case .noScanUnlessWholeTable:
            let words = Self.keywords(sql)
            let ordered = zip(words, words.dropFirst()).contains { $0 == ("ORDER", "BY") }
            return !words.contains("WHERE") && !ordered ? [] : scans
        case .noScan, .indexOrder: return scans
        }
    }

    /// The words of `sql` outside quotes, upper-cased: a column named `ZWHERE` or `"where"` is no `WHERE`.
    static func keywords(_ sql: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if !word.isEmpty { words.append(word.uppercased()); word = "" }
            if character == "'" || character == "\"" || character == "`" { quote = character }
            if character == "[" { quote = "]" }
        }
        if !word.isEmpty { words.append(word.uppercased()) }
        return words
    }

    public var sortsUnexpectedly: Bool { rule == .indexOrder && plan.contains { $0.contains("TEMP B-TREE FOR ORDER BY") } }

    public static func describe(_ rule: Workload.PlanRule) -> String {
        switch rule {
        case .any: "may scan whole tables (every row is the answer)"
        case .noScanUnlessWholeTable: "may scan only a table that is the whole answer (no WHERE, no ORDER BY)"
        case .noScan: "must not scan a whole table"
        case .indexOrder: "must not scan a whole table, and must read its order from an index, not sort"
        }
    }

    /// The plans of every statement of every read workload that applies to `model`, for each
    /// strategy, on stores built (untimed, checked) in a temporary folder.
    public static func explainAll(strategies: [String], model: Model, seed: UInt64, batchSize: Int,
                                  temporaryParent: URL = FileManager.default.temporaryDirectory) throws -> [QueryPlan] {
        let folder = temporaryParent.appendingPathComponent("inheritance-bench-explain-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = ObjectGeneratorBox(model: model, seed: seed)
        return try strategies.flatMap { name -> [QueryPlan] in
            guard let type = Strategies.named(name) else { throw NameList.unknown(name, valid: Strategies.names, what: "strategy") }
            let store = try Store(try type.init(model: model), path: folder.appendingPathComponent("\(name).sqlite").path)
            defer { store.remove() }
            try store.populate(generator.generator, batchSize: batchSize, census: generator.census)
            return try explain((try store.opened), generator.inputs)
        }
    }

    /// The plans of one populated store.
    public static func explain(_ strategy: LayoutStore, _ inputs: WorkloadInputs) throws -> [QueryPlan] {
        var plans: [QueryPlan] = []
        let name = strategy.layout.name
        for workload in Workloads.applicable(to: inputs.model) where workload.kind == .read {
            for workloadCase in workload.cases(inputs) {
                // One statement per distinct shape: 1,000 lookups share one.
                var seen = Set<String>()
                for request in workloadCase.requests {
                    let query = workloadCase.counts ? try strategy.layout.countQuery(request) : try strategy.layout.fetchQuery(request)
                    guard seen.insert(query.sql).inserted else { continue }
                    let caseName = workloadCase.variant.isEmpty ? workload.name : "\(workload.name)/\(workloadCase.variant)"
                    plans.append(QueryPlan(strategy: name, workload: caseName, rule: workload.planRule, sql: query.sql,
                                           plan: try strategy.database.queryPlan(query.sql, query.values)))
                }
            }
        }
        return plans
    }

    /// The report `bench explain` prints: each workload's rule, then every statement and its plan,
    /// with `!!` lines where a plan breaks its rule.
    public static func report(_ plans: [QueryPlan]) -> String {
        var workloads: [(String, Workload.PlanRule)] = []
        for plan in plans where !workloads.contains(where: { $0.0 == plan.workload }) { workloads.append((plan.workload, plan.rule)) }
        let width = workloads.map(\.0.count).max() ?? 0
        let rules = "rules:\n" + workloads.map { name, rule in
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(describe(rule))\n"
        }.joined()
        return ([rules] + plans.map { plan in
            var text = "\(plan.strategy) · \(plan.workload)\n  \(plan.sql)\n" + plan.plan.map { "    \($0)\n" }.joined()
            for scan in plan.unexpectedFullScans { text += "  !! full table scan \(plan.workload) should not need: \(scan)\n" }
            if plan.sortsUnexpectedly { text += "  !! \(plan.workload) sorts instead of reading its order from an index\n" }
            return text
        }).joined(separator: "\n")
    }

    public static func flagged(_ plans: [QueryPlan]) -> [QueryPlan] { plans.filter { !$0.unexpectedFullScans.isEmpty || $0.sortsUnexpectedly } }
}

/// A model's generator with its census and workload inputs, made once.
struct ObjectGeneratorBox {
    let generator: ObjectGenerator
    let census: Census
    let inputs: WorkloadInputs
    init(model: Model, seed: UInt64) {
        generator = ObjectGenerator(model, seed: seed)
        census = Census(generator)
        inputs = WorkloadInputs(model: model, generator: generator)
    }
}
