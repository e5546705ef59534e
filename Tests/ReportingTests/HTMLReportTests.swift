import Foundation
import Generation
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
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 2, "one bar chart per case")
        XCTAssertTrue(html.contains("&lt;host &amp; co&gt;"), "text is escaped")
        XCTAssertFalse(html.contains("<host & co>"))
        // Every round's ratio is about 2 (or ½): the rounds' ratios' median and its interval, shaded by the verdict.
        XCTAssertTrue(html.contains(#"<span class="ratio slower" title="slower: at least 2.0× as long">2.00× [2.00–2.00]</span>"#), html)
        XCTAssertTrue(html.contains(#"<span class="ratio faster" title="faster by at least 50 %">0.50× [0.50–0.50]</span>"#))
        XCTAssertTrue(html.contains("<th>sqlite_version</th><td>3.40.1</td>"), "the run context, column by column")
        XCTAssertFalse(html.contains(#"id="comparison""#), "no base, no comparison")
        XCTAssertFalse(html.contains("Debug build"))
    }

    func testASweepGetsLineChartsOfTheMedianAndTheRatio() {
        let html = HTMLReport.render(file(sweep: ["1", "4", "16"]))
        XCTAssertTrue(html.contains("A sweep of <code>attributes</code>"))
        XCTAssertEqual(html.components(separatedBy: "<polyline").count - 1, 2 * 2 * 3, "two cases × (median, ratio) × three strategies")
        XCTAssertTrue(html.contains("fetch-page: ratio to single-table"))
        XCTAssertTrue(html.contains(#"class="reference""#), "the 1× line")
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 2 * 2 + 2 * 3, "the line charts, then every point's bars")
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
}
