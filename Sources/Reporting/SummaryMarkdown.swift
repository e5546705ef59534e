import Foundation
import Strategies
import Workloads

/// `X.md` beside the results CSV `X.csv`: the headline table (median per strategy and case, its
/// 95 % interval, the ratio to the baseline strategy), the model and run context, and the
/// findings (the fastest strategy per case and by how much, noisy medians), ready to paste into
/// a pull request.
public enum SummaryMarkdown {
    /// `results/x.csv` → `results/x.md`
    public static func url(besides results: URL) -> URL {
        results.deletingPathExtension().appendingPathExtension("md")
    }

    /// How every summary starts.
    static let headingPrefix = "### inheritance-bench: "

    public static func render(_ file: ResultsFile, baseline: String = Strategies.baseline.name) -> String {
        let grid = CaseGrid(file.rows, baseline: baseline)
        var text = "\(headingPrefix)\(RunDescription.model(file))\n\n"
        text += "\(RunDescription.context(file)).\n"
        if RunDescription.isDebug(file) {
            text += "\n> **Debug build**: these timings are not meaningful; do not compare or publish them.\n"
        }
        text += overview(grid)
        text +=
            "\nMedian per repetition, its 95 % interval in brackets, and the ratio to `\(baseline)` "
            + "(the median of the rounds' ratios, above 1×: slower than `\(baseline)`) with its 95 % interval. ! marks a noisy median "
            + "(interval wider than \(Int(Statistics.noiseThreshold * 100)) % of it), ? a ratio too uncertain to call.\n\n"
        text += "| case | " + grid.strategies.map { "`\($0)`" }.joined(separator: " | ") + " |\n"
        text += "|---|" + String(repeating: "---:|", count: grid.strategies.count) + "\n"
        for caseName in grid.cases {
            let cells = grid.strategies.map { strategy -> String in
                guard let row = grid.row(caseName, strategy) else { return "–" }
                var cell = ConsoleTable.duration(row.median) + (CaseGrid.isNoisy(row) ? " !" : "")
                cell += " [\(CaseGrid.intervalCell(row))]"
                if let interval = grid.ratioInterval(caseName, strategy) {
                    cell +=
                        " **\(CaseGrid.ratioText(interval.ratio))**" + interval.text.dropFirst(CaseGrid.ratioText(interval.ratio).count)
                        + (interval.isUncertain ? " ?" : "")
                } else if strategy != baseline, let ratio = grid.ratio(caseName, strategy) {
                    cell += " **\(CaseGrid.ratioText(ratio))**"
                }
                if let work = grid.workText(caseName, strategy) { cell += "; " + work }
                return cell
            }
            text += "| \(escape(caseName)) | " + cells.joined(separator: " | ") + " |\n"
        }
        if let (heading, copies) = StoreCopySummary.summary(file.rows, baseline: baseline) {
            text += "\n**" + heading.prefix(1).uppercased() + heading.dropFirst() + "**\n\n" + copies.map { "- `\($0.strategy)`: \($0.text)\n" }.joined()
        }
        text += "\n**Findings**\n\n"
        let findings = grid.findings()
        if findings.isEmpty {
            text += "- One strategy per case: nothing to rank.\n"
        } else {
            let wins = grid.wins().map { "`\($0.strategy)` \($0.cases)" }.joined(separator: ", ")
            text += "- Fastest in the most cases (of \(findings.count)): \(wins).\n"
            for finding in findings { text += "- \(line(finding, baseline: baseline))\n" }
        }
        let uncertain = findings.filter { !$0.uncertain.isEmpty }
        if !uncertain.isEmpty {
            text +=
                "- Ratios too uncertain to call (fewer than 6 rounds, or an interval that holds 1 and is wider than ±\(Int(RatioInterval.uncertainThreshold * 100)) %): "
                + uncertain.map { "\(escape($0.caseName)) (\($0.uncertain.map { "`\($0)`" }.joined(separator: ", ")))" }.joined(separator: "; ") + ".\n"
        }
        let noisy = findings.filter { !$0.noisy.isEmpty }
        if noisy.isEmpty {
            text += "- No noisy medians.\n"
        } else {
            text +=
                "- Noisy (rerun, or give the cases more time with `--case-time`): "
                + noisy.map { "\(escape($0.caseName)) (\($0.noisy.map { "`\($0)`" }.joined(separator: ", ")))" }.joined(separator: "; ") + ".\n"
        }
        return text + requestsList(grid)
    }

    /// The answer first: the three lines, then every case × strategy ratio to the baseline in one
    /// compact table (bold: a clear difference, its interval excluding 1; ?: too uncertain to call).
    static func overview(_ grid: CaseGrid) -> String {
        let others = grid.strategies.filter { $0 != grid.baseline }
        let cases = grid.cases.filter { caseName in others.contains { grid.ratioInterval(caseName, $0) != nil } }
        guard !cases.isEmpty else { return "" }
        var text = "\n**The answer**\n\n" + grid.answer().lines.map { "- \($0)\n" }.joined()
        text +=
            "\nTime as a multiple of `\(grid.baseline)`'s (bold where the difference counts: its 95 % interval excludes 1 and it is beyond "
            + "\(Int(CaseGrid.Answer.margin * 100)) %; ?: too uncertain to call):\n\n"
        text += "| case | " + others.map { "`\($0)`" }.joined(separator: " | ") + " |\n"
        text += "|---|" + String(repeating: "---:|", count: others.count) + "\n"
        for caseName in cases {
            let cells = others.map { strategy -> String in
                guard let ratio = grid.ratioInterval(caseName, strategy) else { return "–" }
                let figure = CaseGrid.ratioText(ratio.ratio)
                if ratio.isUncertain { return figure + " ?" }
                return CaseGrid.Answer.difference(ratio) == .even ? figure : "**\(figure)**"
            }
            text += "| \(escape(caseName)) | " + cells.joined(separator: " | ") + " |\n"
        }
        return text
    }

    /// "fetch-page: `enum-entity` fastest (1.2 ms); 1.10× ahead of `joined` (intervals overlap: not a clear lead);
    /// slowest `json-entity` at 3.20×; against `single-table`: `enum-entity` faster by at least 12 %, `joined` no clear
    /// difference (within 3 %), `json-entity` slower: at least 3.0× as long"
    static func line(_ finding: CaseGrid.Finding, baseline: String) -> String {
        var text = "\(escape(finding.caseName)): `\(finding.fastest)` fastest (\(ConsoleTable.duration(finding.fastestMedian)))"
        text += "; \(CaseGrid.ratioText(finding.lead)) ahead of `\(finding.runnerUp)`"
        text += finding.clear ? "" : finding.intervals ? " (intervals overlap: not a clear lead)" : " (too few repetitions for 95 % intervals: not a clear lead)"
        if finding.slowest != finding.runnerUp {
            text += "; slowest `\(finding.slowest)` at \(CaseGrid.ratioText(finding.spread))"
        }
        if !finding.ratios.isEmpty {
            text += "; against `\(baseline)`: " + finding.ratios.map { "`\($0.strategy)` \($0.ratio.verdictText)" }.joined(separator: ", ")
        }
        return text
    }

    /// A case name inside a Markdown table cell: `|` would end the cell.
    static func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    /// The cases that time an app's own fetches and saves, each with what it asks; "" for none.
    static func requestsList(_ grid: CaseGrid) -> String {
        let requests = grid.requests()
        guard !requests.isEmpty else { return "" }
        return "\n**Your fetches and saves**\n\n" + requests.map { request in
            "- \(escape(request.caseName)): `\(request.request.replacingOccurrences(of: "`", with: "'"))`\(weightText(request.weight))\n"
        }.joined()
    }

    /// `, weight 3 in the app's mix` for a case with a weight (a replayed log's: how many times
    /// the log makes it).
    static func weightText(_ weight: String?) -> String { weight.map { ", weight \($0) in the app's mix" } ?? "" }
}
