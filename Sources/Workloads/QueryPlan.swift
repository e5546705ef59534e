import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// A statement of a workload, with SQLite's `EXPLAIN QUERY PLAN` for it, and whether it keeps
/// its workload's plan rule (`Workload.PlanRule`) and the rule every statement keeps: no read
/// through Core Data's `Z_ENT` index past an index of a column the statement constrains.
public struct QueryPlan: Sendable {
    public var strategy: String
    public var workload: String
    public var rule: Workload.PlanRule
    public var sql: String
    public var plan: [String]
    /// Whether the plan was taken after `ANALYZE` (`bench explain --analyze`).
    public var analyzed = false
    /// The indexes the plan passes over when it reads a table through its `…_Z_ENT_INDEX`: those
    /// of the same table whose first column the statement's WHERE constrains (`entityIndexBypasses`).
    public var bypassedIndexes: [String] = []

    public init(strategy: String, workload: String, rule: Workload.PlanRule, sql: String, plan: [String],
                analyzed: Bool = false, bypassedIndexes: [String] = []) {
        self.strategy = strategy; self.workload = workload; self.rule = rule; self.sql = sql; self.plan = plan
        self.analyzed = analyzed; self.bypassedIndexes = bypassedIndexes
    }

    /// A `SCAN t` line without an index: every row of a table read.
    public static func isFullTableScan(_ line: String) -> Bool {
        line.hasPrefix("SCAN ") && !line.contains("USING") && line != "SCAN CONSTANT ROW" && !line.hasPrefix("SCAN (") && !line.hasPrefix("SCAN _Z_intarray")
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

    /// An index of the store and the first column it orders by.
    public struct IndexLead: Sendable, Equatable {
        public var name: String, table: String, column: String
        public init(name: String, table: String, column: String) { self.name = name; self.table = table; self.column = column }
    }

    /// Every index of `database` with its first column (indexes on expressions have none and are left out).
    static func indexLeads(_ database: Database) throws -> [IndexLead] {
        let statement = try database.prepare("""
            SELECT m.name, m.tbl_name, i.name FROM sqlite_master m JOIN pragma_index_info(m.name) i
            WHERE m.type = 'index' AND i.seqno = 0 AND i.name IS NOT NULL ORDER BY m.name
            """)
        var leads: [IndexLead] = []
        while try statement.step() {
            leads.append(IndexLead(name: statement.string(at: 0), table: statement.string(at: 1), column: statement.string(at: 2)))
        }
        return leads
    }

    /// The indexes a plan passes over for Core Data's `Z_ENT` index: for each plan line that reads a
    /// table (`SEARCH t0 USING [COVERING] INDEX <TABLE>_Z_ENT_INDEX (Z_ENT=?)`), the other indexes
    /// of that table whose first column the statement names as `t0.<COLUMN>` in its WHERE (up to an
    /// ORDER BY, GROUP BY or LIMIT). That is the plan a messenger app's sub-entity fetch by an
    /// indexed attribute got: every row of the sub-entity read to find one.
    static func entityIndexBypasses(plan: [String], sql: String, indexes: [IndexLead]) -> [String] {
        let words = keywords(sql)
        var bypassed: [String] = []
        for line in plan {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count >= 2, parts[0] == "SEARCH" || parts[0] == "SCAN",
                  let at = parts.firstIndex(of: "INDEX"), at + 1 < parts.count, parts[at + 1].hasSuffix("_Z_ENT_INDEX"),
                  let table = indexes.first(where: { $0.name == parts[at + 1] })?.table else { continue }
            let alias = parts[1].uppercased()
            var constrained = Set<String>()
            if let start = words.firstIndex(of: "WHERE") {
                let end = words[start...].firstIndex { ["ORDER", "GROUP", "LIMIT"].contains($0) } ?? words.endIndex
                for index in start ..< end - 1 where words[index] == alias { constrained.insert(words[index + 1]) }
            }
            for index in indexes where index.table == table && index.column.uppercased() != "Z_ENT" && constrained.contains(index.column.uppercased())
                && !bypassed.contains(index.name) {
                bypassed.append(index.name)
            }
        }
        return bypassed
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

    /// The plans of every statement of every read workload that applies to the dataset's model, for
    /// each strategy, on stores of the dataset built (untimed, checked) in a temporary folder; with
    /// `analyze`, each store's plans again after `ANALYZE` (those marked `analyzed`).
    public static func explainAll(strategies: [any StorageLayout.Type], dataset: any Dataset, batchSize: Int, analyze: Bool = false,
                                  workloads: [Workload] = Workloads.all, temporaryParent: URL = FileManager.default.temporaryDirectory) throws -> [QueryPlan] {
        let folder = temporaryParent.appendingPathComponent("inheritance-bench-explain-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = dataset.model, census = Census(dataset), inputs = WorkloadInputs(dataset: dataset)
        try dataset.checkReads()
        return try strategies.flatMap { type -> [QueryPlan] in
            let name = type.name
            let store = try MeasuredStore(try type.init(model: model), path: folder.appendingPathComponent("\(name).sqlite").path)
            defer { store.remove() }
            try store.populate(dataset, batchSize: batchSize, census: census)
            let opened = try store.opened
            let plans = try explain(opened, inputs, workloads: workloads)
            guard analyze else { return plans }
            try Self.analyze(opened.database)
            return try plans + explain(opened, inputs, workloads: workloads).map { var plan = $0; plan.analyzed = true; return plan }
        }
    }

    /// Runs `ANALYZE` (what Core Data's `NSSQLiteAnalyzeOption` does): SQLite's statistics of every
    /// index, which its planner reads from then on; then checkpoints, so that the WAL is empty again.
    public static func analyze(_ database: Database) throws {
        try database.execute("ANALYZE")
        try StoreFile.checkpoint(database)
    }

    /// The plans of one populated store, of `workloads`' reads that apply to its model.
    public static func explain(_ strategy: LayoutStore, _ inputs: WorkloadInputs, workloads: [Workload] = Workloads.all) throws -> [QueryPlan] {
        var plans: [QueryPlan] = []
        let name = strategy.layout.name
        let indexes = try indexLeads(strategy.database)
        for workload in workloads where workload.kind == .read && workload.applies(to: inputs.model) {
            for workloadCase in workload.cases(inputs) {
                // One statement per distinct shape: 1,000 lookups share one.
                var seen = Set<String>()
                let queries = try workloadCase.requests.map { try strategy.layout.query($0, counts: workloadCase.counts) }
                // A fetch of several statements (a batched fetch) reads a key list: its table must exist.
                if queries.contains(where: { $0.program != nil }) { try strategy.database.execute(KeyList.create) }
                for query in queries.flatMap(\.statements) {
                    guard seen.insert(query.sql).inserted else { continue }
                    let caseName = workloadCase.variant.isEmpty ? workload.name : "\(workload.name)/\(workloadCase.variant)"
                    let plan = try strategy.database.queryPlan(query.sql, query.values)
                    plans.append(QueryPlan(strategy: name, workload: caseName, rule: workload.planRule, sql: query.sql, plan: plan,
                                           bypassedIndexes: entityIndexBypasses(plan: plan, sql: query.sql, indexes: indexes)))
                }
            }
        }
        return plans
    }

    /// The rule every statement keeps, whatever its workload's.
    static let entityIndexRule = "no statement may read a table through its Z_ENT index past an index of a column its WHERE constrains"

    /// The report `bench explain` prints: each workload's rule, then every statement and its plan,
    /// with `!!` lines where a plan breaks a rule. With plans taken after `ANALYZE` too, each
    /// statement shows the plan after it, both plans where they differ, and the report ends with
    /// the list of the plans `ANALYZE` changed.
    public static func report(_ plans: [QueryPlan]) -> String {
        var workloads: [(String, Workload.PlanRule)] = []
        for plan in plans where !workloads.contains(where: { $0.0 == plan.workload }) { workloads.append((plan.workload, plan.rule)) }
        let width = workloads.map(\.0.count).max() ?? 0
        let rules = "rules:\n" + workloads.map { name, rule in
            "  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(describe(rule))\n"
        }.joined() + "  and \(entityIndexRule)\n"
        let pairs = paired(plans)
        var sections = [rules] + pairs.map { before, after in
            let plan = after ?? before
            var text = "\(plan.strategy) · \(plan.workload)\n  \(plan.sql)\n"
            guard let after, after.plan != before.plan else {
                return text + plan.plan.map { "    \($0)\n" }.joined() + findings(plan, when: "")
            }
            text += "    without ANALYZE:\n" + before.plan.map { "      \($0)\n" }.joined()
            text += "    after ANALYZE:\n" + after.plan.map { "      \($0)\n" }.joined()
            return text + findings(before, when: "without ANALYZE: ") + findings(after, when: "after ANALYZE: ")
        }
        if pairs.contains(where: { $0.after != nil }) {
            let changed = changedByAnalyze(plans)
            sections.append("ANALYZE changed \(changed.count) of \(pairs.count) plans\(changed.isEmpty ? "" : ":")\n"
                + changed.map { "  \($0.before.strategy) · \($0.before.workload)\n" }.joined())
        }
        return sections.joined(separator: "\n")
    }

    /// The `!!` lines of a plan that breaks a rule.
    private static func findings(_ plan: QueryPlan, when: String) -> String {
        var text = ""
        for scan in plan.unexpectedFullScans { text += "  !! \(when)full table scan \(plan.workload) should not need: \(scan)\n" }
        if plan.sortsUnexpectedly { text += "  !! \(when)\(plan.workload) sorts instead of reading its order from an index\n" }
        if !plan.bypassedIndexes.isEmpty {
            text += "  !! \(when)\(plan.workload) reads through the Z_ENT index instead of \(plan.bypassedIndexes.joined(separator: ", "))\n"
        }
        return text
    }

    /// Each statement's plan without `ANALYZE`, with its plan after `ANALYZE` when there is one.
    static func paired(_ plans: [QueryPlan]) -> [(before: QueryPlan, after: QueryPlan?)] {
        let after = plans.filter(\.analyzed)
        return plans.filter { !$0.analyzed }.map { before in
            (before, after.first { $0.strategy == before.strategy && $0.workload == before.workload && $0.sql == before.sql })
        }
    }

    /// The statements whose plan `ANALYZE` changed.
    public static func changedByAnalyze(_ plans: [QueryPlan]) -> [(before: QueryPlan, after: QueryPlan)] {
        paired(plans).compactMap { before, after in after.flatMap { $0.plan == before.plan ? nil : (before, $0) } }
    }

    public var breaksARule: Bool { !unexpectedFullScans.isEmpty || sortsUnexpectedly || !bypassedIndexes.isEmpty }

    /// The plans that break a rule (without `ANALYZE`, and after it when it ran).
    public static func flagged(_ plans: [QueryPlan]) -> [QueryPlan] { plans.filter(\.breaksARule) }
}
