import Foundation
import Models
import TestSupport
import XCTest

/// No command writes over a file it reads, `--force` or not: its model, its store (or a file
/// SQLite keeps beside it), the results it reports. Each such `--output`, by the same name, a
/// symbolic link, a hard link, `..` or a file the run writes beside it, is one line and a
/// non-zero exit, with every file as it was.
extension CommandLineTests {
    func testNoCommandWritesOverAFileItReads() throws {
        let store = folder.appendingPathComponent("App.sqlite")
        var description = ModelPresets.named("publications")!
        for index in description.entities.indices where description.entities[index].rows != nil { description.entities[index].rows = 20 }
        try CoreDataStoreFixture.write(try Model(description), to: store.path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.sqlite").path, withDestinationPath: store.path)
        try FileManager.default.linkItem(atPath: store.path, toPath: folder.appendingPathComponent("hard.sqlite").path)
        let json = folder.appendingPathComponent("shop.json")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("shop.json"), to: json)
        let bundle = folder.appendingPathComponent("Library.xcdatamodeld")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("Library.xcdatamodeld"), to: bundle)
        let sources = folder.appendingPathComponent("Sources")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("SwiftDataStudio"), to: sources)
        let source = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: sources.path).sorted().first { $0.hasSuffix(".swift") })
        let results = folder.appendingPathComponent("r.csv")
        let made = try bench(["run", "--scale", "30", "--workloads", "count-all", "--repetitions", "2", "--quiet", "--output", results.path])
        XCTAssertEqual(made.status, 0, made.stderr)

        let generate = ["generate", "--strategy", "joined", "--force", "--scale", "30"]
        let cases: [([String], String)] = [
            (generate + ["--model", store.path, "--output", store.path], "--output \(store.path) is the store --model reads (\(store.path))"),
            (generate + ["--model", store.path, "--output", "link.sqlite"], "is the store --model reads"),
            (generate + ["--model", store.path, "--output", "hard.sqlite"], "is the store --model reads"),
            (generate + ["--model", "link.sqlite", "--output", "./sub/../App.sqlite"], "is the store --model reads"),
            (generate + ["--model", store.path, "--output", "App.sqlite-wal"], "is the wal file of the store --model reads"),
            // A store named through a linked folder and `..` is the file the system opens.
            (generate + ["--model", "linkdir/../../App.sqlite", "--output", "App.sqlite-wal"], "is the wal file of the store --model reads"),
            (generate + ["--model", "s.sqlite-wal", "--output", "s.sqlite"], "would write the store's companion \(folder.appendingPathComponent("s.sqlite-wal").path) over the model file"),
            (["run", "--model", store.path, "--output", store.path, "--force"], "is the store --model reads"),
            (["run", "--model", json.path, "--output", "shop.csv", "--force"], "would write its JSON export \(folder.appendingPathComponent("shop.json").path) over the model file --model reads"),
            (["storage", "--model", json.path, "--output", "shop.json", "--force"], "is the model file --model reads"),
            (["explain", "--model", bundle.path, "--output", "Library.xcdatamodeld/plans.txt", "--force"], "is the Xcode model --model reads"),
            (generate + ["--model", sources.path, "--output", "Sources/\(source)"], "is a SwiftData source --model reads"),
            (["report", results.path, "--output", results.path, "--force"], "is the results file it reports"),
            (["report", results.path, "--output", "r.samples.csv", "--force"], "is that run's samples file"),
        ]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("linkdir").path, withDestinationPath: folder.appendingPathComponent("sub/deeper").path)
        try FileManager.default.copyItem(at: json, to: folder.appendingPathComponent("s.sqlite-wal"))
        let before = try snapshot(of: folder)
        for ((arguments, message), outcome) in zip(cases, try benchEach(cases.map(\.0), in: folder)) {
            XCTAssertNotEqual(outcome.status, 0, "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix("error: --output ") && outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains("a command never writes over what it reads"), "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try snapshot(of: folder), before, "every file as it was, nothing added")

        // A file of another name is still written, a store beside the one read among them.
        let written = try bench(generate + ["--model", store.path, "--output", "App-joined.sqlite"], in: folder)
        XCTAssertEqual(written.status, 0, written.stderr)
        #if !os(macOS)
        // Linux's disks tell case apart: APP.sqlite is another file than App.sqlite.
        let cased = try bench(generate + ["--model", store.path, "--output", "APP.sqlite"], in: folder)
        XCTAssertEqual(cased.status, 0, cased.stderr)
        #endif
    }

    /// Every file under `folder` (links as links), with its contents.
    private func snapshot(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: folder.path)! {
            let url = folder.appendingPathComponent(name)
            let values = try url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values.isSymbolicLink == true { files[name] = Data(try FileManager.default.destinationOfSymbolicLink(atPath: url.path).utf8) }
            else if values.isDirectory != true { files[name] = try Data(contentsOf: url) }
        }
        return files
    }
}
