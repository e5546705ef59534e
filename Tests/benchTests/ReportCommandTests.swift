import Foundation
import Reporting
import XCTest

/// `bench report` against the real binary: the page, its default name, refusals.
extension CommandLineTests {
    func testReportOfARunAndAComparisonWithItself() throws {
        let run = try bench(["run", "--scale", "60", "--repetitions", "2", "--workloads", "count-all,fetch-page", "--quiet", "--output", "r.csv"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        try AtomicFile.write("SCAN ZPUBLICATION\n", to: folder.appendingPathComponent("r.plans.txt"))
        let report = try bench(["report", "r.csv"], in: folder)
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertEqual(report.stdout, "report: \(folder.path)/r.html\n")
        let html = try String(contentsOf: folder.appendingPathComponent("r.html"), encoding: .utf8)
        XCTAssertTrue(html.contains(#"<table class="results">"#) && html.contains("<svg ") && html.contains(#"id="plans""#))

        let again = try bench(["report", "r.csv"], in: folder)
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, "error: \(folder.path)/r.html already exists; choose another --output or pass --force to replace it\n")
        XCTAssertEqual(try bench(["report", "r.csv", "--force"], in: folder).status, 0)

        let compared = try bench(["report", "r.csv", "r.csv", "--output", "c.html"], in: folder)
        XCTAssertEqual(compared.status, 0, compared.stderr)
        XCTAssertTrue(try String(contentsOf: folder.appendingPathComponent("c.html"), encoding: .utf8).contains("0 slower, 0 faster, 10 unchanged."))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["c.html", "r.csv", "r.html", "r.json", "r.md", "r.plans.txt", "r.samples.csv"], "no temporary file or lock left")
    }

    func testReportBadInputIsOneLine() throws {
        try AtomicFile.write("not,a,results,file\n1,2,3,4\n", to: folder.appendingPathComponent("bad.csv"))
        let cases: [([String], Int32, String)] = [
            (["report"], 64, "error: give one results CSV (RUN.csv), or two (RUN.csv BASE.csv); got 0 (see 'bench report --help')"),
            (["report", "a.csv", "b.csv", "c.csv"], 64, "error: give one results CSV (RUN.csv), or two (RUN.csv BASE.csv); got 3"),
            (["report", "missing.csv"], 1, "error: \(folder.path)/missing.csv does not exist"),
            (["report", "bad.csv"], 1, "error: \(folder.path)/bad.csv: line 1 has no schema_version column; it is not a results CSV written by bench"),
            (["report", "bad.csv", "--threshold", "lots"], 64, "error: The value 'lots' is invalid for '--threshold <threshold>'"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try bench(arguments, in: folder)
            XCTAssertEqual(outcome.status, status, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix(message), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["bad.csv"], "nothing written on bad input")
    }
}
