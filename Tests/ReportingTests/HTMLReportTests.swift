import Foundation
import Generation
import SQLite
@testable import Reporting
import Workloads
import XCTest

final class HTMLReportTests: XCTestCase {
    let context = RunContext(runID: "r7", timestamp: "2026-11-22T00:00:00Z", gitCommit: "abc", gitDirty: false, sqliteVersion: "3.40.1",
                             swiftVersion: "6.3", build: "release", host: "<host & co>", cpuModel: "CPU", cpuCores: 2)

    func file(sweep: [String] = [""], scale: Int = 500) -> ResultsFile {
        var results: [WorkloadResult] = []
        for value in sweep {
            for (strategy, factor) in [("single-table", 1.0), ("joined", 2.0), ("enum-entity", 0.5)] {
                for workload in ["fetch-page", "count-all"] {
                    let base = UInt64(10_000 * factor * (Double(value) ?? 1))
                    results.append(WorkloadResult(strategy: strategy, workload: workload, variant: "", rows: 1, samples: (0 ..< 7).map { base + UInt64($0) },
                                                  warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1,
                                                  setting: ResultSetting(hierarchy: "publications", scale: scale, sweepParameter: value.isEmpty ? "" : "attributes", sweepValue: value)))
                }
            }
        }
        return ResultsFile(results: results, plan: RunPlan(repetitions: 7), context: context, url: URL(fileURLWithPath: "/tmp/run.csv"))
    }

    func testThePageIsSelfContainedAndHasTheTableChartsAndContext() {
        let html = HTMLReport.render(file())
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(html.lowercased().contains("<script"), "no script")
        XCTAssertFalse(html.contains("http://") && !html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        XCTAssertNil(html.range(of: #"(src|href)="(https?:)?//"#, options: .regularExpression), "no network resource")
        XCTAssertTrue(html.contains("Content-Security-Policy"))
        XCTAssertTrue(html.contains(#"<table class="results">"#))
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 1 + 2, "the overview, then one bar chart per case")
        XCTAssertTrue(html.contains("&lt;host &amp; co&gt;"), "text is escaped")
        XCTAssertFalse(html.contains("<host & co>"))
        // Every round's ratio is about 2 (or ½): the rounds' ratios' median and its interval, shaded by the verdict.
        XCTAssertTrue(html.contains(#"<span class="ratio slower" title="slower: at least 2.0× as long">2.00× [2.00–2.00]</span>"#), html)
        XCTAssertTrue(html.contains(#"<span class="ratio faster" title="faster by at least 50 %">0.50× [0.50–0.50]</span>"#))
        XCTAssertTrue(html.contains("<th>sqlite_version</th><td>3.40.1</td>"), "the run context, column by column")
        XCTAssertFalse(html.contains(#"id="comparison""#), "no base, no comparison")
        XCTAssertFalse(html.contains("Debug build"))
    }

    /// A run where the baseline wins one case outright, loses one and ties one: the answer's three
    /// lines say which and by how much, before the results table, in the page and the summary.
    func testTheAnswerComesFirst() throws {
        var results: [WorkloadResult] = []
        let factors: [String: [String: Double]] = ["count-all": ["joined": 3, "enum-entity": 2],
                                                   "fetch-page": ["joined": 2, "enum-entity": 0.5],
                                                   "lookup-id": ["joined": 1, "enum-entity": 1]]
        for workload in ["count-all", "fetch-page", "lookup-id"] {
            for strategy in ["single-table", "joined", "enum-entity"] {
                let base = 10_000 * (factors[workload]?[strategy] ?? 1)
                var work = WorkCounts()
                work.vmSteps = Int64(base / 10)
                results.append(WorkloadResult(strategy: strategy, workload: workload, variant: "", rows: 1, samples: (0 ..< 7).map { UInt64(base) + UInt64($0) },
                                              warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1, setting: ResultSetting(hierarchy: "publications", scale: 500),
                                              work: work))
            }
        }
        let run = ResultsFile(results: results, plan: RunPlan(repetitions: 7), context: context, url: URL(fileURLWithPath: "/tmp/run.csv"))
        let answer = CaseGrid(run.rows, baseline: "single-table").answer()
        XCTAssertEqual(answer.wins.map(\.name), ["count-all"])
        XCTAssertEqual(answer.losses.map(\.name), ["fetch-page"])
        XCTAssertEqual(answer.rest.map(\.name), ["lookup-id"])
        XCTAssertEqual(answer.lines, [
            "`single-table` wins 1 of 3 cases, no strategy clearly faster and some clearly slower, up to 3.00× as long: count-all (`joined` 3.00×).",
            "It loses 1 of 3, a strategy clearly faster, down to 0.50× of its time: fetch-page (`enum-entity` 0.50×).",
            "Even in the other 1 of 3, every strategy within 10 % or not clearly different (ratios 1.00×): lookup-id.",
        ])
        // A clear difference within the margin is even: 5 % slower counts for neither side.
        let small = try XCTUnwrap(RatioInterval(measured: (0 ..< 9).map { Double(105 + $0 % 2) }, baseline: (0 ..< 9).map { _ in 100.0 }))
        XCTAssertEqual(small.verdictName, "slower")
        XCTAssertEqual(CaseGrid.Answer.difference(small), .even)
        XCTAssertEqual(CaseGrid.Answer.difference(try XCTUnwrap(RatioInterval(measured: [Double](repeating: 112, count: 9), baseline: [Double](repeating: 100, count: 9)))), .slower)
        let html = HTMLReport.render(run)
        let answerAt = try XCTUnwrap(html.range(of: #"<section id="answer">"#)).lowerBound
        XCTAssertLessThan(answerAt, try XCTUnwrap(html.range(of: #"<section id="results">"#)).lowerBound, "the answer before the table")
        XCTAssertTrue(html.contains("<li><code>single-table</code> wins 1 of 3 cases"), html)
        // The overview: a cell per case and strategy, a clear difference outlined, coloured by the ratio.
        XCTAssertEqual(html.components(separatedBy: #"class="cell""#).count - 1, 3 * 2)
        XCTAssertEqual(html.components(separatedBy: ##"stroke="#1d2330""##).count - 1, 4, "count-all and fetch-page: both strategies clearly differ")
        XCTAssertEqual(SVGChart.overviewColor(1).fill, "#f7f7f7")
        XCTAssertEqual(SVGChart.overviewColor(100).fill, "#be1e2d")
        XCTAssertEqual(SVGChart.overviewColor(0.001).fill, "#1a8246")
        let markdown = SummaryMarkdown.render(run)
        let overviewAt = try XCTUnwrap(markdown.range(of: "**The answer**")).lowerBound
        XCTAssertLessThan(overviewAt, try XCTUnwrap(markdown.range(of: "Median per repetition")).lowerBound)
        XCTAssertTrue(markdown.contains("| fetch-page | **2.00×** | **0.50×** |"), markdown)
        XCTAssertTrue(markdown.contains("| lookup-id | 1.00× | 1.00× |"), markdown)
        // SQLite's work beside each median, with its ratio to single-table's.
        XCTAssertTrue(markdown.contains("; 3000 VM steps (3.00×) |"), markdown)
        XCTAssertTrue(html.contains("<span class=\"interval\">1000 VM steps</span>"), "the baseline's own, without a ratio")
    }

    func testASweepGetsLineChartsOfTheMedianAndTheRatio() {
        let html = HTMLReport.render(file(sweep: ["1", "4", "16"]))
        XCTAssertTrue(html.contains("A sweep of <code>attributes</code>"))
        XCTAssertEqual(html.components(separatedBy: "<polyline").count - 1, 2 * 2 * 3, "two cases × (median, ratio) × three strategies")
        XCTAssertTrue(html.contains("fetch-page: ratio to single-table"))
        XCTAssertTrue(html.contains(#"class="reference""#), "the 1× line")
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 1 + 2 * 2 + 2 * 3, "the overview, the line charts, then every point's bars")
    }

    func testABaseRunIsComparedOrSaysWhyNot() throws {
        let run = file(), base = file()
        let comparison = try Comparison.runs(base: base, new: run, threshold: 0.05, force: false)
        let html = HTMLReport.render(run, extras: HTMLReport.Extras(base: base, comparison: comparison))
        XCTAssertTrue(html.contains(#"id="comparison""#))
        XCTAssertTrue(html.contains("0 slower, 0 faster, 6 unchanged."), html)
        let refused = HTMLReport.render(run, extras: HTMLReport.Extras(base: file(scale: 900), comparisonRefusal: "the runs used different scales"))
        XCTAssertTrue(refused.contains("Not compared: the runs used different scales"))
    }

    func testPlansAndStorageAreIncluded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storageURL = folder.appendingPathComponent("run.storage.csv")
        try AtomicFile.write(CSV.line(StorageCSV.columns) + CSV.line(["r", "t", "c", "3", "42", "500", "joined", "(file)", "file", "", "20", "81920", "163.8", "", "", "0.1000"])
            + CSV.line(["r", "t", "c", "3", "42", "500", "joined", "ZBOOK", "table", "ZBOOK", "10", "40960", "81.9", "5", "1", "0.2000"]), to: storageURL)
        let html = HTMLReport.render(file(), extras: HTMLReport.Extras(storage: try StorageFile(url: storageURL),
                                                                      plans: (folder.appendingPathComponent("run.plans.txt"), "SCAN ZBOOK !!\nSEARCH <x>")))
        XCTAssertTrue(html.contains("<td>joined</td><td>80 KiB</td><td>163.8</td><td>20</td><td>10 %</td>"), html)
        XCTAssertTrue(html.contains("ZBOOK 40 KiB"))
        XCTAssertTrue(html.contains("<mark>SCAN ZBOOK !!</mark>\nSEARCH &lt;x&gt;"))
        try AtomicFile.write("a,b\n1,2\n", to: storageURL)
        XCTAssertThrowsError(try StorageFile(url: storageURL)) { XCTAssertTrue("\($0)".contains("the column strategy is missing from line 1")) }
    }

    /// An app's fetch mix: each strategy's time for the whole mix is the sum of weight × one
    /// fetch's median (a case's median over its draws), its interval the sum of the ends; the
    /// answer, the page and the summary say it, clear only where the intervals do not overlap.
    func testTheMixWeighsEachFetch() throws {
        var results: [WorkloadResult] = []
        // Two fetches: `recent` weighed 10, one draw; `search` weighed 1, ten draws a repetition.
        for (workload, weight, fetches, times) in [("recent", 10.0, 1, ["single-table": 1_000.0, "joined": 3_000, "enum-entity": 1_010]),
                                                   ("search", 1.0, 10, ["single-table": 50_000.0, "joined": 20_000, "enum-entity": 50_500])] {
            for strategy in ["single-table", "joined", "enum-entity"] {
                var result = WorkloadResult(strategy: strategy, workload: workload, variant: "", rows: 1, samples: (0 ..< 7).map { UInt64(times[strategy]!) + UInt64($0) },
                                            warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1, setting: ResultSetting(hierarchy: "publications", scale: 500))
                result.mix = MixShare(weight: weight, fetches: fetches)
                result.request = "Book WHERE title BEGINSWITH %@ <\(workload)>"
                results.append(result)
            }
            // A fetch outside the mix is not counted in it.
            results.append(WorkloadResult(strategy: "single-table", workload: "other", variant: "", rows: 1, samples: Array(repeating: 9_999_999, count: 7),
                                          warmups: 1, digest: AnswerDigest(.ordered, of: [1]), dbBytes: 1, setting: ResultSetting(hierarchy: "publications", scale: 500)))
        }
        let file = ResultsFile(results: results, plan: RunPlan(repetitions: 7), context: context, url: URL(fileURLWithPath: "/tmp/run.csv"))
        let mix = try XCTUnwrap(CaseGrid(file.rows, baseline: "single-table").mix())
        XCTAssertEqual(mix.fetches, 2)
        // single-table: 10 × 1,003 + 1 × 50,003 / 10; joined: 10 × 3,003 + 20,003 / 10.
        XCTAssertEqual(mix.totals.map(\.strategy), ["single-table", "joined", "enum-entity"])
        XCTAssertEqual(mix.totals[0].nanoseconds, 10 * 1_003 + 5_000.3, accuracy: 0.01)
        XCTAssertEqual(mix.totals[1].nanoseconds, 10 * 3_003 + 2_000.3, accuracy: 0.01)
        XCTAssertEqual(mix.verdict(mix.totals[1]), "clearly slower")
        XCTAssertEqual(mix.verdict(mix.totals[2]), "clearly slower", "1 % slower in both, intervals apart")
        let line = try XCTUnwrap(CaseGrid(file.rows, baseline: "single-table").answer().lines.last)
        XCTAssertTrue(line.hasPrefix("Your mix (2 fetches, each weighted by how often the app makes it) takes `single-table` 15.0 µs"), line)
        XCTAssertTrue(line.contains("`joined` 2.13× (clearly slower)"), line)
        XCTAssertTrue(HTMLReport.render(file).contains("Your mix (2 fetches"))
        XCTAssertTrue(SummaryMarkdown.render(file).contains("- Your mix (2 fetches"))
        // Each fetch of yours named with what it asks, its weight beside it (escaped in the page).
        XCTAssertEqual(CaseGrid(file.rows, baseline: "single-table").requests().map(\.caseName), ["recent", "search"])
        XCTAssertTrue(SummaryMarkdown.render(file).contains("**Your fetches and saves**\n\n- recent: `Book WHERE title BEGINSWITH %@ <recent>`, weight 10 in the app's mix\n"))
        XCTAssertTrue(HTMLReport.render(file).contains("<li>search: <code>Book WHERE title BEGINSWITH %@ &lt;search&gt;</code>, weight 1 in the app's mix</li>"))
        // Without a mix, no line, and without requests no list.
        XCTAssertNil(CaseGrid(self.file().rows, baseline: "single-table").mix())
        XCTAssertFalse(SummaryMarkdown.render(self.file()).contains("Your fetches and saves"))
    }
}
