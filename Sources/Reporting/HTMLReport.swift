import Foundation
import Strategies

/// `bench report`: one self-contained HTML page about a run (no script, no network, no external
/// font; inline CSS and SVG): its context, the results table, charts, the findings, and when
/// given, a comparison with a base run, the storage summary and the query plans.
public enum HTMLReport {
    /// What goes on the page besides the run itself.
    public struct Extras {
        public var base: ResultsFile?
        /// `Comparison.runs(base:new:…)` of `base` and the run, when they could be compared.
        public var comparison: Comparison?
        /// Why `base` was not compared, one sentence.
        public var comparisonRefusal: String?
        public var threshold: Double
        public var storage: StorageFile?
        public var plans: (url: URL, text: String)?
        /// Warnings about the inputs (samples files not used), one sentence each.
        public var warnings: [String]

        public init(base: ResultsFile? = nil, comparison: Comparison? = nil, comparisonRefusal: String? = nil, threshold: Double = 0.05,
                    storage: StorageFile? = nil, plans: (url: URL, text: String)? = nil, warnings: [String] = []) {
            self.base = base; self.comparison = comparison; self.comparisonRefusal = comparisonRefusal; self.threshold = threshold
            self.storage = storage; self.plans = plans; self.warnings = warnings
        }
    }

    /// One colour per strategy, in the grid's order (the baseline first).
    static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#bab0ac"]
    /// The colour of a strategy the grid does not list (none: every strategy drawn is the grid's).
    static let otherColor = "#888888"

    /// `results/x.csv` → `results/x.html`
    public static func url(besides results: URL) -> URL {
        results.deletingPathExtension().appendingPathExtension("html")
    }

    public static func render(_ run: ResultsFile, extras: Extras = Extras(), baseline: String = Strategies.baseline.name) -> String {
        let grid = CaseGrid(run.rows, baseline: baseline)
        let colors = Dictionary(uniqueKeysWithValues: grid.strategies.enumerated().map { ($1, palette[$0 % palette.count]) })
        let title = "inheritance-bench: \(RunDescription.model(run))"
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            <title>\(escape(title))</title>
            <style>\(css)</style>
            </head>
            <body>
            <header>
            <h1>inheritance-bench report</h1>
            <p class="model">\(escape(RunDescription.model(run)))</p>
            <p class="context">\(escape(RunDescription.context(run)))</p>

            """
        if RunDescription.isDebug(run) {
            html += #"<p class="alert">Debug build: these timings are not meaningful; do not compare or publish them.</p>"# + "\n"
        }
        for warning in extras.warnings { html += #"<p class="warning">warning: \#(escape(warning))</p>"# + "\n" }
        html += "</header>\n<nav>" + [("answer", "Answer"), ("results", "Results"), ("findings", "Findings"), ("charts", "Charts")].map { ##"<a href="#\##($0.0)">\##($0.1)</a>"## }.joined()
        if extras.base != nil { html += ##"<a href="#comparison">Comparison</a>"## }
        if extras.storage != nil { html += ##"<a href="#storage">Storage</a>"## }
        if extras.plans != nil { html += ##"<a href="#plans">Query plans</a>"## }
        html += ##"<a href="#context">Run context</a></nav>"## + "\n<main>\n"
        html += answerSection(grid)
        html += resultsSection(grid, colors: colors)
        html += findingsSection(grid)
        html += chartsSection(run, grid: grid, colors: colors)
        if let base = extras.base { html += comparisonSection(base: base, run: run, extras: extras) }
        if let storage = extras.storage { html += storageSection(storage) }
        if let plans = extras.plans {
            let body = plans.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.contains("!!") ? "<mark>\(escape(String(line)))</mark>" : escape(String(line))
            }.joined(separator: "\n")
            html += """
                <section id="plans"><h2>Query plans</h2>
                <p>From <code>\(escape(plans.url.lastPathComponent))</code> (<code>bench explain</code>); a line marked <mark>!!</mark> breaks a plan rule (its workload's, or one every statement is held to).</p>
                <details><summary>\(plans.text.split(separator: "\n").count) lines</summary><pre>\(body)</pre></details>
                </section>

                """
        }
        html += contextSection(run)
        html += "</main>\n<footer>Written by <code>bench report</code> from <code>\(escape(run.url.lastPathComponent))</code>"
            + (extras.base.map { " and <code>\(escape($0.url.lastPathComponent))</code>" } ?? "") + ".</footer>\n</body>\n</html>\n"
        return html
    }

    // MARK: Sections

    /// The answer first: three lines (where the baseline wins, where it loses, the rest, each
    /// with by how much) and one chart of every case × strategy ratio.
    static func answerSection(_ grid: CaseGrid) -> String {
        let others = grid.strategies.filter { $0 != grid.baseline }
        var cells: [String: [String: SVGChart.OverviewCell]] = [:]
        for caseName in grid.cases {
            for strategy in others { if let ratio = grid.ratioInterval(caseName, strategy) { cells[caseName, default: [:]][strategy] = SVGChart.OverviewCell(ratio: ratio) } }
        }
        guard !cells.isEmpty else { return "" }
        // The chart and the lines side by side (the lines below it on a narrow window), so that
        // both are in the first screen of a 1280 × 800 window for a default run's 24 cases.
        var html = #"<section id="answer"><h2>The answer</h2><div class="answer">"#
        html += #"<figure class="overview">"# + SVGChart.overview(title: "Ratio to \(grid.baseline)", cases: grid.cases.filter { cells[$0] != nil }, strategies: others, cells: cells)
            + "</figure>\n<div><ul>"
        for line in grid.answer().lines { html += "<li>" + codeSpans(line) + "</li>" }
        html += "</ul>\n<p class=\"small\">Each strategy's time as a multiple of <code>\(escape(grid.baseline))</code>'s, per case (the median of the rounds' ratios): "
            + "outlined and bold where the difference counts (its 95 % interval excludes 1 and it is beyond \(Int(CaseGrid.Answer.margin * 100)) %), "
            + "? where it is too uncertain to call. The <a href=\"#results\">results</a> give every median and interval.</p></div></div></section>\n"
        return html
    }

    static func resultsSection(_ grid: CaseGrid, colors: [String: String]) -> String {
        var html = """
            <section id="results"><h2>Results</h2>
            <p>Median time of one repetition with its ratio to <code>\(escape(grid.baseline))</code> \
            (the median of the rounds' ratios; above 1×: slower) and the ratio's 95 % interval in brackets, shaded \
            <span class="ratio faster">faster</span> or <span class="ratio slower">slower</span> only when that interval excludes 1, \
            and the median's own 95 % interval below. <span class="noisy">!</span> marks a noisy median (interval wider than \(Int(Statistics.noiseThreshold * 100)) % of it), \
            <span class="noisy">?</span> a ratio too uncertain to call; the fastest strategy of each case is shaded.</p>
            <div class="scroll"><table class="results"><thead><tr><th>case</th>
            """
        for strategy in grid.strategies {
            html += #"<th><span class="swatch" style="background:\#(colors[strategy, default: otherColor])"></span>\#(escape(strategy))</th>"#
        }
        html += "</tr></thead><tbody>\n"
        let fastest = Dictionary(grid.findings().map { ($0.caseName, $0.fastest) }, uniquingKeysWith: { a, _ in a })
        for caseName in grid.cases {
            html += "<tr><th>\(escape(caseName))</th>"
            for strategy in grid.strategies {
                guard let row = grid.row(caseName, strategy) else { html += #"<td class="missing">–</td>"#; continue }
                let noisy = CaseGrid.isNoisy(row)
                var cell = #"<span class="median">\#(escape(ConsoleTable.duration(row.median)))</span>"#
                if noisy { cell += #" <span class="noisy" title="noisy: the interval is wider than 5 % of the median">!</span>"# }
                if let interval = grid.ratioInterval(caseName, strategy) {
                    let kind = interval.verdictName == "uncertain" ? "same" : interval.verdictName
                    cell += #"<br><span class="ratio \#(kind)" title="\#(escape(interval.verdictText))">\#(escape(interval.text))</span>"#
                    if interval.isUncertain { cell += #" <span class="noisy" title="too uncertain to call">?</span>"# }
                } else if strategy != grid.baseline, let ratio = grid.ratio(caseName, strategy) {
                    cell += #"<br><span class="ratio same">\#(escape(CaseGrid.ratioText(ratio)))</span>"#
                }
                cell += #"<br><span class="interval">\#(escape(CaseGrid.intervalCell(row)))</span>"#
                if let work = grid.workText(caseName, strategy) { cell += #"<br><span class="interval">\#(escape(work))</span>"# }
                html += #"<td\#(fastest[caseName] == strategy ? #" class="best""# : "")>\#(cell)</td>"#
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table></div></section>\n"
    }

    static func findingsSection(_ grid: CaseGrid) -> String {
        let findings = grid.findings()
        var html = #"<section id="findings"><h2>Findings</h2><ul>"#
        if findings.isEmpty { html += "<li>One strategy per case: nothing to rank.</li>" }
        let wins = grid.wins().map { "<code>\(escape($0.strategy))</code> \($0.cases)" }.joined(separator: ", ")
        if !findings.isEmpty { html += "<li>Fastest in the most cases (of \(findings.count)): \(wins).</li>" }
        for finding in findings { html += "<li>" + codeSpans(SummaryMarkdown.line(finding, baseline: grid.baseline)) + "</li>" }
        let uncertain = findings.filter { !$0.uncertain.isEmpty }
        if !uncertain.isEmpty {
            html += "<li>Ratios too uncertain to call: " + uncertain.map { "\(escape($0.caseName)) (\($0.uncertain.map(escape).joined(separator: ", ")))" }.joined(separator: "; ") + ".</li>"
        }
        let noisy = findings.filter { !$0.noisy.isEmpty }
        html += noisy.isEmpty ? "<li>No noisy medians.</li>"
            : "<li>Noisy (rerun, or give the cases more time with <code>--case-time</code>): " + noisy.map { "\(escape($0.caseName)) (\($0.noisy.map(escape).joined(separator: ", ")))" }.joined(separator: "; ") + ".</li>"
        html += "</ul>"
        let requests = grid.requests()
        if !requests.isEmpty {
            html += "<h3>Your fetches and saves</h3><ul>"
            for request in requests {
                html += "<li>\(escape(request.caseName)): <code>\(escape(request.request))</code>\(escape(SummaryMarkdown.weightText(request.weight)))</li>"
            }
            html += "</ul>"
        }
        return html + "</section>\n"
    }

    static func chartsSection(_ run: ResultsFile, grid: CaseGrid, colors: [String: String]) -> String {
        var html = #"<section id="charts"><h2>Charts</h2><p class="legend">"#
        html += grid.strategies.map { #"<span><span class="swatch" style="background:\#(colors[$0, default: otherColor])"></span>\#(escape($0))</span>"# }.joined(separator: " ")
        html += "</p>\n"
        let sweepParameter = run.values("sweep_parameter").first { !$0.isEmpty }
        if let sweepParameter {
            html += sweepCharts(run, parameter: sweepParameter, grid: grid, colors: colors)
            html += "<h3>Every point</h3>\n"
        } else {
            html += "<p>Per case, the median of each strategy (bar) and its 95 % interval (whisker), on a log time axis.</p>\n"
        }
        html += #"<div class="charts">"#
        for caseName in grid.cases {
            let bars = grid.strategies.compactMap { strategy -> SVGChart.Bar? in
                guard let row = grid.row(caseName, strategy) else { return nil }
                let ratio = strategy == grid.baseline ? nil : grid.ratio(caseName, strategy)
                let note = ConsoleTable.duration(row.median) + (ratio.map { " · " + CaseGrid.ratioText($0) } ?? "")
                return SVGChart.Bar(label: strategy, median: row.median, interval: row.interval, note: note, color: colors[strategy, default: otherColor], noisy: CaseGrid.isNoisy(row))
            }
            html += #"<figure class="chart">"# + SVGChart.bars(title: caseName, bars) + "</figure>\n"
        }
        return html + "</div></section>\n"
    }

    /// Per case (without the sweep value): median against the sweep value, and the ratio to the baseline.
    static func sweepCharts(_ run: ResultsFile, parameter: String, grid: CaseGrid, colors: [String: String]) -> String {
        var cases: [String] = []
        var points: [String: [String: [(x: Double, row: ResultsFile.Row)]]] = [:]
        for row in run.rows {
            guard let x = Double(row.fields["sweep_value"] ?? "") else { continue }
            let base = ResultsFile.caseName(hierarchy: row.fields["hierarchy"] ?? "", sweepParameter: "", sweepValue: "", workload: row.workload, variant: row.variant)
            if !cases.contains(base) { cases.append(base) }
            points[base, default: [:]][row.strategy, default: []].append((x, row))
        }
        let xs = Set(points.values.flatMap { $0.values.flatMap { $0.map(\.x) } })
        let logX = (xs.min() ?? 0) > 0 && (xs.max() ?? 0) / (xs.min() ?? 1) > 4
        let label = ["scale": "objects (scale)", "sub-entities": "sub-entities", "attributes": "attributes per sub-entity",
                     "skew": "type-mix skew", "depth": "levels of inheritance (depth)"][parameter] ?? parameter
        var html = """
            <p>A sweep of <code>\(escape(parameter))</code>: per case, the median against the sweep value (whiskers: 95 % intervals), \
            and each strategy's median over <code>\(escape(grid.baseline))</code>'s at the same value (the dashed line is 1×: above it, slower).</p>
            <div class="charts">
            """
        for caseName in cases {
            let byStrategy = points[caseName, default: [:]]
            let series = grid.strategies.compactMap { strategy -> SVGChart.Series? in
                guard let list = byStrategy[strategy] else { return nil }
                return SVGChart.Series(label: strategy, color: colors[strategy, default: otherColor], points: list.map { ($0.x, $0.row.median, $0.row.interval) })
            }
            html += #"<figure class="chart">"# + SVGChart.lines(title: caseName, xLabel: label, yLabel: "median", series, logX: logX, yTick: SVGChart.durationTick) + "</figure>\n"
            if let reference = byStrategy[grid.baseline] {
                let baseAt = Dictionary(reference.map { ($0.x, $0.row.median) }, uniquingKeysWith: { a, _ in a })
                let ratios = grid.strategies.compactMap { strategy -> SVGChart.Series? in
                    guard let list = byStrategy[strategy] else { return nil }
                    let points = list.compactMap { point -> (x: Double, y: Double, interval: ClosedRange<Double>?)? in
                        guard let base = baseAt[point.x], base > 0 else { return nil }
                        return (point.x, point.row.median / base, nil)
                    }
                    return SVGChart.Series(label: strategy, color: colors[strategy, default: otherColor], points: points)
                }
                html += #"<figure class="chart">"# + SVGChart.lines(title: "\(caseName): ratio to \(grid.baseline)", xLabel: label, yLabel: "ratio",
                                                                    ratios, logX: logX, yTick: { String(format: "%g×", $0) }, reference: 1) + "</figure>\n"
            }
        }
        return html + "</div>\n"
    }

    static func comparisonSection(base: ResultsFile, run: ResultsFile, extras: Extras) -> String {
        var html = """
            <section id="comparison"><h2>Comparison with \(escape(base.url.lastPathComponent))</h2>

            """
        guard let comparison = extras.comparison else {
            return html + #"<p class="alert">Not compared: \#(escape(extras.comparisonRefusal ?? "no comparison"))</p></section>"# + "\n"
        }
        html += "<p>Base <code>\(escape(base.url.lastPathComponent))</code>: \(escape(RunDescription.context(base))).</p>\n"
        html += """
            <p>Ratio new / base of the medians with its 95 % interval; a case is <span class="ratio slower">slower</span> or \
            <span class="ratio faster">faster</span> only when the ratio is beyond \(String(format: "%g", extras.threshold * 100)) % and its interval excludes 1 \
            (as <code>bench compare</code>).</p>

            """
        for warning in comparison.warnings { html += #"<p class="warning">warning: \#(escape(warning))</p>"# + "\n" }
        html += #"<div class="scroll"><table class="comparison"><thead><tr><th>case</th><th>strategy</th><th>base</th><th>new</th><th>ratio</th><th>95 % interval</th><th>verdict</th></tr></thead><tbody>"# + "\n"
        for line in comparison.lines {
            let interval = String(format: "%.3f–%.3f", line.interval.lowerBound, line.interval.upperBound) + (line.method == .intervals ? "*" : "")
            html += "<tr><td>\(escape(line.caseName))</td><td>\(escape(line.strategy))</td><td>\(escape(ConsoleTable.duration(line.baseMedian)))</td>"
                + "<td>\(escape(ConsoleTable.duration(line.newMedian)))</td><td>\(String(format: "%.3f×", line.ratio))</td><td>\(interval)</td>"
                + #"<td><span class="ratio \#(line.verdict == .slower ? "slower" : line.verdict == .faster ? "faster" : "same")">\#(line.verdict.rawValue)</span></td></tr>"# + "\n"
        }
        html += "</tbody></table></div>\n"
        let counts = Dictionary(grouping: comparison.lines, by: \.verdict).mapValues(\.count)
        html += "<p>\(counts[.slower] ?? 0) slower, \(counts[.faster] ?? 0) faster, \(counts[.unchanged] ?? 0) unchanged.</p>\n"
        if comparison.lines.contains(where: { $0.method == .intervals }) {
            html += "<p>* interval from the medians' own intervals (no samples file, or one that does not match its CSV).</p>\n"
        }
        for key in comparison.onlyInBase { html += "<p>only in base: \(escape(key.description))</p>\n" }
        for key in comparison.onlyInNew { html += "<p>only in new: \(escape(key.description))</p>\n" }
        return html + "</section>\n"
    }

    static func storageSection(_ storage: StorageFile) -> String {
        var html = """
            <section id="storage"><h2>Storage</h2>
            <p>From <code>\(escape(storage.url.lastPathComponent))</code> (<code>bench storage</code>, SQLite's dbstat): each strategy's store file, \
            and its largest tables and indexes.</p>
            <div class="scroll"><table class="storage"><thead><tr><th>strategy</th><th>file</th><th>bytes per object</th><th>pages</th><th>NULL cells</th><th>largest objects</th></tr></thead><tbody>

            """
        for file in storage.files {
            let strategy = file["strategy"] ?? ""
            let bytes = Int64(file["bytes"] ?? "").map(ConsoleTable.bytes) ?? (file["bytes"] ?? "")
            let share = Double(file["null_share"] ?? "").map { String(format: "%.0f %%", $0 * 100) } ?? "–"
            let largest = storage.records.filter { $0["strategy"] == strategy && $0["object"] != "(file)" }
                .sorted { (Int64($0["bytes"] ?? "") ?? 0) > (Int64($1["bytes"] ?? "") ?? 0) }.prefix(4)
                .map { "\(escape($0["object"] ?? "")) \(escape(Int64($0["bytes"] ?? "").map(ConsoleTable.bytes) ?? ""))" }.joined(separator: "<br>")
            html += "<tr><td>\(escape(strategy))</td><td>\(escape(bytes))</td><td>\(escape(file["bytes_per_publication"] ?? ""))</td>"
                + "<td>\(escape(file["pages"] ?? ""))</td><td>\(share)</td><td class=\"small\">\(largest)</td></tr>\n"
        }
        return html + "</tbody></table></div></section>\n"
    }

    /// Every context column of the CSV, its value(s) and its meaning.
    static func contextSection(_ run: ResultsFile) -> String {
        var html = #"<section id="context"><h2>Run context</h2><div class="scroll"><table class="context"><tbody>"# + "\n"
        let shown = ResultsCSV.columns.prefix { $0.name != "strategy" }.filter { $0.name != "sweep_parameter" || !run.values("sweep_parameter").allSatisfy(\.isEmpty) }
        for column in shown {
            let values = run.values(column.name)
            guard !values.isEmpty else { continue }
            let value = values.map { $0.isEmpty ? "–" : $0 }.joined(separator: ", ")
            html += "<tr><th>\(escape(column.name))</th><td>\(escape(value))</td><td class=\"meaning\">\(escape(column.meaning))</td></tr>\n"
        }
        return html + "</tbody></table></div></section>\n"
    }

    // MARK: Text

    static func escape(_ text: String) -> String { SVGChart.escape(text) }

    /// Markdown's `code` spans as <code>, the rest escaped.
    static func codeSpans(_ markdown: String) -> String {
        markdown.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
            index % 2 == 1 ? "<code>\(escape(String(part)))</code>" : escape(String(part))
        }.joined()
    }

    static let css = """
        :root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d8dde6; --faint: #f3f5f8; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
        header, nav, main, footer { max-width: 1360px; margin: 0 auto; padding: 0 24px; }
        header { padding-top: 20px; }
        h1 { font-size: 26px; margin: 0 0 6px; }
        h2 { font-size: 20px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
        h3 { font-size: 16px; margin: 18px 0 6px; }
        p { margin: 6px 0; }
        .model { font-size: 17px; font-weight: 600; }
        .context { color: var(--muted); }
        nav { margin-top: 10px; display: flex; flex-wrap: wrap; gap: 14px; }
        nav a { color: #2b5c9e; text-decoration: none; font-weight: 600; }
        code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--faint); padding: 1px 4px; border-radius: 3px; }
        .alert { background: #fdecea; border-left: 4px solid #d93025; padding: 8px 12px; }
        .warning { background: #fff6e0; border-left: 4px solid #e0a100; padding: 6px 12px; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; margin: 8px 0; }
        th, td { border-bottom: 1px solid var(--line); padding: 5px 10px; vertical-align: top; }
        thead th { background: var(--faint); text-align: left; white-space: nowrap; }
        table.results td { text-align: right; }
        table.results .median { white-space: nowrap; }
        table.results { width: 100%; }
        table.results td, table.results thead th { padding: 5px 6px; }
        table.results tbody th { text-align: left; font-weight: 600; overflow-wrap: anywhere; min-width: 150px; }
        div.answer { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: flex-start; }
        div.answer > div { flex: 1 1 360px; }
        div.answer ul { margin: 4px 0 8px; padding-left: 20px; }
        div.answer li { margin: 4px 0; }
        p.small { color: var(--muted); font-size: 13px; }
        figure.overview { margin: 0; flex: 0 0 auto; max-width: 100%; overflow-x: auto; }
        svg .cell { font-size: 12px; font-variant-numeric: tabular-nums; }
        td.best { background: #e9f5ec; }
        .median { font-weight: 600; font-variant-numeric: tabular-nums; }
        .interval { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
        .ratio { font-size: 12px; font-weight: 600; padding: 0 5px; border-radius: 8px; }
        .ratio.slower { background: #fbe3e4; color: #a1262d; }
        .ratio.faster { background: #dff3e4; color: #1e6b34; }
        .ratio.same { background: var(--faint); color: var(--muted); }
        .noisy { color: #c2410c; font-weight: 700; }
        .swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
        .legend span { margin-right: 14px; white-space: nowrap; }
        .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(610px, 1fr)); gap: 12px; }
        figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 4px; background: #fff; }
        svg.chart { display: block; max-width: 100%; height: auto; font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
        svg .title { font-size: 14px; font-weight: 600; fill: var(--ink); }
        svg .label { font-size: 12px; fill: var(--ink); }
        svg .note { font-size: 11.5px; fill: var(--muted); }
        svg .noisy { fill: #c2410c; font-weight: 700; }
        svg .tick { font-size: 11px; fill: var(--muted); }
        svg .axis-label { font-size: 12px; fill: var(--muted); }
        svg .grid { stroke: #e3e7ee; stroke-width: 1; }
        svg .grid.minor { stroke: #f0f2f6; }
        svg .axis { stroke: #8a93a3; stroke-width: 1; }
        svg .whisker { stroke: #1d2330; stroke-width: 1.3; }
        svg .reference { stroke: #1d2330; stroke-width: 1; stroke-dasharray: 5 4; }
        table.context th { text-align: left; font: 13px ui-monospace, Menlo, Consolas, monospace; white-space: nowrap; }
        table.context td { font-variant-numeric: tabular-nums; max-width: 640px; overflow-wrap: anywhere; }
        table.context td.meaning { min-width: 300px; }
        td.meaning, td.small { color: var(--muted); font-size: 13px; }
        pre { font: 12.5px/1.4 ui-monospace, Menlo, Consolas, monospace; background: var(--faint); padding: 12px; overflow-x: auto; }
        mark { background: #fde68a; }
        details summary { cursor: pointer; color: #2b5c9e; }
        footer { color: var(--muted); font-size: 13px; margin: 30px auto 24px; }
        """
}
