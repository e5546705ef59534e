import Foundation
import Models
import XCTest

/// A preset's `--mix` or `--root` that it does not have is a usage error of every command that
/// reads a model: refused in the command's `validate()`, one line, exit 64, nothing written.
extension CommandLineTests {
    /// Each mistake, with the line it costs.
    static let presetMistakes: [(arguments: [String], message: String)] = [
        (["--mix", "Albm=1"], "--mix names 'Albm', which the model does not declare; its concrete entities: "),
        (["--root", "Book"], "root 'Book' has a parent; give the root of its hierarchy, 'Publication'"),
        (["--root", "Nope"], "root 'Nope' is not an entity of the model; its hierarchies: Publication"),
    ]

    /// `bench <command> <arguments> <mistake>` for each mistake: exit 64 and the same one line.
    func checkPresetMistakes(_ command: String, _ arguments: [String] = []) throws {
        let argumentLists = Self.presetMistakes.map { [command] + arguments + ["--scale", "50"] + $0.arguments }
        for ((mistake, message), outcome) in zip(Self.presetMistakes, try benchEach(argumentLists, in: folder)) {
            XCTAssertEqual(outcome.status, 64, "\(command) \(mistake): a usage error: \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(command) \(mistake): one line: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasPrefix("error: \(message)"), "\(command) \(mistake): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.hasSuffix("(see 'bench \(command) --help')\n"), "\(command) \(mistake): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "", "\(command) \(mistake)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "\(command): nothing is written on bad input")
    }

    func testAPresetsMistakeIsAUsageErrorOfRun() throws { try checkPresetMistakes("run") }

    func testAPresetsMistakeIsAUsageErrorOfGenerate() throws {
        try checkPresetMistakes("generate", ["--strategy", "joined", "--output", "store.sqlite"])
    }

    func testAPresetsMistakeIsAUsageErrorOfExplain() throws { try checkPresetMistakes("explain") }

    func testAPresetsMistakeIsAUsageErrorOfStorage() throws { try checkPresetMistakes("storage") }

    func testAPresetsMistakeIsAUsageErrorOfModel() throws { try checkPresetMistakes("model") }
}

extension CommandLineTests {
    /// A description's rows out of range are its own mistake, whatever the flags: refused by every
    /// command that reads it, with `--scale` (which replaces the rows) as without, nothing written.
    func testRowsOutOfRangeAreRefusedWithOrWithoutScale() throws {
        var description = try ModelDescription.load(path: Self.fixtures.appendingPathComponent("shop.json").path)
        let position = try XCTUnwrap(description.entities.firstIndex { $0.name == "Book" })
        let model = folder.appendingPathComponent("m.json")
        for rows in [-5, Model.maximumRows + 1] {
            description.entities[position].rows = rows
            try Data(description.json.utf8).write(to: model)
            let argumentLists = [["model"], ["model", "--scale", "50"], ["run", "--scale", "50", "--output", "r.csv"], ["run", "--output", "r.csv"],
                                 ["generate", "--strategy", "joined", "--scale", "50", "--output", "s.sqlite"], ["storage", "--scale", "50"],
                                 ["explain", "--scale", "50", "--mix", "Book=1,Furniture=2"]]
            for (arguments, outcome) in zip(argumentLists, try benchEach(argumentLists.map { $0 + ["--model", model.path] }, in: folder)) {
                XCTAssertEqual(outcome.status, 64, "\(arguments) rows \(rows): \(outcome.stderr)")
                XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, "\(arguments): one line: \(outcome.stderr)")
                XCTAssertTrue(outcome.stderr.hasPrefix("error: \(model.path): entity 'Book' rows must be between 0 and \(Model.maximumRows); got \(rows)"), "\(arguments): \(outcome.stderr)")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["m.json"], "nothing is written")
        }
    }
}
